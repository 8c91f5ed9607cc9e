import { describe, expect, it } from 'vitest';
import { defaultGradeBands } from '../grading/bands.js';
import { explainText } from '../grading/engine/explain.js';
import { DEFAULT_GRADING_RULES } from '../grading/engine/rules.js';
import { gradeClass } from './graded-class.js';
import type { GradingInputs, GradingSubject } from './graded-results.js';
import {
  AGGREGATE_RANGE,
  aggpointTable,
  alevelTable,
  asummaryTable,
  averageTable,
  caverageTable,
  classWeightedAggTable,
  competitionRanks,
  dcpfTable,
  departmentWeightedAggTable,
  divisionTable,
  mgpTable,
  paperTable,
  pleSheet,
  progressSubjectsTable,
  progressTable,
  STATISTICS_CATEGORIES_BUILT,
  type StatLearner,
  type StatSubject,
  type StatTable,
  scategoryTable,
  statisticsDisplay,
  statLearnersOf,
  subjectMeanTable,
  tdcpfTable,
  trendOf,
  weightedAggTable,
} from './statistics.js';

/*
 * The statistics categories on a small class made by hand, every answer worked out here:
 * stream A of three learners, stream B of one learner absent from everything, and Art that
 * nobody sat.
 *
 *            ENG        MTC        SCI        total avg  agg  div
 *   L1 (A)   80 (2)     70 (3)     ABS        150   75   10   I
 *   L2 (A)   60 (4)     70 (3)     50 (6)     180   60   20   II
 *   L3 (A)   80 (2)     40 (9)     60 (4)     180   60   20   II
 *   L4 (B)   ABS        ABS        ABS        -     -    -    X
 */

const CATEGORIES: Record<string, string> = { ENG: 'english', MTC: 'mathematics', SCI: 'science' };

const sub = (id: string, total: number | null | 'ABS', value: number | null = null): StatSubject => ({
  subject_id: id,
  subject: id,
  total: total === 'ABS' ? null : total,
  absent: total === 'ABS',
  grade: value === null ? null : `G${value}`,
  value,
  category: CATEGORIES[id] ?? null,
});

const learner = (
  id: string,
  stream: string,
  subjects: StatSubject[],
  numbers: { total: number | null; average: number | null; aggregate: number | null; division: string | null },
): StatLearner => ({ id, name: id, stream, gender: null, subjects, ...numbers });

const CLASS: StatLearner[] = [
  learner('L1', 'A', [sub('ENG', 80, 2), sub('MTC', 70, 3), sub('SCI', 'ABS')], {
    total: 150,
    average: 75,
    aggregate: 10,
    division: 'I',
  }),
  learner('L2', 'A', [sub('ENG', 60, 4), sub('MTC', 70, 3), sub('SCI', 50, 6)], {
    total: 180,
    average: 60,
    aggregate: 20,
    division: 'II',
  }),
  learner('L3', 'A', [sub('ENG', 80, 2), sub('MTC', 40, 9), sub('SCI', 60, 4)], {
    total: 180,
    average: 60,
    aggregate: 20,
    division: 'II',
  }),
  learner('L4', 'B', [sub('ENG', 'ABS'), sub('MTC', 'ABS'), sub('SCI', 'ABS')], {
    total: null,
    average: null,
    aggregate: null,
    division: 'X',
  }),
];

const SUBJECTS = ['ENG', 'MTC', 'SCI', 'ART'].map((id) => ({ subject_id: id, subject: id }));

const value = (table: StatTable, row: string, column: string) => table.rows.find((each) => each.key === row)?.cells[column]?.value;

describe('competition ranks', () => {
  it('share a rank on a tie and skip the next, in either direction; no score, no rank', () => {
    const scores = [
      { key: 'a', score: 5 },
      { key: 'b', score: 7 },
      { key: 'c', score: 5 },
      { key: 'd', score: 9 },
      { key: 'e', score: null },
    ];
    const lower = competitionRanks(scores, 'lower', 'aggregate');
    expect(['a', 'c', 'b', 'd', 'e'].map((key) => lower.get(key)?.value)).toEqual([1, 1, 3, 4, null]);
    const higher = competitionRanks(scores, 'higher', 'average');
    expect(['d', 'b', 'a', 'c', 'e'].map((key) => higher.get(key)?.value)).toEqual([1, 2, 3, 3, null]);
    const tied = lower.get('a')?.explain;
    expect(tied && explainText(tied)).toContain('shared by 2');
  });
});

describe('division', () => {
  it('counts learners per division per stream and the class; % Division I and I+II of every learner', () => {
    const table = divisionTable(CLASS);
    expect(table.rows.map((row) => row.key)).toEqual(['stream:A', 'stream:B', 'class']);
    expect(value(table, 'stream:A', 'I')).toBe(1);
    expect(value(table, 'stream:A', 'II')).toBe(2);
    expect(value(table, 'stream:A', 'X')).toBe(0);
    // A stream of one learner, absent from everything: one X, no Division I.
    expect(value(table, 'stream:B', 'X')).toBe(1);
    expect(value(table, 'stream:B', 'N')).toBe(1);
    expect(value(table, 'stream:B', 'pctI')).toBe(0);
    expect(value(table, 'class', 'N')).toBe(4);
    expect(value(table, 'class', 'pctI')).toBe(25); // 1 of 4
    expect(value(table, 'class', 'pctI_II')).toBe(75); // 3 of 4
  });
});

describe('aggpoint', () => {
  it('counts learners per aggregate, those without one in X, with a cumulative row (lower is better)', () => {
    const table = aggpointTable(CLASS, AGGREGATE_RANGE.primary);
    expect(table.columns[0]?.key).toBe('4');
    expect(value(table, 'total', '10')).toBe(1);
    expect(value(table, 'total', '20')).toBe(2);
    expect(value(table, 'total', 'X')).toBe(1);
    expect(value(table, 'stream:B', 'X')).toBe(1);
    expect(value(table, 'cumulative', '9')).toBe(0);
    expect(value(table, 'cumulative', '10')).toBe(1);
    expect(value(table, 'cumulative', '19')).toBe(1);
    expect(value(table, 'cumulative', '20')).toBe(3);
    expect(value(table, 'cumulative', '36')).toBe(3); // the X learner is never at an aggregate
  });
});

describe('mgp', () => {
  it('means the grade values of those graded, ranks the lowest first, ties sharing; ABS left out', () => {
    const table = mgpTable(CLASS, SUBJECTS, new Map([['ENG', 'JK']]));
    // ENG: (2 + 4 + 2) / 3; L4's ABS left out, not counted F9.
    expect(value(table, 'ENG', 'mgp')).toBeCloseTo(8 / 3, 10);
    expect(value(table, 'ENG', 'N')).toBe(3);
    expect(value(table, 'ENG', 'teacher')).toBe('JK');
    // MTC: (3 + 3 + 9) / 3 = 5; SCI: (6 + 4) / 2 = 5, L1 and L4 absent: a tie.
    expect(value(table, 'MTC', 'mgp')).toBe(5);
    expect(value(table, 'SCI', 'mgp')).toBe(5);
    expect(value(table, 'ENG', 'rank')).toBe(1);
    expect(value(table, 'MTC', 'rank')).toBe(2);
    expect(value(table, 'SCI', 'rank')).toBe(2);
    // The stream of one learner, absent: no mean, said why.
    const b = table.rows.find((row) => row.key === 'ENG')?.cells['stream:B'];
    expect(b?.value).toBeNull();
    expect(b?.explain?.code).toBe('mean.none');
    // Art, that nobody sat: no mean, no rank.
    expect(value(table, 'ART', 'mgp')).toBeNull();
    expect(value(table, 'ART', 'rank')).toBeNull();
    expect(value(table, 'ART', 'N')).toBe(0);
    const why = table.rows.find((row) => row.key === 'SCI')?.cells.mgp?.explain;
    expect(why && explainText(why)).toBe('Mean 5: 10 over 2 learners.');
  });
});

describe('average', () => {
  it('lists each learner by position on the average (highest first), ties sharing, no average unranked', () => {
    const table = averageTable(CLASS, SUBJECTS);
    expect(table.rows.map((row) => [row.key, row.cells.position?.value])).toEqual([
      ['L1', 1],
      ['L2', 2],
      ['L3', 2],
      ['L4', null],
    ]);
    expect(value(table, 'L1', 'SCI')).toBe('ABS');
    expect(value(table, 'L1', 'ART')).toBeNull();
    expect(value(table, 'L4', 'average')).toBeNull();
    expect(table.rows.find((row) => row.key === 'L4')?.cells.position?.explain?.code).toBe('position.unranked');
  });
});

describe('subjectmean', () => {
  it('means the marks of those who sat, ranks the highest first; a subject nobody sat has none', () => {
    const table = subjectMeanTable(CLASS, SUBJECTS);
    expect(value(table, 'ENG', 'mean')).toBeCloseTo(220 / 3, 10);
    expect(value(table, 'ENG', 'absent')).toBe(1);
    expect(value(table, 'ENG', 'highest')).toBe(80);
    expect(value(table, 'ENG', 'lowest')).toBe(60);
    // Deviations 20/3, -40/3, 20/3: variance (400 + 1600 + 400) / 9 / 3 = 800 / 9.
    expect(value(table, 'ENG', 'sd')).toBeCloseTo(Math.sqrt(800 / 9), 10);
    expect(value(table, 'MTC', 'mean')).toBe(60);
    expect(value(table, 'SCI', 'mean')).toBe(55); // (50 + 60) / 2: ABS is not a 0
    expect(value(table, 'SCI', 'absent')).toBe(2);
    expect(value(table, 'SCI', 'sd')).toBe(5);
    expect(['ENG', 'MTC', 'SCI', 'ART'].map((id) => value(table, id, 'rank'))).toEqual([1, 2, 3, null]);
    expect(value(table, 'ART', 'mean')).toBeNull();
    expect(value(table, 'ART', 'highest')).toBeNull();
  });
});

describe('dcpf and tdcpf', () => {
  it('group grade values D 1-2, C 3-6, P 7-8, F 9 among those graded; ABS in X, never F', () => {
    const table = dcpfTable(CLASS, SUBJECTS);
    expect(['D', 'C', 'P', 'F', 'X', 'N'].map((key) => value(table, 'ENG', key))).toEqual([2, 1, 0, 0, 1, 3]);
    expect(value(table, 'ENG', 'pctD')).toBeCloseTo(200 / 3, 10);
    expect(['D', 'C', 'P', 'F', 'X', 'N'].map((key) => value(table, 'MTC', key))).toEqual([0, 2, 0, 1, 1, 3]);
    expect(['D', 'C', 'P', 'F', 'X', 'N'].map((key) => value(table, 'SCI', key))).toEqual([0, 2, 0, 0, 2, 2]);
    expect(value(table, 'ART', 'N')).toBe(0);
    expect(value(table, 'ART', 'pctD')).toBeNull();
  });

  it('splits by stream when asked: the stream of one absent learner has only an X', () => {
    const table = dcpfTable(CLASS, SUBJECTS, { byStream: true });
    expect(['D', 'C', 'P', 'F', 'X', 'N'].map((key) => value(table, 'ENG:B', key))).toEqual([0, 0, 0, 0, 1, 0]);
    expect(value(table, 'ENG:A', 'D')).toBe(2);
  });

  it('gives cumulative % at D2, C6 and P8 or better', () => {
    const table = tdcpfTable(CLASS, SUBJECTS);
    expect(['D2', 'C6', 'P8'].map((key) => value(table, 'ENG', key))).toEqual([(2 / 3) * 100, 100, 100]);
    expect(['D2', 'C6', 'P8'].map((key) => value(table, 'MTC', key))).toEqual([0, (2 / 3) * 100, (2 / 3) * 100]);
    expect(value(table, 'ART', 'C6')).toBeNull();
  });
});

describe('progress', () => {
  const PREVIOUS: StatLearner[] = [
    learner('L1', 'A', [], { total: 140, average: 70, aggregate: 12, division: 'I' }),
    learner('L2', 'A', [], { total: 180, average: 60, aggregate: 18, division: 'II' }),
    learner('L3', 'A', [], { total: 195, average: 65, aggregate: 20, division: 'II' }),
  ];

  it('on the average, higher is better', () => {
    const table = progressTable(PREVIOUS, CLASS, 'average');
    expect(['L1', 'L2', 'L3', 'L4'].map((id) => [value(table, id, 'change'), value(table, id, 'trend')])).toEqual([
      [5, 'Improved'],
      [0, 'Same'],
      [-5, 'Dropped'],
      [null, null], // not in the previous term, and no average now
    ]);
    expect(['Improved', 'Same', 'Dropped'].map((key) => value(table, 'counts', key))).toEqual([1, 1, 1]);
  });

  it('on the aggregate, lower is better', () => {
    const table = progressTable(PREVIOUS, CLASS, 'aggregate');
    expect(['L1', 'L2', 'L3'].map((id) => [value(table, id, 'change'), value(table, id, 'trend')])).toEqual([
      [-2, 'Improved'],
      [2, 'Dropped'],
      [0, 'Same'],
    ]);
  });

  it('trendOf follows the direction', () => {
    expect(trendOf(10, 12, 'higher')).toBe('Improved');
    expect(trendOf(10, 12, 'lower')).toBe('Dropped');
    expect(trendOf(null, 12, 'lower')).toBeNull();
  });
});

describe('performance indices', () => {
  it('weightedagg: sum(n_g * w_g) / (N * w_max) * 100 per subject, ranked highest first, ties sharing', () => {
    const table = weightedAggTable(CLASS, SUBJECTS);
    // ENG 2, 4, 2: weights 7 + 5 + 7 = 19 of 3 * 8.
    expect(value(table, 'ENG', 'index')).toBeCloseTo((19 / 24) * 100, 10);
    expect(value(table, 'ENG', 'g2')).toBe(2);
    expect(value(table, 'ENG', 'X')).toBe(1);
    // MTC 3, 3, 9: 6 + 6 + 0 = 12 of 24; SCI 6, 4 (two absent, not F9): 3 + 5 = 8 of 16.
    expect(value(table, 'MTC', 'index')).toBe(50);
    expect(value(table, 'SCI', 'index')).toBe(50);
    expect(['ENG', 'MTC', 'SCI', 'ART'].map((id) => value(table, id, 'rank'))).toEqual([1, 2, 2, null]);
    expect(value(table, 'ART', 'index')).toBeNull();
  });

  it('weightedagg with the D/C/P/F 3/2/1/0 weights', () => {
    const table = weightedAggTable(CLASS, SUBJECTS, 'dcpf');
    expect(value(table, 'ENG', 'index')).toBeCloseTo((8 / 9) * 100, 10); // 3 + 2 + 3 of 3 * 3
    expect(value(table, 'MTC', 'index')).toBeCloseTo((4 / 9) * 100, 10); // 2 + 2 + 0
    expect(value(table, 'SCI', 'index')).toBeCloseTo((4 / 6) * 100, 10); // 2 + 2
    expect(['ENG', 'MTC', 'SCI'].map((id) => value(table, id, 'rank'))).toEqual([1, 3, 2]);
  });

  it('classweightedagg: (20 I + 15 II + 10 III + 5 IV) / (20 N) * 100, N those with a result', () => {
    const table = classWeightedAggTable(CLASS);
    expect(value(table, 'stream:A', 'index')).toBeCloseTo((50 / 60) * 100, 10); // 20 + 15 + 15
    expect(value(table, 'stream:A', 'rank')).toBe(1);
    // The stream of one learner, with no result: no index, not a 0.
    expect(value(table, 'stream:B', 'N')).toBe(0);
    expect(value(table, 'stream:B', 'X')).toBe(1);
    expect(value(table, 'stream:B', 'index')).toBeNull();
    expect(value(table, 'stream:B', 'rank')).toBeNull();
    expect(value(table, 'class', 'index')).toBeCloseTo((50 / 60) * 100, 10);
  });

  it('departmentweightedagg pools the grades of a department', () => {
    const table = departmentWeightedAggTable(CLASS, SUBJECTS);
    expect(table.rows.map((row) => row.key)).toEqual(['english', 'mathematics', 'science', '']);
    expect(value(table, 'english', 'index')).toBeCloseTo((19 / 24) * 100, 10);
    expect(['english', 'mathematics', 'science', ''].map((key) => value(table, key, 'rank'))).toEqual([1, 2, 2, null]);
    expect(value(table, 'english', 'stream:B')).toBeNull();
    // Two subjects of one department: MTC and SCI pooled, (12 + 8) of (24 + 16).
    const pooled = departmentWeightedAggTable(
      CLASS.map((each) => ({ ...each, subjects: each.subjects.map((s) => (s.subject_id === 'MTC' ? { ...s, category: 'science' } : s)) })),
      SUBJECTS,
    );
    expect(value(pooled, 'science', 'N')).toBe(5);
    expect(value(pooled, 'science', 'index')).toBe(50);
  });

  it('scategory: the mean grade point by category, lowest first', () => {
    const table = scategoryTable(CLASS, SUBJECTS);
    expect(value(table, 'english', 'mgp')).toBeCloseTo(8 / 3, 10);
    expect(['english', 'mathematics', 'science', ''].map((key) => value(table, key, 'rank'))).toEqual([1, 2, 2, null]);
    expect(value(table, 'science', 'stream:A')).toBe(5);
  });
});

describe('caverage', () => {
  it('means each subject per stream and the learners averages, leaving out ABS and no average', () => {
    const table = caverageTable(CLASS, SUBJECTS);
    expect(value(table, 'ENG', 'stream:A')).toBeCloseTo(220 / 3, 10);
    expect(value(table, 'ENG', 'stream:B')).toBeNull();
    expect(value(table, 'ENG', 'highest')).toBe(80);
    expect(value(table, 'ENG', 'lowest')).toBe(60);
    expect(value(table, 'ART', 'mean')).toBeNull();
    expect(value(table, 'overall', 'mean')).toBe(65); // (75 + 60 + 60) / 3
    expect(value(table, 'overall', 'highest')).toBe(75);
    expect(value(table, 'overall', 'lowest')).toBe(60);
    expect(value(table, 'overall', 'stream:B')).toBeNull();
  });
});

it('lists the categories built, each a code of spec §9', () => {
  const codes = [
    'division',
    'aggpoint',
    'mgp',
    'weightedagg',
    'classweightedagg',
    'departmentweightedagg',
    'progress',
    'scategory',
    'average',
    'caverage',
    'ple',
    'dcpf',
    'tdcpf',
    'alevel',
    'asummary',
    'subjectmean',
    'paper',
  ];
  for (const code of STATISTICS_CATEGORIES_BUILT) expect(codes).toContain(code);
});

describe('statLearnersOf', () => {
  it('reads a class graded by the engine: ABS kept apart, never a 0 or F9', () => {
    const EOT = { id: 'eot', label: 'EOT', outof: 50 };
    const subjects: GradingSubject[] = [{ id: 'eng', name: 'English', code: null, category: 'english' }];
    const inputs: GradingInputs = {
      level: 'plain',
      rawmark: true,
      rules: DEFAULT_GRADING_RULES,
      markTypes: [EOT],
      markTypeLabels: new Map([[EOT.id, EOT.label]]),
      subjects,
      bands: new Map(subjects.map((subject) => [subject.id, defaultGradeBands()])),
      proportions: new Map(),
    };
    const mark = (student_id: string, value: number | null) => ({
      student_id,
      subject_id: 'eng',
      marktype_id: EOT.id,
      paper: 'I',
      mark: value,
      absent: value === null,
    });
    const graded = gradeClass(
      [
        { id: 'amina', stream: 'East', fullname: 'Amina', gender: 'F' as const },
        { id: 'brian', stream: 'East', fullname: 'Brian', gender: 'M' as const },
        { id: 'carol', stream: 'West', fullname: 'Carol', gender: 'F' as const },
      ],
      [mark('amina', 40), mark('brian', null), mark('carol', 45)],
      inputs,
    );
    const learners = statLearnersOf(graded.results);
    const amina = learners[0];
    expect(amina?.name).toBe('Amina');
    expect(amina?.subjects[0]).toMatchObject({ subject_id: 'eng', total: 80, grade: 'D1', value: 1, absent: false, category: 'english' });
    expect(learners[1]?.subjects[0]).toMatchObject({ total: null, value: null, absent: true });
    const table = mgpTable(learners);
    expect(value(table, 'eng', 'N')).toBe(2);
    expect(value(table, 'eng', 'mgp')).toBe(1);
    expect(value(subjectMeanTable(learners), 'eng', 'mean')).toBe(85); // (80 + 90) / 2
  });
});

describe('A level: alevel, asummary, paper', () => {
  /*
   *            HIS        ECO     ENT     GP (subsidiary)   points  passes
   *   A1 (S)   A 6        C 4     E 2     C3 1              13      3P
   *   A2 (S)   O 1        F 0     ABS     F9 0              1       subsidiary only
   *   A3 (S)   A 6        F 0     E 2     F9 0              8       2P
   *   A5 (S)   F 0        F 0     F 0     F9 0              0       fail
   *   A4 (T)   ABS        ABS     ABS     ABS               -       X (a stream of one)
   * HIS papers: A1 I 85 (1), II 80 (2); A2 I 40 (8), II ABS; A4 both ABS.
   */
  const a = (id: string, grade: string | 'ABS', points: number | null, category = 'humanity'): StatSubject => ({
    subject_id: id,
    subject: id,
    total: null,
    absent: grade === 'ABS',
    grade: grade === 'ABS' ? null : grade,
    value: null,
    category,
    points,
  });
  const paper = (name: string, mark: number | null, value: number | null) => ({ paper: name, mark, value });
  const alearner = (id: string, stream: string, subjects: StatSubject[], points: number | null): StatLearner => ({
    ...learner(id, stream, subjects, { total: null, average: null, aggregate: null, division: null }),
    points,
  });
  const ALEVEL: StatLearner[] = [
    alearner(
      'A1',
      'S',
      [
        { ...a('HIS', 'A', 6), papers: [paper('I', 85, 1), paper('II', 80, 2)] },
        a('ECO', 'C', 4),
        a('ENT', 'E', 2),
        a('GP', 'C3', 1, 'subsidiary'),
      ],
      13,
    ),
    alearner(
      'A2',
      'S',
      [
        { ...a('HIS', 'O', 1), papers: [paper('I', 40, 8), paper('II', null, null)] },
        a('ECO', 'F', 0),
        a('ENT', 'ABS', 0),
        a('GP', 'F9', 0, 'subsidiary'),
      ],
      1,
    ),
    alearner('A3', 'S', [a('HIS', 'A', 6), a('ECO', 'F', 0), a('ENT', 'E', 2), a('GP', 'F9', 0, 'subsidiary')], 8),
    alearner('A5', 'S', [a('HIS', 'F', 0), a('ECO', 'F', 0), a('ENT', 'F', 0), a('GP', 'F9', 0, 'subsidiary')], 0),
    alearner(
      'A4',
      'T',
      [
        { ...a('HIS', 'ABS', null), papers: [paper('I', null, null), paper('II', null, null)] },
        a('ECO', 'ABS', null),
        a('ENT', 'ABS', null),
        a('GP', 'ABS', null, 'subsidiary'),
      ],
      null,
    ),
  ];

  it('alevel: letters per principal subject, ABS apart, % principal passes and mean points ranked highest first', () => {
    const table = alevelTable(ALEVEL);
    expect(table.rows.map((row) => row.key)).toEqual(['HIS', 'ECO', 'ENT']); // GP, a subsidiary, has no letter
    expect(['A', 'B', 'C', 'D', 'E', 'O', 'F', 'X', 'N'].map((key) => value(table, 'HIS', key))).toEqual([2, 0, 0, 0, 0, 1, 1, 1, 4]);
    expect(value(table, 'HIS', 'pctPrincipal')).toBe(50);
    expect(value(table, 'HIS', 'meanPoints')).toBe(3.25); // (6 + 1 + 6 + 0) / 4
    expect(value(table, 'ENT', 'N')).toBe(3);
    expect(value(table, 'ENT', 'X')).toBe(2);
    expect(value(table, 'ENT', 'meanPoints')).toBeCloseTo(4 / 3, 10);
    expect(value(table, 'ECO', 'meanPoints')).toBe(1);
    expect(['HIS', 'ENT', 'ECO'].map((id) => value(table, id, 'rank'))).toEqual([1, 2, 3]);
    const byStream = alevelTable(ALEVEL, undefined, { byStream: true });
    expect(value(byStream, 'HIS:T', 'N')).toBe(0);
    expect(value(byStream, 'HIS:T', 'X')).toBe(1);
    expect(value(byStream, 'HIS:T', 'pctPrincipal')).toBeNull();
  });

  it('asummary: learners by principal passes per stream, mean points', () => {
    const table = asummaryTable(ALEVEL);
    const keys = ['P3', 'P2', 'P1', 'subsidiary', 'fail', 'X', 'N'];
    expect(keys.map((key) => value(table, 'stream:S', key))).toEqual([1, 1, 0, 1, 1, 0, 4]);
    expect(keys.map((key) => value(table, 'stream:T', key))).toEqual([0, 0, 0, 0, 0, 1, 1]);
    expect(keys.map((key) => value(table, 'class', key))).toEqual([1, 1, 0, 1, 1, 1, 5]);
    expect(value(table, 'stream:S', 'meanPoints')).toBe(5.5); // (13 + 1 + 8 + 0) / 4
    expect(value(table, 'stream:T', 'meanPoints')).toBeNull();
  });

  it('paper: grade values per paper, ABS in X never F9, the mean mark of those with one', () => {
    const table = paperTable(ALEVEL);
    expect(table.rows.map((row) => row.key)).toEqual(['HIS|I', 'HIS|II']);
    expect(['g1', 'g8', 'g9', 'X', 'N'].map((key) => value(table, 'HIS|I', key))).toEqual([1, 1, 0, 1, 2]);
    expect(value(table, 'HIS|I', 'mean')).toBe(62.5);
    expect(['g2', 'g9', 'X', 'N'].map((key) => value(table, 'HIS|II', key))).toEqual([1, 0, 2, 1]);
    expect(value(table, 'HIS|II', 'mean')).toBe(80);
  });
});

describe('ple', () => {
  it('gives the four blocks of the PLE analysis sheet', () => {
    const sheet = pleSheet(CLASS, SUBJECTS, new Map([['MTC', 'OP']]));
    const grid = sheet.blocks.subjects;
    // ENG 2, 4, 2 and L4 absent: two D2, one C4, one X, 3 graded, 2 of 3 distinctions.
    expect(['g2', 'g4', 'g9', 'X', 'N'].map((key) => value(grid, 'ENG', key))).toEqual([2, 1, 0, 1, 3]);
    expect(value(grid, 'ENG', 'pctD')).toBeCloseTo(200 / 3, 10);
    expect(value(grid, 'MTC', 'g9')).toBe(1);
    expect(value(grid, 'MTC', 'teacher')).toBe('OP');
    expect(value(grid, 'ART', 'N')).toBe(0);
    expect(value(grid, 'ART', 'pctD')).toBeNull();
    expect(value(sheet.blocks.aggregates, 'total', '20')).toBe(2);
    expect(value(sheet.blocks.divisions, 'class', 'pctI')).toBe(25);
    // The mark list by aggregate, lowest first: 10, then the two 20s sharing 2, L4 unranked.
    expect(sheet.blocks.marks.rows.map((row) => [row.key, row.cells.position?.value])).toEqual([
      ['L1', 1],
      ['L2', 2],
      ['L3', 2],
      ['L4', null],
    ]);
    expect(value(sheet.blocks.marks, 'L1', 'SCI')).toBe('ABS');
    expect(value(sheet.blocks.marks, 'L1', 'SCI:grade')).toBe('X');
    expect(value(sheet.blocks.marks, 'L4', 'division')).toBe('X');
  });
});

describe('more views', () => {
  it('division splits by sex when asked; a learner of unknown sex only in the stream row', () => {
    const sexed = CLASS.map((each, index) => ({ ...each, gender: index === 0 ? ('F' as const) : index === 1 ? ('M' as const) : null }));
    const table = divisionTable(sexed, { bySex: true });
    expect(table.rows.map((row) => row.key)).toEqual([
      'stream:A',
      'stream:A:F',
      'stream:A:M',
      'stream:B',
      'stream:B:F',
      'stream:B:M',
      'class',
      'class:F',
      'class:M',
    ]);
    expect(value(table, 'stream:A:F', 'I')).toBe(1);
    expect(value(table, 'stream:A:F', 'pctI')).toBe(100);
    expect(value(table, 'stream:A:M', 'II')).toBe(1);
    expect(value(table, 'stream:B:F', 'N')).toBe(0);
    expect(value(table, 'stream:B:F', 'pctI')).toBeNull();
  });

  it('aggpoint counts A-level points 0..20', () => {
    const table = aggpointTable(
      [
        { ...CLASS[0], points: 13 } as StatLearner,
        { ...CLASS[1], points: 13 } as StatLearner,
        { ...CLASS[3], points: null } as StatLearner,
      ],
      AGGREGATE_RANGE.alevel,
      'points',
    );
    expect(value(table, 'total', '13')).toBe(2);
    expect(value(table, 'total', 'X')).toBe(1);
    expect(value(table, 'cumulative', '20')).toBe(2);
  });

  it('progress on the position: lower is better', () => {
    const before = CLASS.map((each, index) => ({ ...each, position: [2, 1, 3, null][index] ?? null }));
    const now = CLASS.map((each, index) => ({ ...each, position: [1, 2, 3, null][index] ?? null }));
    const table = progressTable(before, now, 'position');
    expect(['L1', 'L2', 'L3', 'L4'].map((id) => value(table, id, 'trend'))).toEqual(['Improved', 'Dropped', 'Same', null]);
  });

  it('progress per subject: the change of each subject mean, ABS left out', () => {
    const before = CLASS.map((each) => ({
      ...each,
      subjects: each.subjects.map((s) => (s.subject_id === 'ENG' && s.total !== null ? { ...s, total: s.total - 10 } : s)),
    }));
    const table = progressSubjectsTable(before, CLASS, SUBJECTS);
    expect(value(table, 'ENG', 'change')).toBeCloseTo(10, 10);
    expect(value(table, 'ENG', 'trend')).toBe('Improved');
    expect(value(table, 'SCI', 'trend')).toBe('Same');
    expect(value(table, 'ART', 'change')).toBeNull();
    expect(value(table, 'ART', 'trend')).toBeNull();
  });
});

describe('precision', () => {
  it('rounds for display only: ranks are on the unrounded numbers', () => {
    expect(statisticsDisplay(200 / 3, 2)).toBe('66.67');
    expect(statisticsDisplay(200 / 3, 0)).toBe('67');
    expect(statisticsDisplay(2.5, 0)).toBe('3');
    expect(statisticsDisplay(null, 2)).toBe('');
    expect(statisticsDisplay('ABS', 2)).toBe('ABS');
    expect(() => statisticsDisplay(1, 5)).toThrow(RangeError);
    expect(() => statisticsDisplay(1, -1)).toThrow(RangeError);
    // 60.004 and 60.001 both show 60.00, yet rank 1 and 2.
    const ranks = competitionRanks(
      [
        { key: 'a', score: 60.001 },
        { key: 'b', score: 60.004 },
      ],
      'higher',
      'average',
    );
    expect([ranks.get('b')?.value, ranks.get('a')?.value]).toEqual([1, 2]);
  });
});
