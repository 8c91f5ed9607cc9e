import type { Kysely } from 'kysely';
import { dropTables, runStatements } from './tenant-tables.js';

/**
 * External sign-in over OpenID Connect (issue 29 point 6): which e-mail domains sign in at
 * their organisation's provider (a school's Google Workspace or Microsoft Entra tenant), and
 * the sign-ins under way. Platform tables: a domain is set by a platform administrator and read
 * before anyone has chosen a school, so no row belongs to a tenant.
 *
 * `client_secret_sealed` is the provider's client secret encrypted with AES-256-GCM under the
 * server's secrets key (auth/secret-box.ts): a copy of the database alone does not give it away.
 * A sign-in under way is found by the hash of its `state` (the browser carries the state
 * itself), holds the nonce and PKCE verifier its callback must present, lives ten minutes at
 * most and is used once; removing the domain removes its sign-ins under way.
 */
const TABLES_SQL = `
    CREATE TABLE external_signin_providers (
      domain text PRIMARY KEY CHECK (domain = lower(domain) AND char_length(domain) BETWEEN 3 AND 253),
      issuer text NOT NULL CHECK (char_length(issuer) BETWEEN 8 AND 500),
      client_id text NOT NULL CHECK (char_length(client_id) BETWEEN 1 AND 500),
      client_secret_sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE external_signin_attempts (
      state_hash text PRIMARY KEY,
      domain text NOT NULL REFERENCES external_signin_providers (domain) ON DELETE CASCADE,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (expires_at <= created_at + interval '10 minutes')
    );
    CREATE INDEX external_signin_attempts_expiry ON external_signin_attempts (expires_at);
    CREATE INDEX external_signin_attempts_domain ON external_signin_attempts (domain)
`;

export const EXTERNAL_SIGNIN_TABLES = ['external_signin_providers', 'external_signin_attempts'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, EXTERNAL_SIGNIN_TABLES);
}
