import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * What a school told the learners' upload its register's columns mean (issue 24 point 2):
 * one row per column heading, as the upload compares headings (lower case, letters and digits
 * only), with the field it fills, or `ignore`. The next register with the same headings
 * imports in one step. `kind` names the upload ('students'), so another sheet's headings may
 * be remembered apart later.
 */
const TABLES_SQL = `
    CREATE TABLE upload_mappings (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('students')),
      header text NOT NULL CHECK (char_length(header) BETWEEN 1 AND 200),
      field text NOT NULL CHECK (char_length(field) BETWEEN 1 AND 40),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, kind, header)
    )
`;

export const UPLOAD_MAPPING_TABLES = ['upload_mappings'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, UPLOAD_MAPPING_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, UPLOAD_MAPPING_TABLES);
}
