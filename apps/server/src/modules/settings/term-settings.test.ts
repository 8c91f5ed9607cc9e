import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { defaultsYear } from '../../seed/school-defaults.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { ok } from './settings-fixtures.js';

/*
 * A term's grade sets and proportions in bulk (issue 24 point 1): "Copy from Term II" copies a
 * term's settings to another in one transaction, never over what is there; one grade set or
 * proportion applied to every class or every subject at once.
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
const YEAR = defaultsYear();
const CLASSES = 10; // the default primary class list
const SUBJECTS = 6; // the Ugandan primary defaults

beforeAll(async () => {
  t = await buildTestApp();
  const creator = await makeUser(t.database, { memberOf: [{ tenantId: (await makeTenant(t.database)).id, roles: ['superadmin'] }] });
  const founder = caller(t.app, await login(t.app, creator.email));
  // Two schools with the Ugandan defaults: the year's three terms set up, nothing beyond.
  const made = [];
  for (const name of ['Copy Primary', 'Neighbour Primary']) {
    const tenant = ok(
      await founder
        .in((await t.database.db.selectFrom('tenants').select('tenantcode').limit(1).executeTakeFirstOrThrow()).tenantcode)
        .post('/api/tenants', {
          name,
          tenantcode: `copy-${Math.random().toString(36).slice(2, 8)}`,
          category: 'School',
          defaults: 'primary',
        }),
    );
    made.push({ id: tenant.id as string, tenantcode: tenant.tenantcode as string });
  }
  [school, neighbour] = made as [typeof school, typeof neighbour];
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: neighbour.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  other = caller(t.app, await login(t.app, otherUser.email), neighbour.tenantcode);
});
afterAll(() => t.close());

/** A tenant's grade and proportion rows of a term, as stored (sorted, without ids and times). */
async function termRows(tenantId: string, term: string, year: number) {
  return withTenant(t.database.db, { tenantId }, async (trx) => {
    const grades = await sql<Record<string, unknown>>`
      SELECT subject_id, form, grade, lower::float8, upper::float8 FROM grades WHERE term = ${term} AND year = ${year}
      ORDER BY subject_id, form, grade`.execute(trx);
    const proportions = await sql<Record<string, unknown>>`
      SELECT subject_id, form, marktype_id, percentage::float8 FROM proportions WHERE term = ${term} AND year = ${year}
      ORDER BY subject_id, form, marktype_id`.execute(trx);
    return { grades: grades.rows, proportions: proportions.rows };
  });
}

const copy = (by: Caller, body: Record<string, unknown>) => by.post('/api/school/settings/copyterm', body);

describe('copying a term’s grade sets and proportions', () => {
  it('copies every set and proportion to a new year’s Term I, then nothing on a second copy', async () => {
    const source = await termRows(school.id, 'III', YEAR);
    const neighbourBefore = await termRows(neighbour.id, 'I', YEAR + 1);
    const first = ok(await copy(head, { from_term: 'III', from_year: YEAR, term: 'I', year: YEAR + 1 }));
    expect(first).toEqual({
      grades: { copied: CLASSES * SUBJECTS, skipped: 0 },
      proportions: { copied: CLASSES * SUBJECTS * 3, skipped: 0 },
    });
    const copied = await termRows(school.id, 'I', YEAR + 1);
    expect(copied).toEqual(source);

    const second = ok(await copy(head, { from_term: 'III', from_year: YEAR, term: 'I', year: YEAR + 1 }));
    expect(second).toEqual({
      grades: { copied: 0, skipped: CLASSES * SUBJECTS },
      proportions: { copied: 0, skipped: CLASSES * SUBJECTS * 3 },
    });
    expect(await termRows(school.id, 'I', YEAR + 1)).toEqual(copied);
    // The other school's term is its own: nothing came of this school's copy.
    expect(await termRows(neighbour.id, 'I', YEAR + 1)).toEqual(neighbourBefore);
  });

  it('copies only the sets a term lacks, and leaves a set the school changed as it is', async () => {
    const target = { term: 'II', year: YEAR + 1 };
    const subject = (await termRows(school.id, 'I', YEAR)).grades[0]?.subject_id as string;
    // The school's own P7 set for one subject, of two bands: the copy must not touch or add to it.
    ok(
      await head.post('/api/school/grades', {
        form: 'P7',
        subject_id: subject,
        ...target,
        lower: { PASS: 50, FAIL: 0 },
        upper: { PASS: 100, FAIL: 49 },
      }),
    );
    const answer = ok(await copy(head, { from_term: 'I', from_year: YEAR, ...target }));
    expect(answer.grades).toEqual({ copied: CLASSES * SUBJECTS - 1, skipped: 1 });
    const own = (await termRows(school.id, target.term, target.year)).grades.filter(
      (row) => row.subject_id === subject && row.form === 'P7',
    );
    expect(own.map((row) => row.grade)).toEqual(['FAIL', 'PASS']);
  });

  it('refuses a member who may not manage settings (403) and writes nothing', async () => {
    const before = await termRows(school.id, 'III', YEAR + 1);
    const response = await copy(teacher, { from_term: 'I', from_year: YEAR, term: 'III', year: YEAR + 1 });
    expect(response.statusCode).toBe(403);
    expect(await termRows(school.id, 'III', YEAR + 1)).toEqual(before);
  });

  it('copies only the caller’s own school: another school’s copy reads and writes its own rows', async () => {
    const before = await termRows(school.id, 'III', YEAR + 2);
    const answer = ok(await copy(other, { from_term: 'I', from_year: YEAR, term: 'III', year: YEAR + 2 }));
    expect(answer.grades.copied).toBe(CLASSES * SUBJECTS);
    expect(await termRows(school.id, 'III', YEAR + 2)).toEqual(before);
  });

  it('refuses bad input by name, never 500, and writes nothing', async () => {
    const before = await termRows(school.id, 'I', YEAR + 3);
    const bodies: Array<[Record<string, unknown>, string]> = [
      [{ from_term: 'I', from_year: YEAR, term: 'I', year: YEAR }, 'from_term'],
      [{ from_term: 'IV', from_year: YEAR, term: 'I', year: YEAR + 3 }, 'from_term'],
      [{ from_term: 'I', from_year: 'soon', term: 'I', year: YEAR + 3 }, 'from_year'],
      [{ from_term: 'I', from_year: YEAR, term: 'I\u0000', year: YEAR + 3 }, 'term'],
      [{ from_term: 'I', from_year: YEAR, term: 'I', year: 10 ** 12 }, 'year'],
      [{ from_term: 'I', from_year: YEAR, term: 'x'.repeat(100_000), year: YEAR + 3 }, 'term'],
      [{ from_term: 'I', from_year: YEAR, year: YEAR + 3 }, 'term'],
      [{ from_term: 'I', from_year: YEAR, term: 'I', year: YEAR + 3, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of bodies) {
      const response = await copy(head, body);
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().errors ?? {}), response.body).toContain(field);
    }
    expect(await termRows(school.id, 'I', YEAR + 3)).toEqual(before);
  });
});

describe('one grade set or proportion applied to every class or subject', () => {
  const bands = { lower: { A: 50, F: 0 }, upper: { A: 100, F: 49 } };
  const subjectId = async () => (await termRows(school.id, 'I', YEAR)).grades[0]?.subject_id as string;

  it('writes a grade set for every class, keeps existing sets unless replace, and replaces them whole with it', async () => {
    const at = { term: 'I', year: YEAR + 5 };
    const subject = await subjectId();
    const body = { ...at, form: 'P7', subject_id: subject, ...bands, apply_to: 'classes' };
    expect(ok(await head.post('/api/school/grades/apply', body))).toEqual({ copied: CLASSES, skipped: 0 });
    const rows = (await termRows(school.id, at.term, at.year)).grades;
    expect(rows).toHaveLength(CLASSES * 2);
    expect(ok(await head.post('/api/school/grades/apply', body))).toEqual({ copied: 0, skipped: CLASSES });
    const wider = { lower: { A: 60, B: 40, F: 0 }, upper: { A: 100, B: 59, F: 39 } };
    expect(ok(await head.post('/api/school/grades/apply', { ...body, ...wider, replace: true }))).toEqual({ copied: CLASSES, skipped: 0 });
    const replaced = (await termRows(school.id, at.term, at.year)).grades;
    expect(replaced).toHaveLength(CLASSES * 3);
    expect(new Set(replaced.map((row) => row.grade))).toEqual(new Set(['A', 'B', 'F']));
  });

  it('writes a grade set for every active subject of one class', async () => {
    const at = { term: 'II', year: YEAR + 5 };
    const body = { ...at, form: 'p5', subject_id: await subjectId(), ...bands, apply_to: 'subjects' };
    expect(ok(await head.post('/api/school/grades/apply', body))).toEqual({ copied: SUBJECTS, skipped: 0 });
    const rows = (await termRows(school.id, at.term, at.year)).grades;
    expect(new Set(rows.map((row) => row.subject_id)).size).toBe(SUBJECTS);
    // The class as the school spells it.
    expect(new Set(rows.map((row) => row.form))).toEqual(new Set(['P5']));
  });

  it('writes a proportion for every class, keeping existing shares unless replace', async () => {
    const at = { term: 'III', year: YEAR + 5 };
    const { proportions } = await termRows(school.id, 'I', YEAR);
    const first = proportions[0] as { subject_id: string; marktype_id: string };
    const body = { ...at, form: 'P1', subject_id: first.subject_id, marktype_id: first.marktype_id, percentage: 25, apply_to: 'classes' };
    expect(ok(await head.post('/api/school/proportions/apply', body))).toEqual({ copied: CLASSES, skipped: 0 });
    expect(ok(await head.post('/api/school/proportions/apply', { ...body, percentage: 40 }))).toEqual({ copied: 0, skipped: CLASSES });
    expect((await termRows(school.id, at.term, at.year)).proportions.map((row) => row.percentage)).toEqual(Array(CLASSES).fill(25));
    expect(ok(await head.post('/api/school/proportions/apply', { ...body, percentage: 40, replace: true }))).toEqual({
      copied: CLASSES,
      skipped: 0,
    });
    expect((await termRows(school.id, at.term, at.year)).proportions.map((row) => row.percentage)).toEqual(Array(CLASSES).fill(40));
    const subjects = { ...body, year: YEAR + 6, apply_to: 'subjects' };
    expect(ok(await head.post('/api/school/proportions/apply', subjects))).toEqual({ copied: SUBJECTS, skipped: 0 });
  });

  it('refuses another school’s subject or mark type by name (422), a member without the right (403), bad input; writes nothing', async () => {
    const at = { term: 'I', year: YEAR + 7 };
    const foreign = (await termRows(neighbour.id, 'I', YEAR)).proportions[0] as { subject_id: string; marktype_id: string };
    const own = (await termRows(school.id, 'I', YEAR)).proportions[0] as { subject_id: string; marktype_id: string };
    const before = [await termRows(school.id, at.term, at.year), await termRows(neighbour.id, at.term, at.year)];
    const grade = { ...at, form: 'P7', ...bands, apply_to: 'classes' };
    const share = { ...at, form: 'P7', percentage: 30, apply_to: 'subjects' };
    const refusals: Array<[Caller, string, Record<string, unknown>, number, string | null]> = [
      [head, '/api/school/grades/apply', { ...grade, subject_id: foreign.subject_id }, 422, 'subject_id'],
      [head, '/api/school/proportions/apply', { ...share, ...own, subject_id: foreign.subject_id }, 422, 'subject_id'],
      [head, '/api/school/proportions/apply', { ...share, ...own, marktype_id: foreign.marktype_id }, 422, 'marktype_id'],
      [head, '/api/school/grades/apply', { ...grade, subject_id: own.subject_id, apply_to: 'everything' }, 422, 'apply_to'],
      [head, '/api/school/grades/apply', { ...grade, subject_id: own.subject_id, form: 'P9' }, 422, 'form'],
      [head, '/api/school/proportions/apply', { ...share, ...own, percentage: 101 }, 422, 'percentage'],
      [head, '/api/school/proportions/apply', { ...share, ...own, form: 'P7\u0000' }, 422, 'form'],
      [head, '/api/school/grades/apply', { ...grade, subject_id: own.subject_id, lower: { A: 'x'.repeat(50_000) } }, 422, null],
      [teacher, '/api/school/grades/apply', { ...grade, subject_id: own.subject_id }, 403, null],
      [teacher, '/api/school/proportions/apply', { ...share, ...own }, 403, null],
    ];
    for (const [by, url, body, status, field] of refusals) {
      const response = await by.post(url, body);
      expect(response.statusCode, `${url} ${response.body.slice(0, 300)}`).toBe(status);
      if (field) expect(Object.keys(response.json().errors ?? {}), response.body).toContain(field);
    }
    expect([await termRows(school.id, at.term, at.year), await termRows(neighbour.id, at.term, at.year)]).toEqual(before);
  });
});
