import { type AvgMarksheetModel, AVG_MARKSHEET_WORDS as W } from '@mustard/shared';

/* The average mark sheet's table, one for the workbook, the preview and the PDF (numbers to two decimals, display only). */

const round = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

type Cell = string | number | null;
type Learner = AvgMarksheetModel['learners'][number];
type Subject = AvgMarksheetModel['subjects'][number];

/** A subject's header cells: its mean and grade; at A level each paper's mean, the letter and the points. */
function subjectHead(subject: Subject, alevel: boolean): string[] {
  const code = subject.code ?? subject.subject;
  if (!alevel) return [code, `${code} Gr`];
  return [...(subject.papers ?? []).map((paper) => `${code} ${W.paper}${paper}`), `${code} Gr`, `${code} ${W.subjectPoints}`];
}

/** A learner's cells under a subject's header. */
function subjectCells(learner: Learner, subject: Subject, alevel: boolean): Cell[] {
  const found = learner.subjects[subject.subject_id];
  if (!alevel) return [found ? round(found.mean) : null, found?.grade ?? null];
  const papers = (subject.papers ?? []).map((paper) => round(found?.papers?.find((each) => each.paper === paper)?.mean ?? null));
  return [...papers, found?.grade ?? null, found?.points ?? null];
}

/** The sheet's header and rows, shared by the workbook and the preview. */
export function sheetRows(model: AvgMarksheetModel): { head: string[]; rows: Cell[][] } {
  const divisions = model.report.level === 'primary' || model.report.level === 'olevel';
  const alevel = model.report.level === 'alevel';
  const head = [
    W.number,
    W.studentId,
    W.name,
    W.stream,
    ...model.subjects.flatMap((subject) => subjectHead(subject, alevel)),
    W.total,
    W.average,
    ...(divisions ? [W.aggregate, W.division] : []),
    ...(alevel ? [W.points] : []),
    W.position,
  ];
  const rows = model.learners.map((learner, index) => [
    index + 1,
    learner.studentid,
    learner.name,
    learner.stream,
    ...model.subjects.flatMap((subject) => subjectCells(learner, subject, alevel)),
    round(learner.total),
    round(learner.average),
    ...(divisions ? [learner.aggregate, learner.division] : []),
    ...(alevel ? [learner.points] : []),
    learner.position,
  ]);
  return { head, rows };
}
