import {
  MARKSHEET_TYPE_WORDS,
  type MarksheetCell,
  type MarksheetCounts,
  type MarksheetTable,
  marksheetCountTables,
  type ReportModel,
  MARKSHEET_WORDS as W,
} from '@mustard/shared';
import ExcelJS from 'exceljs';

/*
 * The mark sheet as a workbook (issue 15 point 7), one sheet "Marksheet":
 *
 *   School name                                     rows 1-2: the school, the title
 *   MARK SHEET — Exam
 *   Class    P7                                      rows 3-7: what the sheet is of
 *   Stream   All streams
 *   Term     I
 *   Year     2026
 *   Mark types  BOT, EOT
 *   (blank)
 *   No. Student ID Name Stream ENG    MTC ...  Total Avg Agg Div Pos     two header rows: a subject's
 *                              Mk Gr  Mk Gr                               code over its total and grade
 *   1   P7/003     Carol ...   90 D1  ...                                 a row per learner
 *   (blank)
 *   Grades per subject / Learners per division: the counts, each titled, with a bold header
 *   Subjects: ENG English · ...
 *
 * Numbers are number cells (a total sums in Excel); a text that starts like a formula is
 * formatted as text (security.md, spreadsheet injection). The header rows and the learner's
 * number, id and name stay in view (frozen panes).
 */

const SHEET = 'Marksheet';
const FORMULA_START = /^[=+\-@\t\r]/;
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8E8E8' } };
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FF999999' } };
const BOX: Partial<ExcelJS.Borders> = { top: THIN, left: THIN, bottom: THIN, right: THIN };

/** Writes a cell: numbers as numbers, texts as texts (formatted as text when they start like a formula). */
function put(cell: ExcelJS.Cell, value: MarksheetCell) {
  cell.value = value;
  if (typeof value === 'string' && FORMULA_START.test(value)) cell.numFmt = '@';
}

/** The workbook's bytes. */
export async function marksheetWorkbook(model: ReportModel, table: MarksheetTable, counted: MarksheetCounts): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(SHEET, {
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  const { school, report } = model;

  let line = 1;
  /** Writes the next row from column `from`. */
  const write = (values: MarksheetCell[], bold: 'none' | 'first' | 'all' = 'none', from = 1) => {
    const row = sheet.getRow(line++);
    values.forEach((value, index) => {
      put(row.getCell(from + index), value);
    });
    if (bold === 'all') row.font = { bold: true };
    if (bold === 'first') row.getCell(from).font = { bold: true };
    return row;
  };

  write([school.name]).font = { bold: true, size: 14 };
  write([`${W.title} — ${MARKSHEET_TYPE_WORDS[report.category]}`]).font = { bold: true, size: 12 };
  write([W.class, report.form], 'first');
  write([W.stream, report.stream ?? W.allStreams], 'first');
  write([W.term, report.term], 'first');
  write([W.year, report.year], 'first');
  write([W.markTypes, model.markTypes.map((type) => type.label).join(', ')], 'first');
  line++;

  // The table's two header rows: a subject's code over its columns (merged), a learner column's heading over both rows.
  const top = line;
  const first = sheet.getRow(top);
  const second = sheet.getRow(top + 1);
  for (const heading of table.headings) {
    const column = heading.from + 1;
    put(first.getCell(column), heading.label);
    if (heading.grouped) {
      if (heading.span > 1) sheet.mergeCells(top, column, top, column + heading.span - 1);
      first.getCell(column).note = heading.title;
      for (let index = 0; index < heading.span; index++)
        put(second.getCell(column + index), table.columns[heading.from + index]?.header ?? '');
    } else sheet.mergeCells(top, column, top + 1, column);
  }
  for (const row of [first, second]) {
    row.font = { bold: true };
    for (let column = 1; column <= table.columns.length; column++) {
      const cell = row.getCell(column);
      cell.fill = HEADER_FILL;
      cell.border = BOX;
      cell.alignment = { horizontal: 'center', vertical: 'middle' };
    }
  }
  line = top + 2;
  for (const row of table.rows) {
    const written = write(row.cells);
    table.columns.forEach((column, index) => {
      const cell = written.getCell(index + 1);
      cell.border = BOX;
      if (column.align === 'center') cell.alignment = { horizontal: 'center' };
      // A student id stays text: 0012 is not 12.
      if (column.kind === 'studentid') cell.numFmt = '@';
    });
  }
  const nameColumn = table.columns.findIndex((column) => column.kind === 'name') + 1;
  sheet.views = [{ state: 'frozen', ySplit: top + 1, xSplit: nameColumn, topLeftCell: sheet.getCell(top + 2, nameColumn + 1).address }];
  table.columns.forEach((column, index) => {
    sheet.getColumn(index + 1).width =
      column.kind === 'name'
        ? 30
        : column.kind === 'studentid'
          ? 14
          : column.kind === 'stream'
            ? 10
            : column.kind === 'classPosition'
              ? 9
              : 7;
  });
  // The header block's keys sit in the first column: wide enough for "Mark types".
  sheet.getColumn(1).width = Math.max(sheet.getColumn(1).width ?? 7, 11);

  // The counts start under the names, whose column is wide enough for a subject's name.
  const from = Math.max(1, nameColumn);
  for (const counts of marksheetCountTables(counted)) {
    line++;
    write([counts.title], 'none', from).font = { bold: true, size: 12 };
    const head = write(counts.head, 'all', from);
    counts.head.forEach((_, index) => {
      const cell = head.getCell(from + index);
      cell.fill = HEADER_FILL;
      cell.border = BOX;
      cell.alignment = { horizontal: index === 0 ? 'left' : 'center' };
    });
    for (const values of counts.rows) {
      const row = write(values, 'none', from);
      values.forEach((_, index) => {
        const cell = row.getCell(from + index);
        cell.border = BOX;
        if (index > 0) cell.alignment = { horizontal: 'center' };
      });
    }
  }
  line++;
  const key = counted.subjects.map((row) => `${row.subject.code} ${row.subject.name}`).join(' · ');
  if (key) write([`${W.subjectsKey}: ${key}`]);
  if (model.gradeKey) write([model.gradeKey]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
