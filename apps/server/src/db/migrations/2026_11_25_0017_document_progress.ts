import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * How far each document being drawn is (issue 25 point 5), kept in the database so any server
 * of a deployment answers the web's "learners done of total", whichever server draws it. One
 * row per document: the school, the user who asked and the token the web made up for it.
 * Written a few times a second at most, pruned once old (documents/progress.ts).
 */
const TABLES_SQL = `
    CREATE TABLE document_progress (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token text NOT NULL CHECK (char_length(token) BETWEEN 1 AND 64),
      done integer NOT NULL CHECK (done >= 0),
      total integer NOT NULL CHECK (total >= 0),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, user_id, token)
    );
    CREATE INDEX document_progress_updated ON document_progress (tenant_id, updated_at)
`;

export const DOCUMENT_PROGRESS_TABLES = ['document_progress'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, DOCUMENT_PROGRESS_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, DOCUMENT_PROGRESS_TABLES);
}
