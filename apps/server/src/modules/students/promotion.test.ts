import { ERROR_MESSAGES, STUDENT_MESSAGES, type Student } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { asOwner } from '../../test/test-database.js';
import { ok } from '../settings/settings-fixtures.js';

/*
 * Promotion (issue 5, spec §4): `GET /api/student/promote` answers what would move; with
 * promote=1 every active learner moves to the next class of the school's list, the top class
 * leaves the active list as completed, the class left is kept in the learner's history, and all
 * of it happens in one transaction.
 */

const PROMOTE = '/api/student/promote';
const YEAR = new Date().getFullYear();

interface School {
  id: string;
  tenantcode: string;
  head: Caller;
}

interface Row {
  id: string;
  studentid: string;
  form: string;
  stream: string | null;
  status: string;
}

let t: TestApp;

async function newSchool(name: string, schooltype: 'primary' | 'secondary' = 'primary'): Promise<School> {
  const tenant = await makeTenant(t.database, { name, schooltype });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: ['headteacher'] }] });
  return { ...tenant, head: caller(t.app, await login(t.app, user.email), tenant.tenantcode) };
}

/** Learners written straight into the school's table: `[studentid, form, stream?, status?]`. */
async function addLearners(tenantId: string, learners: Array<[string, string, string?, ('active' | 'inactive' | 'completed')?]>) {
  await withTenant(t.database.db, { tenantId }, (trx) =>
    trx
      .insertInto('students')
      .values(
        learners.map(([studentid, form, stream, status]) => ({
          tenant_id: tenantId,
          id: newId(),
          studentid,
          firstname: 'Learner',
          lastname: studentid,
          gender: 'F' as const,
          form,
          stream: stream ?? null,
          status: status ?? 'active',
        })),
      )
      .execute(),
  );
}

/** Every learner of a school by student id: class, stream and status. */
async function learnersOf(tenantId: string): Promise<Record<string, Omit<Row, 'id' | 'studentid'>>> {
  const rows = await withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('students').select(['id', 'studentid', 'form', 'stream', 'status']).execute(),
  );
  return Object.fromEntries(rows.map(({ studentid, form, stream, status }) => [studentid, { form, stream, status }]));
}

async function historyOf(tenantId: string) {
  const rows = await withTenant(t.database.db, { tenantId }, (trx) =>
    trx
      .selectFrom('student_class_history as h')
      .innerJoin('students as s', (join) => join.onRef('s.tenant_id', '=', 'h.tenant_id').onRef('s.id', '=', 'h.student_id'))
      .select(['s.studentid', 'h.form', 'h.stream', 'h.year', 'h.outcome'])
      .execute(),
  );
  return rows.sort((a, b) => a.studentid.localeCompare(b.studentid) || a.form.localeCompare(b.form));
}

async function idOf(tenantId: string, studentid: string): Promise<string> {
  const row = await withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('students').select('id').where('studentid', '=', studentid).executeTakeFirstOrThrow(),
  );
  return row.id;
}

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('promoting a primary school', () => {
  let school: School;
  let neighbour: School;

  beforeAll(async () => {
    school = await newSchool('Promo Primary School');
    neighbour = await newSchool('Hillside Primary');
    await addLearners(school.id, [
      ['A1', 'P1'],
      ['A2', 'P1', 'West'],
      ['B1', 'P3', 'East'],
      ['C1', 'P6', 'East'],
      ['C2', 'P6', 'West'],
      ['D1', 'P7', 'East'],
      ['D2', 'P7', 'West'],
      ['N1', 'Nursery'],
      ['X1', 'P3', 'East', 'inactive'],
      ['X2', 'P7', 'East', 'completed'],
      ['X3', 'Form X'],
    ]);
    await addLearners(neighbour.id, [
      ['H1', 'P3', 'East'],
      ['H2', 'P7'],
    ]);
  });

  const BEFORE = {
    A1: { form: 'P1', stream: null, status: 'active' },
    A2: { form: 'P1', stream: 'West', status: 'active' },
    B1: { form: 'P3', stream: 'East', status: 'active' },
    C1: { form: 'P6', stream: 'East', status: 'active' },
    C2: { form: 'P6', stream: 'West', status: 'active' },
    D1: { form: 'P7', stream: 'East', status: 'active' },
    D2: { form: 'P7', stream: 'West', status: 'active' },
    N1: { form: 'Nursery', stream: null, status: 'active' },
    X1: { form: 'P3', stream: 'East', status: 'inactive' },
    X2: { form: 'P7', stream: 'East', status: 'completed' },
    X3: { form: 'Form X', stream: null, status: 'active' },
  };

  it('without promote=1 moves nothing and says what would move', async () => {
    for (const query of ['', '?promote=0']) {
      expect(ok(await school.head.get(`${PROMOTE}${query}`))).toEqual({
        message: STUDENT_MESSAGES.promoteConfirm,
        promoted: 6,
        completed: 2,
      });
    }
    expect(await learnersOf(school.id)).toEqual(BEFORE);
    expect(await historyOf(school.id)).toEqual([]);
    expect((await school.head.get(`${PROMOTE}?promote=yes`)).statusCode).toBe(422);
  });

  it('is refused to a teacher (403), whatever the query, and nothing moves', async () => {
    const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const teacher = caller(t.app, await login(t.app, user.email), school.tenantcode);
    for (const query of ['', '?promote=1']) {
      const response = await teacher.get(`${PROMOTE}${query}`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ statusCode: 403, message: ERROR_MESSAGES[403] });
    }
    expect(await learnersOf(school.id)).toEqual(BEFORE);
    expect(await historyOf(school.id)).toEqual([]);
  });

  it('with promote=1 moves every active learner up a class and completes the top class, keeping the class left', async () => {
    expect(ok(await school.head.get(`${PROMOTE}?promote=1`))).toEqual({
      message: STUDENT_MESSAGES.promoted,
      promoted: 6,
      completed: 2,
    });
    expect(await learnersOf(school.id)).toEqual({
      A1: { form: 'P2', stream: null, status: 'active' },
      A2: { form: 'P2', stream: 'West', status: 'active' },
      B1: { form: 'P4', stream: 'East', status: 'active' },
      C1: { form: 'P7', stream: 'East', status: 'active' },
      C2: { form: 'P7', stream: 'West', status: 'active' },
      D1: { form: 'P7', stream: 'East', status: 'completed' },
      D2: { form: 'P7', stream: 'West', status: 'completed' },
      N1: { form: 'Kinder', stream: null, status: 'active' },
      // Not active, or in a class that is not on the school's list: left alone.
      X1: { form: 'P3', stream: 'East', status: 'inactive' },
      X2: { form: 'P7', stream: 'East', status: 'completed' },
      X3: { form: 'Form X', stream: null, status: 'active' },
    });
    expect(await historyOf(school.id)).toEqual([
      { studentid: 'A1', form: 'P1', stream: null, year: YEAR, outcome: 'promoted' },
      { studentid: 'A2', form: 'P1', stream: 'West', year: YEAR, outcome: 'promoted' },
      { studentid: 'B1', form: 'P3', stream: 'East', year: YEAR, outcome: 'promoted' },
      { studentid: 'C1', form: 'P6', stream: 'East', year: YEAR, outcome: 'promoted' },
      { studentid: 'C2', form: 'P6', stream: 'West', year: YEAR, outcome: 'promoted' },
      { studentid: 'D1', form: 'P7', stream: 'East', year: YEAR, outcome: 'completed' },
      { studentid: 'D2', form: 'P7', stream: 'West', year: YEAR, outcome: 'completed' },
      { studentid: 'N1', form: 'Nursery', stream: null, year: YEAR, outcome: 'promoted' },
    ]);
  });

  it('takes the completed learners off the class list; status=completed lists them', async () => {
    const active = ok(await school.head.get('/api/school/students?form=P7&per_page=1000'));
    expect(active.students.map((student: Student) => student.studentid).sort()).toEqual(['C1', 'C2']);
    const completed = ok(await school.head.get('/api/school/students?status=completed&per_page=1000'));
    expect(completed.students.map((student: Student) => student.studentid).sort()).toEqual(['D1', 'D2', 'X2']);
  });

  it('shows the class left in the learner’s history', async () => {
    const results = ok(await school.head.get(`/api/school/students/${await idOf(school.id, 'B1')}/results`));
    expect(results).toEqual({ results: [], history: [{ form: 'P3', stream: 'East', year: YEAR, outcome: 'promoted' }] });
    const finished = ok(await school.head.get(`/api/school/students/${await idOf(school.id, 'D1')}/results`));
    expect(finished.history).toEqual([{ form: 'P7', stream: 'East', year: YEAR, outcome: 'completed' }]);
  });

  it('leaves another school’s learners where they are', async () => {
    expect(await learnersOf(neighbour.id)).toEqual({
      H1: { form: 'P3', stream: 'East', status: 'active' },
      H2: { form: 'P7', stream: null, status: 'active' },
    });
    expect(await historyOf(neighbour.id)).toEqual([]);
  });

  it('refuses a second promotion moments after the first (a double click, a retried request)', async () => {
    const before = await learnersOf(school.id);
    const again = await school.head.get(`${PROMOTE}?promote=1`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(STUDENT_MESSAGES.promotedRecently);
    expect(await learnersOf(school.id)).toEqual(before);
  });

  it('a second promotion completes the new top class, and the history lists both moves, newest first', async () => {
    // A year later, as far as the guard against double promotion is concerned.
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('student_class_history').set({ recorded_at: sql`recorded_at - interval '1 year'` }).execute(),
    );
    expect(ok(await school.head.get(`${PROMOTE}?promote=1`))).toEqual({ message: STUDENT_MESSAGES.promoted, promoted: 4, completed: 2 });
    const learners = await learnersOf(school.id);
    expect(learners.C1).toEqual({ form: 'P7', stream: 'East', status: 'completed' });
    expect(learners.A1).toEqual({ form: 'P3', stream: null, status: 'active' });
    expect(learners.N1).toEqual({ form: 'Pre-primary', stream: null, status: 'active' });
    const results = ok(await school.head.get(`/api/school/students/${await idOf(school.id, 'C1')}/results`));
    expect(results.history).toEqual([
      { form: 'P7', stream: 'East', year: YEAR, outcome: 'completed' },
      { form: 'P6', stream: 'East', year: YEAR, outcome: 'promoted' },
    ]);
  });
});

describe('promoting a secondary school', () => {
  it('moves S1 to S2 … S5 to S6, and completes S6', async () => {
    const high = await newSchool('Kings High School', 'secondary');
    await addLearners(high.id, [
      ['S1a', 'S1'],
      ['S2a', 'S2'],
      ['S3a', 'S3'],
      ['S4a', 'S4', 'Blue'],
      ['S5a', 'S5', 'Sciences'],
      ['S6a', 'S6', 'Arts'],
      ['S6b', 'S6', 'Sciences', 'inactive'],
    ]);
    expect(ok(await high.head.get(PROMOTE))).toEqual({ message: STUDENT_MESSAGES.promoteConfirm, promoted: 5, completed: 1 });
    expect(ok(await high.head.get(`${PROMOTE}?promote=1`))).toEqual({ message: STUDENT_MESSAGES.promoted, promoted: 5, completed: 1 });
    expect(await learnersOf(high.id)).toEqual({
      S1a: { form: 'S2', stream: null, status: 'active' },
      S2a: { form: 'S3', stream: null, status: 'active' },
      S3a: { form: 'S4', stream: null, status: 'active' },
      S4a: { form: 'S5', stream: 'Blue', status: 'active' },
      S5a: { form: 'S6', stream: 'Sciences', status: 'active' },
      S6a: { form: 'S6', stream: 'Arts', status: 'completed' },
      S6b: { form: 'S6', stream: 'Sciences', status: 'inactive' },
    });
    expect((await historyOf(high.id)).map(({ studentid, form, outcome }) => [studentid, form, outcome])).toEqual([
      ['S1a', 'S1', 'promoted'],
      ['S2a', 'S2', 'promoted'],
      ['S3a', 'S3', 'promoted'],
      ['S4a', 'S4', 'promoted'],
      ['S5a', 'S5', 'promoted'],
      ['S6a', 'S6', 'completed'],
    ]);
  });

  it('answers zero counts for a school with no learners', async () => {
    const empty = await newSchool('Empty College', 'secondary');
    expect(ok(await empty.head.get(`${PROMOTE}?promote=1`))).toEqual({ message: STUDENT_MESSAGES.promoted, promoted: 0, completed: 0 });
  });
});

describe('promotion in one transaction', () => {
  it('moves nobody and writes no history when any learner’s move fails', async () => {
    const school = await newSchool('Atomic Primary School');
    await addLearners(school.id, [
      ['P1a', 'P1'],
      ['P4a', 'P4', 'East'],
      ['P5a', 'P5', 'East'],
      ['P6a', 'P6'],
      ['P7a', 'P7', 'West'],
    ]);
    const before = await learnersOf(school.id);
    // A trigger in this test's own database refuses this school's P5 learners moving to P6:
    // the history rows and the completed P7s are already written when the move fails.
    await asOwner(t.database, [
      `CREATE FUNCTION test_refuse_p5_move() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.tenant_id = '${school.id}' AND OLD.form = 'P5' AND NEW.form = 'P6' THEN
           RAISE EXCEPTION 'refused by the test';
         END IF;
         RETURN NEW;
       END $$`,
      'CREATE TRIGGER test_refuse_p5_move BEFORE UPDATE ON students FOR EACH ROW EXECUTE FUNCTION test_refuse_p5_move()',
    ]);
    try {
      const response = await school.head.get(`${PROMOTE}?promote=1`);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, message: ERROR_MESSAGES[500] });
      expect(await learnersOf(school.id)).toEqual(before);
      expect(await historyOf(school.id)).toEqual([]);
    } finally {
      await asOwner(t.database, ['DROP TRIGGER test_refuse_p5_move ON students', 'DROP FUNCTION test_refuse_p5_move()']);
    }
    // Once nothing stands in the way, the same promotion goes through whole.
    expect(ok(await school.head.get(`${PROMOTE}?promote=1`))).toEqual({ message: STUDENT_MESSAGES.promoted, promoted: 4, completed: 1 });
    expect(await learnersOf(school.id)).toEqual({
      P1a: { form: 'P2', stream: null, status: 'active' },
      P4a: { form: 'P5', stream: 'East', status: 'active' },
      P5a: { form: 'P6', stream: 'East', status: 'active' },
      P6a: { form: 'P7', stream: null, status: 'active' },
      P7a: { form: 'P7', stream: 'West', status: 'completed' },
    });
    expect(await historyOf(school.id)).toHaveLength(5);
  });
});
