import type { TerminalReportQuery } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { curriculumSettings } from '../settings/class-curricula.repository.js';
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

/** The most classes and terms the sample looks through for one on the old curriculum. */
const SAMPLE_CLASS_TERMS = 200;

/**
 * Where the school's latest marks of an old-curriculum class are: the class, term and year of
 * its newest marks (by year, then term) outside the new curriculum's classes, and a learner
 * there, for the layout screen's sample card; null without such marks.
 */
export async function latestMarkedLearner(
  tx: TenantTx,
): Promise<{ form: string; term: TerminalReportQuery['term']; year: number; student_id: string } | null> {
  const classTerms = await tx.trx
    .selectFrom('marks')
    .select(['form', 'term', 'year'])
    .$call(inTenant(tx.tenantId))
    .where('topic_id', 'is', null)
    .groupBy(['form', 'term', 'year'])
    .orderBy('year', 'desc')
    .orderBy(sql`CASE term WHEN 'III' THEN 3 WHEN 'II' THEN 2 ELSE 1 END`, 'desc')
    .orderBy('form')
    .limit(SAMPLE_CLASS_TERMS)
    .execute();
  const isNewOf = new Map<number, (form: string) => boolean>();
  for (const where of classTerms) {
    let isNew = isNewOf.get(where.year);
    if (!isNew) {
      isNew = (await curriculumSettings(tx, where.year)).isNew;
      isNewOf.set(where.year, isNew);
    }
    if (isNew(where.form)) continue;
    const row = await tx.trx
      .selectFrom('marks')
      .select('student_id')
      .$call(inTenant(tx.tenantId))
      .where('topic_id', 'is', null)
      .where('form', '=', where.form)
      .where('term', '=', where.term)
      .where('year', '=', where.year)
      .orderBy('student_id')
      .limit(1)
      .executeTakeFirstOrThrow();
    return { form: where.form, term: where.term as TerminalReportQuery['term'], year: where.year, student_id: row.student_id };
  }
  return null;
}
