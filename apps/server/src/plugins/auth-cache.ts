import type { AccessChangeTracker } from '../db/change-tracker.js';

/**
 * A small cache of sign-in state (live sessions, member contexts), so an ordinary request costs
 * no database round trip before its own work. An entry is valid while the access tables are
 * unchanged (see AccessChangeTracker), at most `ttlMs`, and never past `notAfter`.
 *
 * On the embedded database one process owns the data, so the tracker sees every write and the
 * cache is exact. On PostgreSQL other servers may write, so the cache is off unless
 * AUTH_CACHE_SECONDS is set, which bounds how late a revocation elsewhere is noticed.
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
    if (!this.enabled) return load();
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
