import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { catalogueMessage } from '../errors.js';
import { MemoryFailureLimiter, RedisFailureLimiter } from '../modules/auth/failure-limiter.js';
import { RESET_MAILS_PER_ADDRESS } from '../modules/auth/password-reset.service.js';
import { REGISTRATIONS_PER_ADDRESS } from '../modules/tenants/registration.service.js';
import { freePort, sleep, waitUntil } from '../operations/helpers.js';
import { connectRedis, redisReady } from '../redis/connection.js';
import { makeUser } from '../test/factories.js';
import { buildTestApp, TEST_PASSWORD, type TestApp } from '../test/test-app.js';
import { testDatabaseKind } from '../test/test-database.js';

/*
 * The limits of an installation of several app servers (issue 30 point 1): with REDIS_URL every
 * server counts the same sign-in failures, reset mails, sign-ups and request rates, so the
 * 10-failure lockout holds however a load balancer spreads the guesses. Two real apps on one
 * PostgreSQL database and the shared Redis (one key prefix, as one installation); then one app
 * on a Redis of its own that the test stops, freezes and starts again: the limited actions
 * answer 503 while it is away (never unlimited, never a 500) and work again once it is back.
 */

const SHARED_REDIS = process.env.MUSTARD_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const UNAVAILABLE = { statusCode: 503, message: catalogueMessage(503) };
let addresses = 0;
/** A client address of its own for each request, so the per-address request limit stays out of the way unless tested. */
const nextAddress = () => `10.${Math.floor(++addresses / 250) % 250}.${addresses % 250}.7`;

function signIn(app: FastifyInstance, email: string, password: string, remoteAddress = nextAddress()) {
  return app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } }, remoteAddress });
}
function post(app: FastifyInstance, url: string, payload: object, remoteAddress = nextAddress()) {
  return app.inject({ method: 'POST', url, payload, remoteAddress });
}
const statusCounts = (answers: LightMyRequestResponse[]) =>
  answers.reduce<Record<number, number>>((counts, answer) => {
    counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
    return counts;
  }, {});

/** Every key under a prefix (SCAN, never KEYS: the Redis is shared with other test runs). */
async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) keys.push(...(batch as string[]));
  return keys;
}
async function removeKeys(redis: Redis, prefix: string) {
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
}

describe.runIf(testDatabaseKind === 'postgres')('two app servers share every limit through Redis', () => {
  const prefix = `mustard-test-${randomBytes(6).toString('hex')}`;
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database;
  let redis: Redis;

  beforeAll(async () => {
    a = await buildTestApp({ redisUrl: SHARED_REDIS, redisPrefix: prefix, authMaxFailures: 10, authRateLimitPerMinute: 5 });
    // The second server: the same configuration, its own pool of connections to the same database.
    bDatabase = await openDatabase({ dataDir: '', databaseUrl: a.database.appUrl, databaseMigrateUrl: undefined }, { migrate: false });
    b = await buildApp(a.config, bDatabase, { logger: false });
    redis = connectRedis(SHARED_REDIS, { name: 'test' });
    await redisReady(redis);
  });
  afterAll(async () => {
    await removeKeys(redis, prefix);
    redis.disconnect();
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it('10 failures alternated between the servers lock the account on both, even for the right password', async () => {
    const person = await makeUser(a.database);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const server = attempt % 2 === 0 ? b : a.app;
      expect({ attempt, status: (await signIn(server, person.email, `wrong-${attempt}`)).statusCode }).toEqual({ attempt, status: 401 });
    }
    expect((await signIn(a.app, person.email, TEST_PASSWORD)).statusCode).toBe(429);
    expect((await signIn(b, person.email.toUpperCase(), TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('30 wrong passwords sent at once to both servers get exactly 10 password checks', async () => {
    const person = await makeUser(a.database);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => signIn(n % 2 === 0 ? a.app : b, person.email, `wrong-${n}`)));
    expect(statusCounts(answers)).toEqual({ 401: 10, 429: 20 });
    const checked = await a.database.db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', person.email)
      .where('kind', '=', 'login_failed')
      .executeTakeFirstOrThrow();
    expect(Number(checked.n)).toBe(10);
  });

  it('the right password on one server gives back the failures counted on the other', async () => {
    const person = await makeUser(a.database);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await signIn(a.app, person.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn(b, person.email, TEST_PASSWORD)).statusCode).toBe(200);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await signIn(b, person.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn(a.app, person.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('reset mails to one address are counted across both servers', async () => {
    const person = await makeUser(a.database);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push((await post(i % 2 === 0 ? a.app : b, '/auth/password/reset', { email: person.email, locale: 'en' })).statusCode);
    }
    expect(answers).toEqual(Array(12).fill(200));
    const written = await a.database.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', person.email)
      .where('template', '=', 'passwordReset')
      .execute();
    expect(written).toHaveLength(RESET_MAILS_PER_ADDRESS);
  });

  it('sign-ups of one address are counted across both servers', async () => {
    const email = `head-${randomBytes(4).toString('hex')}@shared.ug`;
    const registration = {
      person: { name: 'Grace Nakato', email, telephone: '+256 772 123456', password: 'Kampala#2026' },
      organisation: { name: 'Kisubi Primary', category: 'school', email: 'office@kisubi.ac.ug', telephone: '0414 123456' },
    };
    const answers: number[] = [];
    for (let i = 0; i <= REGISTRATIONS_PER_ADDRESS; i++) {
      answers.push((await post(i % 2 === 0 ? a.app : b, '/auth/register', registration)).statusCode);
    }
    expect(answers).toEqual([...Array(REGISTRATIONS_PER_ADDRESS).fill(200), 429]);
  });

  it('the request rate limit of a route counts one client address on both servers', async () => {
    const email = 'anyone@shared.ug';
    const from = '192.0.2.77';
    const answers: number[] = [];
    for (let call = 1; call <= 6; call++) {
      answers.push((await post(call % 2 === 0 ? b : a.app, '/auth/type', { email }, from)).statusCode);
    }
    // authRateLimitPerMinute 5: three calls on each server make six.
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await post(a.app, '/auth/type', { email }, from)).statusCode).toBe(429);
    expect((await post(b, '/auth/type', { email }, '192.0.2.78')).statusCode).toBe(200);
  });

  it('Redis holds counts under the prefix and no address in clear', async () => {
    const keys = await keysUnder(redis, prefix);
    expect(keys.some((key) => key.startsWith(`${prefix}:limit:sign-in:`))).toBe(true);
    expect(keys.some((key) => key.startsWith(`${prefix}:limit:reset-mail:`))).toBe(true);
    expect(keys.some((key) => key.startsWith(`${prefix}:rate:`))).toBe(true);
    const limitKeys = keys.filter((key) => key.startsWith(`${prefix}:limit:`));
    for (const key of limitKeys) expect(key).toMatch(new RegExp(`^${prefix}:limit:[a-z-]+:[0-9a-f]{64}$`));
    const values = await Promise.all(limitKeys.map((key) => redis.get(key)));
    for (const value of values) expect(value).toMatch(/^\d+$/);
  });

  it('/readyz answers ready when the database and Redis both answer', async () => {
    for (const server of [a.app, b]) {
      const ready = await server.inject({ method: 'GET', url: '/readyz' });
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }]);
    }
  });
});

/** One counter's rules, the same in either store (the in-process one and the Redis one). */
describe.runIf(testDatabaseKind === 'postgres')('the counters: the same rules in the process and in Redis', () => {
  const prefix = `mustard-test-${randomBytes(6).toString('hex')}`;
  let redis: Redis;

  beforeAll(async () => {
    redis = connectRedis(SHARED_REDIS, { name: 'test' });
    await redisReady(redis);
  });
  afterAll(async () => {
    await removeKeys(redis, prefix);
    redis.disconnect();
  });

  const stores = [
    { store: 'in the process', make: (_name: string, max: number, windowMs: number) => new MemoryFailureLimiter(max, windowMs) },
    {
      store: 'in Redis',
      make: (name: string, max: number, windowMs: number) => new RedisFailureLimiter(redis, prefix, name, max, windowMs),
    },
  ];

  describe.each(stores)('$store', ({ store, make }) => {
    it('counts max attempts, then refuses until the window has passed', async () => {
      const limiter = make(`window-${store}`, 3, 400);
      const account = `window-${randomBytes(4).toString('hex')}@school.test`;
      const first = [await limiter.attempt(account), await limiter.attempt(account), await limiter.attempt(account)];
      expect(first).toEqual([true, true, true]);
      expect(await limiter.attempt(account)).toBe(false);
      expect(await limiter.attempt(account)).toBe(false);
      await sleep(500);
      expect(await limiter.attempt(account)).toBe(true);
    });

    it('one account however it is typed; another account has its own count', async () => {
      const limiter = make(`spelling-${store}`, 2, 60_000);
      const account = `ann-${randomBytes(4).toString('hex')}@school.test`;
      expect(await limiter.attempt(account)).toBe(true);
      expect(await limiter.attempt(`  ${account.toUpperCase()} `)).toBe(true);
      expect(await limiter.attempt(account.replace('ann', 'Ann'))).toBe(false);
      expect(await limiter.attempt(`other-${account}`)).toBe(true);
    });

    it('succeed gives the count back', async () => {
      const limiter = make(`succeed-${store}`, 2, 60_000);
      const account = `bob-${randomBytes(4).toString('hex')}@school.test`;
      await limiter.attempt(account);
      await limiter.attempt(account);
      expect(await limiter.attempt(account)).toBe(false);
      await limiter.succeed(account.toUpperCase());
      expect(await limiter.attempt(account)).toBe(true);
    });

    it('50 attempts at once are counted exactly: max allowed', async () => {
      const limiter = make(`burst-${store}`, 7, 60_000);
      const account = `burst-${randomBytes(4).toString('hex')}@school.test`;
      const answers = await Promise.all(Array.from({ length: 50 }, () => limiter.attempt(account)));
      expect(answers.filter(Boolean)).toHaveLength(7);
    });
  });

  it('in Redis: one key per account and limit, named by a hash, expiring with its window', async () => {
    const limiter = new RedisFailureLimiter(redis, prefix, 'keys', 5, 60_000);
    const account = 'Carol@School.test';
    await limiter.attempt(account);
    const key = limiter.key(account);
    expect(key).toBe(`${prefix}:limit:keys:${limiter.key('carol@school.test').split(':').at(-1)}`);
    expect(key).not.toMatch(/carol/i);
    expect(await redis.get(key)).toBe('1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Another limit of the same name in another installation (prefix) is another count.
    expect(new RedisFailureLimiter(redis, `${prefix}-other`, 'keys', 5, 60_000).key(account)).not.toBe(key);
  });

  it('in Redis: a value that is no count refuses (never a 500, never a pass), and nothing pauses for good', async () => {
    const limiter = new RedisFailureLimiter(redis, prefix, 'planted', 5, 60_000);
    await redis.set(limiter.key('dave@school.test'), 'not a number');
    expect(await limiter.attempt('dave@school.test')).toBe(false);
    expect(await redis.pttl(limiter.key('dave@school.test'))).toBeGreaterThan(50_000);
    // A count written without an end counts on and ends with the window.
    await redis.set(limiter.key('erin@school.test'), '3');
    expect(await limiter.attempt('erin@school.test')).toBe(true);
    expect(await limiter.attempt('erin@school.test')).toBe(true);
    expect(await limiter.attempt('erin@school.test')).toBe(false);
    expect(await redis.pttl(limiter.key('erin@school.test'))).toBeGreaterThan(50_000);
  });
});

/** A Redis of the test's own, on a port of its own, that the test may stop, freeze and restart. */
class PrivateRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
      stdio: 'ignore',
    });
    this.child = child;
    await waitUntil('the private redis-server to listen', 10_000, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return (await listening(this.port)) ? true : undefined;
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // SIGKILL: Redis gone as a crashed or unplugged machine is, with no goodbye to its clients.
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }
  thaw(): void {
    this.child?.kill('SIGCONT');
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.runIf(testDatabaseKind === 'postgres')('Redis away: the limited actions answer 503, and work again when it is back', () => {
  let privateRedis: PrivateRedis;
  let t: TestApp;
  let person: { email: string };

  beforeAll(async () => {
    privateRedis = new PrivateRedis(await freePort());
    await privateRedis.start();
    t = await buildTestApp({ redisUrl: privateRedis.url });
    person = await makeUser(t.database);
  });
  afterAll(async () => {
    privateRedis?.thaw();
    await t?.close();
    await privateRedis?.stop();
  });

  const limitedActions = async () => ({
    signIn: await signIn(t.app, person.email, TEST_PASSWORD),
    wrongPassword: await signIn(t.app, person.email, 'wrong'),
    rateLimited: await post(t.app, '/auth/type', { email: person.email }),
    reset: await post(t.app, '/auth/password/reset', { email: person.email, locale: 'en' }),
    unknownReset: await post(t.app, '/auth/password/reset', { email: 'nobody@shared.ug', locale: 'en' }),
    signUp: await post(t.app, '/auth/register', {
      person: { name: 'Grace Nakato', email: `head-${++addresses}@away.ug`, telephone: '+256 772 123456', password: 'Kampala#2026' },
      organisation: { name: 'Kisubi Primary', category: 'school', email: 'office@kisubi.ac.ug', telephone: '0414 123456' },
    }),
  });

  async function expectAllRefused() {
    const answers = await limitedActions();
    for (const [action, answer] of Object.entries(answers)) {
      expect({ action, status: answer.statusCode, body: answer.json() }).toEqual({ action, status: 503, body: UNAVAILABLE });
      expect(answer.headers.authorization, action).toBeUndefined();
    }
  }

  it('with Redis up, sign-in and the limited routes work', async () => {
    const answers = await limitedActions();
    expect(answers.signIn.statusCode).toBe(200);
    expect(answers.wrongPassword.statusCode).toBe(401);
    expect(answers.rateLimited.statusCode).toBe(200);
    expect(answers.reset.statusCode).toBe(200);
    expect(answers.unknownReset.statusCode).toBe(200);
    expect(answers.signUp.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('Redis stopped: sign-in, a rate-limited route and a reset answer 503 (never unlimited, never 500); /readyz says degraded and stays in the balancer, /healthz 200', async () => {
    await privateRedis.stop();
    await expectAllRefused();
    // The routes above are also behind the request rate limit, which fails first: the counters
    // themselves refuse too (the password change and a sign-in past the rate limit meet them).
    for (const limiter of [t.app.limits.failures, t.app.limits.counter('reset-mail', 5, 60_000)]) {
      await expect(limiter.attempt(person.email)).rejects.toMatchObject({
        name: 'AppError',
        statusCode: 503,
        message: catalogueMessage(503),
      });
      await expect(limiter.succeed(person.email)).rejects.toMatchObject({ name: 'AppError', statusCode: 503 });
    }
    // Whoever tries, however often: no attempt gets through to a password check.
    const burst = await Promise.all(Array.from({ length: 20 }, () => signIn(t.app, person.email, 'wrong')));
    expect(statusCounts(burst)).toEqual({ 503: 20 });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'degraded: redis unavailable' }]);
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('Redis started again on its port: everything works again without a restart of the server', async () => {
    await privateRedis.start();
    await waitUntil('/readyz to answer ready', 10_000, async () =>
      (await t.app.inject({ method: 'GET', url: '/readyz' })).json().status === 'ready' ? true : undefined,
    );
    const answers = await limitedActions();
    expect(answers.signIn.statusCode).toBe(200);
    expect(answers.wrongPassword.statusCode).toBe(401);
    expect(answers.rateLimited.statusCode).toBe(200);
    expect(answers.reset.statusCode).toBe(200);
    expect(answers.signUp.statusCode).toBe(200);
  });

  it('Redis that stops answering (frozen): 503 within the command timeout, and back when it thaws', async () => {
    privateRedis.freeze();
    try {
      const started = performance.now();
      const [frozenSignIn, frozenRoute] = await Promise.all([
        signIn(t.app, person.email, TEST_PASSWORD),
        post(t.app, '/auth/type', { email: person.email }),
      ]);
      expect([frozenSignIn.statusCode, frozenSignIn.json()]).toEqual([503, UNAVAILABLE]);
      expect([frozenRoute.statusCode, frozenRoute.json()]).toEqual([503, UNAVAILABLE]);
      // The connection gives up on a command after two seconds (redis/connection.ts).
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      privateRedis.thaw();
    }
    await waitUntil('sign-in to work again', 10_000, async () =>
      (await signIn(t.app, person.email, TEST_PASSWORD)).statusCode === 200 ? true : undefined,
    );
  });
});
