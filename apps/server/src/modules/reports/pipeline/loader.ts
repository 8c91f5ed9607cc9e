import {
  type GradeBand,
  type GradingInputs,
  type GradingMark,
  type GradingMarkType,
  type GradingSubject,
  isPerPaperForm,
  MAX_REPORT_LEARNERS,
  REPORT_MESSAGES,
  type ReportLevel,
  type ReportScope,
  type ReportType,
  type Term,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../../db/tenant.js';
import { inTenant } from '../../../db/tenant-filter.js';
import { invalid } from '../../../errors.js';
import { type ClassLearner, type ClassTerm, classLearners, classTermKey } from '../../students/class-learners.repository.js';
import { type ReportSettings, readReportSettings } from '../report-settings.repository.js';

/*
 * The grading-inputs loader (issue 25 point 1): everything a scope's grading reads, one query
 * per table whatever the number of classes and terms (a whole school's term, one learner's
 * history), grouped into one set of inputs per class and term. Bounded (the classes and terms,
 * the learners, the marks), tenant-bound through the action's transaction (inTenant and RLS).
 * Only grading's tables: remarks, footers, photos and the like are sources a kind asks for
 * (sources.ts).
 */

/** The most classes-and-terms one load covers: a school's 13 classes over three years' terms is 117. */
export const MAX_SCOPE_CLASS_TERMS = 120;
/** The most marks one load reads: a whole school's term is some 60,000. */
export const MAX_SCOPE_MARKS = 300_000;
/**
 * The most learners (counted once per class and term) one load reads: a class of several streams
 * is bounded by MAX_REPORT_LEARNERS; a whole school's term (the analysis and statistics of all
 * classes), or its term and the one before, by this: a large secondary school's 3,000 learners twice.
 */
export const MAX_SCOPE_LEARNERS = 6_000;

/** The mark type categories a report type covers when no mark type is chosen (null: every one). */
const CATEGORIES_OF: Record<ReportType, readonly string[] | null> = {
  exam: null,
  'pre-primary': null,
  custom: null,
  assesment: ['assesment', 'ca', 'weekly', 'monthly', 'test'],
  'mid term': ['test'],
};

export interface SchoolRow {
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  logo_path: string | null;
  schooltype: string;
}

/** One class in one term, as grading needs it. */
export interface ClassTermInputs extends ClassTerm {
  term: Term;
  level: ReportLevel;
  /** The mark types graded here, in the school's order. */
  markTypes: GradingMarkType[];
  /** The subjects with marks here, in the school's order. */
  subjects: GradingSubject[];
  /** Every learner of the class that term (all streams), by name. */
  learners: ClassLearner[];
  marks: GradingMark[];
  bands: Map<string, GradeBand[]>;
  proportions: Map<string, Map<string, number>>;
}

export interface GradingLoad {
  scope: ReportScope;
  school: SchoolRow;
  settings: ReportSettings;
  /** Every mark type label of the school by id. */
  markTypeLabels: Map<string, string>;
  /** One per class and term of the scope that has learners, in the scope's order (a history: newest first). */
  classes: ClassTermInputs[];
}

/** How a class is graded: PLE in a primary school, UACE in S5 and S6, UCE in the rest of secondary. */
export function reportLevel(schooltype: string, category: ReportType, perPaper: boolean): ReportLevel {
  if (category === 'pre-primary') return 'plain';
  if (schooltype === 'primary') return 'primary';
  return perPaper ? 'alevel' : 'olevel';
}

/** What the shared grader (gradeClass) takes for one class and term. */
export function gradingInputsOf(
  load: GradingLoad,
  inputs: ClassTermInputs,
  extra: Pick<GradingInputs, 'rawmark' | 'initials' | 'subjectComments'>,
): GradingInputs {
  return {
    level: inputs.level,
    rules: load.settings.rules,
    markTypes: inputs.markTypes,
    markTypeLabels: load.markTypeLabels,
    subjects: inputs.subjects,
    bands: inputs.bands,
    proportions: inputs.proportions,
    ...extra,
  };
}

const lowerForms = (keys: readonly ClassTerm[]) => [...new Set(keys.map((key) => key.form.trim().toLowerCase()))];
const anyOf = <T>(values: readonly T[], type: 'text' | 'int') => sql`ANY(${sql.val([...values])}::${sql.raw(type)}[])`;
/** Rows of the scope's classes and terms: classes, terms and years as ANY lists (the class index), exact keys checked after. */
const inClassTerms = (keys: readonly ClassTerm[], alias = '') =>
  sql<boolean>`lower(${sql.ref(`${alias}form`)}) = ${anyOf(lowerForms(keys), 'text')} AND ${sql.ref(`${alias}term`)} = ${anyOf(
    [...new Set(keys.map((key) => key.term))],
    'text',
  )} AND ${sql.ref(`${alias}year`)} = ${anyOf([...new Set(keys.map((key) => key.year))], 'int')}`;

/** The scope's classes and terms: those named, else (a learner's history) wherever its learners have marks, newest first. */
async function classTermsOf(tx: TenantTx, scope: ReportScope): Promise<Array<ClassTerm & { term: Term }>> {
  if (scope.classes.length > 0 && scope.terms.length > 0)
    return scope.classes.flatMap((form) => scope.terms.map((term) => ({ form, term: term.term, year: term.year })));
  if (scope.learners.length === 0) return [];
  const rows = await tx.trx
    .selectFrom('marks')
    .select(['form', 'term', 'year'])
    .distinct()
    .$call(inTenant(tx.tenantId))
    .where('student_id', 'in', scope.learners)
    .where('topic_id', 'is', null)
    .orderBy('year', 'desc')
    .orderBy('term', 'desc')
    .orderBy('form')
    .limit(MAX_SCOPE_CLASS_TERMS + 1)
    .execute();
  const forms = new Set(scope.classes.map((form) => form.trim().toLowerCase()));
  const terms = new Set(scope.terms.map((each) => `${each.term}|${each.year}`));
  return rows
    .filter((row) => forms.size === 0 || forms.has(row.form.trim().toLowerCase()))
    .filter((row) => terms.size === 0 || terms.has(`${row.term}|${row.year}`))
    .map((row) => ({ form: row.form, term: row.term as Term, year: row.year }));
}

/**
 * The classes of a whole school's term (issue 28 point 7: the analysis of "all classes"): every
 * class with marks in one of the scope's terms, in the school's order (P1 .. P7, S1 .. S6), each
 * once whatever the case it was typed in. Bounded as a load is.
 */
export async function classesWithMarks(tx: TenantTx, terms: ReportScope['terms']): Promise<string[]> {
  if (terms.length === 0) return [];
  const rows = await tx.trx
    .selectFrom('marks')
    .select('form')
    .distinct()
    .$call(inTenant(tx.tenantId))
    .where('topic_id', 'is', null)
    .where((where) => where.or(terms.map((each) => where.and([where('term', '=', each.term), where('year', '=', each.year)]))))
    .limit(MAX_SCOPE_CLASS_TERMS + 1)
    .execute();
  const forms = new Map(rows.map((row) => [row.form.trim().toLowerCase(), row.form.trim()]));
  return [...forms.values()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }));
}

/** Adds `row` to the list under `key`. */
function push<K, V>(map: Map<K, V[]>, key: K, row: V) {
  const list = map.get(key);
  if (list) list.push(row);
  else map.set(key, [row]);
}

/**
 * Reads the grading inputs of a scope in the caller's transaction: the school, its settings and
 * mark types, the classes' learners, marks, subjects, grade bands and proportions, one query
 * each. Refuses (422) a scope past the bounds, unknown mark types, and a custom report without
 * mark types. A history scope (learners, no classes named) reads only those learners' marks.
 */
export async function loadGradingInputs(tx: TenantTx, scope: ReportScope): Promise<GradingLoad> {
  const { trx, tenantId } = tx;
  const keys = [...new Map((await classTermsOf(tx, scope)).map((key) => [classTermKey(key), key])).values()];
  if (keys.length > MAX_SCOPE_CLASS_TERMS) throw invalid({ form: [REPORT_MESSAGES.tooManyLearners] });
  const school = await trx
    .selectFrom('tenants')
    .select(['name', 'address', 'phone', 'email', 'logo_path', 'schooltype'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const settings = await readReportSettings(tx);
  const allTypes = await trx
    .selectFrom('mark_types')
    .select(['id', 'label', 'category', 'outof'])
    .$call(inTenant(tenantId))
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
  const markTypeLabels = new Map(allTypes.map((type) => [type.id, type.label]));
  if (scope.markTypeIds.some((id) => !markTypeLabels.has(id))) throw invalid({ marktype_id: [REPORT_MESSAGES.markTypeUnknown] });
  if (scope.markTypeIds.length === 0 && scope.category === 'custom') throw invalid({ marktype_id: [REPORT_MESSAGES.customNeedsMarkTypes] });
  const load: GradingLoad = { scope, school, settings, markTypeLabels, classes: [] };
  if (keys.length === 0) return load;

  const history = scope.classes.length === 0;
  const learners = await classLearners(tx, keys, {
    ...(history ? { ids: scope.learners } : {}),
    // A class (of any number of streams) as one report; many classes and terms each within it, the whole bounded.
    limit: Math.min(MAX_REPORT_LEARNERS * keys.length, MAX_SCOPE_LEARNERS),
  });

  let marksQuery = trx
    .selectFrom('marks')
    .select(['form', 'term', 'year', 'student_id', 'subject_id', 'marktype_id', 'paper'])
    .select([sql<number | null>`mark::float8`.as('mark'), 'absent'])
    .$call(inTenant(tenantId))
    .where(inClassTerms(keys))
    .where('topic_id', 'is', null);
  if (scope.markTypeIds.length > 0) marksQuery = marksQuery.where('marktype_id', 'in', scope.markTypeIds);
  if (history) marksQuery = marksQuery.where('student_id', 'in', scope.learners);
  const markRows = await marksQuery.limit(MAX_SCOPE_MARKS + 1).execute();
  if (markRows.length > MAX_SCOPE_MARKS) throw invalid({ form: [REPORT_MESSAGES.tooManyLearners] });

  const subjectIds = [...new Set(markRows.map((mark) => mark.subject_id))];
  const subjects =
    subjectIds.length === 0
      ? []
      : await trx
          .selectFrom('subjects')
          .select(['id', 'name', 'abbreviation', 'category'])
          .$call(inTenant(tenantId))
          .where('id', 'in', subjectIds)
          .orderBy(sql`position`, (order) => order.asc().nullsLast())
          .orderBy('name')
          .execute();
  const bandRows = await trx
    .selectFrom('grades')
    .select(['form', 'term', 'year', 'subject_id', 'grade', sql<number>`lower::float8`.as('lower'), sql<number>`upper::float8`.as('upper')])
    .$call(inTenant(tenantId))
    .where(inClassTerms(keys))
    .execute();
  const proportionRows = await trx
    .selectFrom('proportions')
    .select(['form', 'term', 'year', 'subject_id', 'marktype_id', sql<number>`percentage::float8`.as('percentage')])
    .$call(inTenant(tenantId))
    .where(inClassTerms(keys))
    .execute();

  // Grouped by class and term; rows of a class and term outside the scope (ANY lists cross) are left out.
  const wanted = new Set(keys.map(classTermKey));
  const learnersOf = new Map<string, ClassLearner[]>();
  for (const learner of learners) push(learnersOf, classTermKey(learner), learner);
  const marksOf = new Map<string, GradingMark[]>();
  for (const row of markRows) {
    const key = classTermKey(row);
    if (wanted.has(key)) push(marksOf, key, { ...row, paper: row.paper ?? 'I' });
  }
  const bandsOf = new Map<string, Map<string, GradeBand[]>>();
  for (const row of bandRows) {
    const key = classTermKey(row);
    if (!wanted.has(key)) continue;
    const bands = bandsOf.get(key) ?? new Map<string, GradeBand[]>();
    push(bands, row.subject_id, { grade: row.grade, lower: row.lower, upper: row.upper });
    bandsOf.set(key, bands);
  }
  const proportionsOf = new Map<string, Map<string, Map<string, number>>>();
  for (const row of proportionRows) {
    const key = classTermKey(row);
    if (!wanted.has(key)) continue;
    const bySubject = proportionsOf.get(key) ?? new Map<string, Map<string, number>>();
    const weights = bySubject.get(row.subject_id) ?? new Map<string, number>();
    weights.set(row.marktype_id, row.percentage);
    bySubject.set(row.subject_id, weights);
    proportionsOf.set(key, bySubject);
  }

  const named = new Set(scope.markTypeIds);
  const categories = CATEGORIES_OF[scope.category];
  for (const key of keys) {
    const id = classTermKey(key);
    const classLearnerRows = learnersOf.get(id) ?? [];
    const classMarks = marksOf.get(id) ?? [];
    if (classLearnerRows.length === 0 && classMarks.length === 0) continue;
    // The mark types chosen, else those of the report type's categories that have marks here.
    const present = new Set(classMarks.map((mark) => mark.marktype_id));
    const markTypes = allTypes
      .filter((type) =>
        named.size > 0 ? named.has(type.id) : present.has(type.id) && (categories === null || categories.includes(type.category)),
      )
      .map((type) => ({ id: type.id, label: type.label, outof: Number(type.outof) || 100 }));
    const graded = new Set(markTypes.map((type) => type.id));
    const marks = classMarks.filter((mark) => graded.has(mark.marktype_id));
    const withMarks = new Set(marks.map((mark) => mark.subject_id));
    load.classes.push({
      ...key,
      level: reportLevel(school.schooltype, scope.category, isPerPaperForm(key.form)),
      markTypes,
      subjects: subjects
        .filter((subject) => withMarks.has(subject.id))
        .map((subject) => ({ id: subject.id, name: subject.name, code: subject.abbreviation, category: subject.category })),
      learners: classLearnerRows,
      marks,
      bands: bandsOf.get(id) ?? new Map(),
      proportions: proportionsOf.get(id) ?? new Map(),
    });
  }
  return load;
}
