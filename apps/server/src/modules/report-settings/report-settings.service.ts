import {
  DEFAULT_GRADING_RULES,
  DEFAULT_REPORT_LAYOUT,
  type GradingRules,
  type GradingRulesAnswer,
  REPORT_MESSAGES,
  type ReportLayout,
  type ReportLayoutAnswer,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { conflict } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { readReportSettings, writeReportSettings } from '../reports/report-settings.repository.js';

/*
 * A school's grading rules and report layout (issue 15 points 1 and 5): read with the guide's
 * defaults beside them, saved whole (already checked by their schemas) only if nobody saved
 * since the version the screen was opened at. The rules and the layout share one version (one
 * row per school), so a save of either moves both on.
 */

export async function gradingRules({ tx }: ActionContext): Promise<GradingRulesAnswer> {
  const { rules, version } = await readReportSettings(tx);
  return { rules, defaults: DEFAULT_GRADING_RULES, version };
}

export async function reportLayout({ tx }: ActionContext): Promise<ReportLayoutAnswer> {
  const { layout, version } = await readReportSettings(tx);
  return { layout, defaults: DEFAULT_REPORT_LAYOUT, version };
}

/**
 * Writes one of the two at `version`, with its audit entry: 409 when the stored version is
 * another (a save since the screen was opened). The write's own condition catches a save that
 * lands between the read and the write (two at once: the second waits, then finds the row moved).
 */
async function save<Key extends 'rules' | 'layout'>(
  tx: TenantTx,
  key: Key,
  value: Key extends 'rules' ? GradingRules : ReportLayout,
  version: number,
): Promise<number> {
  const before = await readReportSettings(tx);
  if (before.version !== version) throw conflict(REPORT_MESSAGES.settingsChanged);
  const saved = await writeReportSettings(tx, { [key]: value }, version);
  if (saved === null) throw conflict(REPORT_MESSAGES.settingsChanged);
  await recordAudit(tx, {
    action: 'update',
    entity: 'report_settings',
    entityId: key === 'rules' ? 'grading_rules' : 'report_layout',
    before: before[key],
    after: value,
  });
  return saved;
}

export async function saveGradingRules(
  { tx }: ActionContext,
  input: { rules: GradingRules; version: number },
): Promise<GradingRulesAnswer> {
  const version = await save(tx, 'rules', input.rules, input.version);
  return { rules: input.rules, defaults: DEFAULT_GRADING_RULES, version };
}

export async function saveReportLayout(
  { tx }: ActionContext,
  input: { layout: ReportLayout; version: number },
): Promise<ReportLayoutAnswer> {
  const version = await save(tx, 'layout', input.layout, input.version);
  return { layout: input.layout, defaults: DEFAULT_REPORT_LAYOUT, version };
}
