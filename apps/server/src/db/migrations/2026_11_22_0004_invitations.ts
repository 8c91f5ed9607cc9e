import { type Kysely, sql } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Invitations (issue 9 point 2): a school adding a person's e-mail no longer attaches that
 * account at once. It invites the account (new or existing) with the roles it chose and hands the
 * person the invitation's code; the person joins with that code (and their own password, chosen
 * then if the account is new), or declines, and only then is a member. The school's own words
 * (the name and e-mail it typed) are kept, never the account's; the code is kept hashed.
 *
 * Also: the published demo administrator is no platform administrator (it administers the demo
 * tenants through their superadmin role), for databases seeded before that was so.
 */
const TABLES_SQL = `
    CREATE TABLE invitations (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL,
      name text NOT NULL,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, user_id)
    );
    CREATE INDEX invitations_user_idx ON invitations (user_id);
    CREATE INDEX invitations_code_idx ON invitations (code_hash);

    CREATE TABLE invitation_roles (
      tenant_id uuid NOT NULL,
      invitation_id uuid NOT NULL,
      role_id uuid NOT NULL,
      PRIMARY KEY (tenant_id, invitation_id, role_id),
      FOREIGN KEY (tenant_id, invitation_id) REFERENCES invitations (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, role_id) REFERENCES roles (tenant_id, id) ON DELETE CASCADE
    );
`;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, ['invitations', 'invitation_roles']);
  // The invited person reads their own invitations in every tenant before accepting one, as
  // they read their own memberships: only while no tenant is set.
  await sql`
    CREATE POLICY invitations_own ON invitations FOR SELECT
      USING (NULLIF(current_setting('app.tenant_id', true), '') IS NULL
        AND user_id = NULLIF(current_setting('app.user_id', true), '')::uuid)
  `.execute(db);
  // Whoever holds an invitation's code (the link the school handed the person) reads that one
  // invitation, signed in or not: the code, not the account, is what lets someone join.
  await sql`
    CREATE POLICY invitations_by_code ON invitations FOR SELECT
      USING (NULLIF(current_setting('app.tenant_id', true), '') IS NULL
        AND code_hash = NULLIF(current_setting('app.invitation_code', true), ''))
  `.execute(db);
  await sql`UPDATE users SET is_admin = false WHERE lower(email) = 'admin@mustard.demo'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['invitations', 'invitation_roles']);
}
