/**
 * Which explanation is open, for the whole page: at most one (issue 24 point 7). Two pop-ups
 * open at once covered each other and the field they explained; opening one now closes the
 * other. Kept apart from React so that the rule is tested alone.
 */
export interface OneOpen {
  /** The open one's key, or null. */
  current(): string | null;
  /** Opens `key` (closing whichever was open), or closes it with `false`. */
  set(key: string, opened: boolean): void;
  subscribe(listener: () => void): () => void;
}

export function oneOpen(): OneOpen {
  let open: string | null = null;
  const listeners = new Set<() => void>();
  const change = (next: string | null) => {
    if (next === open) return;
    open = next;
    for (const listener of listeners) listener();
  };
  return {
    current: () => open,
    set: (key, opened) => change(opened ? key : open === key ? null : open),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's one: every `Explanation` shares it. */
export const explanations = oneOpen();
