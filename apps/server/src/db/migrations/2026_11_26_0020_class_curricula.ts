import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Which classes are new-curriculum classes (issue 26 point 1; guide new-curriculum.md "Which
 * classes"): a row per class and year that the school set against its default (a secondary
 * school's S1-S4 new, every other class old), and the school's rule on a competency score of 0.
 */
const TABLES_SQL = `
    CREATE TABLE class_curricula (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      form text NOT NULL CHECK (char_length(form) BETWEEN 1 AND 50),
      year integer NOT NULL CHECK (year BETWEEN 2000 AND 2100),
      curriculum text NOT NULL CHECK (curriculum IN ('new', 'old')),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, year, form)
    );
    CREATE TABLE curriculum_settings (
      tenant_id uuid NOT NULL PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      allow_zero boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now()
    )
`;

export const CLASS_CURRICULA_TABLES = ['class_curricula', 'curriculum_settings'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, CLASS_CURRICULA_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, CLASS_CURRICULA_TABLES);
}
