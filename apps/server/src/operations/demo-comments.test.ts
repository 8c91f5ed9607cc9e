import {
  ALEVEL_LETTERS,
  type AutoSubjectComment,
  defaultTermDates,
  localDay,
  type MarkComments,
  matchSubjectComment,
  personalise,
  type Remarks,
  type ReportModel,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../db/tenant.js';
import { DEMO_ADMIN_EMAIL } from '../seed/demo.js';
import { commentedForms } from '../seed/demo-comments.js';
import { marksTerm } from '../seed/demo-marks.js';
import { CLASS_TEACHER_REMARK, HEAD_TEACHER_REMARK } from '../seed/demo-settings.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';

/*
 * The demo's comments (issue 16 point 8): after the seed, about half the classes of the marks
 * term have a subject comment for each learner in each subject and the class and head teacher's
 * remarks, each the school's automatic comment for the learner's result with their name in it;
 * the other half have none; the automatic comments cover every grade and every result. S1 to S4
 * are new-curriculum classes: their comments are read on the new-curriculum screens (issue 27
 * point 3), which show competency scores and match the report comments to the overall score.
 */

let t: TestApp;
let admin: Caller;
const { term, year } = marksTerm(localDay(), defaultTermDates);
const at = `term=${term}&year=${year}`;
const CLASSES = {
  'demo-primary': ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'],
  'demo-secondary': ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'],
} as const;
type School = keyof typeof CLASSES;

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  admin = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, t.config.demoPassword));
});
afterAll(() => t?.close());

async function ok<T>(school: School, url: string): Promise<T> {
  const response = await admin.in(school).get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

const model = (school: School, form: string, more = '') =>
  ok<ReportModel>(school, `/api/school/terminalreport?form=${form}&${at}&json=1${more}`);
/** S1 to S4: new-curriculum classes, whose comments are on the new-curriculum screens. */
const isNew = (form: string) => ['S1', 'S2', 'S3', 'S4'].includes(form);
const markComments = (school: School, form: string, subjectId: string, more = '') =>
  ok<MarkComments>(school, `/api/school/${isNew(form) ? 'nccomments' : 'markcomments'}?form=${form}&${at}&subject_id=${subjectId}${more}`);
const remarks = (school: School, form: string) =>
  ok<Remarks>(school, `/api/school/${isNew(form) ? 'ncremarks' : 'remarks'}?form=${form}&${at}`);
/** The school's automatic subject comments of a category, as the screens of that category offer them. */
async function autoComments(school: School, category: string): Promise<AutoSubjectComment[]> {
  const list = await ok<{ automarkcomments: Array<AutoSubjectComment & { category: string }> }>(
    school,
    `/api/school/automarkcomments?per_page=1000&category=${encodeURIComponent(category)}`,
  );
  return list.automarkcomments.filter((auto) => auto.category === category).map(({ score, comment }) => ({ score, comment }));
}

/**
 * The subjects a class has marks in this term, in the school's order (read from the marks: an
 * S1 to S4 class has no old-curriculum report card to read them from, issue 27 point 5).
 */
async function subjectsOf(school: School, form: string): Promise<string[]> {
  const tenant = await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', school).executeTakeFirstOrThrow();
  const rows = await withTenant(t.database.db, { tenantId: tenant.id }, (trx) =>
    trx
      .selectFrom('marks')
      .innerJoin('subjects', 'subjects.id', 'marks.subject_id')
      .select('marks.subject_id')
      .where('marks.form', '=', form)
      .where('marks.term', '=', term)
      .where('marks.year', '=', year)
      .where('marks.topic_id', 'is', null)
      .groupBy(['marks.subject_id', 'subjects.position', 'subjects.name'])
      .orderBy('subjects.position')
      .orderBy('subjects.name')
      .execute(),
  );
  return rows.map((row) => row.subject_id);
}

/** The class and head teacher's remark types of a class's remarks screen. */
function teacherTypes(screen: Remarks): string[] {
  const ids = [CLASS_TEACHER_REMARK, HEAD_TEACHER_REMARK].map((label) => screen.remarktypes.find((type) => type.label === label)?.id);
  expect(ids.every(Boolean)).toBe(true);
  return ids as string[];
}

describe('the demo’s comments', () => {
  it('comments half of each school’s classes: the candidate classes, then every other class that sat EOT', () => {
    expect(commentedForms(CLASSES['demo-primary'])).toEqual(['P1', 'P3', 'P7']);
    expect(commentedForms(CLASSES['demo-secondary'])).toEqual(['S1', 'S4', 'S6']);
  });

  it('has an automatic subject comment naming the learner for every grade of the grade sets and every A-level letter, in each category', async () => {
    for (const [school, form] of [
      ['demo-primary', 'P7'],
      ['demo-secondary', 'S6'],
    ] as const) {
      const tenant = await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', school).executeTakeFirstOrThrow();
      const grades = await withTenant(t.database.db, { tenantId: tenant.id }, (trx) =>
        trx.selectFrom('grades').select('grade').distinct().where('term', '=', term).execute(),
      );
      const labels = [...grades.map((row) => row.grade), ...ALEVEL_LETTERS];
      expect(labels).toEqual(expect.arrayContaining(['D1', 'C3', 'P7', 'F9', 'A', 'O']));
      const subjectId = (await subjectsOf(school, form))[0] as string;
      // The subject comments' by grade; the new curriculum's ("nc general", and generic skills' "nc
      // skill") by the identifier a subject score has.
      const identifiers = ['Outstanding', 'Moderate', 'Basic'];
      const screens: Array<[{ autocomments: Array<{ score: string; comment: string }> }, string[]]> = [
        [await markComments(school, form, subjectId), labels],
        [{ autocomments: await autoComments(school, 'nc general') }, identifiers],
        [await ok<MarkComments>(school, `/api/school/genericcomments?form=${form}&${at}&subject_id=${subjectId}`), identifiers],
      ];
      for (const [screen, wanted] of screens) {
        const scores = screen.autocomments.map((auto) => auto.score.toLowerCase());
        expect(
          wanted.filter((label) => !scores.includes(label.toLowerCase())),
          school,
        ).toEqual([]);
        expect(screen.autocomments.every((auto) => auto.comment.includes('{name}'))).toBe(true);
      }
      // Each category its own words: the best grade's and the best identifier's texts differ.
      const best = screens.map(
        ([screen]) => screen.autocomments.find((auto) => auto.score === 'D1' || auto.score === 'Outstanding')?.comment,
      );
      expect(new Set(best).size).toBe(3);
    }
  });

  it('has class and head teacher’s bands covering each class’s whole range of results, so every learner with a result has a suggestion', async () => {
    // A new-curriculum class's result is the overall score, 0 to 3 cut to two decimals, in its identifier bands.
    const ranges = { primary: [4, 36], olevel: [1, 72], alevel: [0, 20], nc: [0, 3] } as const;
    for (const school of Object.keys(CLASSES) as School[]) {
      for (const form of CLASSES[school]) {
        const screen = await remarks(school, form);
        const level = school === 'demo-primary' ? 'primary' : form === 'S5' || form === 'S6' ? 'alevel' : 'olevel';
        const [low, high] = ranges[isNew(form) ? 'nc' : level];
        for (const typeId of teacherTypes(screen)) {
          const bands = screen.autocomments.filter((auto) => auto.remarktype_id === typeId).sort((a, b) => a.score - b.score);
          expect(bands.length, `${form} ${typeId}`).toBeGreaterThanOrEqual(isNew(form) ? 3 : 4);
          expect(bands[0]?.score).toBeLessThanOrEqual(low);
          expect(bands.at(-1)?.upper).toBeGreaterThanOrEqual(high);
          // Whole-number results step by 1; an overall score (two decimals) by 0.01.
          const step = isNew(form) ? 0.01 : 1;
          bands.slice(1).forEach((band, index) => {
            expect(band.score, `${form}: a gap after ${bands[index]?.upper}`).toBeCloseTo((bands[index]?.upper ?? 0) + step, 6);
          });
          expect(bands.every((band) => band.comment.includes('{name}'))).toBe(true);
          const results = screen.students.filter((student) => student.result !== null);
          expect(results.length, form).toBeGreaterThan(60);
          expect(results.filter((student) => !student.suggestions[`rt_${typeId}`]).map((student) => student.result)).toEqual([]);
        }
      }
    }
  });

  it('writes each learner’s subject comments in a commented class: the automatic comment of their grade, with their first name', async () => {
    for (const [school, form] of [
      ['demo-primary', 'P7'],
      ['demo-secondary', 'S4'],
      ['demo-secondary', 'S6'],
    ] as const) {
      for (const subjectId of await subjectsOf(school, form)) {
        const screen = await markComments(school, form, subjectId);
        if (isNew(form)) {
          // A new-curriculum class: every learner with a subject score has the remark on
          // competency of their identifier ("nc general"), and their generic skills ("nc skill").
          const skills = await ok<MarkComments>(
            school,
            `/api/school/genericcomments?form=${form}&${at}&subject_id=${subjectId}&category=exam`,
          );
          const scored = screen.records.filter((record) => record.identifier);
          expect(scored.length, `${form} ${subjectId}`).toBeGreaterThan(0);
          for (const record of scored) {
            const student = screen.students.find((each) => each.id === record.student_id);
            if (!student) throw new Error(`no learner ${record.student_id}`);
            const result = { grade: record.identifier ?? null, total: record.score ?? null };
            expect(record.comment, `${form} ${student.fullname} ${record.identifier}`).toBe(
              personalise(matchSubjectComment(screen.autocomments, result) ?? '', student),
            );
            const skill = skills.records.find((each) => each.student_id === record.student_id);
            expect(skill?.comment).toBe(personalise(matchSubjectComment(skills.autocomments, result) ?? '', student));
            expect(record.version).toBe(1);
          }
          continue;
        }
        const autos: AutoSubjectComment[] = screen.autocomments;
        const graded = screen.records.filter((record) => record.grade !== null);
        expect(graded.length, `${form} ${subjectId}`).toBeGreaterThan(0);
        for (const record of graded) {
          const student = screen.students.find((each) => each.id === record.student_id);
          if (!student) throw new Error(`no learner ${record.student_id}`);
          const expected = personalise(matchSubjectComment(autos, record) ?? '', student);
          expect(record.comment, `${form} ${student.fullname} ${record.grade}`).toBe(expected);
          expect(record.comment).toContain(student.firstname);
          expect(record.version).toBe(1);
        }
      }
    }
  });

  it('writes the class and head teacher’s remarks in a commented class: each learner’s suggestion for their result', async () => {
    for (const [school, form] of [
      ['demo-primary', 'P7'],
      ['demo-primary', 'P1'],
      ['demo-secondary', 'S4'],
      ['demo-secondary', 'S6'],
    ] as const) {
      const screen = await remarks(school, form);
      const types = teacherTypes(screen);
      if (isNew(form)) {
        // A new-curriculum class's suggestions follow the overall score: the remarks written are there, each naming its learner.
        for (const typeId of types) {
          const stored = Object.entries(screen.remarks[`rt_${typeId}`] ?? {});
          expect(stored.length, form).toBeGreaterThan(60);
          for (const [key, cell] of stored)
            expect(cell.comment).toContain(screen.students.find((student) => `s_${student.id}` === key)?.firstname);
        }
        continue;
      }
      const withResult = screen.students.filter((student) => student.result !== null);
      expect(withResult.length, form).toBeGreaterThan(60);
      for (const student of withResult) {
        for (const typeId of types) {
          const stored = screen.remarks[`rt_${typeId}`]?.[`s_${student.id}`];
          expect(stored?.comment, `${form} ${student.fullname} ${student.result}`).toBe(student.suggestions[`rt_${typeId}`]);
          expect(stored?.comment).toContain(student.firstname);
        }
      }
      // The class teacher and the head teacher say different things of the same learner.
      const first = withResult[0];
      expect(screen.remarks[`rt_${types[0]}`]?.[`s_${first?.id}`]?.comment).not.toBe(
        screen.remarks[`rt_${types[1]}`]?.[`s_${first?.id}`]?.comment,
      );
    }
  });

  it('leaves the other half of the classes without a comment, for the teachers to write', async () => {
    for (const [school, form] of [
      ['demo-primary', 'P2'],
      ['demo-primary', 'P5'],
      ['demo-secondary', 'S2'],
      ['demo-secondary', 'S3'],
      ['demo-secondary', 'S5'],
    ] as const) {
      const subjectId = (await subjectsOf(school, form))[0] as string;
      const screen = await markComments(school, form, subjectId);
      expect(screen.records.length, form).toBeGreaterThan(60);
      expect(screen.records.filter((record) => record.comment !== null)).toEqual([]);
      const written = await remarks(school, form);
      expect(written.remarks, form).toEqual({});
      // Yet the automatic comments are there to fill them from.
      expect(written.students.filter((student) => Object.keys(student.suggestions).length > 0).length).toBeGreaterThan(60);
    }
  });

  it('prints a commented learner’s subject comments on their rows and their remarks on the report card', async () => {
    const class7 = await model('demo-primary', 'P7');
    const learner = class7.learners.find((each) => each.aggregate !== null && each.subjects.every((subject) => subject.grade !== null));
    if (!learner) throw new Error('no learner of P7 with a full result');
    const card = await model('demo-primary', 'P7', `&student_id=${learner.id}`);
    const printed = card.learners[0];
    expect(printed?.id).toBe(learner.id);
    const firstname = learner.fullname.split(' ')[0] as string;
    expect(printed?.subjects.length).toBe(6);
    for (const subject of printed?.subjects ?? []) {
      const screen = await markComments('demo-primary', 'P7', subject.subject_id);
      const stored = screen.records.find((record) => record.student_id === learner.id)?.comment;
      expect(subject.comment, subject.subject).toBe(stored);
      expect(subject.comment).toContain(firstname);
    }
    const byLabel = Object.fromEntries((printed?.remarks ?? []).map((remark) => [remark.label, remark.text]));
    const screen = await remarks('demo-primary', 'P7');
    const [classTeacher, headTeacher] = teacherTypes(screen);
    expect(byLabel[CLASS_TEACHER_REMARK]).toBe(screen.remarks[`rt_${classTeacher}`]?.[`s_${learner.id}`]?.comment);
    expect(byLabel[HEAD_TEACHER_REMARK]).toBe(screen.remarks[`rt_${headTeacher}`]?.[`s_${learner.id}`]?.comment);
    expect(byLabel[CLASS_TEACHER_REMARK]).toContain(firstname);
    expect(byLabel[HEAD_TEACHER_REMARK]).toContain(firstname);
  });
});
