import {
  DEFAULT_GRADING_RULES,
  DEFAULT_REPORT_LAYOUT,
  defaultGradeBands,
  gradeClass,
  type ReportLearner,
  ReportModelSchema,
  renderReportHtml,
  SUBJECT_COLUMNS,
} from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { buildReportModel, gradingInputs, type ReportInputs, type ReportMarkRow } from '../report-model.js';
import { cumulativeLayout, withGradePoints } from './cumulative-report.kind.js';

/*
 * The cumulative report's pure parts (issue 28 point 3): the card's layout as it prints (every
 * column, the summary and remarks always), and each subject's grade points from the one grader;
 * on a small P7 whose numbers are worked out here. No database (cumulative-report.test.ts asks
 * the API on both).
 */

const BOT = { id: '00000000-0000-4000-8000-000000000001', label: 'BOT', outof: 100 };
const MOT = { id: '00000000-0000-4000-8000-000000000002', label: 'MOT', outof: 100 };
const EOT = { id: '00000000-0000-4000-8000-000000000003', label: 'EOT', outof: 100 };
const TYPES = [BOT, MOT, EOT];
const subjectId = (n: number) => `00000000-0000-4000-9000-00000000000${n}`;
const learnerId = (n: number) => `00000000-0000-4000-a000-00000000000${n}`;
const PLE = [
  { id: subjectId(1), name: 'English', code: 'ENG', category: 'english' },
  { id: subjectId(2), name: 'Mathematics', code: 'MTC', category: 'mathematics' },
  { id: subjectId(3), name: 'Science', code: 'SCI', category: 'science' },
  { id: subjectId(4), name: 'Social Studies', code: 'SST', category: 'humanity' },
];
type Mark = number | 'ABS';

function marksOf(n: number, bySubject: Array<[Mark, Mark, Mark]>): ReportMarkRow[] {
  return bySubject.flatMap((values, index) =>
    TYPES.map((type, at) => {
      const value = values[at] as Mark;
      return {
        student_id: learnerId(n),
        subject_id: subjectId(index + 1),
        marktype_id: type.id,
        paper: 'I',
        mark: value === 'ABS' ? null : value,
        absent: value === 'ABS',
      };
    }),
  );
}

function inputs(combined: string | undefined): ReportInputs {
  const bands = defaultGradeBands();
  return {
    school: { name: 'Kasubi Primary', address: null, phone: null, email: null, logo: null, lines: [] },
    report: {
      label: 'CUMULATIVE REPORT',
      form: 'P7',
      stream: null,
      term: 'I',
      year: 2026,
      category: 'exam',
      level: 'primary',
      rawmark: true,
      separate: true,
      ...(combined === undefined ? {} : { combined }),
    },
    rules: DEFAULT_GRADING_RULES,
    layout: cumulativeLayout(DEFAULT_REPORT_LAYOUT),
    markTypes: TYPES,
    markTypeLabels: new Map(TYPES.map((type) => [type.id, type.label])),
    subjects: PLE,
    learners: [1, 2].map((n) => ({
      id: learnerId(n),
      studentid: `P7/00${n}`,
      fullname: `Learner ${n}`,
      gender: 'F' as const,
      form: 'P7',
      stream: 'East',
      photo: null,
    })),
    printed: null,
    marks: [
      // Learner 1, English: 20% of 60 + 30% of 70 + 50% of 80 = 73, C3 (3); Mathematics 100/34/74 = 67.2, C4 (4),
      // never the mean of its grades D1, F9, C3; Science 85, D1 (1); absent from every Social Studies test: no points.
      ...marksOf(1, [
        [60, 70, 80],
        [100, 34, 74],
        [85, 85, 85],
        ['ABS', 'ABS', 'ABS'],
      ]),
      // Learner 2: 50 everywhere, P7 (7).
      ...marksOf(2, [
        [50, 50, 50],
        [50, 50, 50],
        [50, 50, 50],
        [50, 50, 50],
      ]),
    ],
    bands: new Map(PLE.map((subject) => [subject.id, bands])),
    proportions: new Map(
      PLE.map((subject) => [
        subject.id,
        new Map([
          [BOT.id, 20],
          [MOT.id, 30],
          [EOT.id, 50],
        ]),
      ]),
    ),
    initials: new Map(),
    attendance: new Map(),
    gradeKey: null,
    footers: [],
    photoFiles: new Map(),
    remarkTypes: [],
    remarks: new Map(),
    subjectComments: new Map(),
  };
}

/** The model as the kind builds it: the class graded once, the model and the points of it. */
function cumulativeModel(combined: string | undefined) {
  const read = inputs(combined);
  const graded = gradeClass(read.learners, read.marks, gradingInputs(read));
  return withGradePoints(buildReportModel(read, graded), graded);
}

const subjectsOf = (learner: ReportLearner | undefined) =>
  Object.fromEntries((learner?.subjects ?? []).map((subject) => [subject.subject, [subject.total, subject.grade, subject.points]]));

describe('the cumulative report', () => {
  it('prints every column of the subject table, and the summary and remarks under it, whatever the school’s card leaves out', () => {
    expect(cumulativeLayout(DEFAULT_REPORT_LAYOUT)).toEqual({ ...DEFAULT_REPORT_LAYOUT, columns: [...SUBJECT_COLUMNS] });
    const bare = { ...DEFAULT_REPORT_LAYOUT, sections: ['header' as const, 'subjects' as const, 'signatures' as const], columns: [] };
    expect(cumulativeLayout(bare)).toMatchObject({
      sections: ['header', 'subjects', 'summary', 'remarks', 'signatures'],
      columns: ['marks', 'total', 'grade', 'points', 'comment', 'initials'],
    });
    const remarksFirst = { ...DEFAULT_REPORT_LAYOUT, sections: ['remarks' as const, 'subjects' as const] };
    expect(cumulativeLayout(remarksFirst).sections).toEqual(['remarks', 'subjects', 'summary']);
  });

  it('gives each subject the grade points of its combined mark’s grade (none without one); the learner’s counted points are the aggregate', () => {
    const model = ReportModelSchema.parse(cumulativeModel('AVERAGE'));
    const [first, second] = model.learners;
    expect(subjectsOf(first)).toEqual({
      English: [73, 'C3', 3],
      Mathematics: [67.2, 'C4', 4],
      Science: [85, 'D1', 1],
      'Social Studies': [null, null, null],
    });
    expect(first?.aggregate).toBeNull();
    expect(first?.division).toBe('X');
    expect(subjectsOf(second)).toEqual({
      English: [50, 'P7', 7],
      Mathematics: [50, 'P7', 7],
      Science: [50, 'P7', 7],
      'Social Studies': [50, 'P7', 7],
    });
    expect(second?.aggregate).toBe(28);
  });

  it('titles the combined column with the Label, with the points beside the grade, on the preview and in the key', () => {
    const model = cumulativeModel('AVERAGE');
    const html = renderReportHtml(model, cumulativeLayout(DEFAULT_REPORT_LAYOUT));
    expect(html).toContain('<th>Subject</th><th>BOT</th><th>MOT</th><th>EOT</th><th>AVERAGE</th><th>Grade</th><th>Points</th>');
    expect(model.key).toContain('BOT, MOT, EOT: marks as entered; AVERAGE: out of 100');
    // The terminal report's card of the same marks: Total, and no points below A level.
    const card = buildReportModel(inputs(undefined));
    const cardHtml = renderReportHtml(card, cumulativeLayout(DEFAULT_REPORT_LAYOUT));
    expect(cardHtml).toContain('<th>EOT</th><th>Total</th><th>Grade</th><th>Comment</th>');
    expect(card.learners[1]?.subjects.map((subject) => subject.points)).toEqual([null, null, null, null]);
    expect(card.key).toContain('BOT, MOT, EOT: marks as entered; Total: out of 100');
  });
});
