import {
  ABSENT,
  type AoiScore,
  competencyScores,
  displayScore,
  type Exact,
  type NcScore,
  printedNumber,
  subjectCompetencyScore,
  toNumber,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { curriculumSettings } from '../settings/class-curricula.repository.js';

/*
 * New-curriculum comments (issue 27 point 3): a class's competency scores as the comments
 * screens show them beside the remarks. The scores are the shared grader's (competencies.ts:
 * a competency's score is the exact mean of its AOIs, a subject's the mean of its scored
 * competencies, the overall the mean of the subject scores); nothing is averaged here, and
 * numbers are rounded for display only.
 */

/** A class in a term: the rows a comments screen reads. */
export interface ClassTermOf {
  form: string;
  term: string;
  year: number;
}

const sameText = (column: string, value: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`;

/** Whether a class is on the new curriculum in a year (the school's choice, else its default). */
export async function isNewCurriculumClass(tx: TenantTx, where: { form: string; year: number }): Promise<boolean> {
  return (await curriculumSettings(tx, where.year)).isNew(where.form);
}

/** The competencies of a subject for a class and term, in the order they were made. */
export async function classTopics(tx: TenantTx, where: Pick<ClassTermOf, 'form' | 'term'>, subjectId: string) {
  return tx.trx
    .selectFrom('topics')
    .select(['id', 'title'])
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', subjectId)
    .where(sameText('form', where.form))
    .where('term', '=', where.term)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One AOI of a class's learner: a mark carrying a competency. */
export interface ClassAoi extends AoiScore {
  student_id: string;
  subject_id: string;
  subject: string;
}

/** The AOI scores of a class in a term (one subject, or every one), competencies in the order they were made. */
export async function classAois(tx: TenantTx, where: ClassTermOf, subjectId: string | null): Promise<ClassAoi[]> {
  let query = tx.trx
    .selectFrom('marks as m')
    .innerJoin('topics as c', (join) => join.onRef('c.tenant_id', '=', 'm.tenant_id').onRef('c.id', '=', 'm.topic_id'))
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
    .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
    .select([
      'm.student_id',
      'm.subject_id',
      's.name as subject',
      'm.topic_id',
      'm.marktype_id',
      sql<number | null>`m.mark::float8`.as('mark'),
      'm.absent',
    ])
    .$call(inTenant(tx.tenantId, 'm.tenant_id'))
    .where(sameText('m.form', where.form))
    .where('m.term', '=', where.term)
    .where('m.year', '=', where.year);
  if (subjectId !== null) query = query.where('m.subject_id', '=', subjectId);
  const rows = await query
    .orderBy(sql`s.position`, (order) => order.asc().nullsLast())
    .orderBy('s.name')
    .orderBy('c.created_at')
    .orderBy('c.id')
    .orderBy(sql`t.position`, (order) => order.asc().nullsLast())
    .orderBy('t.label')
    .execute();
  return rows.map((row) => ({
    student_id: row.student_id,
    subject_id: row.subject_id,
    subject: row.subject,
    topic_id: row.topic_id as string,
    marktype_id: row.marktype_id,
    value: row.absent ? ABSENT : row.mark,
  }));
}

/** A score as the screens show it: one decimal and the identifier decided on the exact mean. */
const shown = (result: { score: Exact | null; identifier: string | null }): NcScore => ({
  score: displayScore(result.score),
  identifier: result.identifier,
});

/** A learner's scores in one subject: each competency's by id, and the subject's. */
export interface LearnerSubjectScores {
  subject_id: string;
  subject: string;
  competencies: Record<string, NcScore>;
  exact: Exact | null;
  score: NcScore;
}

/** Each learner's scores by subject (in the order the AOIs name the subjects), by learner id. */
export function learnerScores(aois: ReadonlyArray<ClassAoi>): Map<string, LearnerSubjectScores[]> {
  const byLearner = new Map<string, Map<string, { subject: string; aois: AoiScore[] }>>();
  for (const aoi of aois) {
    const subjects = byLearner.get(aoi.student_id) ?? new Map();
    byLearner.set(aoi.student_id, subjects);
    const entry = subjects.get(aoi.subject_id) ?? { subject: aoi.subject, aois: [] };
    subjects.set(aoi.subject_id, entry);
    entry.aois.push(aoi);
  }
  const result = new Map<string, LearnerSubjectScores[]>();
  for (const [studentId, subjects] of byLearner) {
    result.set(
      studentId,
      [...subjects].map(([subjectId, entry]) => {
        const topics = competencyScores(entry.aois);
        const subject = subjectCompetencyScore(topics);
        return {
          subject_id: subjectId,
          subject: entry.subject,
          competencies: Object.fromEntries(topics.map((topic) => [topic.topic_id, shown(topic)])),
          exact: subject.score,
          score: shown(subject),
        };
      }),
    );
  }
  return result;
}

/**
 * A learner's overall score: the mean of their subject scores (subjects without a score left
 * out), shown to one decimal with its identifier; `value` is the exact mean cut to two decimals,
 * which the automatic report comments' bands (two decimals: 1.5 to 2.49, 2.5 to 3) are matched
 * to, so that no mean falls between two bands (2.498 is 2.49, Moderate, as its identifier is).
 */
export function overallScore(subjects: ReadonlyArray<Pick<LearnerSubjectScores, 'exact'>>): NcScore & { value: number | null } {
  const overall = subjectCompetencyScore(subjects.map((subject) => ({ score: subject.exact })));
  const value = toNumber(overall.score);
  return { ...shown(overall), value: value === null ? null : printedNumber(value) };
}
