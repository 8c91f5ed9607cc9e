import { createStore, del, get, set, type UseStore } from 'idb-keyval';

/*
 * Drafts in the browser: what a teacher typed and has not yet seen saved (a marks grid, a class's
 * comments), written to IndexedDB at once, so a closed tab, a reload, a crash or a dropped
 * connection loses nothing typed. A page keeps its own shape of draft under a key naming what it
 * is a draft of; the draft goes once its save has landed.
 *
 * One object store for every kind: the marks grid's store ('marks', issue 14) is where drafts
 * already live in teachers' browsers, and a second store would need the database upgraded.
 */

let store: UseStore | null = null;
/** Opened at the first use: a page without drafts opens no database. */
const drafts = () => {
  store ??= createStore('mustard-drafts', 'marks');
  return store;
};

/**
 * One draft of one person in one school: the kind of page (none for the marks grid, whose keys
 * came first) and every field that names what was loaded.
 */
export function draftKey(
  owner: { tenantId: string; userId: string },
  names: readonly string[],
  fields: Record<string, unknown>,
  kind?: string,
): string {
  return JSON.stringify([...(kind ? [kind] : []), owner.tenantId, owner.userId, ...names.map((name) => fields[name] ?? null)]);
}

/**
 * Storage can be refused (a private window, a full disk): the page then works as before, and
 * says nothing is kept. Each call answers whether it worked.
 */
export async function keepDraft<Draft>(key: string, draft: Draft): Promise<boolean> {
  try {
    await set(key, draft, drafts());
    return true;
  } catch {
    return false;
  }
}

export async function findDraft<Draft>(key: string): Promise<Draft | undefined> {
  try {
    return await get<Draft>(key, drafts());
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
