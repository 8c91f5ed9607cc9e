import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api.js';

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

/** Waits before the next try of a save that got no answer: 1, 2, 4, 8 s, then every 15 s. */
const retryDelay = (attempt: number) => Math.min(15_000, 1000 * 2 ** attempt);

/** A save that got no answer (no connection, a proxy's 502/503/504): it may be tried again as it is. */
export const unanswered = (error: unknown) =>
  error instanceof ApiError && (error.status === null || error.status === 502 || error.status === 503 || error.status === 504);

/** Why a save is waiting: the browser is offline (it goes on when the connection returns), or a try got no answer. */
export interface Waiting {
  offline: boolean;
  attempt: number;
}

/**
 * Sends a save until it is answered: a try that got no answer is tried again once the browser is
 * back online, or after a growing wait. An answer (success or refusal) ends it. Every page that
 * saves what a teacher typed (the marks grid, the comments screens) sends through here, so a
 * dropped connection is the same for all of them; the save itself must be safe to repeat (a
 * save_id, or versions that make a repeat change nothing).
 */
export async function sendUntilAnswered<Answer>(send: () => Promise<Answer>, onWaiting: (waiting: Waiting) => void): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!unanswered(error)) throw error;
      const offline = typeof navigator !== 'undefined' && !navigator.onLine;
      onWaiting({ offline, attempt });
      if (offline) await new Promise((resolve) => window.addEventListener('online', resolve, { once: true }));
      else await new Promise((resolve) => window.setTimeout(resolve, retryDelay(attempt)));
    }
  }
}

/**
 * A page's draft under one key: the draft found from before (a reload, a crash, another day),
 * offered rather than forced (`found`, `dismiss`), `keep` to write the draft now (null drops
 * it), and whether the browser is keeping drafts at all (`kept` is false when storage refused).
 */
export function useDraft<Draft>(key: string, worthOffering: (draft: Draft) => boolean) {
  const [found, setFound] = useState<Draft | null>(null);
  const [kept, setKept] = useState(true);
  const offerRef = useRef(worthOffering);
  offerRef.current = worthOffering;
  useEffect(() => {
    let live = true;
    setFound(null);
    void findDraft<Draft>(key).then((draft) => {
      if (live && draft !== undefined && offerRef.current(draft)) setFound(draft);
    });
    return () => {
      live = false;
    };
  }, [key]);
  const keep = useCallback(
    (draft: Draft | null) => {
      if (draft === null) void dropDraft(key);
      else void keepDraft(key, draft).then(setKept);
    },
    [key],
  );
  const dismiss = useCallback(
    (drop: boolean) => {
      if (drop) void dropDraft(key);
      setFound(null);
    },
    [key],
  );
  return { found, kept, keep, dismiss };
}
