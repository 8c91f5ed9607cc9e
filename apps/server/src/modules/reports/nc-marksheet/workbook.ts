import { type NcMarksheetModel, NC_MARKSHEET_WORDS as W } from '@mustard/shared';
import ExcelJS from 'exceljs';

/*
 * The new-curriculum mark sheet as a workbook (issue 27 point 4), one sheet "NC Marksheet":
 *
 *   School name                                           rows 1-7: the school, the title, what
 *   NEW CURRICULUM MARK SHEET                             the sheet is of (class, stream, term,
 *   Class S2 / Stream / Term / Year / Summative EOT       year, the summative exam)
 *   (blank)
 *   No. Student ID Name  ENG                               two header rows: a subject's code over
 *                        Score Identifier /20 /80 /100 Grade   its six columns
 *   1   S2/001     Ann   2.5   Outstanding 16.7 60 76.7 B   a row per learner
 *   (blank)
 *   Learners per identifier: Subject, then a column per identifier
 *   Learners per grade: Subject, then a column per grade
 *
 * Numbers are number cells; a text that starts like a formula is formatted as text.
 */

const SHEET = 'NC Marksheet';
const FORMULA_START = /^[=+\-@\t\r]/;
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8E8E8' } };
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FF999999' } };
const BOX: Partial<ExcelJS.Borders> = { top: THIN, left: THIN, bottom: THIN, right: THIN };
/** A subject's columns, in order. */
export const NC_SUBJECT_COLUMNS = [W.score, W.identifier, W.formative, W.summative, W.total, W.grade] as const;

type Value = number | string | null;

function put(cell: ExcelJS.Cell, value: Value) {
  cell.value = value;
  if (typeof value === 'string' && FORMULA_START.test(value)) cell.numFmt = '@';
}

/** The workbook's bytes. */
export async function ncMarksheetWorkbook(model: NcMarksheetModel): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(SHEET, {
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  const { report } = model;
  let line = 1;
  const write = (values: Value[], from = 1) => {
    const row = sheet.getRow(line++);
    values.forEach((value, index) => {
      put(row.getCell(from + index), value);
    });
    return row;
  };
  write([model.school.name]).font = { bold: true, size: 14 };
  write([W.title]).font = { bold: true, size: 12 };
  write([W.class, report.form]).getCell(1).font = { bold: true };
  write([W.stream, report.stream ?? W.allStreams]).getCell(1).font = { bold: true };
  write([W.term, report.term]).getCell(1).font = { bold: true };
  write([W.year, report.year]).getCell(1).font = { bold: true };
  write([W.markType, report.marktype?.label ?? W.none]).getCell(1).font = { bold: true };
  line++;

  const top = line;
  const first = sheet.getRow(top);
  const second = sheet.getRow(top + 1);
  const learnerHeads = [W.number, W.studentId, W.name];
  learnerHeads.forEach((head, index) => {
    put(first.getCell(index + 1), head);
    sheet.mergeCells(top, index + 1, top + 1, index + 1);
  });
  model.subjects.forEach((subject, index) => {
    const column = learnerHeads.length + 1 + index * NC_SUBJECT_COLUMNS.length;
    put(first.getCell(column), subject.code);
    first.getCell(column).note = subject.name;
    sheet.mergeCells(top, column, top, column + NC_SUBJECT_COLUMNS.length - 1);
    NC_SUBJECT_COLUMNS.forEach((head, at) => {
      put(second.getCell(column + at), head);
    });
  });
  const width = learnerHeads.length + model.subjects.length * NC_SUBJECT_COLUMNS.length;
  for (const row of [first, second]) {
    row.font = { bold: true };
    for (let column = 1; column <= width; column++) {
      const cell = row.getCell(column);
      cell.fill = HEADER_FILL;
      cell.border = BOX;
      cell.alignment = { horizontal: 'center', vertical: 'middle' };
    }
  }
  line = top + 2;
  model.learners.forEach((learner, index) => {
    const values: Value[] = [index + 1, learner.studentid, learner.fullname];
    for (const cell of learner.subjects) values.push(cell.score, cell.identifier, cell.formative, cell.summative, cell.total, cell.grade);
    const row = write(values);
    for (let column = 1; column <= width; column++) {
      const cell = row.getCell(column);
      cell.border = BOX;
      if (column !== 3) cell.alignment = { horizontal: 'center' };
    }
    row.getCell(2).numFmt = '@';
  });
  sheet.views = [{ state: 'frozen', ySplit: top + 1, xSplit: 3, topLeftCell: sheet.getCell(top + 2, 4).address }];
  sheet.getColumn(1).width = 11;
  sheet.getColumn(2).width = 14;
  sheet.getColumn(3).width = 30;
  for (let column = 4; column <= width; column++) sheet.getColumn(column).width = (column - 4) % 6 === 1 ? 12 : 7;

  // The counts: a row per subject, a column per identifier (then per grade), under the names.
  const tables: Array<[string, string[], (count: NcMarksheetModel['counts'][number]) => number[]]> = [
    [W.identifierCounts, model.identifiers, (count) => count.identifiers],
    [W.gradeCounts, model.grades, (count) => count.grades],
  ];
  for (const [title, heads, values] of tables) {
    line++;
    write([title], 3).font = { bold: true, size: 12 };
    const head = write([W.subject, ...heads], 3);
    head.font = { bold: true };
    [W.subject, ...heads].forEach((_, index) => {
      const cell = head.getCell(3 + index);
      cell.fill = HEADER_FILL;
      cell.border = BOX;
    });
    model.counts.forEach((count, index) => {
      const row = write([model.subjects[index]?.name ?? '', ...values(count)], 3);
      heads.forEach((_, at) => {
        row.getCell(4 + at).alignment = { horizontal: 'center' };
      });
      for (let at = 0; at <= heads.length; at++) row.getCell(3 + at).border = BOX;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
