import { type MarkValue, sameMark } from './cells.js';

/*
 * What a save of a marks grid does (issue 14), decided before anything is written: each cell
 * is unchanged, written (added, changed or cleared), or a conflict, when someone else changed
 * the stored mark since the teacher's grid was loaded. One conflict and nothing is written; the
 * teacher sees both values and keeps either.
 */

/** A mark as stored: its value (never none: a cleared mark is no row) and how often it was written. */
export interface StoredMark {
  value: Exclude<MarkValue, null>;
  version: number;
}

/** One cell of a save: the value the teacher wants, and the version their grid showed. */
export interface CellChange {
  marktype_id: string;
  student_id: string;
  value: MarkValue;
  /** The version loaded with the grid (0: there was no mark); undefined overwrites (a sheet upload). */
  base?: number;
}

export interface MarkWrite extends CellChange {
  /** The stored mark it replaces; none for a new mark. */
  before?: StoredMark;
}

export interface MarkConflict {
  marktype_id: string;
  student_id: string;
  /** What is stored now (none: someone cleared it) and its version, to load as the new base. */
  theirs: MarkValue;
  version: number;
  yours: MarkValue;
}

export interface SavePlan {
  writes: MarkWrite[];
  unchanged: number;
  conflicts: MarkConflict[];
}

/**
 * The stored marks' key: a mark type and a learner, by their ids as stored (small letters), so a
 * cell named in capitals still finds its stored mark (issue 23 item 7: else a new mark is added
 * over the stored one).
 */
export function cellKey(marktypeId: string, studentId: string): string {
  return `${marktypeId.toLowerCase()}:${studentId.toLowerCase()}`;
}

export function planSave(cells: ReadonlyArray<CellChange>, stored: ReadonlyMap<string, StoredMark>): SavePlan {
  const plan: SavePlan = { writes: [], unchanged: 0, conflicts: [] };
  for (const cell of cells) {
    const current = stored.get(cellKey(cell.marktype_id, cell.student_id));
    // The same value whoever wrote it: nothing to do, and nothing to quarrel over.
    if (sameMark(current?.value ?? null, cell.value)) {
      plan.unchanged++;
      continue;
    }
    const version = current?.version ?? 0;
    if (cell.base !== undefined && cell.base !== version) {
      plan.conflicts.push({
        marktype_id: cell.marktype_id,
        student_id: cell.student_id,
        theirs: current?.value ?? null,
        version,
        yours: cell.value,
      });
      continue;
    }
    plan.writes.push(current ? { ...cell, before: current } : cell);
  }
  return plan;
}

/** A cell as a save answers it: the value now stored and its version (0: no mark). */
export interface SavedCell {
  mark: MarkValue;
  version: number;
}

/**
 * What every cell of a save holds once its plan is written, without reading it back: a written
 * cell its new value, at version 1 if new, one up if changed, 0 if cleared (the write path
 * bumps a changed mark's version by one under the plan's lock); any other its stored mark.
 */
export function savedCells(
  cells: ReadonlyArray<Pick<CellChange, 'marktype_id' | 'student_id'>>,
  plan: Pick<SavePlan, 'writes'>,
  stored: ReadonlyMap<string, StoredMark>,
): Record<string, Record<string, SavedCell>> {
  const written = new Map(plan.writes.map((write) => [cellKey(write.marktype_id, write.student_id), write]));
  const answer: Record<string, Record<string, SavedCell>> = {};
  for (const cell of cells) {
    const key = cellKey(cell.marktype_id, cell.student_id);
    const write = written.get(key);
    const before = stored.get(key);
    const now: SavedCell = write
      ? { mark: write.value, version: write.value === null ? 0 : (write.before?.version ?? 0) + 1 }
      : { mark: before?.value ?? null, version: before?.version ?? 0 };
    answer[cell.marktype_id] = { ...answer[cell.marktype_id], [cell.student_id]: now };
  }
  return answer;
}
