import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE } from '../db/migrate.js';
import { databaseUrl, POSTGRES_ADMIN_URL, testDatabaseKind } from '../test/test-database.js';
import {
  CHILD_JWT_SECRET,
  childEnv,
  collectOutput,
  freePort,
  killChild,
  makeDataDir,
  removeDir,
  runMustard,
  spawnNode,
  stopChildren,
  waitForExit,
  waitUntil,
} from './helpers.js';

/**
 * The README's "PostgreSQL" steps, run as written on a new database of this cluster: migrate
 * with DATABASE_MIGRATE_URL alone (which once migrated the embedded ./data instead and said all
 * was well), give the app role a login with psql, then start the server with DATABASE_URL and
 * use the `mustard` command against it.
 */
describe.runIf(testDatabaseKind === 'postgres')('the README’s PostgreSQL steps', () => {
  const name = `mustard_readme_${process.pid}_${Date.now().toString(36)}`;
  const ownerUrl = databaseUrl(POSTGRES_ADMIN_URL, name);
  let dataDir: string;

  async function asAdmin(statement: string) {
    const client = new pg.Client({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, 'postgres') });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    dataDir = await makeDataDir();
    await asAdmin(`CREATE DATABASE ${name}`);
  });
  afterAll(async () => {
    stopChildren();
    await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await removeDir(dataDir);
  });

  it('migrate, a login for the app role, then the server and the command on DATABASE_URL', async () => {
    // export DATABASE_MIGRATE_URL=...; npm run mustard -- migrate
    const migrated = await runMustard(['migrate'], childEnv({ DATA_DIR: dataDir, DATABASE_MIGRATE_URL: ownerUrl }));
    expect(migrated.stderr).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain(`Migrated the PostgreSQL database "${name}" on 127.0.0.1:5432: applied 2026_11_21_0001_foundation`);
    // Nothing of the embedded database was made on the way.
    expect(readdirSync(dataDir)).toEqual([]);
    const again = await runMustard(['migrate'], childEnv({ DATA_DIR: dataDir, DATABASE_MIGRATE_URL: ownerUrl }));
    expect(again.stdout.trim()).toBe(`The PostgreSQL database "${name}" on 127.0.0.1:5432: the database schema is up to date.`);

    // psql "$DATABASE_MIGRATE_URL" -c "ALTER ROLE mustard_app LOGIN PASSWORD 'change-me'"
    const psql = spawnSync('psql', [ownerUrl, '-c', `ALTER ROLE ${APP_ROLE} LOGIN PASSWORD 'change-me'`], { encoding: 'utf8' });
    expect(psql.stderr).toBe('');
    expect(psql.status).toBe(0);

    // export DATABASE_URL=postgres://mustard_app:change-me@db/mustard; export JWT_SECRET=...; npm start
    const appUrl = new URL(ownerUrl);
    appUrl.username = APP_ROLE;
    appUrl.password = 'change-me';
    const env = { DATA_DIR: dataDir, DATABASE_URL: appUrl.toString(), JWT_SECRET: CHILD_JWT_SECRET };
    const created = await runMustard(
      ['create-tenant', '--code', 'stmarys', '--name', "St. Mary's", '--category', 'School', '--schooltype', 'secondary'],
      childEnv(env),
    );
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('Created tenant stmarys');
    const user = await runMustard(
      [
        'create-user',
        '--email',
        'head@stmarys.ug',
        '--name',
        'Head Teacher',
        '--password',
        'S3cure!pass',
        '--tenant',
        'stmarys',
        '--role',
        'headteacher',
      ],
      childEnv(env),
    );
    expect(user.stderr).toBe('');

    const port = await freePort();
    const server = spawnNode('apps/server/src/server.ts', [], childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }));
    const output = collectOutput(server);
    try {
      await waitUntil('the server to be ready', 30_000, async () => {
        if (server.exitCode !== null) throw new Error(`the server exited: ${output.stderr()}`);
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      });
      expect(output.stdout()).toContain('database: PostgreSQL');
      const signIn = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { email: 'head@stmarys.ug', password: 'S3cure!pass' } }),
      });
      expect(signIn.status).toBe(200);
      const body = (await signIn.json()) as { tenants: Array<{ tenantcode: string }> };
      expect(body.tenants.map((tenant) => tenant.tenantcode)).toEqual(['stmarys']);
      server.kill('SIGTERM');
      expect(await waitForExit(server, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      killChild(server);
    }
    // The embedded database was never opened: the data directory holds the token secret at most.
    expect(readdirSync(dataDir).filter((file) => file !== 'jwt-secret')).toEqual([]);
  }, 90_000);

  it('the app role of the README can read no row without a tenant, as row-level security promises', async () => {
    const client = new pg.Client({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, name, APP_ROLE) });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships');
      expect(rows[0]?.n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
