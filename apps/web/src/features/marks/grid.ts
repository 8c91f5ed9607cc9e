import {
  cellKey,
  formatMark,
  type MarkScale,
  type MarksGrid,
  type MarksSaved,
  type MarkValue,
  markTypeScale,
  type PasteLearner,
  parsePastedBlock,
  planPaste,
  type ReadCell,
  readMarkCell,
  sameMark,
} from '@mustard/shared';

/*
 * The marks grid's own logic (issue 14), apart from the screen so it is tested alone: what each
 * cell holds, which cells are unsaved or wrong, where a key moves the focus, what a paste
 * fills, what a save sends, and how an answer or a conflict changes the grid.
 */

/** A stored mark as the grid loaded it (or as a save or a kept conflict left it). */
export interface BaseMark {
  mark: MarkValue;
  version: number;
}

export interface GridState {
  /** Learner ids, in the grid's order (rows). */
  rows: readonly string[];
  /** Mark type ids, in order (columns), each with the scale its cells are read on (its maximum, or a competency's 1 to 3). */
  columns: ReadonlyArray<{ id: string; scale: MarkScale; locked: boolean }>;
  /** Stored marks by cell key. */
  base: Readonly<Record<string, BaseMark>>;
  /** What each cell holds now, as typed, by cell key (a cell not here holds its stored mark). */
  typed: Readonly<Record<string, string>>;
}

export const keyOf = (row: string, column: string) => cellKey(column, row);

/** A grid as loaded: stored marks as the base, nothing typed. */
export function gridFrom(grid: MarksGrid, mayChangePublished: boolean): GridState {
  const base: Record<string, BaseMark> = {};
  for (const row of grid.students) for (const [column, mark] of Object.entries(row.marktypes)) base[keyOf(row.student.id, column)] = mark;
  return {
    rows: grid.students.map((row) => row.student.id),
    columns: grid.marktypes.map((type) => ({
      id: type.id,
      scale: grid.scale ?? markTypeScale(type.outof),
      locked: type.published && !mayChangePublished,
    })),
    base,
    typed: {},
  };
}

/** The text a cell shows: what was typed, else its stored mark. */
export function cellText(state: GridState, key: string): string {
  return state.typed[key] ?? formatMark(state.base[key]?.mark ?? null);
}

/** The typed cells that differ from what is stored: what a save sends. */
export function unsavedKeys(state: GridState): string[] {
  return Object.keys(state.typed).filter((key) => cellText(state, key).trim() !== formatMark(state.base[key]?.mark ?? null));
}

/** Every typed cell that is no mark, with its reason (checked as typed, against the column's scale). */
export function cellErrors(state: GridState): Record<string, Exclude<ReadCell, { ok: true }>['error']> {
  const scales = new Map(state.columns.map((column) => [column.id, column.scale]));
  const errors: Record<string, Exclude<ReadCell, { ok: true }>['error']> = {};
  for (const key of Object.keys(state.typed)) {
    const read = readMarkCell(state.typed[key] ?? '', scales.get(key.split(':')[0] ?? ''));
    if (!read.ok) errors[key] = read.error;
  }
  return errors;
}

/** Types into one cell; typing the stored mark back makes it saved again. */
export function typeInto(state: GridState, key: string, text: string): GridState {
  const typed = { ...state.typed };
  if (text.trim() === formatMark(state.base[key]?.mark ?? null)) delete typed[key];
  else typed[key] = text;
  return { ...state, typed };
}

export type Move = 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'first' | 'last';

/** Where the focus goes from a cell (row, column) on a key: it stays inside the grid. */
export function moveFrom(state: GridState, at: { row: number; column: number }, move: Move): { row: number; column: number } {
  const lastRow = state.rows.length - 1;
  const lastColumn = state.columns.length - 1;
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));
  switch (move) {
    case 'up':
      return { row: clamp(at.row - 1, lastRow), column: at.column };
    case 'down':
      return { row: clamp(at.row + 1, lastRow), column: at.column };
    case 'left':
      return { row: at.row, column: clamp(at.column - 1, lastColumn) };
    case 'right':
      return { row: at.row, column: clamp(at.column + 1, lastColumn) };
    case 'home':
      return { row: at.row, column: 0 };
    case 'end':
      return { row: at.row, column: lastColumn };
    case 'first':
      return { row: 0, column: 0 };
    case 'last':
      return { row: lastRow, column: lastColumn };
  }
}

/**
 * A block pasted at a cell: the cells it fills (locked columns skipped), how many fell outside,
 * and whom it reached. A block naming its learners (student ids or names in its first columns)
 * lands on them whatever the grid's order; a block of marks alone lands by position
 * (`planPaste`, issue 23 item 17).
 */
export function pasteAt(state: GridState, at: { row: number; column: number }, text: string, learners: readonly PasteLearner[]) {
  const plan = planPaste(parsePastedBlock(text), at, { learners, columns: state.columns.length });
  let next = state;
  let skipped = plan.outside;
  const reached = new Set<string>();
  for (const cell of plan.cells) {
    const column = state.columns[cell.column];
    const row = state.rows[cell.row];
    if (!column || !row || column.locked) {
      skipped++;
      continue;
    }
    next = typeInto(next, keyOf(row, column.id), cell.text.trim());
    reached.add(row);
  }
  return {
    state: next,
    filled: plan.cells.length - (skipped - plan.outside),
    skipped,
    by: plan.by,
    /** Learner ids that received a value, in the grid's order. */
    reached: state.rows.filter((row) => reached.has(row)),
    unmatched: plan.unmatched,
  };
}

/** The marks and versions a save sends: the unsaved cells only, each read as a mark. */
export function saveBody(state: GridState): {
  marks: Record<string, Record<string, MarkValue>>;
  base: Record<string, Record<string, number>>;
} {
  const scales = new Map(state.columns.map((column) => [column.id, column.scale]));
  const marks: Record<string, Record<string, MarkValue>> = {};
  const base: Record<string, Record<string, number>> = {};
  for (const key of unsavedKeys(state)) {
    const [column = '', row = ''] = key.split(':');
    const read = readMarkCell(state.typed[key] ?? '', scales.get(column));
    if (!read.ok) continue;
    marks[column] = { ...marks[column], [row]: read.value };
    base[column] = { ...base[column], [row]: state.base[key]?.version ?? 0 };
  }
  return { marks, base };
}

/**
 * A saved answer: the stored marks become the base; a cell typed again while the save was on
 * its way keeps what was typed since (it is still unsaved).
 */
export function applySaved(now: GridState, sent: Record<string, Record<string, MarkValue>>, answer: MarksSaved): GridState {
  const base = { ...now.base };
  const typed = { ...now.typed };
  for (const [column, byRow] of Object.entries(answer.marks)) {
    for (const [row, mark] of Object.entries(byRow)) {
      const key = keyOf(row, column);
      base[key] = mark;
      const now = typed[key];
      const read = now === undefined ? null : readMarkCell(now);
      if (read === null || (read.ok && sameMark(read.value, sent[column]?.[row] ?? null))) delete typed[key];
    }
  }
  return { ...now, base, typed };
}

/** A conflict resolved: keep theirs (their mark becomes the cell's) or mine (sent again over their version). */
export function resolveConflict(
  state: GridState,
  conflict: { marktype_id: string; student_id: string; theirs: MarkValue; version: number },
  keep: 'theirs' | 'mine',
): GridState {
  const key = keyOf(conflict.student_id, conflict.marktype_id);
  const base = { ...state.base, [key]: { mark: conflict.theirs, version: conflict.version } };
  if (keep === 'mine') return { ...state, base };
  const typed = { ...state.typed };
  delete typed[key];
  return { ...state, base, typed };
}
