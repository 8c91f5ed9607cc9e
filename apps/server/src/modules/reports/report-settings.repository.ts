import {
  DEFAULT_GRADING_RULES,
  DEFAULT_REPORT_LAYOUT,
  type GradingRules,
  GradingRulesSchema,
  type ReportLayout,
  ReportLayoutSchema,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** A school's grading rules and report layout as the engine and the renderers use them. */
export interface ReportSettings {
  rules: GradingRules;
  layout: ReportLayout;
  /** Rises with every save; 0 when the school has never saved either. */
  version: number;
}

/**
 * Stored JSON read through its schema: what was saved passed the same schema, so a failure means
 * the schema grew stricter since; the default is then used rather than a 500 on every report.
 */
function parsedOr<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
  fallback: T,
): T {
  if (value === null || value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

/** The school's settings, or the guide's defaults for what it has not set. */
export async function readReportSettings(tx: TenantTx): Promise<ReportSettings> {
  const row = await tx.trx
    .selectFrom('report_settings')
    .select(['grading_rules', 'report_layout', 'version'])
    .$call(inTenant(tx.tenantId))
    .executeTakeFirst();
  return {
    rules: parsedOr(GradingRulesSchema, row?.grading_rules, DEFAULT_GRADING_RULES),
    layout: parsedOr(ReportLayoutSchema, row?.report_layout, DEFAULT_REPORT_LAYOUT),
    version: row?.version ?? 0,
  };
}

/**
 * Saves the rules or the layout (already checked by their schemas) if the school's settings are
 * still at `version`; answers the new version, or null when someone saved in between.
 */
export async function writeReportSettings(
  tx: TenantTx,
  change: { rules?: GradingRules; layout?: ReportLayout },
  version: number,
): Promise<number | null> {
  const rules = change.rules === undefined ? undefined : JSON.stringify(change.rules);
  const layout = change.layout === undefined ? undefined : JSON.stringify(change.layout);
  const saved = await sql<{ version: number }>`
    INSERT INTO report_settings (tenant_id, grading_rules, report_layout)
    VALUES (${tx.tenantId}, ${rules ?? null}::jsonb, ${layout ?? null}::jsonb)
    ON CONFLICT (tenant_id) DO UPDATE SET
      grading_rules = coalesce(${rules ?? null}::jsonb, report_settings.grading_rules),
      report_layout = coalesce(${layout ?? null}::jsonb, report_settings.report_layout),
      version = report_settings.version + 1,
      updated_at = now()
    WHERE report_settings.version = ${version}
    RETURNING version
  `.execute(tx.trx);
  return saved.rows[0]?.version ?? null;
}
