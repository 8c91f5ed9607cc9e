import {
  defaultTermDates,
  endpointUrl,
  type GradeBand,
  isPerPaperForm,
  MAX_REPORT_LEARNERS,
  REPORT_MESSAGES,
  type ReportType,
  schoolLogoEndpoint,
  studentPhotoEndpoint,
  TERMS,
  type TerminalReportQuery,
} from '@mustard/shared';
import { sql } from 'kysely';
import { byLearnerName } from '../../db/learner-order.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { invalid } from '../../errors.js';
import type { ReportInputs, ReportLearnerRow, ReportMarkType } from './report-model.js';
import { reportLevel } from './report-model.js';
import { readReportSettings } from './report-settings.repository.js';

/*
 * The report model's database shell: the rows of one class, term and year in a dozen small
 * queries (each bounded by the class), handed to the pure core (report-model.ts). Nothing here
 * grades or ranks.
 */

/** The mark type categories a report type covers when the person chooses no mark type. */
const CATEGORIES_OF: Record<ReportType, readonly string[] | null> = {
  exam: null,
  'pre-primary': null,
  custom: null,
  assesment: ['assesment', 'ca', 'weekly', 'monthly', 'test'],
  'mid term': ['test'],
};

const sameText = (column: string, value: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`;

/** "Grace Nakato Achieng" -> "G.N.A.": a teacher's initials as a report card prints them. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => `${part[0]?.toUpperCase() ?? ''}.`)
    .join('');
}

/** The mark types of the report: those chosen, else those of the report type's categories with marks. */
async function chosenMarkTypes(
  tx: TenantTx,
  query: TerminalReportQuery,
): Promise<{ chosen: ReportMarkType[]; labels: Map<string, string> }> {
  const all = await tx.trx
    .selectFrom('mark_types')
    .select(['id', 'label', 'category', 'status', 'outof'])
    .$call(inTenant(tx.tenantId))
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
  const labels = new Map(all.map((type) => [type.id, type.label]));
  const ids = [...(query.marktype_ids ?? []), ...(query['marktype_ids[]'] ?? []), ...(query.marktype_id ? [query.marktype_id] : [])];
  if (ids.length > 0) {
    const unknown = ids.filter((id) => !labels.has(id));
    if (unknown.length > 0) throw invalid({ marktype_id: [REPORT_MESSAGES.markTypeUnknown] });
    const wanted = new Set(ids);
    return { chosen: all.filter((type) => wanted.has(type.id)).map(toMarkType), labels };
  }
  if (query.category === 'custom') throw invalid({ marktype_id: [REPORT_MESSAGES.customNeedsMarkTypes] });
  const withMarks = await tx.trx
    .selectFrom('marks')
    .select('marktype_id')
    .distinct()
    .$call(inTenant(tx.tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .where('topic_id', 'is', null)
    .execute();
  const present = new Set(withMarks.map((row) => row.marktype_id));
  const categories = CATEGORIES_OF[query.category];
  return {
    chosen: all.filter((type) => present.has(type.id) && (categories === null || categories.includes(type.category))).map(toMarkType),
    labels,
  };
}

const toMarkType = (type: { id: string; label: string; outof: number }): ReportMarkType => ({
  id: type.id,
  label: type.label,
  outof: Number(type.outof) || 100,
});

/**
 * The class's learners: those in the class now (active) and those with marks in it for the
 * term (a learner promoted since still gets the term's card). A learner's stream is their
 * current one while they are in the class, else the stream their marks were entered under.
 */
async function classLearners(
  tx: TenantTx,
  query: TerminalReportQuery,
): Promise<{ learners: ReportLearnerRow[]; photoFiles: Map<string, string> }> {
  const rows = await tx.trx
    .selectFrom('students as s')
    .select(['s.id', 's.studentid', 's.firstname', 's.othername', 's.lastname', 's.gender', 's.lin', 's.form', 's.stream', 's.photo_path'])
    .select((eb) =>
      eb
        .selectFrom('marks as m')
        .select('m.stream')
        .whereRef('m.tenant_id', '=', 's.tenant_id')
        .whereRef('m.student_id', '=', 's.id')
        .where(sameText('m.form', query.form))
        .where('m.term', '=', query.term)
        .where('m.year', '=', query.year)
        .limit(1)
        .as('marks_stream'),
    )
    .$call(inTenant(tx.tenantId, 's.tenant_id'))
    .where((eb) =>
      eb.or([
        eb.and([sameText('s.form', query.form), eb('s.status', '=', 'active')]),
        eb.exists(
          eb
            .selectFrom('marks as m')
            .select(sql`1`.as('one'))
            .whereRef('m.tenant_id', '=', 's.tenant_id')
            .whereRef('m.student_id', '=', 's.id')
            .where(sameText('m.form', query.form))
            .where('m.term', '=', query.term)
            .where('m.year', '=', query.year),
        ),
      ]),
    )
    .$call(byLearnerName('s'))
    .limit(MAX_REPORT_LEARNERS + 1)
    .execute();
  if (rows.length > MAX_REPORT_LEARNERS) throw invalid({ form: [REPORT_MESSAGES.tooManyLearners] });
  const photoFiles = new Map<string, string>();
  const learners = rows.map((row) => {
    const photo = row.photo_path ? endpointUrl(studentPhotoEndpoint.path, { id: row.id }) : null;
    if (photo && row.photo_path) photoFiles.set(photo, row.photo_path);
    const inClassNow = row.form.toLowerCase() === query.form.toLowerCase();
    return {
      id: row.id,
      studentid: row.studentid,
      fullname: [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
      gender: row.gender,
      lin: row.lin?.trim() || null,
      form: query.form,
      stream: (inClassNow ? row.stream : (row.marks_stream ?? row.stream)) ?? null,
      photo,
    };
  });
  return { learners, photoFiles };
}

/** Which of the class's learners get a card: one learner, or the stream's and category's. */
async function printedLearners(tx: TenantTx, query: TerminalReportQuery, learners: ReportLearnerRow[]): Promise<Set<string> | null> {
  if (query.student_id) {
    if (!learners.some((learner) => learner.id === query.student_id)) throw invalid({ student_id: [REPORT_MESSAGES.learnerUnknown] });
    return new Set([query.student_id]);
  }
  let printed = query.stream
    ? learners.filter((learner) => (learner.stream ?? '').toLowerCase() === query.stream?.toLowerCase())
    : learners;
  if (query.studentcategory_id) {
    const inCategory = await tx.trx
      .selectFrom('students')
      .select('id')
      .$call(inTenant(tx.tenantId))
      .where('studentcategory_id', '=', query.studentcategory_id)
      .where(
        'id',
        'in',
        printed.map((learner) => learner.id),
      )
      .execute();
    const ids = new Set(inCategory.map((row) => row.id));
    printed = printed.filter((learner) => ids.has(learner.id));
  }
  if (printed.length === 0) throw invalid({ stream: [REPORT_MESSAGES.noLearners] });
  return query.stream || query.studentcategory_id ? new Set(printed.map((learner) => learner.id)) : null;
}

/** The term after the report's (Term III's is Term I of the next year), its days as the school set them, else the default calendar's. */
async function nextTermOf(tx: TenantTx, query: TerminalReportQuery): Promise<ReportInputs['nextTerm']> {
  const index = TERMS.indexOf(query.term);
  const term = index < TERMS.length - 1 ? (TERMS[index + 1] as TerminalReportQuery['term']) : 'I';
  const year = index < TERMS.length - 1 ? query.year : query.year + 1;
  const set = await tx.trx
    .selectFrom('term_dates')
    .select([sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tx.tenantId))
    .where('year', '=', year)
    .where('term', '=', term)
    .executeTakeFirst();
  const days = set ?? defaultTermDates(year).find((each) => each.term === term);
  return days ? { term, year, starts: days.starts, ends: days.ends } : null;
}

/** What each printed learner owes by their fees statement (invoices less receipts, exact), for those with one. */
async function feesBalances(tx: TenantTx, learnerIds: readonly string[]): Promise<Map<string, string>> {
  if (learnerIds.length === 0) return new Map();
  const rows = await tx.trx
    .selectFrom('statement_lines')
    .select(['student_id', sql<string>`sum(CASE WHEN category = 'invoice' THEN amount ELSE -amount END)::text`.as('balance')])
    .$call(inTenant(tx.tenantId))
    .where('student_id', '=', sql<string>`ANY(${sql.val([...learnerIds])}::uuid[])`)
    .groupBy('student_id')
    .execute();
  return new Map(rows.map((row) => [row.student_id, row.balance]));
}

/** Everything one report request reads, for buildReportModel; refuses (422) what cannot make a report. */
export async function loadReportInputs(tx: TenantTx, query: TerminalReportQuery): Promise<ReportInputs> {
  const { trx, tenantId } = tx;
  const school = await trx
    .selectFrom('tenants')
    .select(['name', 'address', 'phone', 'email', 'logo_path', 'schooltype'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const settings = await readReportSettings(tx);
  const { chosen, labels } = await chosenMarkTypes(tx, query);
  const { learners, photoFiles } = await classLearners(tx, query);
  if (learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const printed = await printedLearners(tx, query, learners);

  const markRows =
    chosen.length === 0
      ? []
      : await trx
          .selectFrom('marks')
          .select(['student_id', 'subject_id', 'marktype_id', 'paper', sql<number | null>`mark::float8`.as('mark'), 'absent'])
          .$call(inTenant(tenantId))
          .where(sameText('form', query.form))
          .where('term', '=', query.term)
          .where('year', '=', query.year)
          .where('topic_id', 'is', null)
          .where(
            'marktype_id',
            'in',
            chosen.map((type) => type.id),
          )
          .execute();
  const printedMarks = printed === null ? markRows : markRows.filter((mark) => printed.has(mark.student_id));
  if (printedMarks.length === 0) throw invalid({ marktype_id: [REPORT_MESSAGES.noMarks] });

  const subjectIds = [...new Set(markRows.map((mark) => mark.subject_id))];
  const subjects = await trx
    .selectFrom('subjects')
    .select(['id', 'name', 'abbreviation', 'category'])
    .$call(inTenant(tenantId))
    .where('id', 'in', subjectIds)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('name')
    .execute();

  const bandRows = await trx
    .selectFrom('grades')
    .select(['subject_id', 'grade', sql<number>`lower::float8`.as('lower'), sql<number>`upper::float8`.as('upper')])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .execute();
  const bands = new Map<string, GradeBand[]>();
  for (const band of bandRows) bands.set(band.subject_id, [...(bands.get(band.subject_id) ?? []), band]);

  const proportionRows = await trx
    .selectFrom('proportions')
    .select(['subject_id', 'marktype_id', sql<number>`percentage::float8`.as('percentage')])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .execute();
  const proportions = new Map<string, Map<string, number>>();
  for (const row of proportionRows) {
    const weights = proportions.get(row.subject_id) ?? new Map<string, number>();
    weights.set(row.marktype_id, row.percentage);
    proportions.set(row.subject_id, weights);
  }

  const teacherRows = await trx
    .selectFrom('subject_teachers as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.subject_id', 't.stream', 'u.name'])
    .$call(inTenant(tenantId, 't.tenant_id'))
    .where(sameText('t.form', query.form))
    .where('t.term', '=', query.term)
    .where('t.year', '=', query.year)
    .orderBy('u.name')
    .execute();
  const initials = new Map<string, string>();
  for (const row of teacherRows) {
    const key = `${row.subject_id}|${row.stream ?? ''}`;
    if (!initials.has(key)) initials.set(key, initialsOf(row.name));
  }

  const attendanceRows = await trx
    .selectFrom('attendances')
    .select(['student_id', 'days', 'total_days'])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .execute();

  const footerRows = await trx
    .selectFrom('grade_footers')
    .select(['stream', 'details'])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .execute();
  const gradeKey =
    footerRows.find((row) => query.stream && (row.stream ?? '').toLowerCase() === query.stream.toLowerCase())?.details ??
    footerRows.find((row) => row.stream === null)?.details ??
    footerRows[0]?.details ??
    null;

  const reportFooters = await trx
    .selectFrom('report_footers')
    .select(['title', 'remarks'])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .where('category', '=', query.category === 'assesment' ? 'assesment' : 'exam')
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('title')
    .execute();

  // What teachers wrote: subject comments of the report's category, remarks of its remark types.
  const commentRows = await trx
    .selectFrom('mark_comments')
    .select(['student_id', 'subject_id', 'comment'])
    .$call(inTenant(tenantId))
    .where(sameText('form', query.form))
    .where('term', '=', query.term)
    .where('year', '=', query.year)
    .where('kind', '=', 'general')
    .where('category', '=', query.category === 'assesment' ? 'assesment' : 'exam')
    .execute();
  const remarkTypes = await reportRemarkTypes(tx, query);
  const remarkRows =
    remarkTypes.length === 0
      ? []
      : await trx
          .selectFrom('remarks')
          .select(['student_id', 'remarktype_id', 'comment'])
          .$call(inTenant(tenantId))
          .where(sameText('form', query.form))
          .where('term', '=', query.term)
          .where('year', '=', query.year)
          .where(
            'remarktype_id',
            'in',
            remarkTypes.map((type) => type.id),
          )
          .execute();
  const remarks = new Map<string, Map<string, string>>();
  for (const row of remarkRows) {
    const own = remarks.get(row.student_id) ?? new Map<string, string>();
    own.set(row.remarktype_id, row.comment);
    remarks.set(row.student_id, own);
  }

  const level = reportLevel(school.schooltype, query.category, isPerPaperForm(query.form));
  return {
    school: {
      name: school.name,
      address: school.address,
      phone: school.phone,
      email: school.email,
      logo: school.logo_path ? endpointUrl(schoolLogoEndpoint.path, {}) : null,
      lines: settings.layout.headerLines,
    },
    report: {
      label: query.label ?? settings.layout.label,
      form: query.form,
      stream: query.stream ?? null,
      term: query.term,
      year: query.year,
      category: query.category,
      level,
      // Raw marks unless the layout chose weighted parts (and the person did not ask for raw ones).
      rawmark: query.rawmark || settings.layout.markValues !== 'weighted',
      separate: query.separate,
    },
    rules: settings.rules,
    layout: settings.layout,
    markTypes: chosen,
    markTypeLabels: labels,
    subjects: subjects.map((subject) => ({ id: subject.id, name: subject.name, code: subject.abbreviation, category: subject.category })),
    learners,
    printed,
    marks: markRows,
    bands,
    proportions,
    initials,
    attendance: new Map(attendanceRows.map((row) => [row.student_id, { days: row.days, total: row.total_days }])),
    gradeKey,
    footers: reportFooters.map((row) => ({ title: row.title, text: row.remarks ?? '' })),
    photoFiles,
    logoFile: school.logo_path,
    nextTerm: await nextTermOf(tx, query),
    feesBalances: await feesBalances(
      tx,
      (printed ? learners.filter((learner) => printed.has(learner.id)) : learners).map((learner) => learner.id),
    ),
    remarkTypes,
    remarks,
    subjectComments: new Map(commentRows.map((row) => [`${row.student_id}|${row.subject_id}`, row.comment])),
  };
}

/** The remark categories a report type prints (a custom or pre-primary report prints the exam's). */
const REMARK_CATEGORY_OF: Record<ReportType, string> = {
  assesment: 'assesment',
  exam: 'exam',
  'mid term': 'mid term',
  custom: 'exam',
  'pre-primary': 'exam',
};

/**
 * The remark types a report prints: the active ones of its category offered to this class (no
 * classes named, or this class among them), parents before their children, each in position order.
 */
async function reportRemarkTypes(tx: TenantTx, query: TerminalReportQuery): Promise<Array<{ id: string; label: string }>> {
  const rows = await tx.trx
    .selectFrom('remark_types')
    .select(['id', 'label', 'parent_id', 'forms', 'position'])
    .$call(inTenant(tx.tenantId))
    .where('active', '=', true)
    .where('category', '=', REMARK_CATEGORY_OF[query.category])
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
  const form = query.form.toLowerCase();
  const forClass = rows.filter(
    (row) =>
      !row.forms ||
      row.forms
        .split(',')
        .map((each) => each.trim().toLowerCase())
        .includes(form),
  );
  const parents = forClass.filter((row) => !row.parent_id || !forClass.some((other) => other.id === row.parent_id));
  return parents.flatMap((parent) => [
    { id: parent.id, label: parent.label },
    ...forClass
      .filter((child) => child.parent_id === parent.id)
      .map((child) => ({ id: child.id, label: `${parent.label}: ${child.label}` })),
  ]);
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
