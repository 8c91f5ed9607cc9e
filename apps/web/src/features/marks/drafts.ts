import { draftKey as keyOf } from '../../lib/drafts.js';
import type { BaseMark } from './grid.js';

/*
 * Drafts of marks grids (issue 14), kept by the shared drafts of lib/drafts.ts: a grid's typed
 * cells, the versions they were typed over, and the save on its way (its save_id, so a retry
 * after a reload is the same save).
 */

export interface MarksDraft {
  typed: Record<string, string>;
  base: Record<string, BaseMark>;
  /** The save sent and not yet answered: the same id is sent again. */
  saveId: string | null;
  /** When it was last written (ms since 1970), to say how old it is. */
  at: number;
}

const GRID_NAMES = ['form', 'stream', 'studentcategory_id', 'term', 'year', 'paper', 'subject_id', 'topic_id', 'marktypes'];

/** One grid of one person in one school: everything that names the grid. */
export const draftKey = (owner: { tenantId: string; userId: string }, grid: Record<string, unknown>) => keyOf(owner, GRID_NAMES, grid);
