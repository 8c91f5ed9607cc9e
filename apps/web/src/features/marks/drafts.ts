import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { BaseMark } from './grid.js';

/*
 * Drafts of marks grids in the browser (issue 14): every change is written to IndexedDB at
 * once, so a closed tab, a reload, a crash or a dropped connection loses nothing typed. A draft
 * is the grid's typed cells, the versions they were typed over, and the save on its way (its
 * save_id, so a retry after a reload is the same save). It goes once the save has landed.
 */

export interface MarksDraft {
  typed: Record<string, string>;
  base: Record<string, BaseMark>;
  /** The save sent and not yet answered: the same id is sent again. */
  saveId: string | null;
  /** When it was last written (ms since 1970), to say how old it is. */
  at: number;
}

let store: UseStore | null = null;
/** Opened at the first use: a page without a grid opens no database. */
const drafts = () => {
  store ??= createStore('mustard-drafts', 'marks');
  return store;
};

/** One grid of one person in one school: everything that names the grid. */
export function draftKey(owner: { tenantId: string; userId: string }, grid: Record<string, unknown>): string {
  const names = ['form', 'stream', 'studentcategory_id', 'term', 'year', 'paper', 'subject_id', 'topic_id', 'marktypes'];
  return JSON.stringify([owner.tenantId, owner.userId, ...names.map((name) => grid[name] ?? null)]);
}

/**
 * Storage can be refused (a private window, a full disk): the grid then works as before, and
 * says nothing is kept. Each call answers whether it worked.
 */
export async function keepDraft(key: string, draft: MarksDraft): Promise<boolean> {
  try {
    await set(key, draft, drafts());
    return true;
  } catch {
    return false;
  }
}

export async function findDraft(key: string): Promise<MarksDraft | undefined> {
  try {
    return await get<MarksDraft>(key, drafts());
  } catch {
    return undefined;
  }
}

export async function dropDraft(key: string): Promise<void> {
  try {
    await del(key, drafts());
  } catch {
    // Nothing kept, nothing to drop.
  }
}
