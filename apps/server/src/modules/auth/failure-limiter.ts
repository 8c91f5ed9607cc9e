/**
 * Counts failed sign-ins per account (security.md item 11): after `max` failures within the
 * window the account answers 429 until the window passes, whoever is trying and from where.
 * Unknown emails are counted the same way, so the answer never tells which emails exist.
 * Kept in memory: one process per embedded database; behind a load balancer each server
 * counts its own share, which still bounds guessing.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly capacity = 100_000,
  ) {}

  private key(account: string) {
    return account.trim().toLowerCase();
  }

  private current(account: string, now: number) {
    const entry = this.failures.get(this.key(account));
    if (entry && now - entry.since > this.windowMs) {
      this.failures.delete(this.key(account));
      return undefined;
    }
    return entry;
  }

  isBlocked(account: string, now = Date.now()): boolean {
    return (this.current(account, now)?.count ?? 0) >= this.max;
  }

  fail(account: string, now = Date.now()): void {
    const entry = this.current(account, now);
    if (entry) {
      entry.count += 1;
      return;
    }
    if (this.failures.size >= this.capacity) {
      // Maps iterate in insertion order: drop the oldest account to bound memory.
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(this.key(account), { count: 1, since: now });
  }

  succeed(account: string): void {
    this.failures.delete(this.key(account));
  }
}
