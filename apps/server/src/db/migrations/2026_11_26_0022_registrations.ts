import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/*
 * Sign-up (issue 29 point 2). `registrations` keeps the three steps of /register until the
 * address is verified: the person (the password already an argon2id hash), the school or
 * business, a business's starter products and the verification token's sha256 (the token itself
 * only travels in the mail), valid 24 hours and used once. Not tenant data: there is no tenant
 * yet. `products` is a business's list of what it sells, tenant-owned; the sign-up fills it
 * with the starter products chosen, and the business screens will extend it.
 */
const TABLES_SQL = `
    CREATE TABLE registrations (
      id uuid PRIMARY KEY,
      email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
      telephone text NOT NULL CHECK (char_length(telephone) BETWEEN 1 AND 30),
      password_hash text NOT NULL,
      organisation jsonb NOT NULL,
      products jsonb NOT NULL DEFAULT '[]',
      locale text NOT NULL DEFAULT 'en',
      token_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX registrations_token_hash_key ON registrations (token_hash);
    CREATE INDEX registrations_email_idx ON registrations (lower(email), created_at);
    CREATE TABLE products (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 40),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      kind text NOT NULL CHECK (kind IN ('goods', 'service')),
      unit text NOT NULL CHECK (char_length(unit) BETWEEN 1 AND 40),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, code)
    )
`;

export const PRODUCT_TABLES = ['products'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, PRODUCT_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['registrations', ...PRODUCT_TABLES]);
}
