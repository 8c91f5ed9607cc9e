import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TENANT_HEADER } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { DataDirLockedError, lockText, processStartTime } from '../db/lock.js';
import { makeTenant, makeUser, SUPERADMIN_ROLE } from '../test/factories.js';
import { joinWithCode, login, testConfig, tokenOf } from '../test/test-app.js';
import { testDatabaseKind } from '../test/test-database.js';
import { childEnv, makeDataDir, removeDir, runMustard, stopChildren, waitForExit } from './helpers.js';

/**
 * The embedded database in its data directory: what was written survives a restart, and only
 * one process at a time may open the directory (two PGlite instances would corrupt it).
 */
describe.runIf(testDatabaseKind === 'pglite')('the embedded data directory', () => {
  let dataDir: string;
  const jwtSecret = new Uint8Array(Buffer.from('data-dir-test-secret-0123456789abcdefghij'));
  const config = () => testConfig({ dataDir, jwtSecret });
  const lockFile = () => path.join(dataDir, 'mustard.lock');

  beforeAll(async () => {
    dataDir = await makeDataDir();
  });
  afterAll(async () => {
    stopChildren();
    await removeDir(dataDir);
  });

  async function open(): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
    const database = await openDatabase(config(), { migrate: true });
    try {
      const app = await buildApp(config(), database, { logger: false });
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

  describe('a restart keeps the data', () => {
    let tenantcode: string;
    let adminToken: string;
    let createdId: string;

    it('writes through the API and closes', async () => {
      const server = await open();
      try {
        const school = await makeTenant(server.database, { name: 'Gayaza High School' });
        tenantcode = school.tenantcode;
        const admin = await makeUser(server.database, { memberOf: [{ tenantId: school.id, roles: [SUPERADMIN_ROLE] }] });
        adminToken = await login(server.app, admin.email);
        const created = await server.app.inject({
          method: 'POST',
          url: '/api/users',
          headers: { authorization: `Bearer ${adminToken}`, [TENANT_HEADER]: tenantcode },
          payload: { name: 'Sarah Namubiru', email: 'sarah@gayaza.test', roles: ['teacher'] },
        });
        expect(created.statusCode).toBe(200);
        await joinWithCode(server.app, created.json().code, 'Sarah-Pass-4!');
        createdId = (
          await server.database.db.selectFrom('users').select('id').where('email', '=', 'sarah@gayaza.test').executeTakeFirstOrThrow()
        ).id;
      } finally {
        await server.close();
      }
      expect(existsSync(lockFile())).toBe(false);
    }, 40_000);

    it('after reopening, the row is there, the new user signs in and the old session still works', async () => {
      const server = await open();
      try {
        const row = await server.database.db
          .selectFrom('users')
          .select(['id', 'name', 'password_hash'])
          .where('email', '=', 'sarah@gayaza.test')
          .executeTakeFirst();
        expect(row).toMatchObject({ id: createdId, name: 'Sarah Namubiru' });
        expect(row?.password_hash).toMatch(/^\$argon2id\$/);

        const signIn = await server.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { user: { email: 'sarah@gayaza.test', password: 'Sarah-Pass-4!' } },
        });
        expect(signIn.statusCode).toBe(200);
        expect(signIn.json().tenants.map((t: { tenantcode: string }) => t.tenantcode)).toEqual([tenantcode]);
        const profile = await server.app.inject({
          method: 'GET',
          url: '/api/users/profile',
          headers: { authorization: `Bearer ${tokenOf(signIn)}`, [TENANT_HEADER]: tenantcode },
        });
        expect(profile.json().roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);

        // The administrator's session was stored in the database, so it outlives the restart.
        const member = await server.app.inject({
          method: 'GET',
          url: `/api/users/${createdId}`,
          headers: { authorization: `Bearer ${adminToken}`, [TENANT_HEADER]: tenantcode },
        });
        expect(member.statusCode).toBe(200);
        expect(member.json().user).toMatchObject({ id: createdId, email: 'sarah@gayaza.test' });
      } finally {
        await server.close();
      }
    }, 40_000);
  });

  describe('one process per data directory', () => {
    it('refuses a second process while the directory is open, naming the directory', async () => {
      const first = await openDatabase(config(), { migrate: true });
      try {
        expect(readFileSync(lockFile(), 'utf8')).toBe(lockText(process.pid));

        const other = await runMustard(['migrate'], childEnv({ DATA_DIR: dataDir }));
        expect(other.code).not.toBe(0);
        expect(other.code).not.toBeNull();
        expect(other.stderr).toContain(dataDir);
        expect(other.stderr).toContain('in use');
        expect(other.stdout).not.toContain('up to date');

        // The same process opening it twice is refused too.
        await expect(openDatabase(config(), { migrate: true })).rejects.toBeInstanceOf(DataDirLockedError);

        // The first holder is unharmed by the refusals and keeps its lock.
        await first.ping();
        expect(readFileSync(lockFile(), 'utf8')).toBe(lockText(process.pid));
      } finally {
        await first.close();
      }
      expect(existsSync(lockFile())).toBe(false);
    }, 45_000);

    it('opens again once the first holder has closed, in this process and in another', async () => {
      const again = await openDatabase(config(), { migrate: true });
      await again.ping();
      await again.close();

      const other = await runMustard(['migrate'], childEnv({ DATA_DIR: dataDir }));
      expect(other.stderr).toBe('');
      expect(other.code).toBe(0);
      expect(other.stdout.trim()).toBe(`The embedded database in ${dataDir}: the database schema is up to date.`);
      expect(existsSync(lockFile())).toBe(false);
    }, 45_000);

    it('refuses a lock held by another running process', async () => {
      const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      try {
        await new Promise((resolve, reject) => holder.once('spawn', resolve).once('error', reject));
        writeFileSync(lockFile(), lockText(holder.pid as number));
        const refused = openDatabase(config(), { migrate: true });
        await expect(refused).rejects.toBeInstanceOf(DataDirLockedError);
        await expect(refused).rejects.toThrow(`The data directory ${dataDir} is in use by another Mustard process (pid ${holder.pid})`);
        // Refusing must not remove the other process's lock.
        expect(readFileSync(lockFile(), 'utf8')).toBe(lockText(holder.pid as number));
        // A lock of the older kind (the pid alone) naming a live node process is refused too.
        writeFileSync(lockFile(), String(holder.pid));
        await expect(openDatabase(config(), { migrate: true })).rejects.toBeInstanceOf(DataDirLockedError);
        rmSync(lockFile());
      } finally {
        holder.kill('SIGKILL');
        await waitForExit(holder, 5_000);
      }
    });

    it('takes over a lock whose pid now belongs to another program (the pid was reused)', async () => {
      const other = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        await new Promise((resolve, reject) => other.once('spawn', resolve).once('error', reject));
        const pid = other.pid as number;
        const start = processStartTime(pid);
        expect(start).toMatch(/^\d+$/);
        for (const text of [
          // The crashed server's start time, not this program's: the pid was handed out again.
          `${pid} ${Number(start) - 1}`,
          // A lock of the older kind, the pid alone: `sleep` is no Mustard server.
          String(pid),
        ]) {
          writeFileSync(lockFile(), text);
          const database = await openDatabase(config(), { migrate: true });
          try {
            expect(readFileSync(lockFile(), 'utf8')).toBe(lockText(process.pid));
            await database.ping();
          } finally {
            await database.close();
          }
          expect(existsSync(lockFile())).toBe(false);
        }
        expect(other.exitCode).toBeNull();
      } finally {
        other.kill('SIGKILL');
        await waitForExit(other, 5_000);
      }
    }, 45_000);

    it('takes over a stale lock left by a process that is gone', async () => {
      // A pid that surely runs nothing: a child that has already exited.
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      expect(() => process.kill(gone, 0)).toThrow();
      writeFileSync(lockFile(), String(gone));

      const database = await openDatabase(config(), { migrate: true });
      try {
        expect(readFileSync(lockFile(), 'utf8')).toBe(lockText(process.pid));
        await database.ping();
      } finally {
        await database.close();
      }
      expect(existsSync(lockFile())).toBe(false);
    }, 30_000);
  });
});
