import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisKey } from '../../redis/connection.js';
import { clearAttempts, countAttempt } from '../../redis/counters.js';

/**
 * Counts attempts per account (security.md item 11): after `max` attempts within the window the
 * account answers 429 until the window passes, whoever is trying and from where. Sign-in and the
 * password change share the count: both guess the same password. Unknown emails are counted the
 * same way, so the answer never tells which emails exist. The same counter bounds the mails an
 * address receives (password resets, sign-ups) and the sign-ups a client address sends.
 *
 * Two stores behind one interface: in this process (one server, the default), or in the
 * installation's Redis when REDIS_URL is set (redis/counters.ts), so that every app server counts
 * the same attempts and the limit holds across servers. The Redis store fails closed: while
 * Redis is away `attempt` throws the 503 of `redisUnavailable()`, it never answers "go on".
 */
export interface FailureLimiter {
  /**
   * Counts an attempt before its password is checked, and answers false when the account is
   * paused. Counting first matters: a password check takes milliseconds, and 30 guesses sent at
   * once would all pass a limit that is only counted after each check.
   */
  attempt(account: string): Promise<boolean>;
  /** The right password: the attempts counted so far are given back. */
  succeed(account: string): Promise<void>;
}

/** One account however it was typed: `Ann@School.test ` and `ann@school.test` share a count. */
export function normalizeAccount(account: string): string {
  return account.trim().toLowerCase();
}

/** The in-process store: one server's own count (the embedded database's single process). */
export class MemoryFailureLimiter implements FailureLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly capacity = 100_000,
  ) {}

  private current(key: string, now: number) {
    const entry = this.failures.get(key);
    if (entry && now - entry.since > this.windowMs) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Synchronous inside: parallel requests of one process cannot interleave between the check and the count. */
  async attempt(account: string, now = Date.now()): Promise<boolean> {
    const key = normalizeAccount(account);
    const entry = this.current(key, now);
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
    this.failures.set(key, { count: 1, since: now });
    return true;
  }

  async succeed(account: string): Promise<void> {
    this.failures.delete(normalizeAccount(account));
  }
}

/**
 * The installation's store: every app server counts in Redis under
 * `<prefix>:limit:<name>:<sha256 of the account>`, checked and counted in one atomic step. The
 * account is hashed so that no e-mail or client address sits in Redis in clear.
 */
export class RedisFailureLimiter implements FailureLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** The Redis key of an account's count (public for the tests that look into Redis). */
  key(account: string): string {
    const digest = createHash('sha256').update(normalizeAccount(account)).digest('hex');
    return redisKey(this.prefix, 'limit', this.name, digest);
  }

  attempt(account: string): Promise<boolean> {
    return countAttempt(this.redis, this.key(account), this.max, this.windowMs);
  }

  succeed(account: string): Promise<void> {
    return clearAttempts(this.redis, this.key(account));
  }
}

/** How long a password guess counts: a paused account waits this long. */
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** The app's limiters (`app.limits`), each in the store the installation uses. */
export interface Limits {
  /** Password guesses per account: sign-in and the password change (AUTH_MAX_FAILURES in 15 minutes). */
  failures: FailureLimiter;
  /**
   * Another count of `max` attempts per key within `windowMs`, under its own `name` (the name
   * keeps counts apart in Redis: every server must give the same limit the same name).
   */
  counter(name: string, max: number, windowMs: number): FailureLimiter;
}

/**
 * The one place that picks the store: Redis when the installation has one (every server shares
 * each count), else this process. Nothing read from Redis is more than a count.
 */
export function createLimits(options: { redis: Redis | null; redisPrefix: string; maxFailures: number }): Limits {
  const { redis, redisPrefix } = options;
  const counter = (name: string, max: number, windowMs: number): FailureLimiter =>
    redis ? new RedisFailureLimiter(redis, redisPrefix, name, max, windowMs) : new MemoryFailureLimiter(max, windowMs);
  return { failures: counter('sign-in', options.maxFailures, SIGN_IN_FAILURE_WINDOW_MS), counter };
}
