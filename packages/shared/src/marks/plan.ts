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

/** The stored marks' key: a mark type and a learner. */
export function cellKey(marktypeId: string, studentId: string): string {
  return `${marktypeId}:${studentId}`;
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
