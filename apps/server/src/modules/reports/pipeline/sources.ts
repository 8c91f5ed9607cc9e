import { defaultTermDates, endpointUrl, type ReportModel, type ReportType, studentPhotoEndpoint, TERMS, type Term } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../../db/tenant.js';
import { inTenant } from '../../../db/tenant-filter.js';
import { classTermKey } from '../../students/class-learners.repository.js';
import { type NcClassInputs, readNcInputs, readNcInputsIfNew } from '../nc-inputs.js';
import { type NcCardValues, readNcCard } from '../nc-report/card-sources.js';
import type { ClassTermInputs, GradingLoad } from './loader.js';

/*
 * Sources by name (issue 25 point 3): what a report prints beyond its grading (remarks, subject
 * comments, attendance, footers, teachers' initials, photos, next term's dates, fees balances,
 * the school's badge), each read set-based over the whole scope, and only when a report kind
 * names it: the mark sheet and the comments screens read none of what they never show.
 * `sourceReads` counts each source read, so tests can see what a kind loaded.
 */

export interface RemarkType {
  id: string;
  label: string;
}

/** What each source gives one class and term. */
export interface SourceValues {
  /** The remark types the report prints (a child after its parent) and each learner's remarks by remark type id. */
  remarks: { types: RemarkType[]; written: Map<string, Map<string, string>> };
  /** Each subject comment by `${student_id}|${subject_id}`. */
  subjectComments: Map<string, string>;
  attendance: Map<string, { days: number; total: number }>;
  /** The class's grade keys by stream (null: the class's own). */
  gradeKey: Array<{ stream: string | null; details: string }>;
  /** The report footers of the class and term, in the school's order. */
  footers: Array<{ title: string; text: string }>;
  /** Initials of each subject's teacher by `${subject_id}|${stream}` ('' for a whole-class teacher). */
  initials: Map<string, string>;
  /** Each learner's photo URL by learner id, and the stored file behind each URL (for the renderers). */
  photos: { urls: Map<string, string>; files: Map<string, string> };
  /** The term after this one, its days as the school set them, else the default calendar's. */
  termDates: ReportModel['nextTerm'];
  /** Each learner's fees balance (exact decimal text) by id; a learner without a statement is absent. */
  fees: Map<string, string>;
  /** The stored file of the school's badge. */
  badge: string | null;
  /** The new curriculum's competencies, AOI scores, exam and projects per learner (nc-inputs.ts; refuses an old-curriculum class). */
  newCurriculum: NcClassInputs;
  /**
   * The same inputs of a class on the new curriculum that year, null for a class on the old one
   * (nothing read for it, nothing refused): a kind answering either curriculum (the result analysis).
   */
  newCurriculumIfNew: NcClassInputs | null;
  /** The new-curriculum card's remarks on generic skills and values, and the class's projects with each learner's score and comment (nc-report/card-sources.ts). */
  ncCard: NcCardValues;
}

export type SourceName = keyof SourceValues;
export const SOURCE_NAMES = [
  'remarks',
  'subjectComments',
  'attendance',
  'gradeKey',
  'footers',
  'initials',
  'photos',
  'termDates',
  'fees',
  'badge',
  'newCurriculum',
  'newCurriculumIfNew',
  'ncCard',
] as const satisfies ReadonlyArray<SourceName>;

/** What a kind's sources gave each class and term, by classTermKey: only the sources named. */
export type LoadedSources<Names extends SourceName = SourceName> = Map<string, Pick<SourceValues, Names>>;

type Source<Name extends SourceName> = (tx: TenantTx, load: GradingLoad) => Promise<(inputs: ClassTermInputs) => SourceValues[Name]>;

/**
 * How many times each source has been read since the process started: what a test reads to see a
 * kind load only its own. Counters, so a server printing cards all term holds the same few numbers.
 */
export const sourceReads: Record<SourceName, number> = Object.fromEntries(SOURCE_NAMES.map((name) => [name, 0])) as Record<
  SourceName,
  number
>;

/** The report's comment category: an assessment report's own, every other the exam's. */
const commentCategory = (category: ReportType) => (category === 'assesment' ? 'assesment' : 'exam');

/** The remark categories a report type prints (a custom or pre-primary report prints the exam's). */
const REMARK_CATEGORY_OF: Record<ReportType, string> = {
  assesment: 'assesment',
  exam: 'exam',
  'mid term': 'mid term',
  custom: 'exam',
  'pre-primary': 'exam',
};

const keysOf = (load: GradingLoad) => load.classes;
const anyText = (values: readonly string[]) => sql`ANY(${sql.val([...new Set(values)])}::text[])`;
const anyInt = (values: readonly number[]) => sql`ANY(${sql.val([...new Set(values)])}::int[])`;
/** Rows of the load's classes and terms (ANY lists; grouping by classTermKey keeps only the exact ones). */
const inLoad = (load: GradingLoad, alias = '') => {
  const ref = (column: string) => sql.ref(`${alias}${column}`);
  const keys = keysOf(load);
  return sql<boolean>`lower(${ref('form')}) = ${anyText(keys.map((key) => key.form.trim().toLowerCase()))} AND ${ref('term')} = ${anyText(
    keys.map((key) => key.term),
  )} AND ${ref('year')} = ${anyInt(keys.map((key) => key.year))}`;
};

/** Rows grouped by classTermKey. */
function byClass<Row extends { form: string; term: string; year: number }>(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = classTermKey(row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return groups;
}

const learnerIds = (load: GradingLoad) => {
  const printed = new Set(load.scope.learners);
  return [...new Set(load.classes.flatMap((each) => each.learners.map((learner) => learner.id)))].filter(
    (id) => printed.size === 0 || printed.has(id),
  );
};

/** "Grace Nakato Achieng" -> "G.N.A.": a teacher's initials as a report card prints them. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${part[0]?.toUpperCase() ?? ''}.`)
    .join('');
}

/**
 * The remark types a class's report prints: the active ones of its category offered to the
 * class (no classes named, or the class among them), parents before their children, each in
 * position order.
 */
function remarkTypesFor(rows: ReadonlyArray<{ id: string; label: string; parent_id: string | null; forms: string | null }>, form: string) {
  const wanted = form.toLowerCase();
  const forClass = rows.filter(
    (row) =>
      !row.forms ||
      row.forms
        .split(',')
        .map((each) => each.trim().toLowerCase())
        .includes(wanted),
  );
  const parents = forClass.filter((row) => !row.parent_id || !forClass.some((other) => other.id === row.parent_id));
  return parents.flatMap((parent) => [
    { id: parent.id, label: parent.label },
    ...forClass
      .filter((child) => child.parent_id === parent.id)
      .map((child) => ({ id: child.id, label: `${parent.label}: ${child.label}` })),
  ]);
}

const remarks: Source<'remarks'> = async (tx, load) => {
  const typeRows = await tx.trx
    .selectFrom('remark_types')
    .select(['id', 'label', 'parent_id', 'forms'])
    .$call(inTenant(tx.tenantId))
    .where('active', '=', true)
    .where('category', '=', REMARK_CATEGORY_OF[load.scope.category])
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
  const rows =
    typeRows.length === 0
      ? []
      : await tx.trx
          .selectFrom('remarks')
          .select(['form', 'term', 'year', 'student_id', 'remarktype_id', 'comment'])
          .$call(inTenant(tx.tenantId))
          .where(inLoad(load))
          .where(
            'remarktype_id',
            'in',
            typeRows.map((type) => type.id),
          )
          .execute();
  const written = byClass(rows);
  return (inputs) => {
    const types = remarkTypesFor(typeRows, inputs.form);
    const shown = new Set(types.map((type) => type.id));
    const byLearner = new Map<string, Map<string, string>>();
    for (const row of written.get(classTermKey(inputs)) ?? []) {
      if (!shown.has(row.remarktype_id)) continue;
      const own = byLearner.get(row.student_id) ?? new Map<string, string>();
      own.set(row.remarktype_id, row.comment);
      byLearner.set(row.student_id, own);
    }
    return { types, written: byLearner };
  };
};

const subjectComments: Source<'subjectComments'> = async (tx, load) => {
  const rows = await tx.trx
    .selectFrom('mark_comments')
    .select(['form', 'term', 'year', 'student_id', 'subject_id', 'comment'])
    .$call(inTenant(tx.tenantId))
    .where(inLoad(load))
    .where('kind', '=', 'general')
    .where('category', '=', commentCategory(load.scope.category))
    .execute();
  const groups = byClass(rows);
  return (inputs) => new Map((groups.get(classTermKey(inputs)) ?? []).map((row) => [`${row.student_id}|${row.subject_id}`, row.comment]));
};

const attendance: Source<'attendance'> = async (tx, load) => {
  const rows = await tx.trx
    .selectFrom('attendances')
    .select(['form', 'term', 'year', 'student_id', 'days', 'total_days'])
    .$call(inTenant(tx.tenantId))
    .where(inLoad(load))
    .execute();
  const groups = byClass(rows);
  return (inputs) =>
    new Map((groups.get(classTermKey(inputs)) ?? []).map((row) => [row.student_id, { days: row.days, total: row.total_days }]));
};

const gradeKey: Source<'gradeKey'> = async (tx, load) => {
  const rows = await tx.trx
    .selectFrom('grade_footers')
    .select(['form', 'stream', 'details'])
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`lower(form) = ${anyText(load.classes.map((each) => each.form.trim().toLowerCase()))}`)
    .execute();
  return (inputs) =>
    rows
      .filter((row) => row.form.trim().toLowerCase() === inputs.form.trim().toLowerCase())
      .map((row) => ({ stream: row.stream, details: row.details }));
};

const footers: Source<'footers'> = async (tx, load) => {
  const rows = await tx.trx
    .selectFrom('report_footers')
    .select(['form', 'term', 'year', 'title', 'remarks'])
    .$call(inTenant(tx.tenantId))
    .where(inLoad(load))
    .where('category', '=', commentCategory(load.scope.category))
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('title')
    .execute();
  const groups = byClass(rows);
  return (inputs) => (groups.get(classTermKey(inputs)) ?? []).map((row) => ({ title: row.title, text: row.remarks ?? '' }));
};

const initials: Source<'initials'> = async (tx, load) => {
  const rows = await tx.trx
    .selectFrom('subject_teachers as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.form', 't.term', 't.year', 't.subject_id', 't.stream', 'u.name'])
    .$call(inTenant(tx.tenantId, 't.tenant_id'))
    .where(inLoad(load, 't.'))
    .orderBy('u.name')
    .execute();
  const groups = byClass(rows);
  return (inputs) => {
    const found = new Map<string, string>();
    for (const row of groups.get(classTermKey(inputs)) ?? []) {
      const key = `${row.subject_id}|${row.stream ?? ''}`;
      if (!found.has(key)) found.set(key, initialsOf(row.name));
    }
    return found;
  };
};

// The photos' files are on the learners' rows the loader read: no query.
const photos: Source<'photos'> = async () => (inputs) => {
  const urls = new Map<string, string>();
  const files = new Map<string, string>();
  for (const learner of inputs.learners) {
    if (!learner.photo_path) continue;
    const url = endpointUrl(studentPhotoEndpoint.path, { id: learner.id });
    urls.set(learner.id, url);
    files.set(url, learner.photo_path);
  }
  return { urls, files };
};

/** The term after a term (Term III's is Term I of the next year). */
function nextTermOf(term: Term, year: number): { term: Term; year: number } {
  const index = TERMS.indexOf(term);
  return index < TERMS.length - 1 ? { term: TERMS[index + 1] as Term, year } : { term: 'I', year: year + 1 };
}

const termDates: Source<'termDates'> = async (tx, load) => {
  const next = load.classes.map((each) => nextTermOf(each.term, each.year));
  const rows = await tx.trx
    .selectFrom('term_dates')
    .select(['term', 'year', sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`year = ${anyInt(next.map((each) => each.year))}`)
    .where(sql<boolean>`term = ${anyText(next.map((each) => each.term))}`)
    .execute();
  return (inputs) => {
    const { term, year } = nextTermOf(inputs.term, inputs.year);
    const days = rows.find((row) => row.term === term && row.year === year) ?? defaultTermDates(year).find((each) => each.term === term);
    return days ? { term, year, starts: days.starts, ends: days.ends } : null;
  };
};

const fees: Source<'fees'> = async (tx, load) => {
  const ids = learnerIds(load);
  const rows =
    ids.length === 0
      ? []
      : await tx.trx
          .selectFrom('statement_lines')
          .select(['student_id', sql<string>`sum(CASE WHEN category = 'invoice' THEN amount ELSE -amount END)::text`.as('balance')])
          .$call(inTenant(tx.tenantId))
          .where('student_id', '=', sql<string>`ANY(${sql.val(ids)}::uuid[])`)
          .groupBy('student_id')
          .execute();
  const balances = new Map(rows.map((row) => [row.student_id, row.balance]));
  return () => balances;
};

// The badge's file is on the school's row the loader read: no query.
const badge: Source<'badge'> = async (_tx, load) => () => load.school.logo_path;

const SOURCES: { [Name in SourceName]: Source<Name> } = {
  remarks,
  subjectComments,
  attendance,
  gradeKey,
  footers,
  initials,
  photos,
  termDates,
  fees,
  badge,
  newCurriculum: readNcInputs,
  newCurriculumIfNew: readNcInputsIfNew,
  ncCard: readNcCard,
};

/** Reads the named sources over the load's classes and terms (each once, set-based), in the caller's transaction. */
export async function loadSources<Names extends SourceName>(
  tx: TenantTx,
  load: GradingLoad,
  names: readonly Names[],
): Promise<LoadedSources<Names>> {
  const readers: Array<[Names, (inputs: ClassTermInputs) => unknown]> = [];
  for (const name of [...new Set(names)]) {
    sourceReads[name] += 1;
    readers.push([name, load.classes.length === 0 ? () => null : await (SOURCES[name] as Source<Names>)(tx, load)]);
  }
  const loaded: LoadedSources<Names> = new Map();
  for (const inputs of load.classes)
    loaded.set(classTermKey(inputs), Object.fromEntries(readers.map(([name, read]) => [name, read(inputs)])) as Pick<SourceValues, Names>);
  return loaded;
}
