import { randomBytes } from 'node:crypto';
import { DEFAULT_REPORT_LAYOUT } from '@mustard/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CARDS_DRAWER } from '../modules/reports/document-drawers.js';
import { reportFixture } from '../modules/reports/pdf/fixture.js';
import { childEnv, collectOutput, runMustard, spawnTsx, stopChildren, waitForExit } from '../operations/helpers.js';
import { openTestDatabase, type TestDatabase } from '../test/test-database.js';
import { DocumentJobs, documentWorkersKey } from './documents.js';

/*
 * `npm run mustard -- worker` as an operator (or a supervisor) runs it (issue 30): without
 * REDIS_URL, or with Redis or the database out of reach, it says why in one line and exits 1
 * (its supervisor starts it again); started, it names itself, draws the documents queued under
 * its REDIS_PREFIX and logs each, and on SIGTERM it stops taking jobs and exits 0.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
let database: TestDatabase;
let redis: Redis;
const prefix = `mustard-test-${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  database = await openTestDatabase();
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  stopChildren();
  if (redis) {
    const left = await redis.keys(`${prefix}:*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  }
  await database?.close();
});

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`never saw ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(process.env.MUSTARD_TEST_DB === 'postgres')('the worker command', () => {
  it('refuses to start without REDIS_URL, or with Redis or the database out of reach: one line, exit code 1', async () => {
    const appUrl = database.appUrl as string;
    // The three starts at once: each is a process of its own that waits on what it cannot reach.
    const [noRedis, redisAway, databaseAway] = await Promise.all([
      runMustard(['worker'], childEnv({ DATABASE_URL: appUrl })),
      runMustard(['worker'], childEnv({ DATABASE_URL: appUrl, REDIS_URL: 'redis://127.0.0.1:1' })),
      runMustard(['worker'], childEnv({ DATABASE_URL: 'postgres://mustard_app@127.0.0.1:1/mustard', REDIS_URL, REDIS_PREFIX: prefix })),
    ]);
    expect([noRedis.code, noRedis.stderr.trim()]).toEqual([1, expect.stringMatching(/^The worker needs REDIS_URL: [^\n]+$/)]);
    expect([redisAway.code, redisAway.stderr.trim()]).toEqual([1, 'The worker cannot reach Redis at 127.0.0.1:1.']);
    expect([databaseAway.code, databaseAway.stderr.trim()]).toEqual([
      1,
      expect.stringMatching(/^The worker cannot use the database: [^\n]+$/),
    ]);
  });

  it('names itself, draws the documents queued under its prefix, logs each, and exits 0 on SIGTERM', async () => {
    const child = spawnTsx(
      'apps/server/src/cli.ts',
      ['worker'],
      childEnv({ DATABASE_URL: database.appUrl as string, REDIS_URL, REDIS_PREFIX: prefix, LOG_LEVEL: 'info', JOB_LOCK_SECONDS: '5' }),
    );
    const output = collectOutput(child);
    const lines = () =>
      output
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; worker?: string; job?: string; school?: string });
    await until(() => lines().some((line) => line.msg.startsWith('job worker')), 30_000, 'the worker start');
    const workerId = lines()[0]?.worker as string;
    expect(workerId).toMatch(/^.+:\d+$/);

    const jobs = new DocumentJobs({ redisUrl: REDIS_URL, prefix, redis, waitMs: 60_000, log: { error: () => undefined } });
    try {
      const pdf = await jobs.draw({ school: 'a-school', place: 1, reply: { header: () => undefined } }, REPORT_CARDS_DRAWER, {
        model: reportFixture({ learners: 2, photos: 'none' }),
        layout: DEFAULT_REPORT_LAYOUT,
        images: new Map(),
      });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await jobs.close();
    }
    const drawnBy = await redis.hgetall(documentWorkersKey(prefix));
    expect(Object.values(drawnBy)).toEqual([workerId]);
    const [jobId] = Object.keys(drawnBy);
    await until(() => lines().some((line) => line.msg === 'document job done'), 5000, 'the job logged');
    expect(lines().find((line) => line.msg === 'document job done')).toMatchObject({ worker: workerId, job: jobId, school: 'a-school' });

    child.kill('SIGTERM');
    const exit = await waitForExit(child, 30_000);
    expect(exit.code).toBe(0);
    expect(output.stdout()).toContain(`Worker ${workerId} stopped.`);
  });
});
