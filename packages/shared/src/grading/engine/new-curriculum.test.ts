import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { exact, toNumber } from '../exact.js';
import { explainText } from './explain.js';
import { DEFAULT_NC_RULES, type NcRules, NcRulesSchema } from './nc-rules.js';
import { gradeNcLearner, gradeNcSubject, type NcSubjectInput, ncGrade, ncIdentifier } from './new-curriculum.js';
import { DEFAULT_GRADING_RULES, GradingRulesSchema } from './rules.js';

/* Every computation of guide new-curriculum.md, "What is computed", on the guide's defaults. */

const rules = DEFAULT_NC_RULES;
const topics = [
  { topic_id: 't1', title: 'Number bases' },
  { topic_id: 't2', title: 'Working with integers' },
  { topic_id: 't3', title: 'Fractions' },
];

/** A subject with AOI scores by topic (each list one activity per mark type) and an exam out of 100. */
function subject(
  scores: Record<string, Array<number | typeof ABSENT>>,
  exam: number | typeof ABSENT | null,
  fields: Partial<NcSubjectInput> = {},
): NcSubjectInput {
  return {
    subject_id: fields.subject_id ?? 'maths',
    subject: fields.subject ?? 'Mathematics',
    topics,
    aois: Object.entries(scores).flatMap(([topic_id, values]) =>
      values.map((value, index) => ({ topic_id, marktype_id: `aoi${index}`, value })),
    ),
    exam: exam === null ? null : { mark: exam, outof: 100 },
    project: null,
    ...fields,
  };
}
const n = (value: Parameters<typeof toNumber>[0]) => toNumber(value);

describe('topic and subject scores', () => {
  it('a topic is the mean of its activities; the subject the mean of its topics; an ABS is no score', () => {
    const graded = gradeNcSubject(subject({ t1: [3, 2], t2: [2, ABSENT], t3: [ABSENT] }, 70), rules);
    expect(graded.topics.map((topic) => n(topic.score))).toEqual([2.5, 2, null]);
    expect(graded.topics.map((topic) => topic.identifier?.label ?? null)).toEqual(['Outstanding', 'Moderate', null]);
    // (2.5 + 2) / 2: the missed topic does not pull the subject down.
    expect(n(graded.score)).toBe(2.25);
    expect(graded.identifier?.label).toBe('Moderate');
    expect(explainText(graded.topics[0]?.explain ?? { code: 'mean.none', params: {} })).toBe(
      'Number bases: the mean of its activities of integration (3, 2) is 2.5.',
    );
  });

  it('describes at the band edges exactly: 2.5 and 1.5 in, 2.49 and 1.49 below', () => {
    expect(ncIdentifier(exact(2.5), rules)?.label).toBe('Outstanding');
    expect(ncIdentifier(exact(2.49), rules)?.label).toBe('Moderate');
    expect(ncIdentifier(exact(1.5), rules)?.label).toBe('Moderate');
    expect(ncIdentifier(exact(1.49), rules)?.label).toBe('Basic');
    expect(ncIdentifier(exact(1), rules)?.label).toBe('Basic');
    // (2.4 + 2.5 + 2.6) / 3 is exactly 2.5, whatever floats make of it.
    const graded = gradeNcSubject(subject({ t1: [2.4], t2: [2.5], t3: [2.6] }, null), rules);
    expect(graded.identifier?.label).toBe('Outstanding');
  });
});

describe('formative, summative, total and grade', () => {
  it('mode A: the score out of 3 to 20; the exam % x 0.8; their sum graded by the table', () => {
    // Score 2.25 -> 15 of 20; exam 70 -> 56 of 80; total 71 -> B.
    const graded = gradeNcSubject(subject({ t1: [3, 2], t2: [2] }, 70), rules);
    expect([n(graded.formative), n(graded.summative), n(graded.total)]).toEqual([15, 56, 71]);
    expect(graded.grade?.grade).toBe('B');
    expect(graded.grade?.descriptor).toMatch(/^Outstanding: demonstrates a high level of competency/);
  });

  it('mode B: the score to 10 and the project to 10; without a project score, the score alone', () => {
    const modeB: NcRules = { ...rules, formative: 'scoresAndProject' };
    const withProject = gradeNcSubject(subject({ t1: [3] }, 50, { project: { score: 8, max: 10 } }), modeB);
    // 3/3 x 10 + 8/10 x 10 = 18; 50 x 0.8 = 40; total 58 -> D.
    expect([n(withProject.formative), n(withProject.summative), n(withProject.total)]).toEqual([18, 40, 58]);
    expect(withProject.grade?.grade).toBe('D');
    const without = gradeNcSubject(subject({ t1: [3] }, 50, { project: { score: null, max: 10 } }), modeB);
    expect(n(without.formative)).toBe(20);
    expect(without.explain.formative.code).toBe('nc.formativeNoProject');
  });

  it('Disable Formative: the exam % alone is the total, no activity counted', () => {
    const graded = gradeNcSubject(subject({ t1: [1] }, 81), rules, { noFormative: true });
    expect([n(graded.score), n(graded.formative), n(graded.total)]).toEqual([null, null, 81]);
    expect(graded.grade?.grade).toBe('A');
  });

  it('grades at the edges: 80 A, 79.9 B, 50 D, 49.9 E, 0 E', () => {
    for (const [total, grade] of [
      [80, 'A'],
      [79.9, 'B'],
      [70, 'B'],
      [60, 'C'],
      [50, 'D'],
      [49.9, 'E'],
      [0, 'E'],
    ] as const)
      expect(ncGrade(exact(total), rules.grades)?.grade, String(total)).toBe(grade);
  });

  it('an ABS or missing exam is no summative part and no total, never a 0', () => {
    const absent = gradeNcSubject(subject({ t1: [3] }, ABSENT), rules);
    expect([n(absent.formative), n(absent.summative), n(absent.total), absent.grade]).toEqual([20, null, null, null]);
    expect(absent.explain.summative.code).toBe('nc.examAbsent');
    const missing = gradeNcSubject(subject({ t1: [3] }, null), rules);
    expect(missing.explain.summative.code).toBe('nc.examMissing');
    // No activity scored: no formative part, so no total either.
    const unscored = gradeNcSubject(subject({}, 90), rules);
    expect([n(unscored.score), n(unscored.total), unscored.shown]).toEqual([null, null, true]);
  });

  it("a class and subject's grade set of the school's letters is its table; a D1..F9 set is not", () => {
    const letters = [
      { grade: 'E', lower: 0 },
      { grade: 'A', lower: 75 },
      { grade: 'B', lower: 65 },
      { grade: 'C', lower: 55 },
      { grade: 'D', lower: 45 },
    ];
    const graded = gradeNcSubject(subject({ t1: [3] }, 70, { gradeSet: letters }), rules);
    // 20 + 56 = 76: an A by the set (75 up), a B by the rules' 80.
    expect(graded.grade?.grade).toBe('A');
    expect(graded.grade?.descriptor).toMatch(/^Exceptional/);
    const old = [
      { grade: 'D1', lower: 80 },
      { grade: 'F9', lower: 0 },
    ];
    expect(gradeNcSubject(subject({ t1: [3] }, 70, { gradeSet: old }), rules).grade?.grade).toBe('B');
  });

  it('a class and subject with its own A..E table grades by it', () => {
    const own = [
      { grade: 'A', atLeast: 75, descriptor: '' },
      { grade: 'E', atLeast: 0, descriptor: '' },
    ];
    expect(gradeNcSubject(subject({ t1: [3] }, 70, { grades: own }), rules).grade?.grade).toBe('A');
  });
});

describe('a learner', () => {
  it('leaves off a subject with no score and no exam mark; the overall is the mean of scores and of totals', () => {
    const learner = gradeNcLearner(
      [
        subject({ t1: [3] }, 90, { subject_id: 'a', subject: 'Mathematics' }),
        subject({ t1: [1.5] }, 40, { subject_id: 'b', subject: 'English Language' }),
        subject({}, null, { subject_id: 'c', subject: 'Chemistry' }),
      ],
      rules,
    );
    expect(learner.subjects.map((row) => row.subject)).toEqual(['Mathematics', 'English Language']);
    // Scores 3 and 1.5 -> 2.25 Moderate; totals 20 + 72 = 92 and 10 + 32 = 42 -> 67 C.
    expect(n(learner.overall.score)).toBe(2.25);
    expect(learner.overall.identifier?.label).toBe('Moderate');
    expect(n(learner.overall.total)).toBe(67);
    expect(learner.overall.grade?.grade).toBe('C');
    expect(learner.certificate).toBeNull();
  });

  it('previews the S4 certificate: Result 1, 2 and 3', () => {
    const eight = (exam: number, fields: Partial<NcSubjectInput> = {}) =>
      Array.from({ length: 8 }, (_, index) =>
        subject({ t1: [2] }, exam, { subject_id: `s${index}`, subject: `Subject ${index}`, compulsory: index < 4, ...fields }),
      );
    const withProject = (subjects: NcSubjectInput[]) =>
      subjects.map((row, index) => (index === 0 ? { ...row, project: { score: 7, max: 10 } } : row));
    // Totals 13.33 + 48 = 61.3 (C) in eight subjects with a project: Result 1.
    expect(gradeNcLearner(withProject(eight(60)), rules, { certificate: true }).certificate?.result).toBe('Result 1');
    // No project score: Result 2.
    expect(gradeNcLearner(eight(60), rules, { certificate: true }).certificate?.result).toBe('Result 2');
    // Seven subjects: Result 2.
    expect(gradeNcLearner(withProject(eight(60)).slice(1), rules, { certificate: true }).certificate?.result).toBe('Result 2');
    // Every subject E (13.33 + 8 = 21.3): Result 3.
    expect(gradeNcLearner(withProject(eight(10)), rules, { certificate: true }).certificate?.result).toBe('Result 3');
  });
});

describe("the school's new-curriculum rules", () => {
  it('default in saved rules without them, and refuse bands that are not best first ending at 0', () => {
    const { newCurriculum: _nc, ...older } = DEFAULT_GRADING_RULES;
    expect(GradingRulesSchema.parse(older).newCurriculum).toEqual(DEFAULT_NC_RULES);
    const unsorted = { ...rules, grades: [rules.grades[1], rules.grades[0], ...rules.grades.slice(2)] };
    expect(NcRulesSchema.safeParse(unsorted).success).toBe(false);
    const noFloor = { ...rules, identifiers: rules.identifiers.slice(0, 2) };
    expect(NcRulesSchema.safeParse(noFloor).success).toBe(false);
    expect(
      NcRulesSchema.safeParse({ ...rules, identifiers: [{ ...rules.identifiers[0], atLeast: 2.55 }, ...rules.identifiers.slice(1)] })
        .success,
    ).toBe(false);
  });
});
