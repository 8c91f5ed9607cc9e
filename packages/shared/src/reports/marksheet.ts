import type { ReportLearner, ReportModel, ReportSubject, ReportType } from './model.js';
import { reportNumber } from './words.js';

/*
 * The mark sheet (issue 15 point 7): a class's learners by subject on one table, then the
 * class's counts per grade for each subject and per division (or per points at A level). Pure
 * functions of the report model (the grading engine computed every number there), so the three
 * outputs (the HTML preview, the workbook, the PDF) draw the same table from the same rows and
 * recompute nothing.
 *
 * The table, left to right: No., Student ID, Name, Stream (when the sheet covers several
 * streams), then for each subject (headed by its code) its total and grade, then the learner's
 * total, average, aggregate and division (primary, O level) or points (A level), and position:
 * in the stream when the sheet is of one stream (then also in the class), else in the class.
 * Rows go by that position (ties by name), learners without one last.
 *
 * A subject cell: the total (a number), ABS when every mark of it is an absence, "-" when it has
 * marks but no total (a mark missing), empty when the learner does not take the subject.
 */

/** The words the sheet prints (the school's document, in English as the report cards). */
export const MARKSHEET_WORDS = {
  title: 'MARK SHEET',
  class: 'Class',
  stream: 'Stream',
  term: 'Term',
  year: 'Year',
  category: 'Report type',
  markTypes: 'Mark types',
  allStreams: 'All streams',
  number: 'No.',
  studentId: 'Student ID',
  name: 'Name',
  mark: 'Mk',
  grade: 'Gr',
  total: 'Total',
  average: 'Avg',
  aggregate: 'Agg',
  division: 'Div',
  points: 'Pts',
  position: 'Pos',
  classPosition: 'Class pos',
  subject: 'Subject',
  learners: 'Learners',
  gradeCounts: 'Grades per subject',
  divisionCounts: 'Learners per division',
  pointsCounts: 'Learners per points',
  divisionHead: 'Division',
  pointsHead: 'Points',
  subjectsKey: 'Subjects',
  absent: 'ABS',
  none: '-',
} as const;
const W = MARKSHEET_WORDS;

/** The report types as the sheet's header names them. */
export const MARKSHEET_TYPE_WORDS: Record<ReportType, string> = {
  assesment: 'Assessment',
  exam: 'Exam',
  'mid term': 'Mid term',
  custom: 'Custom',
  'pre-primary': 'Pre-primary',
};

/** A cell of the sheet: a number (written as a number), a text, or nothing. */
export type MarksheetCell = number | string | null;

export type MarksheetColumnKind =
  | 'number'
  | 'studentid'
  | 'name'
  | 'stream'
  | 'subjectTotal'
  | 'subjectGrade'
  | 'total'
  | 'average'
  | 'aggregate'
  | 'division'
  | 'points'
  | 'position'
  | 'classPosition';

export interface MarksheetColumn {
  kind: MarksheetColumnKind;
  /** The heading of the column (under its subject's code for a subject's columns). */
  header: string;
  /** The subject a subject column is of. */
  subject_id: string | null;
  /** Texts (names, ids) are left aligned; numbers and grades centred. */
  align: 'left' | 'center';
}

/**
 * The first header row: a subject's code over its columns (`grouped`), or a learner column's
 * heading standing over both header rows.
 */
export interface MarksheetHeading {
  label: string;
  /** The subject's full name (for a tooltip); the heading itself otherwise. */
  title: string;
  /** The index of its first column, and how many columns it spans. */
  from: number;
  span: number;
  grouped: boolean;
}

export interface MarksheetSubject {
  id: string;
  name: string;
  /** The column head: the school's abbreviation, else one made from the name. */
  code: string;
}

export interface MarksheetRow {
  /** The learner's id. */
  id: string;
  cells: MarksheetCell[];
}

export interface MarksheetTable {
  subjects: MarksheetSubject[];
  columns: MarksheetColumn[];
  headings: MarksheetHeading[];
  rows: MarksheetRow[];
}

/** One class's counts: each subject's learners per grade, and the learners per division or points. */
export interface MarksheetCounts {
  /** The grade columns, best first. */
  grades: string[];
  /** Per subject: the count of each grade (in `grades` order), and of learners graded. */
  subjects: Array<{ subject: MarksheetSubject; counts: number[]; total: number }>;
  /** Divisions (primary, O level) or points (A level, most first); null for a sheet with neither. */
  results: { kind: 'division' | 'points'; rows: Array<{ label: string | number; count: number }>; total: number } | null;
}

/**
 * What the school's rules say about order, which the model does not carry: the grades of the
 * class's grade sets and the divisions, best first. Without it the counts list what the learners
 * have, ordered by the usual Ugandan labels.
 */
export interface MarksheetOrder {
  /** Grades the counts always show, best first, even when no learner has them. */
  grades?: readonly string[];
  /** The order of other grades that may appear (A level subsidiaries' grades after the letters). */
  gradeOrder?: readonly string[];
  /** Divisions, best first, always shown. */
  divisions?: readonly string[];
}

/** The sheet's heading: the class, the stream (or all streams), the term and year. */
export function marksheetTitle(model: ReportModel): string {
  const { report } = model;
  return `${W.class} ${report.form} · ${report.stream ?? W.allStreams} · ${W.term} ${report.term} · ${report.year}`;
}

/** A file name's part: letters, digits, dashes and underscores only ("S.5" is "S_5"). */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/**
 * `marksheet-<class>-<stream>-<year>-<term>` (spec §9), the stream `all` for a sheet of the whole
 * class: the same rule as the report cards' `report-…` names. The extension is the caller's.
 */
export function marksheetFileName(report: { form: string; stream: string | null; year: number; term: string }): string {
  return `marksheet-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}`;
}

/** A subject's column head: its abbreviation, else the initials of a name of several words (SST), else its first letters (ENG). */
export function subjectCode(subject: { subject: string; code: string | null }): string {
  const code = subject.code?.trim();
  if (code) return code;
  const words = subject.subject.split(/\s+/).filter(Boolean);
  if (words.length > 1)
    return words
      .map((word) => word[0] ?? '')
      .join('')
      .toUpperCase()
      .slice(0, 5);
  return subject.subject.slice(0, 3).toUpperCase();
}

/**
 * The subjects of the learners, in the school's order. Each learner's subjects come in that
 * order (those they take), so the order is recovered from their lists: a subject goes before
 * another when some learner has it before; ties in first appearance.
 */
export function marksheetSubjects(learners: readonly ReportLearner[]): MarksheetSubject[] {
  const found = new Map<string, ReportSubject>();
  const after = new Map<string, Set<string>>();
  const before = new Map<string, number>();
  for (const learner of learners) {
    learner.subjects.forEach((subject, index) => {
      if (!found.has(subject.subject_id)) {
        found.set(subject.subject_id, subject);
        after.set(subject.subject_id, new Set());
        before.set(subject.subject_id, 0);
      }
      const previous = learner.subjects[index - 1];
      if (previous && previous.subject_id !== subject.subject_id) {
        const next = after.get(previous.subject_id) as Set<string>;
        if (!next.has(subject.subject_id)) {
          next.add(subject.subject_id);
          before.set(subject.subject_id, (before.get(subject.subject_id) ?? 0) + 1);
        }
      }
    });
  }
  // Kahn's order, the first seen first among those free; a cycle (not from one school's order) keeps first appearance.
  const order: string[] = [];
  const ids = [...found.keys()];
  const done = new Set<string>();
  while (order.length < ids.length) {
    const free = ids.find((id) => !done.has(id) && (before.get(id) ?? 0) === 0) ?? ids.find((id) => !done.has(id));
    if (free === undefined) break;
    done.add(free);
    order.push(free);
    for (const next of after.get(free) ?? []) before.set(next, (before.get(next) ?? 1) - 1);
  }
  return order.map((id) => {
    const subject = found.get(id) as ReportSubject;
    return { id, name: subject.subject, code: subjectCode(subject) };
  });
}

/** What a subject cell shows: its total, ABS when every mark is an absence, "-" with no total, empty when not taken. */
function subjectTotalCell(subject: ReportSubject | undefined): MarksheetCell {
  if (!subject) return null;
  if (subject.total !== null) return subject.total;
  const marks = Object.values(subject.marks).filter((mark) => mark !== null);
  return marks.length > 0 && marks.every((mark) => mark === 'ABS') ? W.absent : W.none;
}

const subjectGradeCell = (subject: ReportSubject | undefined): MarksheetCell => (subject ? (subject.grade ?? W.none) : null);

/** The position the sheet ranks by: in the stream for a sheet of one stream, else in the class. */
const shownPosition = (model: ReportModel, learner: ReportLearner) =>
  model.report.stream ? learner.position.stream : learner.position.class;

/** The sheet's table: its columns, its two header rows, and a row per learner of the model. */
export function marksheetTable(model: ReportModel): MarksheetTable {
  const { level, stream } = model.report;
  const subjects = marksheetSubjects(model.learners);
  const withStream = !stream && model.learners.some((learner) => learner.stream);
  const column = (
    kind: MarksheetColumnKind,
    header: string,
    align: MarksheetColumn['align'] = 'center',
    subject_id: string | null = null,
  ) => ({
    kind,
    header,
    subject_id,
    align,
  });
  const columns: MarksheetColumn[] = [
    column('number', W.number),
    column('studentid', W.studentId, 'left'),
    column('name', W.name, 'left'),
    ...(withStream ? [column('stream', W.stream, 'left')] : []),
  ];
  for (const subject of subjects)
    columns.push(column('subjectTotal', W.mark, 'center', subject.id), column('subjectGrade', W.grade, 'center', subject.id));
  columns.push(column('total', W.total), column('average', W.average));
  if (level === 'primary' || level === 'olevel') columns.push(column('aggregate', W.aggregate), column('division', W.division));
  if (level === 'alevel') columns.push(column('points', W.points));
  columns.push(column('position', W.position));
  if (stream) columns.push(column('classPosition', W.classPosition));

  const headings: MarksheetHeading[] = [];
  columns.forEach((each, index) => {
    const subject = each.subject_id ? subjects.find((one) => one.id === each.subject_id) : undefined;
    const last = headings[headings.length - 1];
    if (subject && last?.grouped && columns[last.from]?.subject_id === subject.id) last.span += 1;
    else if (subject) headings.push({ label: subject.code, title: subject.name, from: index, span: 1, grouped: true });
    else headings.push({ label: each.header, title: each.header, from: index, span: 1, grouped: false });
  });

  // Learners of one position keep the model's order: the class list's, surname then first name.
  const ordered = [...model.learners].sort((a, b) => {
    const pa = shownPosition(model, a);
    const pb = shownPosition(model, b);
    if (pa !== pb) return pa === null ? 1 : pb === null ? -1 : pa - pb;
    return 0;
  });
  const rows = ordered.map((learner, index): MarksheetRow => {
    const taken = new Map(learner.subjects.map((subject) => [subject.subject_id, subject]));
    const cells = columns.map((each): MarksheetCell => {
      switch (each.kind) {
        case 'number':
          return index + 1;
        case 'studentid':
          return learner.studentid;
        case 'name':
          return learner.fullname;
        case 'stream':
          return learner.stream ?? '';
        case 'subjectTotal':
          return subjectTotalCell(taken.get(each.subject_id ?? ''));
        case 'subjectGrade':
          return subjectGradeCell(taken.get(each.subject_id ?? ''));
        case 'total':
          return learner.total ?? W.none;
        case 'average':
          return learner.average ?? W.none;
        case 'aggregate':
          return learner.aggregate ?? W.none;
        case 'division':
          return learner.division ?? W.none;
        case 'points':
          return learner.points ?? W.none;
        case 'position':
          return shownPosition(model, learner) ?? W.none;
        case 'classPosition':
          return learner.position.class ?? W.none;
      }
      return null;
    });
    return { id: learner.id, cells };
  });
  return { subjects, columns, headings, rows };
}

/** A cell as text: numbers as a report prints them (1,234.5), nothing as empty. */
export function marksheetCellText(cell: MarksheetCell): string {
  if (cell === null) return '';
  return typeof cell === 'number' ? reportNumber(cell) : cell;
}

/** The usual order of grade labels that are not numbered: the "lower" grade sets' and the A-level letters. */
const LETTER_ORDER = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'E', 'O', 'F'];

/** Best first: the school's order when given, then the letters, then numbered labels (D1 .. F9) by number, then by name. */
function gradeComparator(order: readonly string[]) {
  const rank = (grade: string): [number, number, string] => {
    const given = order.indexOf(grade);
    if (given >= 0) return [0, given, ''];
    const letter = LETTER_ORDER.indexOf(grade.toUpperCase());
    if (letter >= 0) return [1, letter, ''];
    const numbered = /(\d+)\s*$/.exec(grade);
    if (numbered) return [2, Number(numbered[1]), grade];
    return [3, 0, grade];
  };
  return (a: string, b: string) => {
    const [ga, na, ta] = rank(a);
    const [gb, nb, tb] = rank(b);
    return ga - gb || na - nb || ta.localeCompare(tb, 'en');
  };
}

const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9 };

/** Divisions best first: the school's order when given, then I, II, III, IV, then the rest (U, X) by name. */
function divisionComparator(order: readonly string[]) {
  const rank = (division: string): [number, number, string] => {
    const given = order.indexOf(division);
    if (given >= 0) return [0, given, ''];
    const roman = ROMAN[division.toUpperCase()];
    if (roman !== undefined) return [1, roman, ''];
    const number = Number(division);
    if (division.trim() !== '' && Number.isFinite(number)) return [1, number, ''];
    return [2, 0, division];
  };
  return (a: string, b: string) => {
    const [ga, na, ta] = rank(a);
    const [gb, nb, tb] = rank(b);
    return ga - gb || na - nb || ta.localeCompare(tb, 'en');
  };
}

/**
 * The class's counts under the table: for each subject, how many learners have each grade (and
 * how many are graded at all); and how many learners have each division (primary, O level) or
 * each total of points (A level, most points first). Learners without a grade, division or points
 * are not counted.
 */
export function marksheetCounts(model: ReportModel, order: MarksheetOrder = {}): MarksheetCounts {
  const subjects = marksheetSubjects(model.learners);
  const shown = [...new Set(order.grades ?? [])];
  const seen = new Set<string>();
  const perSubject = new Map<string, Map<string, number>>(subjects.map((subject) => [subject.id, new Map()]));
  for (const learner of model.learners) {
    for (const subject of learner.subjects) {
      if (subject.grade === null) continue;
      seen.add(subject.grade);
      const counts = perSubject.get(subject.subject_id) as Map<string, number>;
      counts.set(subject.grade, (counts.get(subject.grade) ?? 0) + 1);
    }
  }
  const extra = [...seen].filter((grade) => !shown.includes(grade)).sort(gradeComparator([...shown, ...(order.gradeOrder ?? [])]));
  const grades = [...shown, ...extra];

  let results: MarksheetCounts['results'] = null;
  const { level } = model.report;
  if (level === 'primary' || level === 'olevel') {
    const counts = new Map<string, number>((order.divisions ?? []).map((division) => [division, 0]));
    for (const learner of model.learners)
      if (learner.division !== null) counts.set(learner.division, (counts.get(learner.division) ?? 0) + 1);
    const labels = [...counts.keys()].sort(divisionComparator(order.divisions ?? []));
    const rows = labels.map((label) => ({ label, count: counts.get(label) ?? 0 }));
    results = { kind: 'division', rows, total: rows.reduce((sum, row) => sum + row.count, 0) };
  } else if (level === 'alevel') {
    const counts = new Map<number, number>();
    for (const learner of model.learners) if (learner.points !== null) counts.set(learner.points, (counts.get(learner.points) ?? 0) + 1);
    const rows = [...counts.keys()].sort((a, b) => b - a).map((points) => ({ label: points, count: counts.get(points) ?? 0 }));
    results = { kind: 'points', rows, total: rows.reduce((sum, row) => sum + row.count, 0) };
  }

  return {
    grades,
    subjects: subjects.map((subject) => {
      const counts = perSubject.get(subject.id) as Map<string, number>;
      const row = grades.map((grade) => counts.get(grade) ?? 0);
      return { subject, counts: row, total: row.reduce((sum, count) => sum + count, 0) };
    }),
    results,
  };
}

/** The counts as tables of texts and numbers (heads, then rows), as every output draws them. */
export function marksheetCountTables(counts: MarksheetCounts): Array<{ title: string; head: string[]; rows: MarksheetCell[][] }> {
  const tables: Array<{ title: string; head: string[]; rows: MarksheetCell[][] }> = [
    {
      title: W.gradeCounts,
      head: [W.subject, ...counts.grades, W.total],
      rows: counts.subjects.map((row): MarksheetCell[] => [`${row.subject.code} ${row.subject.name}`, ...row.counts, row.total]),
    },
  ];
  if (counts.results) {
    const division = counts.results.kind === 'division';
    tables.push({
      title: division ? W.divisionCounts : W.pointsCounts,
      head: [division ? W.divisionHead : W.pointsHead, W.learners],
      rows: [...counts.results.rows.map((row): MarksheetCell[] => [row.label, row.count]), [W.total, counts.results.total]],
    });
  }
  return tables;
}
