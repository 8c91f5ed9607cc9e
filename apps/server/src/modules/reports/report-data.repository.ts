import type { TerminalReportQuery } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { readKind } from './pipeline/kind.js';
import type { ReportInputs } from './report-model.js';
import { terminalReportInputs, terminalReportKind } from './terminal-report.kind.js';

/*
 * The report cards' reads: a terminal report's inputs through the report pipeline (the scope's
 * grading inputs, pipeline/loader.ts, and the card's sources, pipeline/sources.ts, set-based),
 * and where the school's latest marks are, for the layout screen's sample card.
 */

/** Everything one terminal report reads, for buildReportModel; refuses (422) what cannot make a report. */
export async function loadReportInputs(tx: TenantTx, query: TerminalReportQuery): Promise<ReportInputs> {
  return terminalReportInputs(await readKind(tx, terminalReportKind, query));
}

/**
 * Where the school's latest marks are: the class, term and year of its newest marks (by year,
 * then term) and a learner there, for the layout screen's sample card; null without marks.
 */
export async function latestMarkedLearner(
  tx: TenantTx,
): Promise<{ form: string; term: TerminalReportQuery['term']; year: number; student_id: string } | null> {
  const row = await tx.trx
    .selectFrom('marks')
    .select(['form', 'term', 'year', 'student_id'])
    .$call(inTenant(tx.tenantId))
    .where('topic_id', 'is', null)
    .orderBy('year', 'desc')
    .orderBy(sql`CASE term WHEN 'III' THEN 3 WHEN 'II' THEN 2 ELSE 1 END`, 'desc')
    .orderBy('form')
    .orderBy('student_id')
    .limit(1)
    .executeTakeFirst();
  return row ? { form: row.form, term: row.term as TerminalReportQuery['term'], year: row.year, student_id: row.student_id } : null;
}
