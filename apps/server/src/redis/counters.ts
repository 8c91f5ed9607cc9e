import type { Redis } from 'ioredis';
import { redisUnavailable } from './connection.js';

/*
 * Counts in the installation's Redis, shared by every app server: the sign-in failures and the
 * other per-account and per-address limits (modules/auth/failure-limiter.ts). Only counts live
 * here; a count that Redis lost or invented can refuse an attempt or let a few more through,
 * never grant access, which is read from PostgreSQL on every request.
 */

/**
 * The check and the count in one step, run by Redis alone (a script is atomic): of 30 attempts
 * sent at once to several servers exactly `max` are counted and allowed. The window starts with
 * the first attempt (PEXPIRE then) and the key disappears when it ends, as in the process's own
 * store. KEYS[1] the count; ARGV[1] max; ARGV[2] the window in milliseconds. Answers 1 (allowed,
 * counted) or 0 (paused, not counted).
 *
 * What Redis holds is not trusted further than a count: a value that is no number refuses (fail
 * closed, never a 500), and a count written without an end gets one, so neither pauses an
 * account for good.
 */
const COUNT_ATTEMPT = `
local held = redis.call('GET', KEYS[1])
if held and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local current = 0
if held then current = tonumber(held) end
if current == nil or current >= tonumber(ARGV[1]) then return 0 end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

/** The script's name on the connection (ioredis sends it by its hash, and loads it once when Redis does not know it). */
const COMMAND = 'mustardCountAttempt';

type CountingRedis = Redis & { [COMMAND](key: string, max: number, windowMs: number): Promise<number> };

function counting(redis: Redis): CountingRedis {
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: COUNT_ATTEMPT });
  return redis as CountingRedis;
}

/** Counts an attempt under `key` unless `max` were counted within the window: true when counted. */
export async function countAttempt(redis: Redis, key: string, max: number, windowMs: number): Promise<boolean> {
  return (await whileReachable(() => counting(redis)[COMMAND](key, max, windowMs))) === 1;
}

/** Forgets the attempts counted under `key`. */
export async function clearAttempts(redis: Redis, key: string): Promise<void> {
  await whileReachable(() => redis.del(key));
}

/**
 * Runs a command, and answers the 503 of `redisUnavailable()` when Redis cannot be reached: a
 * limited action is refused while Redis is away (fail closed), never let through uncounted. Any
 * other error (a fault of ours) stays what it is, a 500 in the logs.
 */
async function whileReachable<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (redisOutage(error)) throw redisUnavailable();
    throw error;
  }
}

/**
 * The errors of a Redis that cannot answer now, and only those: ioredis's own, which carry no
 * code, by their fixed texts and names (the connection set up in connection.ts fails a command
 * at once while disconnected, retries one in flight once, and gives up on one unanswered for
 * two seconds), and Redis's refusals while it starts, fails over or is full. The request rate
 * limiter (@fastify/rate-limit) passes these on as they are: plugins/errors.ts answers them 503.
 */
const CLIENT_TEXTS = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  'Command timed out',
  'Command aborted due to connection close',
  'connect ETIMEDOUT',
]);
const SERVER_REFUSALS = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|OOM) /;

export function redisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError' || CLIENT_TEXTS.has(error.message)) return true;
  return error.name === 'ReplyError' && SERVER_REFUSALS.test(error.message);
}
