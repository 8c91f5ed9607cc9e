import type { ChildProcess } from 'node:child_process';
import { ERROR_MESSAGES, TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { makeTenant, makeUser, SUPERADMIN_ROLE } from '../test/factories.js';
import { joinWithCode, login, TEST_PASSWORD, testConfig } from '../test/test-app.js';
import { databaseUrl, openTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase, testDatabaseKind } from '../test/test-database.js';
import {
  childEnv,
  collectOutput,
  freePort,
  killChild,
  makeDataDir,
  removeDir,
  spawnTsx,
  stopChildren,
  waitForExit,
  waitUntil,
} from './helpers.js';

/**
 * PostgreSQL going away under a running server (security.md items 27 and 29). The server itself
 * is shared with other test runs, so it is never stopped: the test database refuses new
 * connections and every backend of it is terminated, which is what a restart looks like to
 * the app's pool. Any uncaught error (a pool without an error handler) fails the run.
 */
describe.runIf(testDatabaseKind === 'postgres')('a PostgreSQL restart under the server', () => {
  let database: TestDatabase;
  let name: string;
  let app: FastifyInstance;
  let tenantcode: string;
  let adminEmail: string;
  let dataDir: string;

  /** As the PostgreSQL superuser, on a connection of its own. */
  async function asPostgres<T extends pg.QueryResultRow>(text: string, values: unknown[] = [], db = 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, db) });
    await client.connect();
    try {
      return await client.query<T>(text, values);
    } finally {
      await client.end();
    }
  }

  async function terminateBackends(): Promise<void> {
    await asPostgres('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await waitUntil('every backend of the test database to end', 5_000, async () => {
      const { rows } = await asPostgres<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      return rows[0]?.n === 0 ? true : undefined;
    });
  }

  /** The database goes down: no new connections, every existing one cut. */
  async function takeDown(): Promise<void> {
    await asPostgres(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await terminateBackends();
  }

  async function bringUp(): Promise<void> {
    await asPostgres(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
  }

  const inject = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}`, [TENANT_HEADER]: tenantcode } : {},
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    database = await openTestDatabase();
    name = new URL(database.appUrl as string).pathname.slice(1);
    expect(name).toMatch(/^mustard_t_[0-9a-z_]+$/);
    app = await buildApp(testConfig(), database, { logger: false });
    const school = await makeTenant(database, { name: 'Ndejje Senior School' });
    tenantcode = school.tenantcode;
    adminEmail = (await makeUser(database, { memberOf: [{ tenantId: school.id, roles: [SUPERADMIN_ROLE] }] })).email;
    dataDir = await makeDataDir();
  });

  afterAll(async () => {
    stopChildren();
    // Whatever happened, leave the database open so it can be dropped.
    if (name) await bringUp().catch(() => {});
    await app?.close();
    await database?.close();
    await removeDir(dataDir);
  });

  it('in-process: /readyz goes 503 while the database is down, then 200, and the API works again', async () => {
    expect((await inject('GET', '/readyz')).statusCode).toBe(200);
    const token = await login(app, adminEmail);
    expect((await inject('GET', '/api/users/profile', token)).statusCode).toBe(200);

    await takeDown();
    try {
      const down = await inject('GET', '/readyz');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'database unavailable' });
      // The process is up and says so; an API call fails without leaking the database's words.
      expect((await inject('GET', '/healthz')).statusCode).toBe(200);
      // An outage answers 503 with the catalogue's words (worth another try), not a 500 (a fault).
      const failed = await inject('GET', '/api/users/profile', token);
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toEqual({ statusCode: 503, message: ERROR_MESSAGES[503] });
      const signIn = await inject('POST', '/auth/login', undefined, { user: { email: adminEmail, password: TEST_PASSWORD } });
      expect(signIn.statusCode).toBe(503);
      expect(failed.body).not.toMatch(/mustard_t_|terminat|accepting connections|ECONN/i);
      expect((await inject('GET', '/readyz')).statusCode).toBe(503);
    } finally {
      await bringUp();
    }

    await waitUntil('/readyz to answer 200 again', 5_000, async () =>
      (await inject('GET', '/readyz')).statusCode === 200 ? true : undefined,
    );
    const profile = await inject('GET', '/api/users/profile', token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().tenant.tenantcode).toBe(tenantcode);
    const created = await inject('POST', '/api/users', token, {
      name: 'Peter Ssali',
      email: 'peter@ndejje.test',
      roles: ['teacher'],
    });
    expect(created.statusCode).toBe(200);
    await joinWithCode(app, created.json().code, 'Peter-Pass-5!');
  });

  it('the server process stays up through the restart and still stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server: ChildProcess = spawnTsx(
      'apps/server/src/server.ts',
      [],
      childEnv({ DATA_DIR: dataDir, DATABASE_URL: database.appUrl as string, PORT: String(port), HOST: '127.0.0.1' }),
    );
    const output = collectOutput(server);
    const readyz = async () => {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}: ${output.stderr()}`);
      return (await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } })).status;
    };
    try {
      await waitUntil('the server to be ready', 30_000, async () => ((await readyz().catch(() => 0)) === 200 ? true : undefined), 200);
      expect(output.stdout()).toContain('database: PostgreSQL');

      await takeDown();
      try {
        await waitUntil('/readyz to answer 503', 5_000, async () => ((await readyz()) === 503 ? true : undefined));
        const health = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: 'close' } });
        expect(health.status).toBe(200);
        expect(server.exitCode).toBeNull();
      } finally {
        await bringUp();
      }

      await waitUntil('/readyz to answer 200 again', 5_000, async () => ((await readyz()) === 200 ? true : undefined));
      const signIn = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ user: { email: 'peter@ndejje.test', password: 'Peter-Pass-5!' } }),
      });
      expect(signIn.status).toBe(200);
      expect(server.exitCode).toBeNull();

      server.kill('SIGTERM');
      const exit = await waitForExit(server, 10_000);
      expect(exit).toEqual({ code: 0, signal: null });
      // The pool's error handler saw the cut connections and said so; nothing went uncaught.
      expect(output.stderr()).toContain('PostgreSQL connection lost; the pool will reconnect');
      expect(output.stderr()).not.toMatch(/uncaught|unhandled/i);
    } finally {
      killChild(server);
    }
  }, 50_000);

  it('keeps an acknowledged write when every connection is cut right after the 200', async () => {
    const token = await login(app, adminEmail);
    const created = await inject('POST', '/api/users', token, {
      name: 'Joan Akello',
      email: 'joan@ndejje.test',
      roles: ['bursar'],
    });
    expect(created.statusCode).toBe(200);
    const id: string = created.json().id;
    await terminateBackends();

    // A new connection sees the account, the invitation and the audit entry of that transaction.
    const { rows } = await asPostgres<{ email: string; tenantcode: string; audited: number }>(
      `SELECT u.email, t.tenantcode,
         (SELECT count(*)::int FROM audit_log a WHERE a.tenant_id = i.tenant_id AND a.entity = 'user' AND a.entity_id = i.id::text AND a.action = 'invite') AS audited
       FROM invitations i JOIN users u ON u.id = i.user_id JOIN tenants t ON t.id = i.tenant_id
       WHERE i.id = $1`,
      [id],
      name,
    );
    expect(rows).toEqual([{ email: 'joan@ndejje.test', tenantcode, audited: 1 }]);

    // The app's pool reconnects and serves the row too.
    await waitUntil('/readyz to answer 200', 5_000, async () => ((await inject('GET', '/readyz')).statusCode === 200 ? true : undefined));
    const pending = await inject('GET', '/api/users/invitations', token);
    expect(pending.statusCode).toBe(200);
    const invitation = pending.json().invitations.find((row: { id: string }) => row.id === id);
    expect(invitation.roles.map((role: { name: string }) => role.name)).toEqual(['bursar']);
  });

  it('commits synchronously: the app’s sessions do not turn synchronous_commit off', async () => {
    const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(database.db);
    expect(rows[0]?.synchronous_commit).not.toBe('off');
  });
});
