import { randomUUID } from 'node:crypto';
import { REPORT_MESSAGES } from '@mustard/shared';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { redisKey, redisUnavailable } from '../redis/connection.js';
import { DOCUMENTS_RETRY_AFTER_SECONDS, type RetryLater } from './queue.js';

/*
 * The document queue's admission (queue.ts: one school at most `perSchool` documents admitted,
 * all schools `total`; beyond, 503 with Retry-After at once) counted in Redis for every app
 * server of an installation (issue 30), so eight classes asked of two servers are eight, not
 * four on each.
 *
 * Each admission is a member of two sorted sets, the school's and the installation's, scored by
 * the moment its lease ends: one Lua script drops the members whose lease ended, counts, and adds
 * or refuses, atomically (two servers admitting at once cannot both take the last place). An
 * admission is released when its request ends, however it ends; a server that died holding
 * admissions frees them when their lease ends (LEASE_MS, longer than a request is given), and a
 * live one renews the leases of the documents it still works on, so a long one keeps its place.
 *
 * Redis away: 503 (fail closed), never unlimited.
 */

/** An admission's lease: a few minutes, beyond REQUEST_TIMEOUT_SECONDS' default; renewed while the document is worked on. */
export const ADMISSION_LEASE_MS = 5 * 60_000;
const RENEW_EVERY_MS = ADMISSION_LEASE_MS / 3;

/**
 * KEYS: the school's set, the installation's. ARGV: now, the lease's end, the admission's id,
 * perSchool, total. Answers the admission's place among the school's (1 for its only one), or
 * -1 (the school is full) or -2 (the installation is).
 */
const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
local school = redis.call('ZCARD', KEYS[1])
if school >= tonumber(ARGV[4]) then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -2 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return school + 1
`;

/** Lengthens the leases of admissions still held (XX: one released meanwhile is not added back). */
const RENEW = `
redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', ARGV[1], ARGV[2])
local ttl = tonumber(ARGV[1]) - tonumber(ARGV[3])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
`;

export interface SharedAdmissionLimits {
  perSchool: number;
  total: number;
}

/** One document admitted: its place among its school's admitted documents (1 for the first), for the job's priority. */
export interface Admission {
  readonly id: string;
  readonly place: number;
}

type Log = { error(obj: unknown, message: string): void };

export class SharedAdmission {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly limits: SharedAdmissionLimits,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** The school's set and the installation's. */
  keys(school: string): [string, string] {
    return [redisKey(this.prefix, 'document-admissions', school), redisKey(this.prefix, 'document-admissions')];
  }

  /**
   * Admits one document of the school, then runs `work` with its admission; released when `work`
   * ends. Beyond the bounds: 503 with Retry-After and the queue's own messages; Redis away: 503.
   */
  async serve<T>(school: string, reply: RetryLater, work: (admission: Admission) => Promise<T>): Promise<T> {
    const id = randomUUID();
    const keys = this.keys(school);
    const now = this.now();
    let answer: number;
    try {
      answer = Number(
        await this.redis.eval(ADMIT, 2, ...keys, now, now + ADMISSION_LEASE_MS, id, this.limits.perSchool, this.limits.total),
      );
    } catch (error) {
      this.log.error({ err: error }, 'a document could not be admitted: Redis did not answer');
      throw redisUnavailable();
    }
    if (answer < 0) {
      reply.header('retry-after', String(DOCUMENTS_RETRY_AFTER_SECONDS));
      throw new AppError(503, answer === -1 ? REPORT_MESSAGES.schoolDocumentsBusy : REPORT_MESSAGES.documentsBusy);
    }
    const renewing = setInterval(() => {
      const at = this.now();
      this.redis
        .eval(RENEW, 2, ...keys, at + ADMISSION_LEASE_MS, id, at)
        .catch((error: unknown) => this.log.error({ err: error }, "a document's admission could not be renewed"));
    }, RENEW_EVERY_MS);
    renewing.unref();
    try {
      return await work({ id, place: answer });
    } finally {
      clearInterval(renewing);
      // Not released (Redis away): the lease frees the place.
      await this.redis
        .multi()
        .zrem(keys[0], id)
        .zrem(keys[1], id)
        .exec()
        .catch((error: unknown) => this.log.error({ err: error }, "a document's admission could not be released; its lease will free it"));
    }
  }

  /** How many documents are admitted now, the school's and in all (leases ended not counted). */
  async counts(school: string): Promise<{ school: number; total: number }> {
    const [schoolKey, totalKey] = this.keys(school);
    const now = this.now();
    const [inSchool, inAll] = await Promise.all([
      this.redis.zcount(schoolKey, `(${now}`, '+inf'),
      this.redis.zcount(totalKey, `(${now}`, '+inf'),
    ]);
    return { school: inSchool, total: inAll };
  }
}
