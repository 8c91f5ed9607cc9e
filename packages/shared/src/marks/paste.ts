import { pasteCells, readMarkCell } from './cells.js';

/*
 * Where a block pasted into a class's grid lands (issue 23 item 17). Teachers copy marks from a
 * register or a spreadsheet of their own, whose learners need not be in the grid's order: a
 * positional paste put all 45 learners' marks on someone else. So a block that carries the
 * learners' student ids or names in its first column (or two: "Student ID, Name, marks…") is
 * pasted row by row onto the learner each row names, and the rows that name no one (or someone
 * twice, or two learners at once) are said; a block of marks alone is pasted by position from
 * the focused cell, and the teacher is shown whom it reached before saving.
 */

/** A learner of the grid as the paste knows them. */
export interface PasteLearner {
  studentid: string;
  fullname: string;
}

/** A line of the block that reached no learner, and why. */
export interface UnmatchedLine {
  /** 1 for the block's first line. */
  line: number;
  /** What its first columns carried (the id or name the teacher will recognise). */
  text: string;
  reason: 'none' | 'ambiguous' | 'repeated';
}

export interface PastePlan {
  /** How rows found their learners: by the ids or names the block carries, or by position from the focused cell. */
  by: 'studentid' | 'name' | 'position';
  /** The cells to fill, by grid row and column. */
  cells: Array<{ row: number; column: number; text: string }>;
  /** Values that fell outside the grid. */
  outside: number;
  /** Grid rows that received a value, in the grid's order. */
  rows: number[];
  unmatched: UnmatchedLine[];
}

/** At most this many leading columns name the learner: a student id, a name, or both. */
const MAX_KEY_COLUMNS = 2;

const idKey = (text: string) => text.trim().toLowerCase();
/** A name's words, whatever their order ("NAKATO Amina", "Nakato, Amina" and "Amina Nakato" are one name). */
const nameWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[,.;]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0);

type Found = { row: number; by: 'studentid' | 'name' } | 'ambiguous' | null;

/** Finds learners by a cell's text: their student id, else their whole name, else (two words or more) part of one name. */
function finder(learners: readonly PasteLearner[]) {
  const byId = new Map<string, number>();
  for (const [row, learner] of learners.entries()) byId.set(idKey(learner.studentid), row);
  const words = learners.map((learner) => new Set(nameWords(learner.fullname)));
  return (text: string): Found => {
    if (text.trim() === '') return null;
    const id = byId.get(idKey(text));
    if (id !== undefined) return { row: id, by: 'studentid' };
    const wanted = nameWords(text);
    if (wanted.length === 0) return null;
    const whole = words.flatMap((have, row) => (have.size === wanted.length && wanted.every((word) => have.has(word)) ? [row] : []));
    if (whole.length === 1) return { row: whole[0] as number, by: 'name' };
    if (whole.length > 1) return 'ambiguous';
    if (wanted.length < 2) return null;
    const part = words.flatMap((have, row) => (wanted.every((word) => have.has(word)) ? [row] : []));
    if (part.length === 1) return { row: part[0] as number, by: 'name' };
    return part.length > 1 ? 'ambiguous' : null;
  };
}

/** A cell a mark type column could hold: a number, ABS, or nothing. */
const markLike = (text: string) => readMarkCell(text, Number.POSITIVE_INFINITY).ok;

/**
 * How many leading columns name learners: a column does when at least half of its filled cells
 * name one of the grid's learners, and (a column of numbers could be marks that happen to equal
 * student ids) when it holds numbers, every one of them does.
 */
function keyColumns(block: ReadonlyArray<ReadonlyArray<string>>, find: ReturnType<typeof finder>): number {
  let keys = 0;
  for (let column = 0; column < MAX_KEY_COLUMNS; column++) {
    const filled = block.map((line) => line[column] ?? '').filter((text) => text.trim() !== '');
    if (filled.length === 0) break;
    const named = filled.filter((text) => find(text) !== null).length;
    const allMarks = filled.every(markLike);
    if (named === 0 || named * 2 < filled.length || (allMarks && named < filled.length)) break;
    keys++;
  }
  return keys;
}

/**
 * The plan of a paste at the focused cell: rows matched by the ids or names the block carries,
 * or by position; the values of each row go across from the focused column.
 */
export function planPaste(
  block: ReadonlyArray<ReadonlyArray<string>>,
  at: { row: number; column: number },
  grid: { learners: readonly PasteLearner[]; columns: number },
): PastePlan {
  const find = finder(grid.learners);
  const keys = keyColumns(block, find);
  if (keys === 0) {
    const { cells, outside } = pasteCells(block, at, { rows: grid.learners.length, columns: grid.columns });
    return { by: 'position', cells, outside, rows: [...new Set(cells.map((cell) => cell.row))].sort((a, b) => a - b), unmatched: [] };
  }
  const cells: PastePlan['cells'] = [];
  const unmatched: UnmatchedLine[] = [];
  const taken = new Set<number>();
  let outside = 0;
  let byId = 0;
  for (const [index, line] of block.entries()) {
    const named = line.slice(0, keys);
    const values = line.slice(keys);
    if (line.every((text) => text.trim() === '')) continue;
    const found = named.map(find);
    const learner = found.find((each) => typeof each === 'object' && each?.by === 'studentid') ?? found.find((each) => each !== null);
    const text = named.filter((each) => each.trim() !== '').join(' ');
    if (learner === undefined || learner === null || learner === 'ambiguous') {
      // A heading row ("Student ID, Name, BOT") carries no mark: left out without a word.
      if (learner !== 'ambiguous' && !values.some((value) => value.trim() !== '' && markLike(value))) continue;
      unmatched.push({ line: index + 1, text, reason: learner === 'ambiguous' ? 'ambiguous' : 'none' });
      continue;
    }
    if (taken.has(learner.row)) {
      unmatched.push({ line: index + 1, text, reason: 'repeated' });
      continue;
    }
    taken.add(learner.row);
    if (learner.by === 'studentid') byId++;
    for (const [across, value] of values.entries()) {
      const column = at.column + across;
      if (column < grid.columns) cells.push({ row: learner.row, column, text: value });
      else outside++;
    }
  }
  return {
    by: byId > 0 ? 'studentid' : 'name',
    cells,
    outside,
    rows: [...new Set(cells.map((cell) => cell.row))].sort((a, b) => a - b),
    unmatched,
  };
}
