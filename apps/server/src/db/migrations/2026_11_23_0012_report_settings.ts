import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Report cards (issue 15): a school's grading rules and report layout, one row per school, each
 * a JSON document checked by its schema in packages/shared before it is saved (GradingRulesSchema,
 * ReportLayoutSchema). A school without a row, or without one of the two, uses the guide's
 * defaults; `version` lets two people editing at once learn of each other instead of one
 * silently losing the other's change.
 */
const TABLES_SQL = `
    CREATE TABLE report_settings (
      tenant_id uuid NOT NULL PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      grading_rules jsonb,
      report_layout jsonb,
      version integer NOT NULL DEFAULT 1,
      updated_at timestamptz NOT NULL DEFAULT now()
    )
`;

export const REPORT_SETTINGS_TABLES = ['report_settings'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, REPORT_SETTINGS_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, REPORT_SETTINGS_TABLES);
}
