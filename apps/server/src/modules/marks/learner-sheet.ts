import { MARK_MESSAGES, STUDENT_MESSAGES } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { AppError, type FieldErrors } from '../../errors.js';
import { type Cell, cellText, type Sheet } from '../../resources/spreadsheet.js';

/*
 * A class's one value per learner as a spreadsheet (issue 14 points 6 and 7: attendance, mark
 * targets), downloaded to fill offline and read back, saved whole or not at all. The layout is
 * the marks grid's (grid-sheet.ts), with one value column:
 *
 *    A              B
 *    Class          P5                 the block: what the sheet is of (key in A, value in B);
 *    Stream         East               some rows hidden (ids); some to fill (the term's total
 *    Term           I                  days)
 *    Year           2026
 *    (blank)
 *    Student ID     Name           Days attended      the table: the student id is the key, the
 *    P5-East-1      Amina Okello   58                 name for the reader only
 *
 * Read back from the rows the upload reader gives (resources/spreadsheet.ts bounds them): the
 * row with a "Student ID" cell is the table's header, the rows above it the block; the value
 * column is found by its header, so columns may be moved and a column the teacher adds is
 * passed by. An EMPTY value cell leaves what is stored (as the marks sheet: a sheet downloaded
 * earlier must not wipe a colleague's entries); clearing is the page's.
 */

type Value = string | number | null;

/** A line of the block above the table. */
export interface AboutLine {
  key: string;
  value: Value;
  /** An id a reader needs not see, but the upload checks. */
  hidden?: boolean;
}

/** The value column: its header, the note on it, and the rule a spreadsheet program checks as typed. */
export interface ValueColumn {
  header: string;
  note: string;
  /** A formula true for an allowed value of `cell` (e.g. `C8`); blank is always allowed. */
  rule: (cell: string) => string;
  error: string;
}

export interface LearnerSheet {
  /** The first worksheet's name: the upload reads no other. */
  name: string;
  about: AboutLine[];
  column: ValueColumn;
  learners: Array<{ studentid: string; fullname: string; value: Value }>;
  instructions: string[];
}

const STUDENT_ID = 'Student ID';
const NAME = 'Name';
/** Characters that make a spreadsheet program read a typed-in cell as a formula (security.md, spreadsheet injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** "Student ID", "student_id" and "STUDENTID" are one key. */
export const sheetKey = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

/** exceljs keeps a sheet's validations by range (its typings know only a cell's). */
type WithValidations = { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

/**
 * The sheet as an .xlsx: the block (keys bold, ids hidden), a blank row, the table with its
 * header frozen, the value column checked as typed and its rule in a note; student ids are text
 * cells (0012 stays 0012); a school's text that starts like a formula stays text. An
 * "Instructions" sheet says how.
 */
export async function learnerWorkbook(spec: LearnerSheet): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(spec.name);
  const lines: Array<{ values: Value[]; hidden?: boolean; kind: 'about' | 'blank' | 'header' | 'learner' }> = [
    ...spec.about.map((line) => ({ kind: 'about' as const, values: [line.key, line.value], hidden: line.hidden })),
    { kind: 'blank', values: [] },
    { kind: 'header', values: [STUDENT_ID, NAME, spec.column.header] },
    ...spec.learners.map((learner) => ({ kind: 'learner' as const, values: [learner.studentid, learner.fullname, learner.value] })),
  ];
  lines.forEach((line, index) => {
    const row = sheet.getRow(index + 1);
    row.values = line.values;
    if (line.hidden) row.hidden = true;
    if (line.kind === 'about') row.getCell(1).font = { bold: true };
    if (line.kind === 'header') row.font = { bold: true };
    row.eachCell((cell, column) => {
      if (typeof cell.value === 'string' && FORMULA_START.test(cell.value)) cell.numFmt = '@';
      if (line.kind === 'learner' && column === 1) cell.numFmt = '@';
    });
  });
  const headerRow = spec.about.length + 2;
  sheet.getCell(headerRow, 3).note = spec.column.note;
  if (spec.learners.length > 0) {
    const first = `C${headerRow + 1}`;
    (sheet as unknown as WithValidations).dataValidations.add(`${first}:C${headerRow + spec.learners.length}`, {
      type: 'custom',
      allowBlank: true,
      showErrorMessage: true,
      errorStyle: 'stop',
      errorTitle: spec.column.header,
      error: spec.column.error,
      formulae: [spec.column.rule(first)],
    });
  }
  sheet.getColumn(1).width = 16;
  sheet.getColumn(2).width = 32;
  sheet.getColumn(3).width = Math.max(10, spec.column.header.length + 3);
  sheet.views = [{ state: 'frozen', ySplit: headerRow, xSplit: 2 }];
  const instructions = workbook.addWorksheet('Instructions');
  instructions.getColumn(1).width = 110;
  for (const line of spec.instructions) instructions.addRow([line]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A learner's row of an uploaded sheet: its number in the sheet, its key, its value cell. */
export interface LearnerSheetRow {
  number: number;
  studentid: string | null;
  cell: Cell;
}

/** An uploaded sheet: the block's values by key (sheetKey'd), and the table's rows. */
export interface ReadLearnerSheet {
  about: ReadonlyMap<string, string | null>;
  rows: LearnerSheetRow[];
}

const noValues = () => new AppError(422, MARK_MESSAGES.sheetNoValues, { file: [MARK_MESSAGES.sheetNoValues] });
const wrongSheet = () => new AppError(422, MARK_MESSAGES.sheetWrongGrid, { file: [MARK_MESSAGES.sheetWrongGrid] });

/**
 * Reads an uploaded sheet as the layout above says and checks it is of what the request names:
 * every key of `expect` present in the block with the same value (ignoring case; null for a
 * blank). Refuses with 422: no "Student ID" header or no value column (sheetNoValues); a block
 * naming something else (sheetWrongGrid); no learner rows; more rows than `maxRows`.
 */
export function readLearnerSheet(
  sheet: Sheet,
  header: string,
  expect: Readonly<Record<string, string | number | null>>,
  maxRows: number,
): ReadLearnerSheet {
  // The reader gives row 1 apart, as a header of texts: here it is the block's first row.
  const rows = sheet.header.length > 0 ? [{ number: 1, cells: sheet.header as Cell[] }, ...sheet.rows] : sheet.rows;
  const key = (cell: Cell | undefined) => sheetKey(cellText(cell ?? null) ?? '');
  const headerAt = rows.findIndex((row) => row.cells.some((cell) => key(cell) === sheetKey(STUDENT_ID)));
  if (headerAt < 0) throw noValues();
  const headerCells = rows[headerAt]?.cells ?? [];
  const keyColumn = headerCells.findIndex((cell) => key(cell) === sheetKey(STUDENT_ID));
  const valueColumn = headerCells.findIndex((cell) => key(cell) === sheetKey(header));
  if (valueColumn < 0) throw noValues();

  const about = new Map<string, string | null>();
  for (const row of rows.slice(0, headerAt)) {
    const name = key(row.cells[0]);
    // The first of a key counts: a note a teacher wrote below cannot rename the sheet.
    if (name !== '' && !about.has(name)) about.set(name, cellText(row.cells[1] ?? null));
  }
  for (const [name, value] of Object.entries(expect)) {
    const found = about.get(sheetKey(name));
    if (found === undefined || (found ?? '').toLowerCase() !== String(value ?? '').toLowerCase()) throw wrongSheet();
  }
  const learners = rows.slice(headerAt + 1).map((row) => ({
    number: row.number,
    studentid: cellText(row.cells[keyColumn] ?? null),
    cell: row.cells[valueColumn] ?? null,
  }));
  if (learners.length === 0) throw new AppError(422, STUDENT_MESSAGES.emptySheet, { file: [STUDENT_MESSAGES.emptySheet] });
  if (learners.length > maxRows) throw new AppError(422, MARK_MESSAGES.gridTooLarge, { file: [MARK_MESSAGES.gridTooLarge] });
  return { about, rows: learners };
}

/** What an upload knows of the school's learners when it checks a sheet's rows. */
export interface SheetLearners {
  /** The class's learners (class, stream; active), by student id. */
  inGrid: ReadonlyMap<string, { id: string }>;
  /** Student ids of the school's other learners (named by the sheet, outside the class). */
  elsewhere: ReadonlySet<string>;
}

/** A sheet's errors by `<row>.<field>`, the students upload's shape. */
export class RowErrors {
  readonly errors: FieldErrors = Object.create(null);
  add(row: number, field: string, message: string): void {
    const key = `${row}.${field}`;
    this.errors[key] = [...(this.errors[key] ?? []), message];
  }
  /** A 422 naming every row's problems, if there are any: nothing of the sheet is saved. */
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new AppError(422, STUDENT_MESSAGES.rowsInvalid, { ...this.errors });
  }
}

/**
 * The learner a row with something to save names, or why not: a student id of no learner of
 * the school (learnerUnknown), of one outside the class (learnerNotInClass), or of a learner
 * an earlier row named (studentidRepeated). The marks sheet and the class sheets check alike.
 */
export function learnerOfRow(
  row: { number: number; studentid: string | null },
  learners: SheetLearners,
  seen: Set<string>,
  errors: RowErrors,
): { id: string } | null {
  if (row.studentid === null) {
    errors.add(row.number, 'studentid', MARK_MESSAGES.learnerUnknown);
    return null;
  }
  const learner = learners.inGrid.get(row.studentid);
  if (!learner) {
    errors.add(
      row.number,
      'studentid',
      learners.elsewhere.has(row.studentid) ? MARK_MESSAGES.learnerNotInClass : MARK_MESSAGES.learnerUnknown,
    );
    return null;
  }
  if (seen.has(learner.id)) {
    errors.add(row.number, 'studentid', STUDENT_MESSAGES.studentidRepeated);
    return null;
  }
  seen.add(learner.id);
  return learner;
}

/** A cell as a value to read: a date or a flag as its text (refused by the value's rule), else as it is. */
export const cellValue = (cell: Cell): string | number | null => (cell instanceof Date || typeof cell === 'boolean' ? String(cell) : cell);

/**
 * A sheet's values by learner id: each filled value cell read by `read` (an empty one is no
 * change), each row's learner checked (learnerOfRow). Any error: 422 naming each
 * `<row>.studentid` or `<row>.<header>`, and nothing is saved.
 */
export function sheetValues(
  read: ReadLearnerSheet,
  header: string,
  readValue: (value: string | number | null) => { ok: true; value: number | null } | { ok: false; error: string },
  learners: SheetLearners,
): Map<string, number> {
  const errors = new RowErrors();
  const values = new Map<string, number>();
  const seen = new Set<string>();
  for (const row of read.rows) {
    const value = readValue(cellValue(row.cell));
    if (!value.ok) errors.add(row.number, header, value.error);
    // A row of notes, without a student id or a value, is passed by.
    if (row.studentid === null && !(value.ok && value.value !== null)) continue;
    const learner = learnerOfRow(row, learners, seen, errors);
    if (learner && value.ok && value.value !== null) values.set(learner.id, value.value);
  }
  errors.throwIfAny();
  return values;
}
