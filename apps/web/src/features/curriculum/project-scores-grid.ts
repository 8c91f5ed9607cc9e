import {
  type PasteLearner,
  type ProjectScoreCell,
  type ProjectScoresGrid,
  type ProjectScoresSaved,
  parsePastedBlock,
  planPaste,
  readProjectComment,
  readProjectScore,
} from '@mustard/shared';

/*
 * The project scores grid's own logic (issue 26 point 5), apart from the screen so it is tested
 * alone: two columns (score, comment) per learner, what each cell holds, which learners are
 * unsaved or wrong, what a paste fills, what a save sends, and how an answer or a conflict
 * changes the grid. The rules are the marks grid's (features/marks/grid.ts), a learner's score
 * and comment saved together with one version.
 */

export const COLUMNS = ['score', 'comment'] as const;
export type Column = (typeof COLUMNS)[number];

export interface ScoresState {
  /** Learner ids, in the grid's order. */
  rows: readonly string[];
  maximum: number;
  /** Stored score, comment and version by learner (version 0: nothing stored). */
  base: Readonly<Record<string, ProjectScoreCell>>;
  /** What a cell holds now, as typed, by `<learner>:<column>` (a cell not here holds its stored value). */
  typed: Readonly<Record<string, string>>;
}

export const cellKey = (row: string, column: Column) => `${row}:${column}`;
const EMPTY: ProjectScoreCell = { score: null, comment: null, version: 0 };

export function scoresFrom(grid: ProjectScoresGrid): ScoresState {
  const base: Record<string, ProjectScoreCell> = {};
  for (const row of grid.students) if (row.scores) base[row.student.id] = row.scores;
  return { rows: grid.students.map((row) => row.student.id), maximum: grid.project.max_score, base, typed: {} };
}

const stored = (state: ScoresState, row: string, column: Column) => {
  const value = (state.base[row] ?? EMPTY)[column];
  return value === null ? '' : String(value);
};

/** The text a cell shows: what was typed, else its stored value. */
export function cellText(state: ScoresState, row: string, column: Column): string {
  return state.typed[cellKey(row, column)] ?? stored(state, row, column);
}

/** Types into a cell; typing the stored value back makes it saved again. */
export function typeInto(state: ScoresState, row: string, column: Column, text: string): ScoresState {
  const typed = { ...state.typed };
  const key = cellKey(row, column);
  if (text.trim() === stored(state, row, column)) delete typed[key];
  else typed[key] = text;
  return { ...state, typed };
}

/** Learners with a cell that differs from what is stored: what a save sends. */
export function unsavedRows(state: ScoresState): string[] {
  return state.rows.filter((row) => COLUMNS.some((column) => cellText(state, row, column).trim() !== stored(state, row, column)));
}

/** Every typed cell that is refused, with its reason (checked as typed). */
export function cellErrors(state: ScoresState): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const row of state.rows) {
    const score = readProjectScore(cellText(state, row, 'score'), state.maximum);
    if (!score.ok && state.typed[cellKey(row, 'score')] !== undefined) errors[cellKey(row, 'score')] = score.error;
    const comment = readProjectComment(cellText(state, row, 'comment'));
    if (!comment.ok && state.typed[cellKey(row, 'comment')] !== undefined) errors[cellKey(row, 'comment')] = comment.error;
  }
  return errors;
}

/** What a save sends: each unsaved learner's score and comment, and the version the grid showed. */
export function saveBody(state: ScoresState) {
  const scores: Record<string, { score: number | null; comment: string | null }> = {};
  const base: Record<string, number> = {};
  for (const row of unsavedRows(state)) {
    const score = readProjectScore(cellText(state, row, 'score'), state.maximum);
    const comment = readProjectComment(cellText(state, row, 'comment'));
    if (!score.ok || !comment.ok) continue;
    scores[row] = { score: score.value, comment: comment.value };
    base[row] = state.base[row]?.version ?? 0;
  }
  return { scores, base };
}

/** A saved answer: the stored values become the base; a cell typed again while the save was on its way stays unsaved. */
export function applySaved(now: ScoresState, sent: ReturnType<typeof saveBody>['scores'], answer: ProjectScoresSaved): ScoresState {
  const base = { ...now.base };
  const typed = { ...now.typed };
  for (const [row, cell] of Object.entries(answer.scores)) {
    base[row] = cell;
    const was = sent[row];
    for (const column of COLUMNS) {
      const key = cellKey(row, column);
      const text = typed[key];
      if (text === undefined) continue;
      const value = column === 'score' ? readProjectScore(text, now.maximum) : readProjectComment(text);
      if (value.ok && value.value === (was?.[column] ?? null)) delete typed[key];
    }
  }
  return { ...now, base, typed };
}

/** A conflict resolved: keep theirs (their values become the learner's) or mine (sent again over their version). */
export function resolveConflict(
  state: ScoresState,
  conflict: { student_id: string; theirs: { score: number | null; comment: string | null }; version: number },
  keep: 'theirs' | 'mine',
): ScoresState {
  const base = { ...state.base, [conflict.student_id]: { ...conflict.theirs, version: conflict.version } };
  if (keep === 'mine') return { ...state, base };
  const typed = { ...state.typed };
  for (const column of COLUMNS) delete typed[cellKey(conflict.student_id, column)];
  return { ...state, base, typed };
}

/**
 * A block pasted at a cell (a column of scores, or scores and comments side by side, from a
 * spreadsheet): rows by the learners the block names, else by position (`planPaste`).
 */
export function pasteAt(state: ScoresState, at: { row: number; column: number }, text: string, learners: readonly PasteLearner[]) {
  const plan = planPaste(parsePastedBlock(text), at, { learners, columns: COLUMNS.length });
  let next = state;
  const reached = new Set<string>();
  for (const cell of plan.cells) {
    const row = state.rows[cell.row];
    const column = COLUMNS[cell.column];
    if (!row || !column) continue;
    next = typeInto(next, row, column, cell.text.trim());
    reached.add(row);
  }
  return {
    state: next,
    filled: plan.cells.length,
    skipped: plan.outside,
    by: plan.by,
    reached: state.rows.filter((row) => reached.has(row)),
  };
}
