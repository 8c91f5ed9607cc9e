import { MAX_GRID_CELLS, type ProjectScoresGrid } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.js';
import type { Cell, Sheet } from '../../resources/spreadsheet.js';
import { readLearnerSheet } from '../marks/learner-sheet.js';

/*
 * A project's scores as a spreadsheet (issue 26 point 5), downloaded to fill offline and read
 * back, saved whole or not at all. The layout is the class sheets' (marks/learner-sheet.ts),
 * with two columns to fill:
 *
 *    A              B
 *    Project        Designing a school garden     the block: what the sheet is of (key in A,
 *    Class          S3                            value in B); the project's id hidden
 *    Stream         East                          (blank for the whole class)
 *    Subject        Mathematics
 *    Term           II
 *    Year           2026
 *    Maximum        10
 *    Project ID     <uuid>                        hidden
 *    (blank)
 *    Student ID     Name           Score   Comment     the table: the student id is the key,
 *    S3-East-1      Amina Okello   8.5     Neat work   the name for the reader only
 *
 * Read back by readLearnerSheet (the row with a "Student ID" cell is the header, the block
 * above must name this project and stream; columns found by their headers). An EMPTY cell
 * leaves what is stored: a sheet downloaded earlier must not wipe a colleague's entries.
 */

export const SCORE_SHEET = {
  name: 'Project scores',
  score: 'Score',
  comment: 'Comment',
  projectId: 'Project ID',
  stream: 'Stream',
} as const;

type Value = string | number | null;

/** Characters that make a spreadsheet program read a typed-in cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** exceljs keeps a sheet's validations by range (its typings know only a cell's). */
type WithValidations = { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } };

/** The grid as an .xlsx: the layout above, the score column checked as typed, ids as text, a school's text never a formula. */
export async function scoresWorkbook(grid: ProjectScoresGrid, stream: string | null): Promise<Buffer> {
  const { project } = grid;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(SCORE_SHEET.name);
  const lines: Array<{ values: Value[]; hidden?: boolean; kind: 'about' | 'blank' | 'header' | 'learner' }> = [
    { kind: 'about', values: ['Project', project.title] },
    { kind: 'about', values: ['Class', project.form] },
    { kind: 'about', values: [SCORE_SHEET.stream, stream] },
    { kind: 'about', values: ['Subject', project.subject.name] },
    { kind: 'about', values: ['Term', project.term] },
    { kind: 'about', values: ['Year', project.year] },
    { kind: 'about', values: ['Maximum', project.max_score] },
    { kind: 'about', values: [SCORE_SHEET.projectId, project.id], hidden: true },
    { kind: 'blank', values: [] },
    { kind: 'header', values: ['Student ID', 'Name', SCORE_SHEET.score, SCORE_SHEET.comment] },
    ...grid.students.map(({ student, scores }) => ({
      kind: 'learner' as const,
      values: [student.studentid, student.fullname, scores?.score ?? null, scores?.comment ?? null],
    })),
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
  const headerRow = lines.findIndex((line) => line.kind === 'header') + 1;
  sheet.getCell(headerRow, 3).note = `From 0 to ${project.max_score}, at most one decimal.`;
  if (grid.students.length > 0) {
    const first = `C${headerRow + 1}`;
    (sheet as unknown as WithValidations).dataValidations.add(`${first}:C${headerRow + grid.students.length}`, {
      type: 'custom',
      allowBlank: true,
      showErrorMessage: true,
      errorStyle: 'stop',
      errorTitle: SCORE_SHEET.score,
      error: `Enter a number from 0 to ${project.max_score} with at most one decimal, or leave it empty.`,
      formulae: [`AND(ISNUMBER(${first}),${first}>=0,${first}<=${project.max_score},ROUND(${first},1)=${first})`],
    });
  }
  sheet.getColumn(1).width = 16;
  sheet.getColumn(2).width = 32;
  sheet.getColumn(3).width = 10;
  sheet.getColumn(4).width = 60;
  sheet.views = [{ state: 'frozen', ySplit: headerRow, xSplit: 2 }];
  const instructions = workbook.addWorksheet('Instructions');
  instructions.getColumn(1).width = 110;
  for (const line of [
    `Fill in the scores and comments on the ${SCORE_SHEET.name} sheet, one learner a row, then upload this file on the project's Record Scores page.`,
    `A score is a number from 0 to the project's maximum (${project.max_score}) with at most one decimal; a comment has at most 1,000 characters.`,
    'An empty cell leaves what is stored as it is: to remove a score or a comment, use the grid.',
    'Keep the rows above the table and the Student ID column: they say which project and which learner each score is for. Rows may be sorted; columns may be moved.',
    'Every row is checked before anything is saved: if any row is wrong, nothing is saved and each problem is listed by its row.',
  ])
    instructions.addRow([line]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** An uploaded sheet's learner rows: the row's number, its student id, its score and comment cells. */
export interface ScoreSheet {
  rows: Array<{ number: number; studentid: string | null; score: Cell; comment: Cell }>;
}

/**
 * Reads an uploaded sheet and checks it is of this project and stream (422 naming `file`
 * otherwise: no Student ID or Score column, another project or stream, no rows, too many).
 * The Comment column may be left out.
 */
export function readScoresSheet(sheet: Sheet, grid: { project_id: string; stream: string | null }): ScoreSheet {
  const expect = { [SCORE_SHEET.projectId]: grid.project_id, [SCORE_SHEET.stream]: grid.stream };
  const scores = readLearnerSheet(sheet, SCORE_SHEET.score, expect, MAX_GRID_CELLS);
  let comments: Cell[] = [];
  try {
    comments = readLearnerSheet(sheet, SCORE_SHEET.comment, expect, MAX_GRID_CELLS).rows.map((row) => row.cell);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  return {
    rows: scores.rows.map((row, index) => ({
      number: row.number,
      studentid: row.studentid,
      score: row.cell,
      comment: comments[index] ?? null,
    })),
  };
}
