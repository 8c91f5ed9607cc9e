import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES, markTypes, subjects, TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { APP_ROLE, migrateToLatest } from '../db/migrate.js';
import { withTenant } from '../db/tenant.js';
import { makeTenant, makeUser, SUPERADMIN_ROLE } from '../test/factories.js';
import { caller, joinWithCode, login, TEST_PASSWORD, testConfig } from '../test/test-app.js';
import { databaseUrl, openTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase, testDatabaseKind } from '../test/test-database.js';
import {
  childEnv,
  collectOutput,
  freePort,
  killChild,
  makeDataDir,
  removeDir,
  sleep,
  spawnTsx,
  stopChildren,
  waitForExit,
  waitUntil,
} from './helpers.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

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

/**
 * A real restart of PostgreSQL (issue 23 item 6): the test's own server is stopped (a fast
 * shutdown, which tells every backend to end, including those in the middle of a save's
 * transaction) and started again, three times, while four teachers save marks through the real
 * server process. The server must outlive every restart, answer 503 while the database is away
 * and 200 when it is back, and lose no save it acknowledged.
 */
describe.runIf(testDatabaseKind === 'postgres')('a PostgreSQL server restarted under a save load', () => {
  const WORKERS = 4;
  const RESTARTS = 3;
  const LEARNERS = 150;
  let cluster: PrivatePostgres;
  let dataDir: string;
  let tenantcode: string;
  let headEmail: string;
  /** Per worker: its own subject (a grid's save holds the grid's lock) and the cells it saves, one each. */
  const queues: Array<Array<{ subject_id: string; marktype_id: string; student_id: string }>> = [];

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE mustard');
    await admin.end();
    const owner = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.url('mustard'), max: 1 }) }),
    });
    try {
      await migrateToLatest(owner);
      await sql.raw(`ALTER ROLE ${APP_ROLE} LOGIN`).execute(owner);
    } finally {
      await owner.destroy();
    }

    // The school, its head teacher, subjects, mark types and learners, through the app itself.
    const setup = await openDatabase(
      { dataDir: '', databaseUrl: cluster.url('mustard', APP_ROLE), databaseMigrateUrl: undefined },
      { migrate: false, listen: false },
    );
    const app = await buildApp(testConfig(), setup, { logger: false });
    try {
      const school = await makeTenant(setup, { name: 'Kisubi Primary' });
      tenantcode = school.tenantcode;
      headEmail = (await makeUser(setup, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] })).email;
      const head = caller(app, await login(app, headEmail), tenantcode);
      const created = async (url: string, body: object) => {
        const response = await head.post(url, body);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().id as string;
      };
      const marktypeIds = [
        await created(markTypes.path, { label: 'BOT', category: 'exam', position: 1 }),
        await created(markTypes.path, { label: 'EOT', category: 'exam', position: 2 }),
      ];
      const learners = Array.from({ length: LEARNERS }, (_, index) => ({
        tenant_id: school.id,
        id: newId(),
        studentid: `P5-${index + 1}`,
        firstname: `Learner ${index + 1}`,
        lastname: 'Nakato',
        form: 'P5',
        stream: 'East',
      }));
      await withTenant(setup.db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(learners).execute());
      for (let worker = 0; worker < WORKERS; worker++) {
        const subject_id = await created(subjects.path, { name: `Subject ${worker + 1}`, category: 'general' });
        queues.push(marktypeIds.flatMap((marktype_id) => learners.map((learner) => ({ subject_id, marktype_id, student_id: learner.id }))));
      }
    } finally {
      await app.close();
      await setup.close();
    }
    dataDir = await makeDataDir();
  }, 60_000);

  afterAll(async () => {
    stopChildren();
    await cluster?.destroy();
    await removeDir(dataDir);
  });

  it('the process lives, /readyz goes 503 then 200, saves answer 200 or 503 and every acknowledged save is kept', async () => {
    const port = await freePort();
    const server = spawnTsx(
      'apps/server/src/server.ts',
      [],
      childEnv({ DATA_DIR: dataDir, DATABASE_URL: cluster.url('mustard', APP_ROLE), PORT: String(port), HOST: '127.0.0.1' }),
    );
    const output = collectOutput(server);
    const base = `http://127.0.0.1:${port}`;
    const alive = () => {
      if (server.exitCode !== null || server.signalCode !== null) {
        throw new Error(`the server exited (${server.exitCode ?? server.signalCode}): ${output.stderr()}`);
      }
    };
    const readyz = async () => {
      alive();
      return (await fetch(`${base}/readyz`, { headers: { connection: 'close' } })).status;
    };
    try {
      await waitUntil('the server to be ready', 30_000, async () => ((await readyz().catch(() => 0)) === 200 ? true : undefined), 200);
      const signIn = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { email: headEmail, password: TEST_PASSWORD } }),
      });
      expect(signIn.status).toBe(200);
      const headers = {
        authorization: signIn.headers.get('authorization') ?? '',
        [TENANT_HEADER]: tenantcode,
        'content-type': 'application/json',
      };

      type Save = { save_id: string; cell: (typeof queues)[number][number]; mark: number; status: number; body: string; at: number };
      const saves: Save[] = [];
      let loading = true;
      const worker = async (queue: (typeof queues)[number]) => {
        for (let cell = queue.shift(); loading && cell; cell = queue.shift()) {
          const save_id = randomUUID();
          const mark = Math.floor(Math.random() * 101);
          const body = {
            form: 'P5',
            stream: 'East',
            term: 'I',
            year: 2026,
            subject_id: cell.subject_id,
            save_id,
            marks: { [cell.marktype_id]: { [cell.student_id]: mark } },
          };
          const answer = await fetch(`${base}/api/school/marks`, { method: 'POST', headers, body: JSON.stringify(body) }).then(
            async (response) => ({ status: response.status, body: await response.text() }),
            (error: Error) => ({ status: 0, body: error.message }),
          );
          saves.push({ save_id, cell, mark, ...answer, at: Date.now() });
          // A refused save is retried at once in a browser; here the next cell is, a little later.
          if (answer.status !== 200) await sleep(20);
        }
      };
      const load = Promise.all(queues.map(worker));

      const backAt: number[] = [];
      for (let restart = 0; restart < RESTARTS; restart++) {
        await sleep(800);
        await cluster.stop();
        await waitUntil('/readyz to answer 503', 5_000, async () => ((await readyz()) === 503 ? true : undefined), 20);
        await sleep(200);
        await cluster.start();
        await waitUntil('/readyz to answer 200 again', 10_000, async () => ((await readyz()) === 200 ? true : undefined), 20);
        backAt.push(Date.now());
      }
      await sleep(400);
      loading = false;
      await load;
      alive();

      const statuses = new Map<number, Save[]>();
      for (const save of saves) statuses.set(save.status, [...(statuses.get(save.status) ?? []), save]);
      const count = (status: number) => statuses.get(status)?.length ?? 0;
      // Every save is either acknowledged or refused as an outage, never a fault (500) or a cut connection.
      expect([...statuses.keys()].sort(), saves.find((save) => save.status !== 200 && save.status !== 503)?.body).toEqual([200, 503]);
      expect(JSON.parse(statuses.get(503)?.[0]?.body ?? '')).toEqual({ statusCode: 503, message: ERROR_MESSAGES[503] });
      // Saves work again after each restart.
      for (const at of backAt) expect(saves.some((save) => save.status === 200 && save.at > at)).toBe(true);

      const acknowledged = statuses.get(200) ?? [];
      const check = new pg.Client({ connectionString: cluster.url('mustard') });
      await check.connect();
      try {
        const { rows: keys } = await check.query<{ save_id: string }>('SELECT save_id FROM mark_saves WHERE answer IS NOT NULL');
        const { rows: marks } = await check.query<{ subject_id: string; marktype_id: string; student_id: string; mark: number }>(
          'SELECT subject_id, marktype_id, student_id, mark::float AS mark FROM marks',
        );
        const kept = new Set(keys.map((row) => row.save_id));
        const stored = new Map(marks.map((row) => [`${row.subject_id}/${row.marktype_id}/${row.student_id}`, row.mark]));
        const lost = acknowledged.filter(
          (save) =>
            !kept.has(save.save_id) || stored.get(`${save.cell.subject_id}/${save.cell.marktype_id}/${save.cell.student_id}`) !== save.mark,
        );
        expect(lost).toEqual([]);
      } finally {
        await check.end();
      }
      console.info(`restart under load: ${count(200)} saves acknowledged, ${count(503)} refused with 503, over ${RESTARTS} restarts`);
      expect(output.stderr()).not.toMatch(/uncaught|unhandled/i);
    } finally {
      killChild(server);
    }
  }, 90_000);
});
