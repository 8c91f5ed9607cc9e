/**
 * Counts password attempts per account (security.md item 11): after `max` failed attempts within
 * the window the account answers 429 until the window passes, whoever is trying and from where.
 * Sign-in and the password change share the count: both guess the same password.
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

  /**
   * Counts an attempt before its password is checked, and answers false when the account is
   * paused. Counting first matters: a password check takes milliseconds, and 30 guesses sent at
   * once would all pass a limit that is only counted after each check.
   */
  attempt(account: string, now = Date.now()): boolean {
    const entry = this.current(account, now);
    if (entry) {
      if (entry.count >= this.max) return false;
      entry.count += 1;
      return true;
    }
    if (this.failures.size >= this.capacity) {
      // Maps iterate in insertion order: drop the oldest account to bound memory.
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(this.key(account), { count: 1, since: now });
    return true;
  }
  /** The right password: the attempts counted so far are given back. */
  succeed(account: string): void {
    this.failures.delete(this.key(account));
  }
}
