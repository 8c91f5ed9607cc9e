import { type Kysely, sql } from 'kysely';

/**
 * An automatic mark comment belongs to one grade of one category (issue 10 point 10). Grades
 * are matched case-insensitively when comments are chosen, so "p7" beside "P7" made the
 * comment a report shows depend on the order rows came back in. One comment per grade and
 * category, whatever the case.
 *
 * A school that already holds such a pair keeps the comment edited last; the others are
 * removed with an audit entry (their text stays readable there), tenant by tenant because the
 * table is under forced row-level security even for its owner.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const tenants = await sql<{ id: string }>`SELECT id FROM tenants`.execute(db);
  for (const tenant of tenants.rows) {
    await sql`SELECT set_config('app.tenant_id', ${tenant.id}, true)`.execute(db);
    await sql`
      WITH ranked AS (
        SELECT tenant_id, id, row_number() OVER (
                 PARTITION BY tenant_id, category, lower(btrim(score))
                 ORDER BY updated_at DESC, created_at DESC, id) AS rank
          FROM auto_mark_comments
      ), removed AS (
        DELETE FROM auto_mark_comments c USING ranked r
         WHERE c.tenant_id = r.tenant_id AND c.id = r.id AND r.rank > 1
        RETURNING c.*
      )
      INSERT INTO audit_log (tenant_id, id, action, entity, entity_id, before)
      SELECT tenant_id, gen_random_uuid(), 'delete', 'automarkcomments', id::text,
             jsonb_build_object('score', score, 'comment', comment, 'category', category,
                                'reason', 'duplicate grade (case-insensitive)')
        FROM removed
    `.execute(db);
  }
  await sql`SELECT set_config('app.tenant_id', '', true)`.execute(db);
  await sql`CREATE UNIQUE INDEX auto_mark_comments_grade_key ON auto_mark_comments (tenant_id, category, lower(btrim(score)))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS auto_mark_comments_grade_key`.execute(db);
}
