import { type Kysely, sql } from 'kysely';

/**
 * The foundation: tenants, users and sign-in, roles and permissions, the audit log and the
 * first columns of students. Frozen once landed: later changes are new migrations.
 *
 * Tenant tables: `tenant_id` leads every primary key, unique constraint and foreign key, and
 * row-level security is enabled and forced (docs/ARCHITECTURE.md, "Tenancy").
 */
const TABLES_SQL = `
    CREATE TABLE tenants (
      id uuid PRIMARY KEY,
      tenantcode text NOT NULL,
      name text NOT NULL,
      logo_path text,
      category text NOT NULL DEFAULT 'Retail',
      schooltype text NOT NULL DEFAULT 'primary' CHECK (schooltype IN ('primary', 'secondary')),
      forms text,
      email text,
      address text,
      web text,
      phone text,
      tin text,
      efrist boolean NOT NULL DEFAULT false,
      country text NOT NULL DEFAULT 'Uganda',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX tenants_tenantcode_key ON tenants (lower(tenantcode));

    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text,
      is_admin boolean NOT NULL DEFAULT false,
      path text,
      phone text,
      disabled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));

    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX sessions_user_idx ON sessions (user_id);

    CREATE TABLE one_time_codes (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL UNIQUE,
      purpose text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE auth_events (
      id uuid PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      kind text NOT NULL,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      email text,
      ip text
    );

    CREATE TABLE memberships (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, user_id)
    );
    CREATE INDEX memberships_user_idx ON memberships (user_id);

    CREATE TABLE roles (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX roles_name_key ON roles (tenant_id, lower(name));

    CREATE TABLE role_permissions (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      role_id uuid NOT NULL,
      subject_class text NOT NULL,
      action text NOT NULL,
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, role_id, subject_class, action),
      FOREIGN KEY (tenant_id, role_id) REFERENCES roles (tenant_id, id) ON DELETE CASCADE
    );

    CREATE TABLE membership_roles (
      tenant_id uuid NOT NULL,
      membership_id uuid NOT NULL,
      role_id uuid NOT NULL,
      PRIMARY KEY (tenant_id, membership_id, role_id),
      FOREIGN KEY (tenant_id, membership_id) REFERENCES memberships (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, role_id) REFERENCES roles (tenant_id, id) ON DELETE CASCADE
    );

    CREATE TABLE audit_log (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      user_id uuid,
      action text NOT NULL,
      entity text NOT NULL,
      entity_id text,
      before jsonb,
      after jsonb,
      PRIMARY KEY (tenant_id, id)
    );

    CREATE TABLE students (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      studentid text NOT NULL,
      firstname text NOT NULL,
      lastname text NOT NULL,
      othername text,
      gender text CHECK (gender IN ('F', 'M')),
      dob date,
      form text NOT NULL,
      stream text,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'completed')),
      studentcategory_id uuid,
      paymentcode text,
      address text,
      phone text,
      email text,
      house text,
      lin text,
      code text,
      photo_path text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, studentid)
    );
    CREATE INDEX students_form_idx ON students (tenant_id, form, stream);
`;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement at a time: PGlite's extended protocol takes a single statement per query.
  for (const statement of TABLES_SQL.split(/;\s*\n/)
    .map((text) => text.trim())
    .filter(Boolean)) {
    await sql.raw(statement).execute(db);
  }

  for (const table of ['memberships', 'roles', 'role_permissions', 'membership_roles', 'audit_log', 'students']) {
    await enableTenantSecurity(db, table);
  }

  // A user must see their own memberships in every tenant (to list their schools at sign-in)
  // before any tenant is selected; the user id is set per transaction like the tenant. Only
  // while no tenant is set: inside a tenant's transaction, that tenant's rows alone are visible.
  await sql`
    CREATE POLICY memberships_own ON memberships FOR SELECT
      USING (NULLIF(current_setting('app.tenant_id', true), '') IS NULL
        AND user_id = NULLIF(current_setting('app.user_id', true), '')::uuid)
  `.execute(db);
}

/** RLS enabled and forced, one policy: rows of the transaction's tenant only, read and write. */
async function enableTenantSecurity(db: Kysely<any>, table: string): Promise<void> {
  await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE ${sql.table(table)} FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`
    CREATE POLICY tenant_isolation ON ${sql.table(table)}
      USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
      WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'students',
    'audit_log',
    'membership_roles',
    'role_permissions',
    'roles',
    'memberships',
    'auth_events',
    'one_time_codes',
    'sessions',
    'users',
    'tenants',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
