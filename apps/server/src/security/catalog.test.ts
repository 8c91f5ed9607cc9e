import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafeRole, UnsafeDatabaseRoleError } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { APP_ROLE, MIGRATION_TABLES } from '../db/migrate.js';
import { withTenant } from '../db/tenant.js';
import { GLOBAL_TABLES } from '../db/types.js';
import { makeStudents, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { databaseUrl, POSTGRES_ADMIN_URL, testDatabaseKind } from '../test/test-database.js';

/**
 * The database catalog, read as the app role (security.md items 1, 2, 3, 4 and 7): the role
 * RLS binds, forced RLS with NULLIF-guarded policies on every tenant table, tenant_id leading
 * every key, and no tenant visible without a tenant set.
 */

let t: TestApp;
let tenantTables: string[];
let schoolA: { id: string; tenantcode: string };
let schoolB: { id: string; tenantcode: string };

const db = () => t.database.db;

beforeAll(async () => {
  t = await buildTestApp();
  const { rows } = await sql<{ relname: string }>`
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname
  `.execute(db());
  const exempt = new Set<string>([...GLOBAL_TABLES, ...MIGRATION_TABLES]);
  tenantTables = rows.map((row) => row.relname).filter((name) => !exempt.has(name));
  schoolA = await makeTenant(t.database);
  schoolB = await makeTenant(t.database);
  await makeUser(t.database, { memberOf: [{ tenantId: schoolA.id, roles: ['teacher'] }] });
  await makeUser(t.database, { memberOf: [{ tenantId: schoolB.id, roles: ['headteacher'] }] });
  await makeStudents(t.database, schoolA.id, 'P3', 4);
  await makeStudents(t.database, schoolB.id, 'P4', 2);
});
afterAll(() => t.close());

describe('the app database role (items 1 and 4)', () => {
  it('works as mustard_app: not superuser, not BYPASSRLS, owns no table, sequence, view or schema', async () => {
    const { rows } = await sql<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean; owned: number; schemas: number }>`
      SELECT current_user, r.rolsuper, r.rolbypassrls,
        (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned,
        (SELECT count(*)::int FROM pg_namespace n WHERE n.nspowner = r.oid) AS schemas
      FROM pg_roles r WHERE r.rolname = current_user
    `.execute(db());
    expect(rows).toEqual([{ current_user: APP_ROLE, rolsuper: false, rolbypassrls: false, owned: 0, schemas: 0 }]);
  });

  it('is not a member of a superuser or BYPASSRLS role, nor of the role owning the tables', async () => {
    const { rows } = await sql<{ rolname: string }>`
      SELECT r.rolname FROM pg_roles r
      WHERE pg_has_role(current_user, r.oid, 'USAGE') AND r.rolname <> current_user
        AND (r.rolsuper OR r.rolbypassrls OR EXISTS (
          SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relowner = r.oid))
    `.execute(db());
    expect(rows).toEqual([]);
  });

  it('on PostgreSQL, logs in as the app role itself (session_user), not as a superuser that switched role', async () => {
    const { rows } = await sql<{ session_user: string }>`SELECT session_user`.execute(db());
    // The embedded database has one superuser session that takes the app role with SET ROLE.
    expect(rows[0]?.session_user).toBe(testDatabaseKind === 'postgres' ? APP_ROLE : 'postgres');
  });

  it('assertSafeRole accepts the app role', async () => {
    await expect(assertSafeRole(db())).resolves.toBeUndefined();
  });

  // Of an embedded database of its own, whichever pass: run in the embedded database's (CI runs this file there
  // too), not again in PostgreSQL's, where loading the embedded database for it alone was most of the file's time.
  it.runIf(testDatabaseKind === 'pglite')(
    'assertSafeRole refuses a superuser, a BYPASSRLS role and a table owner (embedded database)',
    async () => {
      const pglite = await PGlite.create();
      const raw = new Kysely<any>({ dialect: new PGliteDialect({ pglite }) });
      try {
        // PGlite's session is the superuser postgres.
        await expect(assertSafeRole(raw)).rejects.toThrow(UnsafeDatabaseRoleError);

        await sql.raw('CREATE ROLE bypasser NOSUPERUSER BYPASSRLS').execute(raw);
        await sql.raw('SET ROLE bypasser').execute(raw);
        await expect(assertSafeRole(raw)).rejects.toThrow(UnsafeDatabaseRoleError);
        await sql.raw('RESET ROLE').execute(raw);

        await sql.raw('CREATE ROLE owner_role NOSUPERUSER NOBYPASSRLS').execute(raw);
        await sql.raw('CREATE TABLE owned_table (id int)').execute(raw);
        await sql.raw('ALTER TABLE owned_table OWNER TO owner_role').execute(raw);
        await sql.raw('SET ROLE owner_role').execute(raw);
        await expect(assertSafeRole(raw)).rejects.toThrow(UnsafeDatabaseRoleError);
        await sql.raw('RESET ROLE').execute(raw);

        // The control: a plain role passes.
        await sql.raw('CREATE ROLE plain_role NOSUPERUSER NOBYPASSRLS').execute(raw);
        await sql.raw('SET ROLE plain_role').execute(raw);
        await expect(assertSafeRole(raw)).resolves.toBeUndefined();
      } finally {
        await raw.destroy();
      }
    },
  );

  it.runIf(testDatabaseKind === 'postgres')('assertSafeRole refuses the PostgreSQL superuser on the test database', async () => {
    const name = new URL(t.database.appUrl as string).pathname.slice(1);
    const admin = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl(POSTGRES_ADMIN_URL, name), max: 1 }) }),
    });
    try {
      const { rows } = await sql<{ rolsuper: boolean }>`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`.execute(admin);
      expect(rows[0]?.rolsuper).toBe(true);
      await expect(assertSafeRole(admin)).rejects.toThrow(UnsafeDatabaseRoleError);
    } finally {
      await admin.destroy();
    }
  });
});

describe('catalog lint: tenant tables (items 2 and 7)', () => {
  it('finds the tenant tables: every public table not named global or migration', () => {
    expect(tenantTables).toEqual(
      expect.arrayContaining(['memberships', 'roles', 'role_permissions', 'membership_roles', 'audit_log', 'students']),
    );
    for (const global of GLOBAL_TABLES) expect(tenantTables).not.toContain(global);
  });

  it('every tenant table has a NOT NULL uuid tenant_id', async () => {
    const { rows } = await sql<{ table: string; type: string | null; notnull: boolean | null }>`
      SELECT c.relname AS table, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables})
    `.execute(db());
    const wrong = rows.filter((row) => row.type !== 'uuid' || row.notnull !== true).map((row) => row.table);
    expect(wrong).toEqual([]);
    expect(rows).toHaveLength(tenantTables.length);
  });

  it('every tenant table has row-level security enabled and forced', async () => {
    const { rows } = await sql<{ table: string; enabled: boolean; forced: boolean }>`
      SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables})
    `.execute(db());
    expect(rows.filter((row) => !row.enabled || !row.forced).map((row) => row.table)).toEqual([]);
    expect(rows).toHaveLength(tenantTables.length);
  });

  const TENANT_CHECK = /tenant_id = \(?NULLIF\(current_setting\('app\.tenant_id'(::text)?, true\), ''(::text)?\)\)?::uuid/;

  it('every tenant table has a policy for all commands whose USING and WITH CHECK compare tenant_id with NULLIF(app.tenant_id)', async () => {
    const { rows } = await sql<{
      table: string;
      cmd: string;
      permissive: string;
      roles: string[] | string;
      qual: string | null;
      with_check: string | null;
    }>`
      SELECT tablename AS table, cmd, permissive, roles, qual, with_check FROM pg_policies
      WHERE schemaname = 'public' AND tablename = ANY(${tenantTables})
    `.execute(db());
    const missing = tenantTables.filter(
      (table) =>
        !rows.some(
          (policy) =>
            policy.table === table &&
            policy.cmd === 'ALL' &&
            policy.permissive === 'PERMISSIVE' &&
            String(policy.roles).includes('public') &&
            TENANT_CHECK.test(policy.qual ?? '') &&
            TENANT_CHECK.test(policy.with_check ?? ''),
        ),
    );
    expect(missing).toEqual([]);
  });

  // Permissive policies add rows: each must be bound to the transaction's tenant, or apply only
  // while no tenant is set (memberships_own, which lists a user's schools at sign-in).
  it('no permissive policy on a tenant table lets rows through without looking at app.tenant_id', async () => {
    const { rows } = await sql<{ table: string; policy: string; qual: string | null; with_check: string | null }>`
      SELECT tablename AS table, policyname AS policy, qual, with_check FROM pg_policies
      WHERE schemaname = 'public' AND tablename = ANY(${tenantTables}) AND permissive = 'PERMISSIVE'
    `.execute(db());
    const unbound = rows.filter((row) => !(row.qual ?? '').includes("'app.tenant_id'")).map((row) => `${row.table}.${row.policy}`);
    expect(unbound).toEqual([]);
  });

  it('every primary key, unique constraint and unique index of a tenant table starts with tenant_id', async () => {
    const { rows } = await sql<{ table: string; name: string; first: string | null }>`
      SELECT c.relname AS table, i.relname AS name, a.attname AS first
      FROM pg_index x
      JOIN pg_class c ON c.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_class i ON i.oid = x.indexrelid
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = x.indkey[0]
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables}) AND (x.indisunique OR x.indisprimary)
    `.execute(db());
    expect(rows.filter((row) => row.first !== 'tenant_id').map((row) => `${row.table}.${row.name}`)).toEqual([]);
    // Each tenant table has its primary key among them.
    const { rows: keys } = await sql<{ table: string; name: string; contype: string; first: string | null }>`
      SELECT c.relname AS table, k.conname AS name, k.contype, a.attname AS first
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables}) AND k.contype IN ('p', 'u', 'x')
    `.execute(db());
    expect(keys.filter((key) => key.first !== 'tenant_id').map((key) => `${key.table}.${key.name}`)).toEqual([]);
    expect(new Set(keys.filter((key) => key.contype === 'p').map((key) => key.table))).toEqual(new Set(tenantTables));
  });

  it('every foreign key between tenant tables starts with tenant_id on both sides; keys to global tables are to tenants or users', async () => {
    const { rows } = await sql<{ table: string; name: string; target: string; first: string | null; target_first: string | null }>`
      SELECT c.relname AS table, k.conname AS name, t.relname AS target, a.attname AS first, ta.attname AS target_first
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_class t ON t.oid = k.confrelid
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
      LEFT JOIN pg_attribute ta ON ta.attrelid = t.oid AND ta.attnum = k.confkey[1]
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables}) AND k.contype = 'f'
    `.execute(db());
    expect(rows.length).toBeGreaterThan(0);
    const betweenTenantTables = rows.filter((row) => tenantTables.includes(row.target));
    expect(betweenTenantTables.length).toBeGreaterThan(0);
    expect(
      betweenTenantTables
        .filter((row) => row.first !== 'tenant_id' || row.target_first !== 'tenant_id')
        .map((row) => `${row.table}.${row.name}`),
    ).toEqual([]);
    // A key to the tenants table is the row's own tenant_id.
    expect(rows.filter((row) => row.target === 'tenants' && row.first !== 'tenant_id').map((row) => `${row.table}.${row.name}`)).toEqual(
      [],
    );
    const globalTargets = new Set(rows.filter((row) => !tenantTables.includes(row.target)).map((row) => row.target));
    for (const target of globalTargets) expect(GLOBAL_TABLES as readonly string[]).toContain(target);
  });

  it('no tenant table takes values from a sequence or identity column shared by all tenants', async () => {
    const { rows } = await sql<{ column: string }>`
      SELECT c.relname || '.' || a.attname AS column
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relname = ANY(${tenantTables}) AND a.attnum > 0 AND NOT a.attisdropped
        AND (a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE '%nextval%')
    `.execute(db());
    expect(rows).toEqual([]);
  });
});

/*
 * What PostgreSQL spread over several nodes by school needs of the catalog (issue 30 point 5,
 * Citus: tenant tables distributed by tenant_id and co-located, global tables copied to every node
 * as reference tables). The keys above already lead with tenant_id; these hold the rest, and the
 * source check security/tenant-joins.test.ts holds the queries to the same tables.
 */
describe('catalog lint: distributable by tenant (issue 30 point 5)', () => {
  it('the tables the queries are typed against (db/types.ts, DB) are the catalog’s, so the source check reads the same tenant tables', async () => {
    const types = readFileSync(new URL('../db/types.ts', import.meta.url), 'utf8');
    const body = /export interface DB \{([\s\S]*?)\n\}/.exec(types)?.[1] ?? '';
    const typed = [...body.matchAll(/^\s+(\w+):/gm)].map((match) => match[1]);
    const { rows } = await sql<{ relname: string }>`
      SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT (c.relname = ANY(${MIGRATION_TABLES}))
    `.execute(db());
    expect(typed.sort()).toEqual(rows.map((row) => row.relname).sort());
  });

  // A reference table is on every node, a tenant's rows on one: a key from the first to the second cannot be checked there.
  it('no global table has a foreign key to a tenant table', async () => {
    const { rows } = await sql<{ key: string }>`
      SELECT c.relname || '.' || k.conname AS key
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class t ON t.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relname = ANY(${[...GLOBAL_TABLES]}) AND t.relname = ANY(${tenantTables})
    `.execute(db());
    expect(rows.map((row) => row.key)).toEqual([]);
  });

  // Deleting a parent must not write NULL or a default into the child's tenant_id: the column that places the row.
  it('every foreign key between tenant tables pairs tenant_id with tenant_id, and none sets its columns to NULL or a default', async () => {
    const { rows } = await sql<{ key: string; columns: string[] | string; targets: string[] | string; action: string }>`
      SELECT c.relname || '.' || k.conname AS key, k.confdeltype AS action,
        ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS columns,
        ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS targets
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class t ON t.oid = k.confrelid
      WHERE k.contype = 'f' AND c.relname = ANY(${tenantTables}) AND t.relname = ANY(${tenantTables})
    `.execute(db());
    expect(rows.length).toBeGreaterThan(0);
    // PGlite's driver may answer arrays as their text form.
    const list = (value: string[] | string) => (Array.isArray(value) ? value : value.replace(/^\{|\}$/g, '').split(','));
    const unpaired = rows.filter((row) => {
      const columns = list(row.columns);
      const targets = list(row.targets);
      return columns.indexOf('tenant_id') !== targets.indexOf('tenant_id') || !columns.includes('tenant_id');
    });
    expect(unpaired.map((row) => row.key)).toEqual([]);
    expect(rows.filter((row) => row.action === 'n' || row.action === 'd').map((row) => row.key)).toEqual([]);
  });

  // A trigger on a distributed table runs on the node holding the row. The access notices tell the
  // app servers that access changed (LISTEN/NOTIFY), which a spread database must do differently
  // (the plan). The document guards of migration 0028 (a journal entry balances; an issued
  // document is frozen) read only rows of the same tenant in co-located tables, so they run on
  // that node unchanged: each is named here, and any other trigger fails this test.
  const DOCUMENT_GUARDS = [
    'invoice_lines.invoice_lines_frozen',
    'invoices.invoices_frozen',
    'journal_lines.journal_lines_balanced',
    'memo_lines.memo_lines_frozen',
    'memos.memos_frozen',
    'voucher_lines.voucher_lines_forward',
    'vouchers.vouchers_forward',
  ];
  it('the only triggers on tenant tables are the access notices and the document guards', async () => {
    const { rows } = await sql<{ trigger: string }>`
      SELECT c.relname || '.' || g.tgname AS trigger
      FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      WHERE NOT g.tgisinternal AND c.relname = ANY(${tenantTables})
    `.execute(db());
    const others = rows.filter((row) => !row.trigger.endsWith('.access_changed')).map((row) => row.trigger);
    expect(others.sort()).toEqual(DOCUMENT_GUARDS);
  });
});

describe('values unique in one tenant can be used in another (item 7)', () => {
  const insertStudent = (tenantId: string, id: string, studentid: string) =>
    withTenant(db(), { tenantId }, (trx) =>
      trx
        .insertInto('students')
        .values({ tenant_id: tenantId, id, studentid, firstname: 'Amina', lastname: 'Nansubuga', form: 'P1' })
        .execute(),
    );
  const insertRole = (tenantId: string, name: string) =>
    withTenant(db(), { tenantId }, (trx) => trx.insertInto('roles').values({ tenant_id: tenantId, id: newId(), name }).execute());

  it('the same student number in A and B; a second one in A is refused', async () => {
    await insertStudent(schoolA.id, newId(), 'ADM-0001');
    await insertStudent(schoolB.id, newId(), 'ADM-0001');
    await expect(insertStudent(schoolA.id, newId(), 'ADM-0001')).rejects.toThrow();
  });

  it('the same row id in A and B (keys are (tenant_id, id))', async () => {
    const id = newId();
    await insertStudent(schoolA.id, id, 'ADM-0002');
    await insertStudent(schoolB.id, id, 'ADM-0002');
    const counts = await Promise.all(
      [schoolA.id, schoolB.id].map((tenantId) =>
        withTenant(db(), { tenantId }, (trx) => trx.selectFrom('students').select('id').where('id', '=', id).execute()),
      ),
    );
    expect(counts.map((rows) => rows.length)).toEqual([1, 1]);
  });

  it('the same role name in A and B, in any case; a second one in A is refused', async () => {
    await insertRole(schoolA.id, 'Prefect');
    await insertRole(schoolB.id, 'PREFECT');
    await expect(insertRole(schoolA.id, 'prefect')).rejects.toThrow();
    // Default roles exist in both tenants under the same names.
    const names = await Promise.all(
      [schoolA.id, schoolB.id].map((tenantId) =>
        withTenant(db(), { tenantId }, (trx) => trx.selectFrom('roles').select('name').where('name', '=', 'teacher').execute()),
      ),
    );
    expect(names.map((rows) => rows.length)).toEqual([1, 1]);
  });

  it('a write for tenant B inside tenant A’s transaction is refused by WITH CHECK', async () => {
    await expect(
      withTenant(db(), { tenantId: schoolA.id }, (trx) =>
        trx
          .insertInto('students')
          .values({ tenant_id: schoolB.id, id: newId(), studentid: 'ADM-X', firstname: 'A', lastname: 'B', form: 'P1' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    const moved = await withTenant(db(), { tenantId: schoolA.id }, (trx) =>
      trx.updateTable('students').set({ tenant_id: schoolB.id }).where('tenant_id', '=', schoolA.id).executeTakeFirst(),
    ).catch((error: Error) => error);
    expect(moved).toBeInstanceOf(Error);
    expect(String(moved)).toMatch(/row-level security/);
  });
});

describe('no tenant set: 0 rows (item 3)', () => {
  it('a plain query outside withTenant sees no row of any tenant table, though rows exist', async () => {
    for (const table of tenantTables) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db());
      expect({ table, n: rows[0]?.n }).toEqual({ table, n: 0 });
    }
    const inA = await withTenant(db(), { tenantId: schoolA.id }, (trx) =>
      trx.selectFrom('students').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    );
    expect(inA.n).toBeGreaterThanOrEqual(4);
  });

  it("an empty tenant setting (set_config to '') also sees 0 rows and cannot write", async () => {
    const result = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT set_config('app.tenant_id', '', true)`.execute(trx);
        return trx.selectFrom('students').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      });
    expect(result.n).toBe(0);
    await expect(
      db()
        .insertInto('students')
        .values({ tenant_id: schoolA.id, id: newId(), studentid: 'NO-TENANT', firstname: 'A', lastname: 'B', form: 'P1' })
        .execute(),
    ).rejects.toThrow(/row-level security/);
  });

  it('after a tenant-A transaction, the next plain query on the same connection sees 0 rows', async () => {
    // The embedded database has exactly one connection; on PostgreSQL see the pool-of-one test.
    await withTenant(db(), { tenantId: schoolA.id, userId: newId() }, async (trx) => {
      const { n } = await trx.selectFrom('students').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      expect(n).toBeGreaterThan(0);
    });
    const { rows } = await sql<{ n: number; tenant: string | null; user: string | null }>`
      SELECT (SELECT count(*)::int FROM students) AS n, current_setting('app.tenant_id', true) AS tenant, current_setting('app.user_id', true) AS user
    `.execute(db());
    expect(rows[0]?.n).toBe(0);
    expect(rows[0]?.tenant ?? '').toBe('');
    expect(rows[0]?.user ?? '').toBe('');
  });

  it.runIf(testDatabaseKind === 'postgres')('on PostgreSQL with a pool of one connection: tenant A, then no tenant -> 0 rows', async () => {
    const pool = new pg.Pool({ connectionString: t.database.appUrl as string, max: 1 });
    const single = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    try {
      const inside = await withTenant(single, { tenantId: schoolA.id }, async (trx) => {
        const { rows } = await sql<{
          pid: number;
          n: number;
        }>`SELECT pg_backend_pid() AS pid, (SELECT count(*)::int FROM students) AS n`.execute(trx);
        return rows[0]!;
      });
      expect(inside.n).toBeGreaterThan(0);
      const { rows } = await sql<{ pid: number; n: number; tenant: string | null }>`
        SELECT pg_backend_pid() AS pid, (SELECT count(*)::int FROM students) AS n, current_setting('app.tenant_id', true) AS tenant
      `.execute(single);
      expect(rows[0]?.pid).toBe(inside.pid);
      expect(rows[0]?.n).toBe(0);
      expect(rows[0]?.tenant ?? '').toBe('');

      // The control: a session-level setting (what the code must never do) would leak to the
      // next query on the connection. This is why the test above can fail.
      await sql`SELECT set_config('app.tenant_id', ${schoolA.id}, false)`.execute(single);
      const leaked = await sql<{ n: number }>`SELECT count(*)::int AS n FROM students`.execute(single);
      expect(leaked.rows[0]?.n).toBeGreaterThan(0);
    } finally {
      await single.destroy();
    }
  });
});
