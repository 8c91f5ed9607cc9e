import { markTypes } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesOf, inBatches, PARAMETER_LIMIT, PARAMETERS_PER_BATCH } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeStudents, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Writes of thousands of rows at once (issue 23 item 9): PostgreSQL takes at most 65,535 bind
 * parameters in one statement, so a class's term of marks deleted at once (4,370 marks and more)
 * used to fail whole. They are written set-based or in batches, on both databases.
 */

let t: TestApp;
let head: Caller;
let school: { id: string; tenantcode: string };
const YEAR = new Date().getFullYear();
const LEARNERS = 700;
const SUBJECTS = 3;
const MARK_TYPES = 3;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Big Primary' });
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  for (let index = 0; index < SUBJECTS; index++) await newSubject(head);
  for (let index = 0; index < MARK_TYPES; index++)
    ok(await head.post(markTypes.path, { label: `EXAM${index}`, category: 'exam', position: index + 1 })) as Row;
  await makeStudents(t.database, school.id, 'P4', LEARNERS);
});
afterAll(() => t.close());

/** Every P4 learner's mark in every subject and mark type: a mark of 67.5, every tenth an absence. */
async function fillP4Term(): Promise<number> {
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    sql`
      INSERT INTO marks (tenant_id, id, student_id, subject_id, marktype_id, form, stream, term, year, paper, mark, absent)
      SELECT s.tenant_id, gen_random_uuid(), s.id, sub.id, mt.id, 'P4', NULL, 'I', ${YEAR}, 'I',
             CASE WHEN row_number() OVER () % 10 = 0 THEN NULL ELSE 67.5 END,
             row_number() OVER () % 10 = 0
      FROM students s CROSS JOIN subjects sub CROSS JOIN mark_types mt
      WHERE s.form = 'P4'
    `.execute(trx),
  );
  return LEARNERS * SUBJECTS * MARK_TYPES;
}

const countOf = (table: 'marks' | 'mark_history', where = sql`true`) =>
  withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE form = 'P4' AND ${where}`.execute(
      trx,
    );
    return rows[0]?.n ?? 0;
  });

describe('bulk writes', () => {
  it("deletes a class's term of more than 5,000 marks at once, each value kept in the history", async () => {
    const filled = await fillP4Term();
    expect(filled).toBeGreaterThan(5000);
    expect(await countOf('marks')).toBe(filled);
    const deleted = await head.post('/api/school/marks/bulkdelete', { form: 'p4', stream: '', term: 'I', year: YEAR });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ records: filled });
    expect(await countOf('marks')).toBe(0);
    expect(await countOf('mark_history', sql`source = 'delete' AND new_value IS NULL`)).toBe(filled);
    expect(await countOf('mark_history', sql`old_value = '67.5'`)).toBe(filled - Math.floor(filled / 10));
    expect(await countOf('mark_history', sql`old_value = 'ABS'`)).toBe(Math.floor(filled / 10));
  });

  it('keeps every statement of a batched write under the parameter limit, where one statement of it is refused', async () => {
    const ids = Array.from({ length: PARAMETER_LIMIT + 1 }, () => newId());
    const tooMany = withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('marks').select('id').where('id', 'in', ids).execute(),
    );
    await expect(tooMany).rejects.toThrow();
    let statements = 0;
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      inBatches(ids, async (batch) => {
        statements++;
        expect(await trx.selectFrom('marks').select('id').where('id', 'in', batch).execute()).toEqual([]);
      }),
    );
    expect(statements).toBe(Math.ceil(ids.length / PARAMETERS_PER_BATCH));
    const rows = ids.slice(0, 5000).map((id) => ({ id, a: 1, b: 2, c: 3 }));
    expect(batchesOf(rows).map((batch) => batch.length)).toEqual([4000, 1000]);
  });
});
