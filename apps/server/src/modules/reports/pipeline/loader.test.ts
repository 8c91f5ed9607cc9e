import { learnerHistoryScope, schoolTermScope } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant, withTenantTx } from '../../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../../db/tenant-filter.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { type GradingLoad, loadGradingInputs, MAX_SCOPE_CLASS_TERMS } from './loader.js';
import { countingTx, type MarkedSchool, makeMarkedSchool } from './school-fixture.js';

/*
 * The grading-inputs loader (issue 25 point 1), on both databases: a whole school's term in one
 * call gives what each class's own load gives, in the same few statements whatever the number
 * of classes; another school's rows never appear (by the code's filter, and by row-level
 * security alone); one learner's history; the bound.
 */

let t: TestApp;
let school: MarkedSchool;
let other: MarkedSchool;
let moved: string;
const CLASSES = ['S1', 'S2', 'S5'];

const load = (tenantId: string, scope: Parameters<typeof loadGradingInputs>[1]) =>
  withTenantTx(t.database.db, { tenantId }, (tx) => loadGradingInputs(tx, scope));

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeMarkedSchool(t.database, { name: 'Loader High', classes: CLASSES, learners: 6, subjects: 3 });
  other = await makeMarkedSchool(t.database, { name: 'Other High', classes: CLASSES, learners: 4, subjects: 2 });
  // A learner of S1 promoted to S2 since the term: S1's term still lists them (by their marks), S2 lists them too.
  moved = await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    const learner = await trx.selectFrom('students').select('id').where('form', '=', 'S1').orderBy('studentid').executeTakeFirstOrThrow();
    await trx.updateTable('students').set({ form: 'S2' }).where('id', '=', learner.id).execute();
    return learner.id;
  });
});

afterAll(async () => {
  setCodeTenantFilterForTests(true);
  await t?.close();
});

const ids = (loaded: GradingLoad) => ({
  learners: new Set(loaded.classes.flatMap((each) => each.learners.map((learner) => learner.id))),
  subjects: new Set(loaded.classes.flatMap((each) => [...each.subjects.map((subject) => subject.id), ...each.bands.keys()])),
  marks: loaded.classes.flatMap((each) => each.marks).length,
});

describe('a whole school in one call', () => {
  it("returns what each class's own load returns", async () => {
    const whole = await load(school.id, schoolTermScope(CLASSES, 'I', school.year));
    const perClass = [];
    for (const form of CLASSES) perClass.push(...(await load(school.id, schoolTermScope([form], 'I', school.year))).classes);
    expect(whole.classes.map((each) => each.form)).toEqual(CLASSES);
    expect(whole.classes).toEqual(perClass);
    // The promoted learner is in S1 by their marks (with them) and in S2 now (without marks there).
    const [s1, s2] = whole.classes;
    expect(s1?.learners.map((learner) => learner.id)).toContain(moved);
    expect(s1?.learners.find((learner) => learner.id === moved)?.inClassNow).toBe(false);
    expect(s2?.learners.find((learner) => learner.id === moved)?.inClassNow).toBe(true);
    expect(s2?.marks.some((mark) => mark.student_id === moved)).toBe(false);
    expect(s1?.learners).toHaveLength(6);
    expect(s2?.learners).toHaveLength(7);
    // S5 is graded per paper (A level); BOT is out of 50.
    expect(whole.classes.map((each) => each.level)).toEqual(['olevel', 'olevel', 'alevel']);
    expect(s1?.markTypes.map((type) => [type.label, type.outof])).toEqual([
      ['BOT', 50],
      ['EOT', 100],
    ]);
  });

  it('reads one statement per table, however many classes', async () => {
    const count = async (classes: string[]) =>
      withTenantTx(t.database.db, { tenantId: school.id }, async (tx) => {
        const counting = countingTx(tx);
        await loadGradingInputs(counting.tx, schoolTermScope(classes, 'I', school.year));
        return counting.statements();
      });
    const one = await count(['S1']);
    expect(one).toBeLessThanOrEqual(9);
    expect(await count(CLASSES)).toBe(one);
  });
});

describe("another school's rows never appear", () => {
  it.each([
    ['the code filter and row-level security', true],
    ['row-level security alone', false],
  ])('with %s', async (_how, codeFilter) => {
    setCodeTenantFilterForTests(codeFilter);
    try {
      const mine = ids(await load(school.id, schoolTermScope(CLASSES, 'I', school.year)));
      const theirs = ids(await load(other.id, schoolTermScope(CLASSES, 'I', other.year)));
      // 18 learners: the promoted one is in S1 and S2, once.
      expect(mine.learners.size).toBe(18);
      expect(theirs.learners.size).toBe(12);
      expect([...mine.learners].filter((id) => theirs.learners.has(id))).toEqual([]);
      expect([...mine.subjects].filter((id) => theirs.subjects.has(id))).toEqual([]);
      // Six learners, three subjects, BOT and EOT: S1 and S2 one paper, S5 two.
      expect(mine.marks).toBe(6 * 3 * 2 + 6 * 3 * 2 + 6 * 3 * 2 * 2);
      expect(theirs.marks).toBe(4 * 2 * 2 * 4);
      // Their learner's history asked in this school is empty.
      const [theirLearner] = theirs.learners;
      expect((await load(school.id, learnerHistoryScope(theirLearner as string))).classes).toEqual([]);
    } finally {
      setCodeTenantFilterForTests(true);
    }
  });
});

describe('one learner and the bounds', () => {
  it("reads one learner's history: each class and term of their marks, only their marks", async () => {
    const history = await load(school.id, learnerHistoryScope(moved));
    expect(history.classes.map((each) => [each.form, each.term, each.year])).toEqual([['S1', 'I', school.year]]);
    expect(history.classes[0]?.learners.map((learner) => learner.id)).toEqual([moved]);
    expect(new Set(history.classes[0]?.marks.map((mark) => mark.student_id))).toEqual(new Set([moved]));
  });

  it('refuses more classes and terms than a load covers with a 422', async () => {
    const classes = Array.from({ length: MAX_SCOPE_CLASS_TERMS + 1 }, (_, i) => `X${i}`);
    await expect(load(school.id, schoolTermScope(classes, 'I', school.year))).rejects.toMatchObject({ statusCode: 422 });
  });
});
