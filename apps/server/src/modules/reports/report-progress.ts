/*
 * How far each PDF being drawn is, for the web's "learners done of total" (issue 15 point 6).
 * The web makes up a token, sends it with the report request and asks for it meanwhile; the
 * key also holds the tenant and the user, so nobody reads another's progress. In memory: a
 * render lives in this process, and a restart ends it too. Bounded: at most MAX_ENTRIES, each
 * forgotten KEEP_MS after its last change.
 */
const MAX_ENTRIES = 1000;
const KEEP_MS = 120_000;

interface Progress {
  done: number;
  total: number;
  at: number;
}

export class ReportProgressBoard {
  private readonly entries = new Map<string, Progress>();

  constructor(private readonly now: () => number = Date.now) {}

  static key(tenantId: string, userId: string | null, token: string): string {
    return `${tenantId}|${userId ?? ''}|${token}`;
  }

  set(key: string, done: number, total: number): void {
    this.forgetOld();
    this.entries.delete(key);
    this.entries.set(key, { done, total, at: this.now() });
    // The oldest first (a Map keeps insertion order): drop them beyond the bound.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(oldest);
    }
  }

  get(key: string): { done: number; total: number } {
    this.forgetOld();
    const entry = this.entries.get(key);
    return entry ? { done: entry.done, total: entry.total } : { done: 0, total: 0 };
  }

  private forgetOld(): void {
    const limit = this.now() - KEEP_MS;
    for (const [key, entry] of this.entries) if (entry.at < limit) this.entries.delete(key);
  }
}
