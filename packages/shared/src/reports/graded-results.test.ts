import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultGradeBands, type GradeBand } from '../grading/bands.js';
import { explainText, printedNumber } from '../grading/engine/explain.js';
import { DEFAULT_GRADING_RULES, type GradingRules, MISSED_RULES, ROUNDING_RULES } from '../grading/engine/rules.js';
import { gradeOfTotal, subjectTotal } from '../grading/engine/subject-total.js';
import {
  type GradingInputs,
  type GradingMark,
  type GradingSubject,
  gradeLearner,
  indexMarks,
  type LearnerResult,
  learnerPositions,
} from './graded-results.js';
import type { ReportLevel } from './model.js';
import { reportNumber } from './words.js';

/*
 * The one grader (issue 23 items 1, 3, 4): exact totals on band edges, fair ranks, and X for a
 * learner with no mark at all. The examples are the ones a head teacher reported.
 */

const BOT = { id: 'b0000000-0000-4000-8000-000000000001', label: 'BOT', outof: 100 };
const MOT = { id: 'b0000000-0000-4000-8000-000000000002', label: 'MOT', outof: 100 };
const EOT = { id: 'b0000000-0000-4000-8000-000000000003', label: 'EOT', outof: 100 };
const BANDS = defaultGradeBands();

const subject = (n: number, name: string, category: string): GradingSubject => ({ id: `s${n}`, name, code: null, category });
const PLE = [
  subject(1, 'English', 'english'),
  subject(2, 'Mathematics', 'mathematics'),
  subject(3, 'Science', 'science'),
  subject(4, 'Social Studies', 'humanity'),
];

function inputs(
  subjects: GradingSubject[],
  weights: Array<[string, number]> | null,
  level: ReportLevel,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): GradingInputs {
  return {
    level,
    rawmark: false,
    rules,
    markTypes: [BOT, MOT, EOT],
    markTypeLabels: new Map([BOT, MOT, EOT].map((type) => [type.id, type.label])),
    subjects,
    bands: new Map(subjects.map((each) => [each.id, BANDS])),
    proportions: weights ? new Map(subjects.map((each) => [each.id, new Map(weights)])) : new Map(),
  };
}

type Value = number | 'ABS' | null;

/** Marks of a learner: per subject, its BOT, MOT and EOT (and the paper, I unless given). */
function marks(learner: string, bySubject: Array<[string, Value, Value, Value, string?]>): GradingMark[] {
  return bySubject.flatMap(([subjectId, ...rest]) => {
    const paper = rest[3] ?? 'I';
    return [BOT, MOT, EOT].flatMap((type, at) => {
      const value = rest[at] as Value;
      if (value === null) return [];
      return [
        {
          student_id: learner,
          subject_id: subjectId,
          marktype_id: type.id,
          paper,
          mark: value === 'ABS' ? null : value,
          absent: value === 'ABS',
        },
      ];
    });
  });
}

function grade(all: GradingMark[], input: GradingInputs, learner = 'l1'): LearnerResult {
  return gradeLearner({ id: learner, stream: null }, indexMarks(all), input);
}

const W_20_20_60: Array<[string, number]> = [
  [BOT.id, 20],
  [MOT.id, 20],
  [EOT.id, 60],
];

describe('totals on a band edge take that band (item 1)', () => {
  it('BOT 58, MOT 68, EOT 58 at 20/20/60 is exactly 60: C5, and the explanation says 58%', () => {
    const result = grade(marks('l1', [['s1', 58, 68, 58]]), inputs([PLE[0] as GradingSubject], W_20_20_60, 'plain'));
    const english = result.subjects[0];
    expect(english?.row).toMatchObject({ total: 60, grade: 'C5' });
    const text = explainText(english?.row.explain.total as never, true);
    expect(text).toContain('58 out of 100 is 58%');
    expect(text).not.toContain('57.99');
  });

  it('Social Studies 53/51/57 at 20/20/60 is exactly 55: C6, so a Division I stays I', () => {
    const result = grade(
      marks('l1', [
        ['s1', 80, 80, 80],
        ['s2', 80, 80, 80],
        ['s3', 75, 75, 75],
        ['s4', 53, 51, 57],
      ]),
      inputs(PLE, W_20_20_60, 'primary'),
    );
    expect(result.subjects[3]?.row).toMatchObject({ total: 55, grade: 'C6' });
    // 1 + 1 + 2 + 6 = 10: Division I (P7 would make 11, still I; the reported case was on the edge of II).
    expect([result.aggregate?.value, result.division?.value]).toEqual([10, 'I']);
  });

  it('an S4 History of 26.5 out of 50, 51 and 57 at 20/20/60 is exactly 55: C6', () => {
    const input = { ...inputs([subject(5, 'History', 'humanity')], W_20_20_60, 'olevel'), markTypes: [{ ...BOT, outof: 50 }, MOT, EOT] };
    const history = grade(marks('l1', [['s5', 26.5, 51, 57]]), input).subjects[0];
    expect(history?.row).toMatchObject({ total: 55, grade: 'C6', marks: { BOT: 10.6, MOT: 10.2, EOT: 34.2 } });
  });

  it('A-level papers at exactly 55 and 60 keep their grades, and the subject its letter', () => {
    const economics = subject(6, 'Economics', 'humanity');
    const result = grade(
      marks('l1', [
        ['s6', 58, 68, 58, 'I'],
        ['s6', 53, 51, 57, 'II'],
      ]),
      inputs([economics], W_20_20_60, 'alevel'),
    );
    expect(result.subjects[0]?.row.papers).toEqual([
      { paper: 'I', mark: 60, grade: 'C5' },
      { paper: 'II', mark: 55, grade: 'C6' },
    ]);
    // Paper values 5 and 6: E in the two-paper table, 2 points.
    expect(result.subjects[0]?.row).toMatchObject({ grade: 'E', points: 2 });
  });

  it('property: for random marks with one decimal and integer proportions, a total exactly on a lower bound takes that band', () => {
    const tenths = fc.integer({ min: 0, max: 1000 });
    fc.assert(
      fc.property(tenths, tenths, tenths, fc.integer({ min: 1, max: 98 }), fc.integer({ min: 1, max: 98 }), (a, b, c, p, q) => {
        fc.pre(p + q < 100);
        const weights = { BOT: p, MOT: q, EOT: 100 - p - q };
        const total = subjectTotal(
          [
            { markType: 'BOT', value: a / 10 },
            { markType: 'MOT', value: b / 10 },
            { markType: 'EOT', value: c / 10 },
          ],
          weights,
        );
        // The oracle, in integers: the total times 1000 is the sum of tenths times percentages.
        const scaled = a * weights.BOT + b * weights.MOT + c * weights.EOT;
        const exactTotal = scaled / 1000;
        const bands: GradeBand[] = [
          { grade: 'BELOW', lower: 0, upper: exactTotal },
          { grade: 'EDGE', lower: exactTotal, upper: 100 },
        ];
        expect(total.value.exact?.equals([scaled, 1000])).toBe(true);
        expect(gradeOfTotal(total.value.exact, bands).value.grade).toBe(exactTotal === 0 ? 'BELOW' : 'EDGE');
      }),
      { numRuns: 2000 },
    );
  });

  it('property: whole marks whose weighted total is a whole number are graded by the default bands as that number', () => {
    const mark = fc.integer({ min: 0, max: 100 });
    fc.assert(
      fc.property(mark, mark, mark, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), (a, b, c, p, q) => {
        fc.pre(p + q < 10);
        const weights = { BOT: p * 10, MOT: q * 10, EOT: 100 - (p + q) * 10 };
        const scaled = a * weights.BOT + b * weights.MOT + c * weights.EOT;
        fc.pre(scaled % 100 === 0);
        const total = subjectTotal(
          [
            { markType: 'BOT', value: a },
            { markType: 'MOT', value: b },
            { markType: 'EOT', value: c },
          ],
          weights,
        );
        const whole = scaled / 100;
        const expected = BANDS.filter((band) => band.lower <= whole).sort((x, y) => y.lower - x.lower)[0]?.grade;
        expect(total.value.total).toBe(whole);
        expect(gradeOfTotal(total.value.exact, BANDS).value.grade).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('fair ranks (item 3) and X for no mark at all (item 4)', () => {
  const learners = ['absent-once', 'four-d1', 'weaker', 'no-marks'];
  const all = [
    // 90, 90, 90 and ABS in Social Studies: Division X, a high average of the three sat.
    ...marks('absent-once', [
      ['s1', 90, 90, 90],
      ['s2', 90, 90, 90],
      ['s3', 90, 90, 90],
      ['s4', 'ABS', 'ABS', 'ABS'],
    ]),
    ...marks('four-d1', [
      ['s1', 82, 82, 82],
      ['s2', 82, 82, 82],
      ['s3', 82, 82, 82],
      ['s4', 82, 82, 82],
    ]),
    ...marks('weaker', [
      ['s1', 60, 60, 60],
      ['s2', 60, 60, 60],
      ['s3', 60, 60, 60],
      ['s4', 60, 60, 60],
    ]),
  ];

  function ranked(rules: GradingRules) {
    const input = inputs(PLE, W_20_20_60, 'primary', rules);
    const index = indexMarks(all);
    const results = learners.map((id) => gradeLearner({ id, stream: 'East' }, index, input));
    const positions = learnerPositions(results, input);
    return { results, rank: (id: string) => positions.get(id)?.class.value };
  }

  it('by default, four D1s rank first and the learner absent from an exam follows the complete results', () => {
    const { rank } = ranked(DEFAULT_GRADING_RULES);
    expect(learners.map(rank)).toEqual([{ rank: 3, outOf: 3 }, { rank: 1, outOf: 3 }, { rank: 2, outOf: 3 }, null]);
  });

  it('a school may leave incomplete results unranked, or rank by average as before', () => {
    const unranked = ranked({ ...DEFAULT_GRADING_RULES, positions: { basis: 'result', incomplete: 'unranked' } });
    expect(learners.map(unranked.rank)).toEqual([null, { rank: 1, outOf: 2 }, { rank: 2, outOf: 2 }, null]);
    // By average, still never above a complete result: the average of three subjects is not of four.
    const byAverage = ranked({ ...DEFAULT_GRADING_RULES, positions: { basis: 'average', incomplete: 'after' } });
    expect(learners.map(byAverage.rank)).toEqual([{ rank: 3, outOf: 3 }, { rank: 1, outOf: 3 }, { rank: 2, outOf: 3 }, null]);
  });

  it('a learner with no mark at all is X, like one absent from every exam, at primary and O level', () => {
    const { results } = ranked(DEFAULT_GRADING_RULES);
    const none = results[3];
    expect([none?.aggregate?.value, none?.division?.value]).toEqual([null, 'X']);
    expect(explainText(none?.division?.explain as never, true)).toContain('English has no mark (missing).');
    const olevel = gradeLearner({ id: 'nobody', stream: null }, indexMarks([]), inputs(PLE, null, 'olevel'));
    expect(olevel.division?.value).toBe('X');
    const absentEverywhere = grade(marks('l1', [['s1', 'ABS', 'ABS', 'ABS']]), inputs(PLE, null, 'olevel'));
    expect(absentEverywhere.division?.value).toBe('X');
  });
});

describe('the missed-test rule and the rounding rule (issue 24 point 4)', () => {
  const W_20_30_50: Array<[string, number]> = [
    [BOT.id, 20],
    [MOT.id, 30],
    [EOT.id, 50],
  ];
  const rules = (missed: GradingRules['missed'], rounding: GradingRules['rounding'] = 'none'): GradingRules => ({
    ...DEFAULT_GRADING_RULES,
    missed,
    rounding,
  });
  // English BOT 60, MOT ABS, EOT 70; D1s elsewhere. Steady: D2 (78) in every subject, aggregate 8.
  const all = [
    ...marks('missed-mot', [
      ['s1', 60, 'ABS', 70],
      ['s2', 85, 85, 85],
      ['s3', 85, 85, 85],
      ['s4', 85, 85, 85],
    ]),
    ...marks('steady', [
      ['s1', 78, 78, 78],
      ['s2', 78, 78, 78],
      ['s3', 78, 78, 78],
      ['s4', 78, 78, 78],
    ]),
  ];
  function classOf(missed: GradingRules['missed']) {
    const input = inputs(PLE, W_20_30_50, 'primary', rules(missed));
    const index = indexMarks(all);
    const results = ['missed-mot', 'steady'].map((id) => gradeLearner({ id, stream: 'East' }, index, input));
    const positions = learnerPositions(results, input);
    const [learner] = results as [LearnerResult];
    return { learner, english: learner.subjects[0]?.row, position: positions.get('missed-mot')?.class };
  }

  it('re-weighted by default: English (12 + 35) / 70 x 100 = 67.14 C4, MOT named as missed; aggregate 7, Division I, first', () => {
    const { learner, english, position } = classOf(DEFAULT_GRADING_RULES.missed);
    expect(english).toMatchObject({ grade: 'C4', missed: ['MOT'], marks: { BOT: 12, MOT: 'ABS', EOT: 35 } });
    expect(printedNumber(english?.total as number)).toBe(67.14);
    expect(explainText(english?.explain.total as never)).toContain('re-weights the mark types sat (MOT missed)');
    expect([learner.aggregate?.value, learner.division?.value]).toEqual([7, 'I']);
    expect(position?.value).toEqual({ rank: 1, outOf: 2 });
    // Complete learners name nothing.
    expect(learner.subjects[1]?.row.missed).toEqual([]);
  });

  it('`zero`: English 47 P7, aggregate 10, second behind the steady D2s', () => {
    const { learner, english, position } = classOf('zero');
    expect(english).toMatchObject({ total: 47, grade: 'P7', missed: ['MOT'] });
    expect([learner.aggregate?.value, learner.division?.value]).toEqual([10, 'I']);
    expect(position?.value).toEqual({ rank: 2, outOf: 2 });
  });

  it('`none`: no total in English, Division X, and the result follows the complete one', () => {
    const { learner, english, position } = classOf('none');
    expect(english).toMatchObject({ total: null, grade: null, missed: [] });
    expect([learner.aggregate?.value, learner.division?.value]).toEqual([null, 'X']);
    expect(position?.value).toEqual({ rank: 2, outOf: 2 });
    expect(position?.explain.code).toBe('position.incompleteAfter');
  });

  // English 59.8, 60, 60 at 20/30/50: 11.96 + 18 + 30 = 59.96 exactly; Mathematics 59.5 in each.
  const edge = marks('l1', [
    ['s1', 59.8, 60, 60],
    ['s2', 59.5, 59.5, 59.5],
  ]);
  const twoSubjects = PLE.slice(0, 2);
  const graded = (rounding: GradingRules['rounding']) =>
    grade(edge, inputs(twoSubjects, W_20_30_50, 'plain', rules('reweight', rounding))).subjects.map((each) => [
      each.row.subject,
      each.row.total,
      each.row.grade,
    ]);

  it('rounding on a band edge: none grades the exact mark, whole and one decimal grade the mark printed', () => {
    expect(graded('none')).toEqual([
      ['English', 59.96, 'C6'],
      ['Mathematics', 59.5, 'C6'],
    ]);
    expect(graded('whole')).toEqual([
      ['English', 60, 'C5'],
      ['Mathematics', 60, 'C5'],
    ]);
    expect(graded('oneDecimal')).toEqual([
      ['English', 60, 'C5'],
      ['Mathematics', 59.5, 'C6'],
    ]);
    // The learner's total is the sum of the marks printed.
    const whole = grade(edge, inputs(twoSubjects, W_20_30_50, 'plain', rules('reweight', 'whole')));
    expect(whole.total.value?.valueOf()).toBe(120);
    expect(explainText(whole.subjects[0]?.row.explain.total as never)).toBe(
      'The mark 60 is the total 59.96 rounded half up to a whole number; the school grades the rounded mark.',
    );
  });

  it('papers are rounded before the subject mark is their mean, and the mean is rounded again', () => {
    const economics = subject(6, 'Economics', 'humanity');
    const input = { ...inputs([economics], null, 'alevel', rules('reweight', 'whole')), markTypes: [EOT] };
    const byPaper = [
      { student_id: 'l1', subject_id: 's6', marktype_id: EOT.id, paper: 'I', mark: 59.5, absent: false },
      { student_id: 'l1', subject_id: 's6', marktype_id: EOT.id, paper: 'II', mark: 60.6, absent: false },
    ];
    const row = grade(byPaper, input).subjects[0]?.row;
    // 60 and 61: mean 60.5, rounded 61 (unrounded: 60.05).
    expect(row?.papers).toEqual([
      { paper: 'I', mark: 60, grade: 'C5' },
      { paper: 'II', mark: 61, grade: 'C5' },
    ]);
    expect(row?.total).toBe(61);
  });

  it('the card prints 59.96 as 59.9 beside its C6, never 60 (cut, not rounded)', () => {
    expect([reportNumber(59.96), reportNumber(44.96), reportNumber(60), reportNumber(1234.56)]).toEqual(['59.9', '44.9', '60', '1,234.5']);
  });

  it("property: under every rule the printed mark (the model's and the card's) takes the grade printed beside it", () => {
    const value = fc.oneof(
      fc.integer({ min: 0, max: 1000 }).map((tenths) => tenths / 10),
      fc.constant<'ABS'>('ABS'),
      fc.constant(null),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value), { minLength: 4, maxLength: 4 }),
        fc.constantFrom(...MISSED_RULES),
        fc.constantFrom(...ROUNDING_RULES),
        (bySubject, missed, rounding) => {
          const learner = grade(
            marks(
              'l1',
              bySubject.map(([b, m, e], index): [string, Value, Value, Value] => [`s${index + 1}`, b, m, e]),
            ),
            inputs(PLE, W_20_30_50, 'primary', rules(missed, rounding)),
          );
          // The model cuts to two decimals (printedNumber); the card prints that through reportNumber.
          return learner.subjects.every(({ row }) => {
            if (row.total === null) return row.grade === null;
            const onCard = Number(reportNumber(printedNumber(row.total)).replaceAll(',', ''));
            return (
              gradeOfTotal(printedNumber(row.total), BANDS).value.grade === row.grade &&
              gradeOfTotal(onCard, BANDS).value.grade === row.grade
            );
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
