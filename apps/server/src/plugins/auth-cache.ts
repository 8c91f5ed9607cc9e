import type { AccessChangeTracker } from '../db/change-tracker.js';

/**
 * A small cache of sign-in state (live sessions, member contexts), so an ordinary request costs
 * no database round trip before its own work. An entry is valid while the access tables are
 * unchanged (see AccessChangeTracker), at most `ttlMs`, and never past `notAfter`.
 *
 * On the embedded database one process owns the data, so the tracker sees every write. On
 * PostgreSQL other servers, the command and psql write too: the database tells every server of
 * each change (NOTIFY, db/access-notices.ts), which bumps the tracker; while a server cannot hear
 * those notices the cache is bypassed (every request reads the database), never stale.
 */
export class AuthCache<V> {
  private readonly entries = new Map<string, { value: V; generation: number; expires: number }>();

  constructor(
    private readonly tracker: AccessChangeTracker,
    private readonly ttlMs: number,
    private readonly capacity = 20_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  async get(key: string, load: () => Promise<V | undefined>, notAfter?: (value: V) => number): Promise<V | undefined> {
    if (!this.enabled || !this.tracker.seesEveryChange) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.tracker.generation && hit.expires > now) return hit.value;
    // The generation is read before loading: a write that lands meanwhile makes this entry stale.
    const generation = this.tracker.generation;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, { value, generation, expires: Math.min(now + this.ttlMs, notAfter?.(value) ?? Number.POSITIVE_INFINITY) });
    return value;
  }
}
