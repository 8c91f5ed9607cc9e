import { readdirSync } from 'node:fs';
import { TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { joinWithCode, testConfig, tokenOf } from '../test/test-app.js';
import { testDatabaseKind } from '../test/test-database.js';
import { CHILD_JWT_SECRET_BYTES, childEnv, makeDataDir, removeDir, runMustard, stopChildren } from './helpers.js';

/**
 * The `mustard` command as an operator runs it on a fresh embedded data directory, then the
 * server's own code opening that directory: what the command wrote is what the app serves.
 * Embedded database only (the command's DATA_DIR).
 */
const HEAD = { email: 'head@kps.test', name: 'Head Teacher', password: 'Strong-Pass-1!' };

describe.runIf(testDatabaseKind === 'pglite')('the mustard command on a data directory', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  /** Tokens issued before the CLI disables the head teacher. */
  let headToken: string;
  let clerkToken: string;

  beforeAll(async () => {
    dataDir = await makeDataDir();
    env = childEnv({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    stopChildren();
    await removeDir(dataDir);
  });

  /** The data directory opened in-process as the server opens it, with the children's JWT secret. */
  async function openApp(): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
    const config = testConfig({ dataDir, jwtSecret: CHILD_JWT_SECRET_BYTES });
    const database = await openDatabase(config, { migrate: true });
    try {
      const app = await buildApp(config, database, { logger: false });
      return {
        app,
        database,
        close: async () => {
          await app.close();
          await database.close();
        },
      };
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  const loginResponse = (app: FastifyInstance, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } } });
  const profile = (app: FastifyInstance, token: string, tenantcode = 'kps') =>
    app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: tenantcode } });

  it('refuses an unknown command with exit code 2 and the usage', async () => {
    const result = await runMustard(['enrol-everyone'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "enrol-everyone"');
    expect(result.stderr).toContain('Usage: npm run mustard -- <command>');
    expect(result.stderr).toContain('create-tenant');
  });

  it('creates a tenant and a head teacher, who then signs in to the server with that tenant', async () => {
    // The first command on a new data directory also creates and migrates the database.
    const tenant = await runMustard(['create-tenant', '--code', 'kps', '--name', 'Kampala Parents', '--category', 'School'], env, 45_000);
    expect(tenant.stderr).toBe('');
    expect(tenant.code).toBe(0);
    expect(tenant.stdout).toMatch(/^Created tenant kps \(Kampala Parents\), id [0-9a-f-]{36}\s*$/);

    const user = await runMustard(
      ['create-user', '--email', HEAD.email, '--name', HEAD.name, '--password', HEAD.password, '--tenant', 'kps', '--role', 'headteacher'],
      env,
    );
    expect(user.stderr).toBe('');
    expect(user.code).toBe(0);
    expect(user.stdout.trim()).toBe(`Created user ${HEAD.email} as headteacher in kps`);
    expect(user.stdout + user.stderr).not.toContain(HEAD.password);

    const server = await openApp();
    try {
      const login = await loginResponse(server.app, HEAD.email, HEAD.password);
      expect(login.statusCode).toBe(200);
      expect(login.json().tenants.map((t: { tenantcode: string }) => t.tenantcode)).toEqual(['kps']);
      expect(login.json().tenants[0]).toMatchObject({ name: 'Kampala Parents', category: 'School', schooltype: 'primary' });
      headToken = tokenOf(login);

      const me = await profile(server.app, headToken);
      expect(me.statusCode).toBe(200);
      expect(me.json().tenant.tenantcode).toBe('kps');
      expect(me.json().roles.map((role: { name: string }) => role.name)).toEqual(['headteacher']);

      // A second person, added by the head teacher, whose session must outlive the head's.
      const clerk = await server.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { authorization: `Bearer ${headToken}`, [TENANT_HEADER]: 'kps' },
        payload: { name: 'School Clerk', email: 'clerk@kps.test', roles: ['bursar'] },
      });
      expect(clerk.statusCode).toBe(200);
      // The clerk joins with the invitation's code, choosing a password.
      clerkToken = await joinWithCode(server.app, clerk.json().code, 'Clerk-Pass-2!');
    } finally {
      await server.close();
    }
  }, 55_000);

  it('refuses a tenant name that is too short, and creates nothing', async () => {
    const result = await runMustard(['create-tenant', '--code', 'tiny', '--name', 'Ab', '--category', 'School'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('The name is too short');
    expect(result.stdout).toBe('');
  });

  it('refuses a tenant code that is taken, whatever its case', async () => {
    const result = await runMustard(['create-tenant', '--code', 'KPS', '--name', 'Another Parents School', '--category', 'School'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim()).toBe('The tenant code kps is already taken.');
  });

  it('disable-user ends the user’s sessions and stops them signing in; others are untouched', async () => {
    const result = await runMustard(['disable-user', '--email', HEAD.email], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`Disabled ${HEAD.email}; their sessions have ended.`);

    const server = await openApp();
    try {
      // Same JWT secret as before: the clerk's older token still works, so a 401 for the head
      // teacher is the revoked session, not a changed key.
      expect((await profile(server.app, clerkToken)).statusCode).toBe(200);
      const revoked = await profile(server.app, headToken);
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json().message).toBe('Please login');
      const login = await loginResponse(server.app, HEAD.email, HEAD.password);
      expect(login.statusCode).toBe(401);
      expect(login.headers.authorization).toBeUndefined();
      const sessions = await server.database.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.revoked_at'])
        .where('users.email', '=', HEAD.email)
        .execute();
      expect(sessions.length).toBeGreaterThan(0);
      expect(sessions.filter((session) => session.revoked_at === null)).toEqual([]);

      // Nothing was written by the refused commands.
      const tenants = await server.database.db.selectFrom('tenants').select('tenantcode').execute();
      expect(tenants.map((row) => row.tenantcode)).toEqual(['kps']);
      const users = await server.database.db.selectFrom('users').select('email').orderBy('email').execute();
      expect(users.map((row) => row.email)).toEqual(['clerk@kps.test', HEAD.email]);
    } finally {
      await server.close();
    }
  }, 40_000);

  it('migrate on an existing data directory says which database is up to date', async () => {
    const result = await runMustard(['migrate'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`The embedded database in ${dataDir}: the database schema is up to date.`);
  });

  it('remove-demo with no demo says so; reset-demo seeds it afresh and remove-demo deletes it again, leaving the school', async () => {
    const none = await runMustard(['remove-demo'], env);
    expect(none.stderr).toBe('');
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe('There was no demo to remove.');

    const reset = await runMustard(['reset-demo'], env, 180_000);
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(reset.stdout.trim()).toBe(
      'Demo reset: removed 0 tenants and 0 accounts; seeded demo-primary, demo-secondary, demo-shop afresh.',
    );

    const removed = await runMustard(['remove-demo'], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout.trim()).toMatch(/^Removed the demo: tenants demo-primary, demo-secondary, demo-shop and \d+ demo accounts\.$/);

    const server = await openApp();
    try {
      const tenants = await server.database.db.selectFrom('tenants').select('tenantcode').execute();
      expect(tenants.map((row) => row.tenantcode)).toEqual(['kps']);
      const users = await server.database.db.selectFrom('users').select('email').orderBy('email').execute();
      expect(users.map((row) => row.email)).toEqual(['clerk@kps.test', HEAD.email]);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('migrate with DATABASE_URL alone refuses, rather than migrating the embedded database instead', async () => {
    const other = await makeDataDir();
    try {
      const result = await runMustard(
        ['migrate'],
        childEnv({ DATA_DIR: other, DATABASE_URL: 'postgres://mustard_app@127.0.0.1:1/nowhere' }),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('DATABASE_MIGRATE_URL');
      expect(readdirSync(other)).toEqual([]);
    } finally {
      await removeDir(other);
    }
  });
});
