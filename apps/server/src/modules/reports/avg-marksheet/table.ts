import { type AvgMarksheetModel, AVG_MARKSHEET_WORDS as W } from '@mustard/shared';

/* The average mark sheet's table, one for the workbook, the preview and the PDF (numbers to two decimals, display only). */

const round = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** The sheet's header and rows, shared by the workbook and the preview. */
export function sheetRows(model: AvgMarksheetModel): { head: string[]; rows: Array<Array<string | number | null>> } {
  const codes = model.subjects.map((subject) => subject.code ?? subject.subject);
  const divisions = model.report.level === 'primary' || model.report.level === 'olevel';
  const head = [
    W.number,
    W.studentId,
    W.name,
    W.stream,
    ...codes.flatMap((code) => [code, `${code} Gr`]),
    W.total,
    W.average,
    ...(divisions ? [W.aggregate, W.division] : []),
    W.position,
  ];
  const rows = model.learners.map((learner, index) => [
    index + 1,
    learner.studentid,
    learner.name,
    learner.stream,
    ...model.subjects.flatMap((subject) => {
      const found = learner.subjects[subject.subject_id];
      return [found ? round(found.mean) : null, found?.grade ?? null];
    }),
    round(learner.total),
    round(learner.average),
    ...(divisions ? [learner.aggregate, learner.division] : []),
    learner.position,
  ]);
  return { head, rows };
}
