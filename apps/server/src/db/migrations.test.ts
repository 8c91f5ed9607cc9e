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
