import {
  ABSENT,
  type CellChange,
  MARK_MESSAGES,
  MAX_GRID_CELLS,
  type MarkScale,
  type MarksGrid,
  type MarkValue,
  PAPERS,
  readMarkValue,
  STUDENT_MESSAGES,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.js';
import { type Cell, cellText, type Sheet } from '../../resources/spreadsheet.js';
import { cellValue, learnerOfRow, RowErrors, type SheetLearners, sheetKey } from './learner-sheet.js';

/*
 * The marks grid as a spreadsheet (issue 14 point 3): downloaded to fill offline, read back
 * and saved whole or not at all.
 *
 * The sheet ("Marks", the workbook's FIRST worksheet: the upload reads no other):
 *
 *    A             B             C ...
 *    Class         P5                            rows 1-6 (7: Topic, for a competency's scores):
 *    Stream        East                          what the grid is, as the teacher reads it; the
 *    Subject       Mathematics                   stream is blank for the whole class
 *    Paper         I
 *    Term          I
 *    Year          2026
 *    Subject ID    <uuid>                        hidden: the subject (and topic) by id
 *    (blank)
 *    Mark type ID                <uuid> ...      hidden: each mark column's mark type, in its column
 *    (blank)
 *    Student ID    Name          BOT    MOT      the table: the student id is the key; the name is
 *    P5-East-1     Amina Okello  56     ABS      for the reader only; one column per mark type,
 *    ...                                          headed by its label (its maximum in a note)
 *
 * Why so: the upload's reader (resources/spreadsheet.ts) bounds what it reads and gives the
 * first sheet's rows with their numbers, so the sheet is read from those alone: the row whose
 * cell says "Student ID" is the table's header; the rows above it name the grid (key in A,
 * value in B); the hidden "Mark type ID" row says which mark type each column holds, so a
 * column moved or a label renamed still lands on its mark type, and a column the teacher adds
 * (a total, a comment) is passed by. Blank rows keep the table apart from the block above, so
 * a spreadsheet program sorting the learners does not sort the block into them. Hidden rows
 * survive Excel and LibreOffice alike.
 *
 * Reading back: the sheet must name the grid the request names (class, stream, subject id,
 * paper, term, year, topic id), else it belongs to another grid (sheetWrongGrid); the mark
 * columns are the sheet's own (each checked like a save's: the school's, active, not published
 * for those who do not manage marks). A filled cell overwrites the stored mark (no base: the
 * same file twice changes nothing, and says so as `unchanged`); an EMPTY cell leaves the mark
 * as it is: a sheet downloaded before a colleague entered marks must not wipe them, so
 * clearing a mark is the grid's, where the teacher sees what they clear.
 */

/** The first sheet's name (at most 31 characters, as every spreadsheet program allows). */
const MARKS_SHEET = 'Marks';

/** The texts of the sheet's keys and headers, as written; read back ignoring case and spaces. */
const SHEET_KEYS = {
  form: 'Class',
  stream: 'Stream',
  subject: 'Subject',
  paper: 'Paper',
  term: 'Term',
  year: 'Year',
  topic: 'Topic',
  subjectId: 'Subject ID',
  topicId: 'Topic ID',
  marktypeIds: 'Mark type ID',
  studentid: 'Student ID',
  name: 'Name',
} as const;

/** Which grid a sheet is of: what the request names, and the sheet must name alike. */
export interface SheetGrid {
  form: string;
  stream: string | null;
  subject_id: string;
  paper: string;
  term: string;
  year: number;
  topic_id: string | null;
}

/** What the download writes above the table: the grid, with the names a reader knows it by. */
export interface SheetAbout extends SheetGrid {
  subject: string;
  topic: string | null;
}

const normalise = sheetKey;
const KEY = {
  form: normalise(SHEET_KEYS.form),
  stream: normalise(SHEET_KEYS.stream),
  paper: normalise(SHEET_KEYS.paper),
  term: normalise(SHEET_KEYS.term),
  year: normalise(SHEET_KEYS.year),
  subjectId: normalise(SHEET_KEYS.subjectId),
  topicId: normalise(SHEET_KEYS.topicId),
  marktypeIds: normalise(SHEET_KEYS.marktypeIds),
  studentid: normalise(SHEET_KEYS.studentid),
};

/** `Marks-P5-East-Mathematics-TermI-2026.xlsx` (`-PaperII` after the subject for another paper; `All` for every stream). */
export function gridFileName(about: SheetAbout): string {
  const part = (text: string | null, fallback: string) => (text ?? '').replace(/[^A-Za-z0-9]+/g, '') || fallback;
  const paper = about.paper === 'I' ? '' : `-Paper${part(about.paper, 'I')}`;
  return `Marks-${part(about.form, 'Class')}-${part(about.stream, 'All')}-${part(about.subject, 'Subject')}${paper}-Term${part(about.term, 'I')}-${about.year}.xlsx`;
}

type Value = string | number | null;

/** One row of the sheet as written: its cells from column A, and whether it is hidden. */
interface LayoutRow {
  values: Value[];
  hidden?: boolean;
  kind: 'about' | 'ids' | 'blank' | 'header' | 'learner';
}

/** The first mark column (C): Student ID and Name come first. */
const FIRST_MARK_COLUMN = 3;

/** The sheet's rows, top to bottom, as the layout above says: what the download writes. */
function gridSheetRows(about: SheetAbout, grid: MarksGrid): LayoutRow[] {
  const rows: LayoutRow[] = [
    { kind: 'about', values: [SHEET_KEYS.form, about.form] },
    { kind: 'about', values: [SHEET_KEYS.stream, about.stream] },
    { kind: 'about', values: [SHEET_KEYS.subject, about.subject] },
    { kind: 'about', values: [SHEET_KEYS.paper, about.paper] },
    { kind: 'about', values: [SHEET_KEYS.term, about.term] },
    { kind: 'about', values: [SHEET_KEYS.year, about.year] },
  ];
  if (about.topic_id) rows.push({ kind: 'about', values: [SHEET_KEYS.topic, about.topic] });
  rows.push({ kind: 'about', hidden: true, values: [SHEET_KEYS.subjectId, about.subject_id] });
  if (about.topic_id) rows.push({ kind: 'about', hidden: true, values: [SHEET_KEYS.topicId, about.topic_id] });
  rows.push(
    { kind: 'blank', values: [] },
    { kind: 'ids', hidden: true, values: [SHEET_KEYS.marktypeIds, null, ...grid.marktypes.map((type) => type.id)] },
    { kind: 'blank', values: [] },
    { kind: 'header', values: [SHEET_KEYS.studentid, SHEET_KEYS.name, ...grid.marktypes.map((type) => type.label)] },
  );
  for (const { student, marktypes } of grid.students) {
    rows.push({
      kind: 'learner',
      values: [student.studentid, student.fullname, ...grid.marktypes.map((type) => marktypes[type.id]?.mark ?? null)],
    });
  }
  return rows;
}

/** Characters that make a spreadsheet program read a typed-in cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A column letter: 1 is A, 3 is C, 27 is AA. */
function columnLetter(position: number): string {
  let letters = '';
  for (let n = position; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** exceljs keeps a sheet's validations by range (its typings know only a cell's). */
type WithValidations = { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

/**
 * The grid as an .xlsx: the layout above, keys and header bold, the table's header frozen, each
 * mark type's maximum in a note on its header and checked as typed (a number from 0 to the
 * maximum with at most one decimal, ABS, or empty: the same rule the upload applies). Student
 * ids are text cells (an id typed as 0012 stays 0012); a text from the school that starts like
 * a formula stays text (security.md, spreadsheet injection). An "Instructions" sheet says how.
 */
export async function gridWorkbook(about: SheetAbout, grid: MarksGrid): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(MARKS_SHEET);
  const layout = gridSheetRows(about, grid);
  const headerRow = layout.findIndex((line) => line.kind === 'header') + 1;
  layout.forEach((line, index) => {
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
  grid.marktypes.forEach((type, index) => {
    const column = FIRST_MARK_COLUMN + index;
    sheet.getCell(headerRow, column).note = `Out of ${type.outof}. ABS for an absent learner.`;
    const letter = columnLetter(column);
    const first = `${letter}${headerRow + 1}`;
    // One rule for the column's learners; its formula is written for the first and moves down with each row.
    if (grid.students.length > 0)
      (sheet as unknown as WithValidations).dataValidations.add(`${first}:${letter}${headerRow + grid.students.length}`, {
        type: 'custom',
        allowBlank: true,
        showErrorMessage: true,
        errorStyle: 'stop',
        errorTitle: type.label,
        error: `Enter a number from 0 to ${type.outof} with at most one decimal, ABS for an absence, or leave it empty.`,
        formulae: [
          `OR(UPPER(${first})="${ABSENT}",AND(ISNUMBER(${first}),${first}>=0,${first}<=${type.outof},ROUND(${first},1)=${first}))`,
        ],
      });
    sheet.getColumn(column).width = Math.min(30, Math.max(8, type.label.length + 3));
  });
  sheet.getColumn(1).width = 16;
  sheet.getColumn(2).width = 32;
  sheet.views = [{ state: 'frozen', ySplit: headerRow, xSplit: 2 }];

  const instructions = workbook.addWorksheet('Instructions');
  instructions.getColumn(1).width = 110;
  for (const line of [
    `Fill in the marks on the ${MARKS_SHEET} sheet, one learner a row, then upload this file with the same class, stream, subject, paper, term and year.`,
    'A mark is a number from 0 to the maximum of its mark type (in the note on its header) with at most one decimal, or ABS for an absent learner (never counted as 0).',
    'An empty cell leaves the mark as it is: to remove a mark, use the marks grid.',
    'Keep the rows above the table and the Student ID column: they say which grid and which learner each mark is for. Rows may be sorted; columns may be moved.',
    'Every row is checked before anything is saved: if any row is wrong, nothing is saved and each problem is listed by its row. Uploading the same file again changes nothing.',
  ])
    instructions.addRow([line]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A learner's row of an uploaded sheet: its number in the sheet, its key, its mark cells by mark type. */
export interface SheetLearnerRow {
  number: number;
  studentid: string | null;
  marks: Array<{ marktype_id: string; cell: Cell }>;
}

export interface ReadGridSheet {
  /** The mark types of the sheet's columns, in column order. */
  marktypeIds: string[];
  rows: SheetLearnerRow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const noMarks = () => new AppError(422, MARK_MESSAGES.sheetNoMarks, { file: [MARK_MESSAGES.sheetNoMarks] });
const wrongGrid = () => new AppError(422, MARK_MESSAGES.sheetWrongGrid, { file: [MARK_MESSAGES.sheetWrongGrid] });
const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** Whether the block above the table names this grid: each part present and alike (stream blank for the whole class). */
function namesGrid(about: ReadonlyMap<string, string | null>, grid: SheetGrid): boolean {
  const required = [KEY.form, KEY.stream, KEY.paper, KEY.term, KEY.year, KEY.subjectId];
  if (required.some((key) => !about.has(key))) return false;
  return (
    same(about.get(KEY.form), grid.form) &&
    same(about.get(KEY.stream), grid.stream) &&
    same(about.get(KEY.subjectId), grid.subject_id) &&
    same(about.get(KEY.topicId), grid.topic_id) &&
    same(about.get(KEY.paper), grid.paper) &&
    same(about.get(KEY.term), grid.term) &&
    about.get(KEY.year) === String(grid.year)
  );
}

/** The sheet's rows, its table's header row and key column, and the block above it (the grid, the mark type ids). */
function sheetBlock(sheet: Sheet) {
  // The reader gives row 1 apart, as a header of texts: here it is the block's first row.
  const rows = sheet.header.length > 0 ? [{ number: 1, cells: sheet.header as Cell[] }, ...sheet.rows] : sheet.rows;
  const headerAt = rows.findIndex((row) => row.cells.some((cell) => normalise(cellText(cell) ?? '') === KEY.studentid));
  if (headerAt < 0) throw noMarks();
  const keyColumn = (rows[headerAt]?.cells ?? []).findIndex((cell) => normalise(cellText(cell) ?? '') === KEY.studentid);
  const about = new Map<string, string | null>();
  let idCells: Cell[] = [];
  for (const row of rows.slice(0, headerAt)) {
    const key = normalise(cellText(row.cells[0]) ?? '');
    if (key === KEY.marktypeIds) idCells = row.cells;
    // The first of a key counts: a note a teacher wrote below cannot rename the grid.
    else if (key !== '' && !about.has(key)) about.set(key, cellText(row.cells[1]));
  }
  return { rows, headerAt, keyColumn, about, idCells };
}

/**
 * A filled sheet of a class's marks in a subject, downloaded without a competency, read as the
 * scores of a competency being created with it (issue 26 point 2): the sheet names its own
 * stream, year and paper; its class, subject and term must be the competency's, and it must
 * name no other competency (sheetWrongGrid otherwise). Answers the grid it is of, the
 * competency's id still to come, and its rows as readGridSheet reads them.
 */
export function readSheetForCompetency(
  sheet: Sheet,
  competency: { form: string; term: string; subject_id: string },
): { grid: Omit<SheetGrid, 'paper'> & { paper: (typeof PAPERS)[number] }; read: ReadGridSheet } {
  const { about } = sheetBlock(sheet);
  const year = Number(about.get(KEY.year));
  const paper = PAPERS.find((each) => each === (about.get(KEY.paper) ?? '').trim().toUpperCase());
  if (!Number.isInteger(year) || !paper || about.get(KEY.topicId)) throw wrongGrid();
  const grid = { ...competency, stream: about.get(KEY.stream) || null, year, paper, topic_id: null };
  return { grid, read: readGridSheet(sheet, grid) };
}

/**
 * Reads an uploaded sheet (resources/spreadsheet.ts bounds it: at most 5,000 rows of 100
 * columns) as the layout above says, and checks it is of `grid`. Refuses with 422: no "Student
 * ID" header or no mark column (sheetNoMarks); a sheet naming another grid, or one mark type in
 * two columns, which could save either of two marks (sheetRepeatedMarkType); no learner rows; more
 * cells than a grid holds (the grid's own limit).
 */
export function readGridSheet(sheet: Sheet, grid: SheetGrid): ReadGridSheet {
  const { rows, headerAt, keyColumn, about, idCells } = sheetBlock(sheet);
  const columns: Array<{ index: number; marktype_id: string }> = [];
  idCells.forEach((cell, index) => {
    const id = cellText(cell);
    if (index !== keyColumn && id !== null && UUID.test(id)) columns.push({ index, marktype_id: id.toLowerCase() });
  });
  if (columns.length === 0) throw noMarks();
  if (!namesGrid(about, grid)) throw wrongGrid();
  const marktypeIds = columns.map((column) => column.marktype_id);
  if (new Set(marktypeIds).size !== marktypeIds.length)
    throw new AppError(422, MARK_MESSAGES.sheetRepeatedMarkType, { file: [MARK_MESSAGES.sheetRepeatedMarkType] });

  const learners: SheetLearnerRow[] = rows.slice(headerAt + 1).map((row) => ({
    number: row.number,
    studentid: cellText(row.cells[keyColumn]),
    marks: columns.map((column) => ({ marktype_id: column.marktype_id, cell: row.cells[column.index] ?? null })),
  }));
  if (learners.length === 0) throw new AppError(422, STUDENT_MESSAGES.emptySheet, { file: [STUDENT_MESSAGES.emptySheet] });
  if (learners.length * columns.length > MAX_GRID_CELLS)
    throw new AppError(422, MARK_MESSAGES.gridTooLarge, { file: [MARK_MESSAGES.gridTooLarge] });
  return { marktypeIds, rows: learners };
}

/**
 * The marks of the sheet's rows as the save's cells (no base: the sheet overwrites), every
 * row checked first: a student id of no learner of the school (learnerUnknown) or of one
 * outside the grid (learnerNotInClass), one learner on two rows, and each filled mark cell
 * against its mark type's scale (its maximum, or a competency's 1 to 3). Any error: 422 naming each `<row>.studentid` or
 * `<row>.<mark type label>` (the students upload's shape), and nothing is saved.
 */
export function sheetCells(
  read: ReadGridSheet,
  types: ReadonlyMap<string, { label: string; scale: MarkScale }>,
  learners: SheetLearners,
): CellChange[] {
  const errors = new RowErrors();
  const cells: CellChange[] = [];
  const seen = new Set<string>();
  for (const row of read.rows) {
    const filled = row.marks.flatMap(({ marktype_id, cell }) => {
      const type = types.get(marktype_id);
      if (!type) return [];
      const mark = readMarkValue(cellValue(cell), type.scale);
      if (!mark.ok) {
        errors.add(row.number, type.label, mark.error);
        return [];
      }
      // An empty cell is no change (see above).
      return mark.value === null ? [] : [{ marktype_id, value: mark.value as MarkValue }];
    });
    // A row of notes without marks is passed by; marks need a learner.
    if (row.studentid === null && filled.length === 0) continue;
    const learner = learnerOfRow(row, learners, seen, errors);
    if (learner) for (const mark of filled) cells.push({ marktype_id: mark.marktype_id, student_id: learner.id, value: mark.value });
  }
  errors.throwIfAny();
  return cells;
}
