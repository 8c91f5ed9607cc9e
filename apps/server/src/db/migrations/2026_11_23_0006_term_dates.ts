import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * The school's calendar (issue 10 point 13): the first and last day of each term, per year. A
 * year without rows uses the Ugandan defaults (packages/shared calendar.ts), so only a school
 * whose dates differ stores anything.
 */
const TABLES_SQL = `
    CREATE TABLE term_dates (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      year integer NOT NULL CHECK (year BETWEEN 2000 AND 2100),
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      starts date NOT NULL,
      ends date NOT NULL CHECK (starts <= ends),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, year, term)
    );
`;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, ['term_dates']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ['term_dates']);
}
