import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '../seed/demo.js';
import { testDatabaseKind } from '../test/test-database.js';
import {
  childEnv,
  collectOutput,
  freePort,
  killChild,
  makeDataDir,
  removeDir,
  spawnNode,
  stopChildren,
  waitForExit,
  waitUntil,
} from './helpers.js';

/**
 * The real server as an operator starts it, against what an attack on every route found
 * (issue 9): a learner's id that once stopped the server for every school, and a production
 * start that once made a platform administrator with the published demo password.
 */
const SERVER = 'apps/server/src/server.ts';
const DEMO_PASSWORD = 'Mustard@2026';

interface Running {
  process: ChildProcess;
  base: string;
  output: ReturnType<typeof collectOutput>;
}

async function startServer(dataDir: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawnNode(SERVER, [], childEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env }));
  const output = collectOutput(child);
  const base = `http://127.0.0.1:${port}`;
  await waitUntil(
    'the server to be ready',
    60_000,
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output.stderr()}`);
      const ready = await fetch(`${base}/readyz`).catch(() => undefined);
      return ready?.status === 200 ? true : undefined;
    },
    200,
  );
  return { process: child, base, output };
}

async function stop(server: Running): Promise<void> {
  server.process.kill('SIGTERM');
  try {
    await waitForExit(server.process, 10_000);
  } finally {
    killChild(server.process);
  }
}

async function signIn(base: string, email: string, password: string) {
  return fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password } }),
  });
}

describe.runIf(testDatabaseKind === 'pglite')('the server against the attacks of issue 9', () => {
  const dirs: string[] = [];
  /**
   * The server in production with the demo asked for (SEED_DEMO=true), started and seeded once
   * for the two tests that need the demo: a start is a migration and a seed, most of a test's time.
   */
  let seeded: Running | undefined;
  beforeAll(async () => {
    const dataDir = await makeDataDir();
    dirs.push(dataDir);
    seeded = await startServer(dataDir, { NODE_ENV: 'production', SEED_DEMO: 'true', MUSTARD_DEMO_PASSWORD: DEMO_PASSWORD });
  }, 120_000);
  afterAll(async () => {
    if (seeded) await stop(seeded);
    stopChildren();
    for (const dir of dirs) await removeDir(dir);
  });

  it('in production with SEED_DEMO=true: the demo, whose administrator is no platform administrator', async () => {
    const server = seeded as Running;
    expect(server.output.stdout()).toContain('Demo accounts, with a published password, for trying Mustard only');
    const answer = await signIn(server.base, DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { isadmin: boolean; admin: boolean };
    expect(body).toMatchObject({ isadmin: false, admin: false });
  });

  it('keeps answering every school while a learner is added after one whose id holds a serial past 2^53', async () => {
    const server = seeded as Running;
    const token = (await signIn(server.base, DEMO_ADMIN_EMAIL, DEMO_PASSWORD)).headers.get('authorization') as string;
    const add = (fields: Record<string, string>) =>
      fetch(`${server.base}/api/school/students`, {
        method: 'POST',
        headers: { authorization: token, tenantcode: 'demo-primary', 'content-type': 'application/json' },
        body: JSON.stringify({ firstname: 'Phone', lastname: 'Number', form: 'P4', ...fields }),
        signal: AbortSignal.timeout(15_000),
      });
    // The demo school's ids are MPS/0001...; a phone number pasted as one makes MPS the prefix with a huge serial.
    expect((await add({ studentid: 'MPS/9007199254740992' })).status).toBe(200);
    const next = add({});
    // While the next id is worked out, the process still answers.
    const started = Date.now();
    const health = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const answer = await next;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { studentid: string }).studentid).toBe('MPS/9007199254740993');
    expect((await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
  }, 60_000);

  it('does not seed the demo in production unless asked: no account with the published password', async () => {
    const dataDir = await makeDataDir();
    dirs.push(dataDir);
    const server = await startServer(dataDir, { NODE_ENV: 'production', MUSTARD_DEMO_PASSWORD: DEMO_PASSWORD });
    try {
      expect(server.output.stdout()).not.toContain(DEMO_ADMIN_EMAIL);
      expect(server.output.stdout()).not.toContain(DEMO_PASSWORD);
      expect((await signIn(server.base, DEMO_ADMIN_EMAIL, DEMO_PASSWORD)).status).toBe(401);
    } finally {
      await stop(server);
    }
  }, 120_000);
});
