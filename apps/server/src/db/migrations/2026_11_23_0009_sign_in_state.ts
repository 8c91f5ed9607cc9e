import { type Kysely, sql } from 'kysely';

/**
 * What every signed-in request needs before its own work, read in one round trip when the
 * server's cache misses (plugins/access.ts): the live session and its user, then, for a tenant
 * route, the tenant (by code or id), the user's tenants, the membership and its roles with
 * their permissions. As separate statements that was about ten round trips, most of a request's
 * time on PostgreSQL.
 *
 * SECURITY INVOKER (the default): it runs as the application's role, so row-level security
 * applies exactly as to the statements it replaces. The user's own memberships are read while
 * no tenant is set (the memberships_own policy), then the tenant is set for the membership and
 * roles, each with `set_config(..., true)`: local to the caller's transaction, which for one
 * statement outside a transaction ends with it.
 *
 * Answers JSON: `{ session }` with `session` null when the session is not live (revoked,
 * expired, user disabled); with a tenant asked for, also `member`, null when there is no such
 * tenant or the user is not its member, else `{ tenant, tenants, roles }`.
 */
const SIGN_IN_STATE = sql`
  CREATE FUNCTION mustard_sign_in_state(p_session uuid, p_user uuid, p_code text, p_tenant uuid)
  RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    v_session jsonb;
    v_tenant tenants;
    v_tenants jsonb;
    v_membership uuid;
    v_roles jsonb;
  BEGIN
    SELECT jsonb_build_object(
             'id', u.id, 'name', u.name, 'email', u.email, 'path', u.path, 'is_admin', u.is_admin,
             'session_id', s.id, 'expires_at', s.expires_at)
      INTO v_session
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = p_session AND s.user_id = p_user AND s.revoked_at IS NULL
       AND s.expires_at > now() AND u.disabled_at IS NULL;
    IF v_session IS NULL OR (p_code IS NULL AND p_tenant IS NULL) THEN
      RETURN jsonb_build_object('session', v_session);
    END IF;

    PERFORM set_config('app.tenant_id', '', true), set_config('app.user_id', p_user::text, true);
    IF p_tenant IS NOT NULL THEN
      SELECT * INTO v_tenant FROM tenants WHERE id = p_tenant;
    ELSE
      SELECT * INTO v_tenant FROM tenants WHERE lower(tenantcode) = lower(btrim(p_code));
    END IF;
    IF v_tenant.id IS NULL THEN
      RETURN jsonb_build_object('session', v_session, 'member', NULL);
    END IF;

    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'tenantcode', t.tenantcode, 'name', t.name, 'logo_path', t.logo_path,
             'category', t.category, 'schooltype', t.schooltype) ORDER BY t.name, t.id), '[]'::jsonb)
      INTO v_tenants
      FROM memberships m JOIN tenants t ON t.id = m.tenant_id
     WHERE m.user_id = p_user;

    PERFORM set_config('app.tenant_id', v_tenant.id::text, true);
    SELECT id INTO v_membership FROM memberships WHERE tenant_id = v_tenant.id AND user_id = p_user;
    IF v_membership IS NULL THEN
      RETURN jsonb_build_object('session', v_session, 'member', NULL);
    END IF;

    SELECT coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'permissions', (
             SELECT coalesce(jsonb_agg(jsonb_build_object('subject_class', p.subject_class, 'action', p.action)
                      ORDER BY p.subject_class, p.action), '[]'::jsonb)
               FROM role_permissions p
              WHERE p.tenant_id = r.tenant_id AND p.role_id = r.id)) ORDER BY r.name, r.id), '[]'::jsonb)
      INTO v_roles
      FROM membership_roles mr JOIN roles r ON r.tenant_id = mr.tenant_id AND r.id = mr.role_id
     WHERE mr.tenant_id = v_tenant.id AND mr.membership_id = v_membership;

    RETURN jsonb_build_object('session', v_session,
      'member', jsonb_build_object('tenant', to_jsonb(v_tenant), 'tenants', v_tenants, 'roles', v_roles));
  END
  $$
`;

export async function up(db: Kysely<any>): Promise<void> {
  await SIGN_IN_STATE.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS mustard_sign_in_state(uuid, uuid, text, uuid)`.execute(db);
}
