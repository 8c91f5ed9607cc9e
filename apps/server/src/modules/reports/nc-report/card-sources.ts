import type { ReportType } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../../db/tenant.js';
import { inTenant } from '../../../db/tenant-filter.js';
import { classTermKey } from '../../students/class-learners.repository.js';
import type { ClassTermInputs, GradingLoad } from '../pipeline/loader.js';

/*
 * What the new-curriculum card prints beside its grading (issue 27 point 2), read as the
 * pipeline's `ncCard` source over the whole load, one query per table: each learner's remark
 * on generic skills and values per subject (subject comments of kind "skill", written on the
 * generic skills screen) and the class's projects of the term with each learner's score and
 * comment. The remark on competency is the `subjectComments` source (kind "general").
 */

export interface NcProjectOfClass {
  id: string;
  title: string;
  subject_id: string;
  subject: string;
  max: number;
  /** Each learner's score (none when not scored) and comment, by learner id. */
  scores: Map<string, { score: number | null; comment: string }>;
}

export interface NcCardValues {
  /** Each remark on generic skills and values by `${student_id}|${subject_id}`. */
  skills: Map<string, string>;
  /** The class's projects of the term, in the order they were made. */
  projects: NcProjectOfClass[];
}

const anyText = (values: readonly string[]) => sql`ANY(${sql.val([...new Set(values)])}::text[])`;
const anyInt = (values: readonly number[]) => sql`ANY(${sql.val([...new Set(values)])}::int[])`;
const lower = (value: string) => value.trim().toLowerCase();
/** The subject comments' category of a report type: an assessment report's own, every other the exam's. */
const commentCategory = (category: ReportType) => (category === 'assesment' ? 'assesment' : 'exam');

/** Reads the load's remarks on generic skills and projects; gives each class and term's. */
export async function readNcCard(tx: TenantTx, load: GradingLoad): Promise<(inputs: ClassTermInputs) => NcCardValues> {
  const keys = load.classes;
  const forms = keys.map((key) => lower(key.form));
  const terms = keys.map((key) => key.term);
  const years = keys.map((key) => key.year);
  const skills = await tx.trx
    .selectFrom('mark_comments')
    .select(['form', 'term', 'year', 'student_id', 'subject_id', 'comment'])
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`lower(form) = ${anyText(forms)} AND term = ${anyText(terms)} AND year = ${anyInt(years)}`)
    .where('kind', '=', 'skill')
    .where('category', '=', commentCategory(load.scope.category))
    .execute();
  const projects = await tx.trx
    .selectFrom('projects as p')
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'p.tenant_id').onRef('s.id', '=', 'p.subject_id'))
    .select([
      'p.id',
      'p.title',
      'p.subject_id',
      's.name as subject',
      'p.form',
      'p.term',
      'p.year',
      sql<number>`p.max_score::float8`.as('max'),
    ])
    .$call(inTenant(tx.tenantId, 'p.tenant_id'))
    .where(sql<boolean>`lower(p.form) = ${anyText(forms)} AND p.term = ${anyText(terms)} AND p.year = ${anyInt(years)}`)
    .orderBy(sql`s.position`, (order) => order.asc().nullsLast())
    .orderBy('s.name')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  const scores =
    projects.length === 0
      ? []
      : await tx.trx
          .selectFrom('project_scores')
          .select(['project_id', 'student_id', sql<number | null>`score::float8`.as('score'), 'comment'])
          .$call(inTenant(tx.tenantId))
          .where(
            'project_id',
            'in',
            projects.map((project) => project.id),
          )
          .execute();
  const scoresOf = new Map<string, Map<string, { score: number | null; comment: string }>>();
  for (const row of scores) {
    const own = scoresOf.get(row.project_id) ?? new Map();
    own.set(row.student_id, { score: row.score, comment: row.comment ?? '' });
    scoresOf.set(row.project_id, own);
  }
  return (inputs) => {
    const key = classTermKey(inputs);
    return {
      skills: new Map(
        skills.filter((row) => classTermKey(row) === key).map((row) => [`${row.student_id}|${row.subject_id}`, row.comment] as const),
      ),
      projects: projects
        .filter((project) => classTermKey(project) === key)
        .map((project) => ({
          id: project.id,
          title: project.title,
          subject_id: project.subject_id,
          subject: project.subject,
          max: Number(project.max) || 10,
          scores: scoresOf.get(project.id) ?? new Map(),
        })),
    };
  };
}
