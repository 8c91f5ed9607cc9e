import { Redis } from 'ioredis';
import { AppError } from '../errors.js';

/*
 * The installation's Redis (REDIS_URL; issue 30), shared by every app server and worker: the
 * request rate limits, sign-in failure counters, document admissions and the job queues. Without
 * REDIS_URL none of this module is used and all of it stays in the process, as on one machine.
 *
 * Redis holds counts and jobs only, never who may do what: authorization is read from PostgreSQL
 * on every request, so a Redis that lies can refuse work or lose a count, not grant access.
 *
 * A command fails at once while Redis is away (no offline queue, one try): a limited action
 * answers 503 (`redisUnavailable`) rather than waiting or going unlimited, and the client keeps
 * reconnecting in the background, so the server serves again the moment Redis is back.
 */

export interface RedisOptions {
  /** Who connects, for Redis's CLIENT LIST and the logs: "app" or "worker". */
  name?: string;
  /**
   * BullMQ's blocking connections (a worker waiting for a job) must wait for ever and queue
   * commands until Redis is back; the counters' connection must fail fast instead.
   */
  forQueues?: boolean;
}

/** A connection to REDIS_URL: fail-fast for counters, patient for BullMQ (`forQueues`). */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    connectionName: `mustard-${options.name ?? 'app'}`,
    lazyConnect: false,
    // Reconnect for ever, at most a second apart: a Redis restart costs a second of refusals.
    retryStrategy: (times) => Math.min(100 * times, 1000),
    ...(options.forQueues
      ? { maxRetriesPerRequest: null, enableOfflineQueue: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 2000 }),
  });
}

/** Waits until the connection is ready (or refuses after `timeoutMs`): how a worker or a server checks Redis at start. */
export async function redisReady(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const ready = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', ready);
    };
    redis.on('ready', ready);
  });
}

/** What a limited action answers while Redis is away: 503, fail closed (never unlimited). */
export function redisUnavailable(): AppError {
  return new AppError(503);
}

/** A Redis key of this installation: `<prefix>:<parts…>`. */
export function redisKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}
