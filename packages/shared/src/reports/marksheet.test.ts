import { describe, expect, it } from 'vitest';
import { explanation } from '../grading/engine/explain.js';
import {
  MARKSHEET_WORDS,
  marksheetCellText,
  marksheetCounts,
  marksheetCountTables,
  marksheetFileName,
  marksheetSubjects,
  marksheetTable,
  subjectCode,
} from './marksheet.js';
import type { ReportLearner, ReportModel, ReportSubject } from './model.js';

/*
 * The mark sheet's table and counts: pure functions of a report model made by hand here (the
 * grading engine's numbers have tests of their own).
 */

const why = explanation('learner.noTotal');
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SUBJECTS = {
  english: { id: id(101), subject: 'English', code: 'ENG' },
  maths: { id: id(102), subject: 'Mathematics', code: 'MTC' },
  science: { id: id(103), subject: 'Science', code: null },
  sst: { id: id(104), subject: 'Social Studies', code: null },
  re: { id: id(105), subject: 'Religious Education', code: 'RE' },
} as const;
type SubjectName = keyof typeof SUBJECTS;

function subject(name: SubjectName, total: number | null, grade: string | null, marks: ReportSubject['marks'] = {}): ReportSubject {
  const { id: subject_id, subject: title, code } = SUBJECTS[name];
  return {
    subject_id,
    subject: title,
    code,
    marks,
    total,
    grade,
    missed: [],
    points: null,
    comment: '',
    initials: null,
    explain: { total: why, grade: why },
  };
}

interface LearnerSpec {
  n: number;
  name: string;
  stream?: string | null;
  subjects: ReportSubject[];
  total?: number | null;
  average?: number | null;
  aggregate?: number | null;
  division?: string | null;
  points?: number | null;
  position?: { class: number | null; stream: number | null };
}

function learner(spec: LearnerSpec): ReportLearner {
  return {
    id: id(spec.n),
    studentid: `P7/${String(spec.n).padStart(3, '0')}`,
    fullname: spec.name,
    gender: 'F',
    lin: null,
    form: 'P7',
    stream: spec.stream === undefined ? 'East' : spec.stream,
    photo: null,
    subjects: spec.subjects,
    total: spec.total ?? null,
    average: spec.average ?? null,
    aggregate: spec.aggregate ?? null,
    division: spec.division ?? null,
    points: spec.points ?? null,
    position: { class: spec.position?.class ?? null, stream: spec.position?.stream ?? null, of: 4, streamOf: 2 },
    attendance: null,
    remarks: [],
    footers: [],
    feesBalance: null,
    explain: { total: why, average: why, aggregate: null, division: null, points: null, position: { stream: why, class: why } },
  };
}

function model(learners: ReportLearner[], report: Partial<ReportModel['report']> = {}): ReportModel {
  return {
    school: { name: 'Kitante Primary', address: null, phone: null, email: null, logo: null, lines: [] },
    report: {
      label: 'END OF TERM',
      form: 'P7',
      stream: null,
      term: 'I',
      year: 2026,
      category: 'exam',
      level: 'primary',
      rawmark: false,
      separate: false,
      ...report,
    },
    markTypes: [],
    warnings: [],
    gradeKey: null,
    key: [],
    streams: 2,
    nextTerm: null,
    signatures: [],
    means: { class: null, streams: {} },
    learners,
  };
}

/** A P7 class of two streams: Carol first in the class, Brian and Amina tied second, David unranked. */
const PRIMARY = [
  learner({
    n: 1,
    name: 'Amina Okello',
    subjects: [subject('english', 80, 'D1'), subject('maths', 70, 'C3'), subject('science', 75, 'D2'), subject('sst', 65, 'C4')],
    total: 290,
    average: 72.5,
    aggregate: 10,
    division: 'I',
    position: { class: 2, stream: 1 },
  }),
  learner({
    n: 2,
    name: 'Brian Okello',
    subjects: [subject('english', 70, 'C3'), subject('maths', 80, 'D1'), subject('science', 65, 'C4'), subject('sst', 75, 'D2')],
    total: 290,
    average: 72.5,
    aggregate: 10,
    division: 'I',
    position: { class: 2, stream: 1 },
  }),
  learner({
    n: 3,
    name: 'Carol Atim',
    stream: 'West',
    subjects: [
      subject('english', 90, 'D1'),
      subject('maths', 90, 'D1'),
      subject('science', 90, 'D1'),
      subject('sst', 50, 'P7'),
      subject('re', 60, 'C5'),
    ],
    total: 410,
    average: 82,
    aggregate: 10,
    division: 'I',
    position: { class: 1, stream: 1 },
  }),
  learner({
    n: 4,
    name: 'David Opio',
    stream: 'West',
    subjects: [
      subject('english', 40, 'P8'),
      subject('maths', null, null, { BOT: 'ABS', EOT: 'ABS' }),
      subject('science', null, null, { BOT: 30, EOT: null }),
      subject('sst', 30, 'F9'),
    ],
    total: 70,
    average: 35,
    aggregate: null,
    division: 'X',
    position: { class: null, stream: null },
  }),
];

const texts = (row: { cells: unknown[] }) => row.cells.map((cell) => marksheetCellText(cell as never));

describe('the mark sheet table', () => {
  it('has the learner columns, a total and a grade under each subject code, then the results and the position', () => {
    const table = marksheetTable(model(PRIMARY));
    expect(table.subjects.map((each) => each.code)).toEqual(['ENG', 'MTC', 'SCI', 'SS', 'RE']);
    expect(table.columns.map((column) => column.header)).toEqual([
      'No.',
      'Student ID',
      'Name',
      'Stream',
      ...Array.from({ length: 5 }, () => ['Mk', 'Gr']).flat(),
      'Total',
      'Avg',
      'Agg',
      'Div',
      'Pos',
    ]);
    expect(table.headings.map((heading) => [heading.label, heading.from, heading.span, heading.grouped])).toEqual([
      ['No.', 0, 1, false],
      ['Student ID', 1, 1, false],
      ['Name', 2, 1, false],
      ['Stream', 3, 1, false],
      ['ENG', 4, 2, true],
      ['MTC', 6, 2, true],
      ['SCI', 8, 2, true],
      ['SS', 10, 2, true],
      ['RE', 12, 2, true],
      ['Total', 14, 1, false],
      ['Avg', 15, 1, false],
      ['Agg', 16, 1, false],
      ['Div', 17, 1, false],
      ['Pos', 18, 1, false],
    ]);
    expect(table.headings.find((heading) => heading.label === 'SS')?.title).toBe('Social Studies');
  });

  it('orders learners by position (ties in the model’s order, the unranked last) and fills each cell from the model', () => {
    const table = marksheetTable(model(PRIMARY));
    expect(table.rows.map((row) => row.cells[2])).toEqual(['Carol Atim', 'Amina Okello', 'Brian Okello', 'David Opio']);
    // The model lists learners as the class list does (surname, then first name): a tie keeps that order.
    const [first, second, ...rest] = PRIMARY as [ReportLearner, ReportLearner, ...ReportLearner[]];
    const byClassList = marksheetTable(model([second, first, ...rest]));
    expect(byClassList.rows.map((row) => row.cells[2])).toEqual(['Carol Atim', 'Brian Okello', 'Amina Okello', 'David Opio']);
    const [carol, amina, , david] = table.rows;
    expect(carol?.cells).toEqual([
      1,
      'P7/003',
      'Carol Atim',
      'West',
      90,
      'D1',
      90,
      'D1',
      90,
      'D1',
      50,
      'P7',
      60,
      'C5',
      410,
      82,
      10,
      'I',
      1,
    ]);
    // Amina takes no RE: empty, not "-".
    expect(amina?.cells.slice(12, 14)).toEqual([null, null]);
    // David: absent from every Mathematics mark (ABS), a Science mark missing (-), no position.
    expect(texts(david as never)).toEqual([
      '4',
      'P7/004',
      'David Opio',
      'West',
      '40',
      'P8',
      'ABS',
      '-',
      '-',
      '-',
      '30',
      'F9',
      '',
      '',
      '70',
      '35',
      '-',
      'X',
      '-',
    ]);
  });

  it('of one stream: no stream column, the position in the stream and in the class', () => {
    const west = PRIMARY.filter((each) => each.stream === 'West');
    const table = marksheetTable(model(west, { stream: 'West' }));
    expect(table.columns.map((column) => column.kind)).not.toContain('stream');
    expect(table.columns.slice(-2).map((column) => column.header)).toEqual(['Pos', 'Class pos']);
    expect(table.rows.map((row) => row.cells.slice(-2))).toEqual([
      [1, 1],
      ['-', '-'],
    ]);
  });

  it('at A level: points instead of aggregate and division; plain (pre-primary): neither', () => {
    const alevel = marksheetTable(
      model([learner({ n: 1, name: 'A', subjects: [subject('maths', 70, 'B')], points: 5 })], { level: 'alevel' }),
    );
    expect(alevel.columns.slice(-3).map((column) => column.header)).toEqual(['Avg', 'Pts', 'Pos']);
    expect(alevel.rows[0]?.cells.at(-2)).toBe(5);
    const plain = marksheetTable(model([learner({ n: 1, name: 'A', subjects: [subject('maths', 70, 'C3')] })], { level: 'plain' }));
    expect(plain.columns.slice(-3).map((column) => column.header)).toEqual(['Total', 'Avg', 'Pos']);
  });

  it('recovers the school’s subject order from learners who take different subjects', () => {
    const learners = [
      learner({ n: 1, name: 'A', subjects: [subject('maths', 1, null), subject('re', 1, null)] }),
      learner({ n: 2, name: 'B', subjects: [subject('english', 1, null), subject('science', 1, null), subject('re', 1, null)] }),
      learner({
        n: 3,
        name: 'C',
        subjects: [subject('english', 1, null), subject('maths', 1, null), subject('sst', 1, null), subject('re', 1, null)],
      }),
    ];
    expect(marksheetSubjects(learners).map((each) => each.code)).toEqual(['ENG', 'MTC', 'SCI', 'SS', 'RE']);
    expect(marksheetSubjects([])).toEqual([]);
  });

  it('makes a code for a subject without one, and names the files by class, stream, year and term', () => {
    expect(subjectCode({ subject: 'Luganda', code: null })).toBe('LUG');
    expect(subjectCode({ subject: 'Social Studies', code: '  ' })).toBe('SS');
    expect(subjectCode({ subject: 'Mathematics', code: 'MTC' })).toBe('MTC');
    expect(marksheetFileName({ form: 'P7', stream: null, year: 2026, term: 'II' })).toBe('marksheet-P7-all-2026-II');
    expect(marksheetFileName({ form: 'S.5', stream: 'North East', year: 2026, term: 'I' })).toBe('marksheet-S_5-North_East-2026-I');
  });
});

describe('the counts under the table', () => {
  it('counts each subject’s learners per grade, best first, and the learners per division', () => {
    const counts = marksheetCounts(model(PRIMARY));
    expect(counts.grades).toEqual(['D1', 'D2', 'C3', 'C4', 'C5', 'P7', 'P8', 'F9']);
    expect(counts.subjects.map((row) => [row.subject.code, row.counts, row.total])).toEqual([
      ['ENG', [2, 0, 1, 0, 0, 0, 1, 0], 4],
      ['MTC', [2, 0, 1, 0, 0, 0, 0, 0], 3],
      ['SCI', [1, 1, 0, 1, 0, 0, 0, 0], 3],
      ['SS', [0, 1, 0, 1, 0, 1, 0, 1], 4],
      ['RE', [0, 0, 0, 0, 1, 0, 0, 0], 1],
    ]);
    expect(counts.results).toEqual({
      kind: 'division',
      rows: [
        { label: 'I', count: 3 },
        { label: 'X', count: 1 },
      ],
      total: 4,
    });
  });

  it('shows every grade and division of the school’s rules, in their order, even when none has them', () => {
    const grades = ['D1', 'D2', 'C3', 'C4', 'C5', 'C6', 'P7', 'P8', 'F9'];
    const counts = marksheetCounts(model(PRIMARY), { grades, divisions: ['I', 'II', 'III', 'IV', 'U', 'X'] });
    expect(counts.grades).toEqual(grades);
    expect(counts.subjects[0]?.counts).toEqual([2, 0, 1, 0, 0, 0, 0, 1, 0]);
    expect(counts.results?.rows.map((row) => `${row.label}:${row.count}`)).toEqual(['I:3', 'II:0', 'III:0', 'IV:0', 'U:0', 'X:1']);
  });

  it('orders unnumbered grades (A+, A, B+ …) and divisions without rules sensibly', () => {
    const learners = ['B', 'A+', 'A', 'C+', 'B+'].map((grade, index) =>
      learner({
        n: index + 1,
        name: `L${index}`,
        subjects: [subject('maths', 60, grade)],
        division: ['U', 'II', 'I', 'IV', 'III'][index] ?? null,
      }),
    );
    const counts = marksheetCounts(model(learners));
    expect(counts.grades).toEqual(['A+', 'A', 'B+', 'B', 'C+']);
    expect(counts.results?.rows.map((row) => row.label)).toEqual(['I', 'II', 'III', 'IV', 'U']);
  });

  it('at A level: letters first, subsidiaries’ grades after, and learners per points, most first', () => {
    const learners = [
      learner({ n: 1, name: 'A', subjects: [subject('maths', 80, 'A'), subject('re', 70, 'C3')], points: 7 }),
      learner({ n: 2, name: 'B', subjects: [subject('maths', 60, 'C'), subject('re', 40, 'F9')], points: 4 }),
      learner({ n: 3, name: 'C', subjects: [subject('maths', 50, 'O')], points: 4 }),
      learner({ n: 4, name: 'D', subjects: [subject('maths', null, null)], points: null }),
    ];
    const counts = marksheetCounts(model(learners, { level: 'alevel' }), { grades: ['A', 'B', 'C', 'D', 'E', 'O', 'F'] });
    expect(counts.grades).toEqual(['A', 'B', 'C', 'D', 'E', 'O', 'F', 'C3', 'F9']);
    expect(counts.subjects.map((row) => row.counts)).toEqual([
      [1, 0, 1, 0, 0, 1, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 1, 1],
    ]);
    expect(counts.results).toEqual({
      kind: 'points',
      rows: [
        { label: 7, count: 1 },
        { label: 4, count: 2 },
      ],
      total: 3,
    });
  });

  it('pre-primary has grade counts alone; the count tables carry numbers as numbers', () => {
    const plain = marksheetCounts(model(PRIMARY, { level: 'plain' }));
    expect(plain.results).toBeNull();
    expect(marksheetCountTables(plain).map((table) => table.title)).toEqual([MARKSHEET_WORDS.gradeCounts]);
    const [grades, divisions] = marksheetCountTables(marksheetCounts(model(PRIMARY)));
    expect(grades?.head).toEqual(['Subject', 'D1', 'D2', 'C3', 'C4', 'C5', 'P7', 'P8', 'F9', 'Total']);
    expect(grades?.rows[0]).toEqual(['ENG English', 2, 0, 1, 0, 0, 0, 1, 0, 4]);
    expect(divisions).toEqual({
      title: 'Learners per division',
      head: ['Division', 'Learners'],
      rows: [
        ['I', 3],
        ['X', 1],
        ['Total', 4],
      ],
    });
  });
});
