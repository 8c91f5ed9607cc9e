import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { AccessChangeTracker } from '../db/change-tracker.js';
import type { Database } from '../db/connect.js';
import type { DB } from '../db/types.js';
import { type JobWorker, startJobWorker } from '../jobs/worker-process.js';
import { loggerOptions } from '../logger.js';
import { DEMO_TEST_PASSWORD, openTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_PASSWORD = 'Correct-Horse-9!';

/**
 * Where a test server keeps files (photos, the school's badge) unless the test gives a folder: one
 * temporary folder a process, so no test writes into the checkout it runs from.
 */
let filesDir: string | null = null;
const testFilesDir = () => (filesDir ??= mkdtempSync(path.join(tmpdir(), 'mustard-test-files-')));

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: overrides.dataDir ?? testFilesDir(),
    databaseUrl: undefined,
    databaseMigrateUrl: undefined,
    jwtSecret: new Uint8Array(randomBytes(32)),
    sessionTtlSeconds: 3600,
    demoPassword: DEMO_TEST_PASSWORD,
    seedDemo: false,
    secretsKey: new Uint8Array(randomBytes(32)),
    authRateLimitPerMinute: 10_000,
    authMaxFailures: 10,
    authCacheSeconds: undefined,
    trustProxy: false,
    headersTimeoutSeconds: 30,
    requestTimeoutSeconds: 120,
    keepAliveTimeoutSeconds: 72,
    logLevel: 'silent',
    webDist: '/nonexistent',
    // No SMTP server unless the test starts one (startTestSmtp, then `{ smtpUrl: smtp.url }`).
    smtpUrl: undefined,
    mailFrom: 'Mustard <no-reply@mustard.test>',
    publicUrl: 'http://mustard.test',
    // The PostgreSQL pass runs as an installation of several servers does, on the shared Redis
    // (MUSTARD_TEST_REDIS_URL, vitest.config.ts); the embedded database's as one machine does,
    // in-process. Each test app's keys and queues are apart from every other's (the prefix).
    redisUrl: process.env.MUSTARD_TEST_REDIS_URL || undefined,
    redisPrefix: `mustard-test-${randomBytes(6).toString('hex')}`,
    jobLockSeconds: 30,
    skipCodeTenantFilter: false,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  /** Every log line the app wrote (only when built with captureLogs). */
  logs: string[];
  /** The job worker drawing the app's documents when the config has a Redis (null without). */
  worker: JobWorker | null;
  close(): Promise<void>;
}

/**
 * Stands in for the database in a test of what needs none (the web app's files): the app is
 * built as ever, and any use of the database fails the test instead of opening one.
 */
export function noDatabase(): Database {
  const refuse = (): never => {
    throw new Error('This test opened no database (buildTestApp with noDatabase), yet the app asked for one.');
  };
  return {
    db: new Proxy({}, { get: refuse }) as Kysely<DB>,
    kind: 'pglite',
    changes: new AccessChangeTracker(),
    ping: async () => refuse(),
    close: async () => {},
  };
}

export interface TestAppOptions {
  captureLogs?: boolean;
  /** For a test that needs no database: the app gets `noDatabase()` instead of a fresh one. */
  noDatabase?: boolean;
  /**
   * A copy of the demo (seeded once per run, test-database.ts) instead of an empty database: for
   * a test that reads the demo, not one of seeding it. Its accounts' password is the config's
   * demoPassword, which must then be the default.
   */
  demo?: boolean;
}

/** The real app on a fresh real database (or none, when asked), driven through app.inject(). */
export async function buildTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  if (options.demo && config.demoPassword !== DEMO_TEST_PASSWORD) {
    throw new Error(`The seeded demo's password is ${DEMO_TEST_PASSWORD}: a test with another demoPassword seeds its own.`);
  }
  const database: TestDatabase = options.noDatabase ? noDatabase() : await openTestDatabase({ demo: options.demo });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = await buildApp(config, database, {
    logger: options.captureLogs ? loggerOptions('trace', stream) : false,
  });
  // With a Redis, the app only admits and enqueues documents: a job worker beside it draws them,
  // as an installation's worker processes do (jobs/worker-process.ts).
  const worker =
    config.redisUrl && !options.noDatabase
      ? await startJobWorker(
          config,
          database,
          {
            info: () => undefined,
            warn: (obj, message) => app.log.warn(obj, message),
            error: (obj, message) => app.log.error(obj, message),
          },
          { graceMs: 2000 },
        )
      : null;
  return {
    app,
    database,
    config,
    logs,
    worker,
    close: async () => {
      await app.close();
      await worker?.close();
      await database.close();
      if (config.redisUrl && !overrides.redisPrefix) await forgetRedisKeys(config.redisUrl, config.redisPrefix);
    },
  };
}

/**
 * Deletes every key of a test app's own prefix (its queues' streams and metadata, counters) from
 * the shared Redis once it is closed, so test runs leave nothing behind. A prefix the test chose
 * may be shared with another app it still runs: that test cleans up itself.
 */
async function forgetRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } catch {
    // Redis away: the keys stay, under a prefix no other run uses.
  } finally {
    redis.disconnect();
  }
}

export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } } });
  if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
  return tokenOf(response);
}

/**
 * Joins a school with the code of its invitation (POST /api/users answers it), as the person
 * does from the link the school gave them: a new account chooses `password` here, an existing
 * one signs in with its own. Answers their token.
 */
export async function joinWithCode(app: FastifyInstance, code: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/join', payload: { code, password } });
  if (response.statusCode !== 200) throw new Error(`joining with ${code}: ${response.statusCode} ${response.body}`);
  return tokenOf(response);
}

export function tokenOf(response: LightMyRequestResponse): string {
  const header = response.headers.authorization;
  if (typeof header !== 'string') throw new Error('no authorization header in the response');
  return header.replace(/^Bearer /, '');
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Caller {
  token: string;
  in(tenantcode: string): Caller;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

/** A signed-in caller working in one tenant, as the web app calls the API. */
export function caller(app: FastifyInstance, token: string, tenantcode?: string): Caller {
  const headers = (): Record<string, string> => ({
    authorization: `Bearer ${token}`,
    ...(tenantcode ? { [TENANT_HEADER]: tenantcode } : {}),
  });
  const send = (method: Method, url: string, payload?: unknown) =>
    app.inject({ method, url, headers: headers(), ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    token,
    /** The same person working in another tenant (another TENANTCODE). */
    in: (otherTenantcode: string) => caller(app, token, otherTenantcode),
    get: (url: string) => send('GET', url),
    post: (url: string, payload?: unknown) => send('POST', url, payload ?? {}),
    put: (url: string, payload?: unknown) => send('PUT', url, payload ?? {}),
    delete: (url: string) => send('DELETE', url),
  };
}
