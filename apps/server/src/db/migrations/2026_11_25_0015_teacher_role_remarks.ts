import { type Kysely, sql } from 'kysely';

/**
 * The default teacher role no longer manages remarks (issue 23 item 8). `manage` on remark
 * lifts every limit on comments: with it every teacher wrote and deleted the head teacher's
 * remarks of every class and recorded attendance. New schools' teacher role enters marks and
 * writes remarks (`create` on mark and on remark): subject comments where they teach, the class
 * teacher's remarks of their classes.
 *
 * Existing schools' teacher roles are changed the same way, but only a role the school left as
 * it was made: named "teacher" and holding exactly the old default, `create` on mark and
 * `manage` on remark, nothing more or less. Roles keep no history of their own, so the
 * permission set is what tells: a school that added or took away any permission of its teacher
 * role chose its rights itself, and keeps them. Each change is in the audit log. Tenant by
 * tenant, because the tables are under forced row-level security even for their owner.
 */
const OLD_DEFAULT = ['create mark', 'manage remark'];
const NEW_DEFAULT = ['create mark', 'create remark'];

export async function up(db: Kysely<any>): Promise<void> {
  const tenants = await sql<{ id: string }>`SELECT id FROM tenants`.execute(db);
  for (const tenant of tenants.rows) {
    await sql`SELECT set_config('app.tenant_id', ${tenant.id}, true)`.execute(db);
    await sql`
      WITH unedited AS (
        SELECT r.tenant_id, r.id, r.name
          FROM roles r
         WHERE lower(r.name) = 'teacher'
           AND ARRAY(SELECT p.action || ' ' || p.subject_class
                       FROM role_permissions p
                      WHERE p.tenant_id = r.tenant_id AND p.role_id = r.id
                      ORDER BY 1) = ARRAY[${sql.join(OLD_DEFAULT)}]::text[]
      ), changed AS (
        UPDATE role_permissions p SET action = 'create'
          FROM unedited u
         WHERE p.tenant_id = u.tenant_id AND p.role_id = u.id AND p.subject_class = 'remark' AND p.action = 'manage'
        RETURNING p.tenant_id, p.role_id, u.name
      )
      INSERT INTO audit_log (tenant_id, id, action, entity, entity_id, before, after)
      SELECT tenant_id, gen_random_uuid(), 'update', 'role', role_id::text,
             jsonb_build_object('name', name, 'permissions', ${JSON.stringify(OLD_DEFAULT)}::jsonb),
             jsonb_build_object('name', name, 'permissions', ${JSON.stringify(NEW_DEFAULT)}::jsonb,
                                'reason', 'default teacher role: the head teacher manages remarks')
        FROM changed
    `.execute(db);
  }
  await sql`SELECT set_config('app.tenant_id', '', true)`.execute(db);
}

/** Data only: the roles changed stay as they are now (a school may have edited them since). */
export async function down(): Promise<void> {}
