import { type RemarkConflict, type Remarks, remarkTypeKey, studentKey } from '@mustard/shared';

/*
 * The report comments screen's state (issue 16 points 2 and 3), pure so it is tested without a
 * browser: what is stored (text and version of each learner's remark of each remark type), what
 * the teacher typed and has not yet seen saved, and the version each typed text was typed over.
 * A cell is one learner's remark of one remark type.
 */

/** One learner's remark of one remark type: `<remark type id>:<learner id>`. */
export type Cell = string;
export const cellOf = (remarktypeId: string, studentId: string): Cell => `${remarktypeId}:${studentId}`;
export const partsOf = (cell: Cell) => {
  const [remarktypeId = '', studentId = ''] = cell.split(':');
  return { remarktypeId, studentId };
};

export interface Stored {
  comment: string;
  version: number;
}

export interface SheetState {
  stored: Record<Cell, Stored>;
  typed: Record<Cell, string>;
  /** The stored version a typed text was typed over (0: there was none); sent as the save's base. */
  base: Record<Cell, number>;
}

/** The answer's `remarks` map (`rt_<id>` then `s_<id>`) by cell. */
export function storedOf(remarks: Remarks['remarks']): Record<Cell, Stored> {
  const stored: Record<Cell, Stored> = {};
  for (const [typeKey, byLearner] of Object.entries(remarks))
    for (const [learnerKey, cell] of Object.entries(byLearner)) stored[cellOf(typeKey.slice(3), learnerKey.slice(2))] = cell;
  return stored;
}

export const sheetFrom = (remarks: Remarks['remarks']): SheetState => ({ stored: storedOf(remarks), typed: {}, base: {} });

/** What the cell shows: the typed text, else the stored one. */
export const textOf = (state: SheetState, cell: Cell) => state.typed[cell] ?? state.stored[cell]?.comment ?? '';

/** Typing into a cell: the first keystroke over a stored text remembers its version. */
export function typeInto(state: SheetState, cell: Cell, text: string): SheetState {
  const stored = state.stored[cell];
  if (text === (stored?.comment ?? '')) {
    const { [cell]: _typed, ...typed } = state.typed;
    const { [cell]: _base, ...base } = state.base;
    return { ...state, typed, base };
  }
  return {
    ...state,
    typed: { ...state.typed, [cell]: text },
    base: cell in state.base ? state.base : { ...state.base, [cell]: stored?.version ?? 0 },
  };
}

/** Cells whose typed text is not what is stored (the screen's unsaved ones). */
export const unsavedCells = (state: SheetState): Cell[] =>
  Object.keys(state.typed).filter((cell) => (state.typed[cell] ?? '').trim() !== (state.stored[cell]?.comment ?? ''));

/** A save of some cells: `comment` and `base` as the endpoint takes them, and the texts sent by cell. */
export function saveBodyOf(state: SheetState, cells: readonly Cell[]) {
  const comment: Record<string, Record<string, string>> = {};
  const base: Record<string, Record<string, number>> = {};
  const sent: Record<Cell, string> = {};
  for (const cell of cells) {
    const text = state.typed[cell];
    if (text === undefined) continue;
    const { remarktypeId, studentId } = partsOf(cell);
    const typeKey = remarkTypeKey(remarktypeId);
    const learnerKey = studentKey(studentId);
    comment[typeKey] = { ...comment[typeKey], [learnerKey]: text };
    base[typeKey] = { ...base[typeKey], [learnerKey]: state.base[cell] ?? state.stored[cell]?.version ?? 0 };
    sent[cell] = text;
  }
  return { comment, base, sent };
}

/**
 * A save's answer: what is stored now; a typed text that is still what was sent is no longer
 * typed (one typed again while the save was on its way stays, over the new version).
 */
export function applySaved(state: SheetState, sent: Readonly<Record<Cell, string>>, remarks: Remarks['remarks']): SheetState {
  const now = storedOf(remarks);
  const stored = { ...state.stored, ...now };
  const typed = { ...state.typed };
  const base = { ...state.base };
  for (const [cell, text] of Object.entries(sent)) {
    if (typed[cell] === text) {
      delete typed[cell];
      delete base[cell];
    } else if (cell in typed) base[cell] = now[cell]?.version ?? 0;
  }
  return { stored, typed, base };
}

/**
 * A conflict settled by the teacher: theirs takes the stored text and drops the typed one; mine
 * keeps the typed text over their version, so the next save replaces theirs knowingly.
 */
export function resolveConflict(state: SheetState, conflict: RemarkConflict, which: 'theirs' | 'mine'): SheetState {
  const cell = cellOf(conflict.remarktype_id, conflict.student_id);
  const stored = { ...state.stored, [cell]: { comment: conflict.theirs, version: conflict.version } };
  if (which === 'mine')
    return { stored, typed: { ...state.typed, [cell]: conflict.yours }, base: { ...state.base, [cell]: conflict.version } };
  const { [cell]: _typed, ...typed } = state.typed;
  const { [cell]: _base, ...base } = state.base;
  return { stored, typed, base };
}

/** The cells of a 422's field paths (`comment.rt_<id>.s_<id>`), each with its first message. */
export function cellErrorsOf(errors: Readonly<Record<string, readonly string[]>>): Record<Cell, string> {
  const found: Record<Cell, string> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const match = /^comment\.rt_([^.]+)\.s_([^.]+)$/.exec(path);
    if (match?.[1] && match[2] && messages[0]) found[cellOf(match[1], match[2])] = messages[0];
  }
  return found;
}

/**
 * The next cell for Tab: the same remark type of the next learner, then the next remark type's
 * first learner (Shift+Tab the other way); none past the ends, where the browser's own Tab goes on.
 */
export function tabFrom(
  at: { column: number; row: number },
  size: { columns: number; rows: number },
  backwards: boolean,
): { column: number; row: number } | null {
  const index = at.column * size.rows + at.row + (backwards ? -1 : 1);
  if (index < 0 || index >= size.columns * size.rows) return null;
  return { column: Math.floor(index / size.rows), row: index % size.rows };
}
