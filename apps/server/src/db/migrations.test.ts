import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';

/**
 * Migrations that change data a school already holds, run over such data. The SQL is the same
 * on both databases, so this runs on the embedded one only.
 */
describe.runIf(process.env.MUSTARD_TEST_DB === 'pglite')('migrations over existing data', () => {
  let db: Kysely<any>;
  const migrator = () => new Migrator({ db, provider: { getMigrations: async () => migrations } });

  beforeAll(async () => {
    db = new Kysely<any>({ dialect: new PGliteDialect({ pglite: await PGlite.create() }) });
  });
  afterAll(() => db?.destroy());

  it('0005: a school holding "p7" beside "P7" keeps the comment edited last; the other is in the audit log', async () => {
    const before = await migrator().migrateTo('2026_11_22_0004_invitations');
    expect(before.error).toBeUndefined();
    const tenant = '00000000-0000-4000-8000-000000000001';
    await sql`INSERT INTO tenants (id, name, tenantcode, category) VALUES (${tenant}, 'Old school', 'OLD', 'School')`.execute(db);
    await sql`SELECT set_config('app.tenant_id', ${tenant}, false)`.execute(db);
    await sql`
      INSERT INTO auto_mark_comments (tenant_id, id, score, comment, category, updated_at) VALUES
        (${tenant}, gen_random_uuid(), 'P7', 'Older words', 'general', now() - interval '2 days'),
        (${tenant}, gen_random_uuid(), 'p7 ', 'Newer words', 'general', now() - interval '1 day'),
        (${tenant}, gen_random_uuid(), 'P7', 'Another category', 'nc skill', now())
    `.execute(db);
    await sql`SELECT set_config('app.tenant_id', '', false)`.execute(db);

    const after = await migrator().migrateToLatest();
    expect(after.error).toBeUndefined();

    await sql`SELECT set_config('app.tenant_id', ${tenant}, false)`.execute(db);
    const kept = await sql<{ comment: string }>`SELECT comment FROM auto_mark_comments ORDER BY comment`.execute(db);
    expect(kept.rows.map((row) => row.comment)).toEqual(['Another category', 'Newer words']);
    const audit = await sql<{ before: { comment: string } }>`SELECT before FROM audit_log WHERE entity = 'automarkcomments'`.execute(db);
    expect(audit.rows.map((row) => row.before.comment)).toEqual(['Older words']);
    const clash = sql`INSERT INTO auto_mark_comments (tenant_id, id, score, comment) VALUES (${tenant}, gen_random_uuid(), 'P7', 'Again')`;
    await expect(clash.execute(db)).rejects.toThrow(/auto_mark_comments_grade_key/);
  });

  it('0015: an unedited default teacher role no longer manages remarks; one a school edited keeps its rights', async () => {
    // A database of its own: the others in this file are already at the latest migration.
    const own = new Kysely<any>({ dialect: new PGliteDialect({ pglite: await PGlite.create() }) });
    try {
      const ownMigrator = new Migrator({ db: own, provider: { getMigrations: async () => migrations } });
      expect((await ownMigrator.migrateTo('2026_11_23_0014_marks_class_index')).error).toBeUndefined();
      const unedited = '00000000-0000-4000-8000-00000000000a';
      const edited = '00000000-0000-4000-8000-00000000000b';
      const grants = async (tenant: string, role: string) => {
        const rows = await sql<{ grant: string }>`
          SELECT p.action || ' ' || p.subject_class AS grant FROM role_permissions p JOIN roles r ON r.tenant_id = p.tenant_id AND r.id = p.role_id
          WHERE r.tenant_id = ${tenant} AND r.name = ${role} ORDER BY 1`.execute(own);
        return rows.rows.map((row) => row.grant);
      };
      for (const [tenant, code, teacher] of [
        [unedited, 'OLDA', ['create mark', 'manage remark']],
        [edited, 'OLDB', ['create mark', 'manage remark', 'read student']],
      ] as const) {
        await sql`INSERT INTO tenants (id, name, tenantcode, category) VALUES (${tenant}, ${code}, ${code}, 'School')`.execute(own);
        await sql`SELECT set_config('app.tenant_id', ${tenant}, false)`.execute(own);
        for (const [name, held] of [
          ['teacher', teacher],
          ['headteacher', ['manage mark', 'manage remark']],
        ] as const) {
          const role = crypto.randomUUID();
          await sql`INSERT INTO roles (tenant_id, id, name) VALUES (${tenant}, ${role}, ${name})`.execute(own);
          for (const grant of held) {
            const [action, subject] = grant.split(' ');
            await sql`INSERT INTO role_permissions (tenant_id, id, role_id, subject_class, action)
                      VALUES (${tenant}, gen_random_uuid(), ${role}, ${subject}, ${action})`.execute(own);
          }
        }
        await sql`SELECT set_config('app.tenant_id', '', false)`.execute(own);
      }

      expect((await ownMigrator.migrateToLatest()).error).toBeUndefined();

      expect(await grants(unedited, 'teacher')).toEqual(['create mark', 'create remark']);
      expect(await grants(edited, 'teacher')).toEqual(['create mark', 'manage remark', 'read student']);
      expect(await grants(unedited, 'headteacher')).toEqual(['manage mark', 'manage remark']);
      // The embedded database's user bypasses row-level security: each tenant is named.
      const audit = await sql<{ tenant_id: string; after: { permissions: string[] } }>`
        SELECT tenant_id, after FROM audit_log WHERE entity = 'role'`.execute(own);
      expect(audit.rows).toEqual([
        { tenant_id: unedited, after: expect.objectContaining({ permissions: ['create mark', 'create remark'] }) },
      ]);
    } finally {
      await own.destroy();
    }
  });

  it('0014: a class’s marks are read through the class index, the class matched in any case', async () => {
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    // The table is small here: forbid the sequential scan so the plan shows what the index can serve.
    await sql`SET enable_seqscan = off`.execute(db);
    const plan = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT student_id, mark FROM marks
      WHERE tenant_id = '00000000-0000-4000-8000-000000000001' AND lower(form) = lower('P7') AND year = 2026 AND term = 'I'
    `.execute(db);
    await sql`RESET enable_seqscan`.execute(db);
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('marks_class_idx');
    expect(text).toMatch(/Index Cond: .*lower\(form\)/);
  });
});
