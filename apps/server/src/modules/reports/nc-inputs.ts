import { ABSENT, type AoiScore, type MarkValue, type NcSubjectInput, REPORT_MESSAGES, type ReportScope } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { invalid } from '../../errors.js';
import { curriculumSettings } from '../settings/class-curricula.repository.js';
import { classTermKey } from '../students/class-learners.repository.js';
import type { ClassTermInputs, GradingLoad } from './pipeline/loader.js';

/*
 * The new curriculum's inputs (issue 27): what the new-curriculum grader (shared
 * gradeNcLearner) reads for each learner of a class and term, per subject: the class's
 * competencies of the subject that term, the learner's activity-of-integration scores (marks
 * carrying a competency), the summative exam (the learner's mark of the scope's mark type,
 * without a competency, out of its maximum) and the subject's project score (mode B, the
 * certificate preview). One query per table over the whole load; the card and the mark sheet
 * both read it as the `newCurriculum` source. Nothing is graded here.
 */

/** A subject of a new-curriculum class, in the school's order. */
export interface NcSubject {
  id: string;
  name: string;
  code: string | null;
  compulsory: boolean;
}

/** One class and term's new-curriculum inputs. */
export interface NcClassInputs {
  /** The summative mark type (the scope's first), or none chosen. */
  exam: { id: string; label: string; outof: number } | null;
  /** The subjects with a competency, a score, an exam mark or a project here, in the school's order. */
  subjects: NcSubject[];
  /** Each learner's subjects (every subject of the class, in order) by learner id. */
  learners: Map<string, NcSubjectInput[]>;
}

/**
 * Refuses (422 on `form`) a new-curriculum report of a class that is on the old curriculum in
 * one of the scope's years: its card and mark sheet are the terminal report's.
 */
export async function refuseOldCurriculumClasses(tx: TenantTx, scope: ReportScope): Promise<void> {
  if (scope.classes.length === 0) return;
  for (const year of new Set(scope.terms.map((term) => term.year))) {
    const { isNew } = await curriculumSettings(tx, year);
    if (scope.classes.some((form) => !isNew(form))) throw invalid({ form: [REPORT_MESSAGES.oldCurriculumClass] });
  }
}

const lower = (value: string) => value.trim().toLowerCase();
const anyText = (values: readonly string[]) => sql`ANY(${sql.val([...new Set(values)])}::text[])`;
const anyInt = (values: readonly number[]) => sql`ANY(${sql.val([...new Set(values)])}::int[])`;

/** Adds `row` to the list under `key`. */
function push<K, V>(map: Map<K, V[]>, key: K, row: V) {
  const list = map.get(key);
  if (list) list.push(row);
  else map.set(key, [row]);
}

/**
 * Reads the new-curriculum inputs of a load's classes and terms in the caller's transaction
 * (refusing an old-curriculum class first), and gives each class and term's.
 */
export async function readNcInputs(tx: TenantTx, load: GradingLoad): Promise<(inputs: ClassTermInputs) => NcClassInputs> {
  await refuseOldCurriculumClasses(tx, load.scope);
  return readInputs(tx, load);
}

/**
 * The new-curriculum inputs of a load's classes that are on the new curriculum that year, null
 * for a class on the old curriculum (nothing read for it): the source of a kind that answers a
 * class of either curriculum (the result analysis), which its build tells apart by it.
 */
export async function readNcInputsIfNew(tx: TenantTx, load: GradingLoad): Promise<(inputs: ClassTermInputs) => NcClassInputs | null> {
  const isNewIn = new Map<number, (form: string) => boolean>();
  for (const year of new Set(load.classes.map((inputs) => inputs.year))) isNewIn.set(year, (await curriculumSettings(tx, year)).isNew);
  const isNew = (inputs: ClassTermInputs) => isNewIn.get(inputs.year)?.(inputs.form) ?? false;
  const classes = load.classes.filter(isNew);
  if (classes.length === 0) return () => null;
  const read = await readInputs(tx, { ...load, classes });
  return (inputs) => (isNew(inputs) ? read(inputs) : null);
}

/** Reads the new-curriculum inputs of the load's classes and terms (no curriculum checked here). */
async function readInputs(tx: TenantTx, load: GradingLoad): Promise<(inputs: ClassTermInputs) => NcClassInputs> {
  const { trx, tenantId } = tx;
  const keys = load.classes;
  const examId = load.scope.markTypeIds[0] ?? null;
  if (keys.length === 0) return () => ({ exam: null, subjects: [], learners: new Map() });
  const forms = keys.map((key) => lower(key.form));
  const terms = keys.map((key) => key.term);
  const years = keys.map((key) => key.year);

  const topics = await trx
    .selectFrom('topics')
    .select(['id', 'subject_id', 'form', 'term', 'title'])
    .$call(inTenant(tenantId))
    .where(sql<boolean>`lower(form) = ${anyText(forms)}`)
    .where(sql<boolean>`term = ${anyText(terms)}`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const aois = await trx
    .selectFrom('marks as m')
    .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
    .select(['m.form', 'm.term', 'm.year', 'm.student_id', 'm.subject_id', 'm.topic_id', 'm.marktype_id', 'm.absent'])
    .select(sql<number | null>`m.mark::float8`.as('mark'))
    .$call(inTenant(tenantId, 'm.tenant_id'))
    .where(sql<boolean>`lower(m.form) = ${anyText(forms)}`)
    .where(sql<boolean>`m.term = ${anyText(terms)}`)
    .where(sql<boolean>`m.year = ${anyInt(years)}`)
    .where('m.topic_id', 'is not', null)
    .orderBy(sql`t.position`, (order) => order.asc().nullsLast())
    .orderBy('t.label')
    .execute();
  const projects = await trx
    .selectFrom('projects')
    .select(['id', 'subject_id', 'form', 'term', 'year', sql<number>`max_score::float8`.as('max')])
    .$call(inTenant(tenantId))
    .where(sql<boolean>`lower(form) = ${anyText(forms)}`)
    .where(sql<boolean>`term = ${anyText(terms)}`)
    .where(sql<boolean>`year = ${anyInt(years)}`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const projectScores =
    projects.length === 0
      ? []
      : await trx
          .selectFrom('project_scores')
          .select(['project_id', 'student_id', sql<number | null>`score::float8`.as('score')])
          .$call(inTenant(tenantId))
          .where(
            'project_id',
            'in',
            projects.map((project) => project.id),
          )
          .execute();
  const examType = examId ? load.classes.flatMap((inputs) => inputs.markTypes).find((type) => type.id === examId) : undefined;
  const subjectIds = new Set<string>([
    ...topics.map((topic) => topic.subject_id),
    ...aois.map((aoi) => aoi.subject_id),
    ...projects.map((project) => project.subject_id),
    ...load.classes.flatMap((inputs) => inputs.marks.filter((mark) => mark.marktype_id === examId).map((mark) => mark.subject_id)),
  ]);
  const subjectRows =
    subjectIds.size === 0
      ? []
      : await trx
          .selectFrom('subjects')
          .select(['id', 'name', 'abbreviation', 'category'])
          .$call(inTenant(tenantId))
          .where('id', 'in', [...subjectIds])
          .orderBy(sql`position`, (order) => order.asc().nullsLast())
          .orderBy('name')
          .execute();

  // Grouped by class (and term): topics have no year, the rest by class and term.
  const wanted = new Set(keys.map(classTermKey));
  const topicsOf = new Map<string, typeof topics>();
  for (const topic of topics) push(topicsOf, `${lower(topic.form)}|${topic.term}|${topic.subject_id}`, topic);
  const aoisOf = new Map<string, AoiScore[]>();
  const subjectsWith = new Map<string, Set<string>>();
  const mark = (key: string, subjectId: string) => {
    const set = subjectsWith.get(key) ?? new Set<string>();
    set.add(subjectId);
    subjectsWith.set(key, set);
  };
  for (const aoi of aois) {
    const key = classTermKey(aoi);
    if (!wanted.has(key)) continue;
    mark(key, aoi.subject_id);
    push(aoisOf, `${key}|${aoi.student_id}|${aoi.subject_id}`, {
      topic_id: aoi.topic_id as string,
      marktype_id: aoi.marktype_id,
      value: aoi.absent ? ABSENT : aoi.mark,
    });
  }
  const projectOf = new Map<string, (typeof projects)[number]>();
  for (const project of projects) {
    const key = classTermKey(project);
    if (!wanted.has(key)) continue;
    mark(key, project.subject_id);
    const at = `${key}|${project.subject_id}`;
    if (!projectOf.has(at)) projectOf.set(at, project);
  }
  const projectScoreOf = new Map(projectScores.map((row) => [`${row.project_id}|${row.student_id}`, row.score]));

  return (inputs) => {
    const key = classTermKey(inputs);
    const exams = new Map<string, MarkValue>();
    for (const row of inputs.marks) {
      if (row.marktype_id !== examId) continue;
      mark(key, row.subject_id);
      const at = `${row.student_id}|${row.subject_id}`;
      // A subject of several papers: the first paper with a mark (S1-S4 sit one paper a subject).
      if (exams.get(at) === undefined || exams.get(at) === null) exams.set(at, row.absent ? ABSENT : row.mark);
    }
    for (const topic of topics) if (lower(topic.form) === lower(inputs.form) && topic.term === inputs.term) mark(key, topic.subject_id);
    const present = subjectsWith.get(key) ?? new Set<string>();
    const subjects: NcSubject[] = subjectRows
      .filter((row) => present.has(row.id))
      .map((row) => ({ id: row.id, name: row.name, code: row.abbreviation, compulsory: lower(row.category) === 'compulsory' }));
    const learners = new Map<string, NcSubjectInput[]>();
    for (const learner of inputs.learners) {
      learners.set(
        learner.id,
        subjects.map((subject) => {
          const project = projectOf.get(`${key}|${subject.id}`);
          const examMark = exams.get(`${learner.id}|${subject.id}`);
          return {
            subject_id: subject.id,
            subject: subject.name,
            compulsory: subject.compulsory,
            topics: (topicsOf.get(`${lower(inputs.form)}|${inputs.term}|${subject.id}`) ?? []).map((topic) => ({
              topic_id: topic.id,
              title: topic.title,
            })),
            aois: aoisOf.get(`${key}|${learner.id}|${subject.id}`) ?? [],
            exam: examType ? { mark: examMark ?? null, outof: examType.outof } : null,
            project: project ? { score: projectScoreOf.get(`${project.id}|${learner.id}`) ?? null, max: Number(project.max) || 10 } : null,
            // The class and subject's grade set: its A..E table when its grades are the school's letters.
            gradeSet: inputs.bands.get(subject.id) ?? [],
          };
        }),
      );
    }
    return { exam: examType ? { id: examType.id, label: examType.label, outof: examType.outof } : null, subjects, learners };
  };
}
