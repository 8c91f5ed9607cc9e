import { MARK_MESSAGES } from '../messages.js';

/*
 * A mark as a teacher types or pastes it (issue 14), the one rule the grid, the spreadsheet
 * upload and the save route all apply: a number from 0 to the mark type's maximum with at most
 * one decimal, ABS for an absence (kept and shown, never counted as 0: grading.md), or nothing.
 */

/** An absence: the learner sat no exam; kept apart from a 0. */
export const ABSENT = 'ABS';
/** The maximum of a mark type that states none. */
export const DEFAULT_MARK_MAXIMUM = 100;
/** Cells one grid may hold: 60 learners by 3 mark types is 180; a whole stream by every mark type stays far below. */
export const MAX_GRID_CELLS = 2000;

/** A stored mark: a number, an absence, or none. */
export type MarkValue = number | typeof ABSENT | null;

export type MarkCellError = (typeof MARK_MESSAGES)[keyof typeof MARK_MESSAGES];

/** What a typed or pasted cell means, or why it is no mark. */
export type ReadCell = { ok: true; value: MarkValue } | { ok: false; error: MarkCellError };

/** Digits with one optional decimal, a point or a comma (a sheet saved in a comma locale). */
const NUMBER = /^[+-]?(\d+)(?:[.,](\d*))?$/;

/**
 * What a cell may hold: a mark type's marks run from 0 to its maximum; a competency's scores
 * (an activity of integration, guide new-curriculum.md) run on the identifier scale, 1 to 3,
 * from 0 only where the school allows it. Either way at most one decimal, and ABS apart.
 */
export interface MarkScale {
  readonly lowest: number;
  readonly highest: number;
  /** A competency's scale: its refusals speak of scores from 1 to 3, not of a mark type's maximum. */
  readonly competency: boolean;
}

/** The highest score of a competency (the identifier scale: 3 Outstanding .. 1 Basic). */
export const COMPETENCY_HIGHEST = 3;

/** A mark type's scale: 0 to its maximum. */
export const markTypeScale = (outof: number = DEFAULT_MARK_MAXIMUM): MarkScale => ({ lowest: 0, highest: outof, competency: false });

/** A competency's scale: 1 to 3, or 0 to 3 where the school allows a 0. */
export const competencyScale = (allowZero: boolean): MarkScale => ({
  lowest: allowZero ? 0 : 1,
  highest: COMPETENCY_HIGHEST,
  competency: true,
});

/** A maximum stands for a mark type's scale (the callers that predate competencies). */
const scaleOf = (scale: number | MarkScale): MarkScale => (typeof scale === 'number' ? markTypeScale(scale) : scale);

/** Reads a cell's text against the mark type's maximum (or a competency's scale). */
export function readMarkCell(text: string, scale: number | MarkScale = DEFAULT_MARK_MAXIMUM): ReadCell {
  const typed = text.trim();
  if (typed === '') return { ok: true, value: null };
  if (typed.toUpperCase() === ABSENT) return { ok: true, value: ABSENT };
  const number = NUMBER.exec(typed);
  if (!number) return { ok: false, error: MARK_MESSAGES.notAMark };
  return checkMark(Number(typed.replace(',', '.')), scale);
}

/** A number sent or stored as a mark: within the scale (0 to the maximum), at most one decimal. */
export function checkMark(value: number, scale: number | MarkScale = DEFAULT_MARK_MAXIMUM): ReadCell {
  const { lowest, highest, competency } = scaleOf(scale);
  if (!Number.isFinite(value)) return { ok: false, error: MARK_MESSAGES.notAMark };
  if (value < lowest) {
    if (competency && lowest > 0) return { ok: false, error: MARK_MESSAGES.competencyBelowOne };
    return { ok: false, error: MARK_MESSAGES.belowZero };
  }
  if (value > highest) return { ok: false, error: competency ? MARK_MESSAGES.competencyAboveThree : MARK_MESSAGES.aboveMaximum };
  // 67.5 is a mark; 67.55 is not (scaled by ten, a one-decimal number is whole, rounding noise aside).
  if (Math.abs(value * 10 - Math.round(value * 10)) > 1e-6) return { ok: false, error: MARK_MESSAGES.oneDecimal };
  return { ok: true, value: Math.round(value * 10) / 10 };
}

/** Reads any value a request or a sheet may carry in a mark's place: number, text, ABS or nothing. */
export function readMarkValue(value: unknown, scale: number | MarkScale = DEFAULT_MARK_MAXIMUM): ReadCell {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === 'number') return checkMark(value, scale);
  if (typeof value === 'string') return readMarkCell(value, scale);
  return { ok: false, error: MARK_MESSAGES.notAMark };
}

/** A mark as the grid and the sheets show it: 67.5, ABS, or empty. */
export function formatMark(value: MarkValue): string {
  if (value === null) return '';
  return typeof value === 'number' ? String(value) : value;
}

/** Whether two marks are the same (67.5 and 67.50 are). */
export function sameMark(a: MarkValue, b: MarkValue): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-9);
}

/**
 * A block copied from Excel, LibreOffice or Google Sheets: rows by line, cells by tab. A cell
 * holding a tab or a line break comes quoted, with its quotes doubled; the line break the copy
 * ends with makes no empty row.
 */
export function parsePastedBlock(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const normalised = text.replace(/\r\n?/g, '\n');
  for (let at = 0; at < normalised.length; at++) {
    const char = normalised[at] as string;
    if (quoted) {
      if (char === '"' && normalised[at + 1] === '"') {
        cell += '"';
        at++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === '\t') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * Where a pasted block lands: from the focused cell down and across, clipped to the grid's
 * rows and columns (what falls outside is counted, so the teacher is told).
 */
export function pasteCells(
  block: ReadonlyArray<ReadonlyArray<string>>,
  at: { row: number; column: number },
  size: { rows: number; columns: number },
): { cells: Array<{ row: number; column: number; text: string }>; outside: number } {
  const cells: Array<{ row: number; column: number; text: string }> = [];
  let outside = 0;
  for (const [down, line] of block.entries()) {
    for (const [across, text] of line.entries()) {
      const row = at.row + down;
      const column = at.column + across;
      if (row < size.rows && column < size.columns) cells.push({ row, column, text });
      else outside++;
    }
  }
  return { cells, outside };
}
