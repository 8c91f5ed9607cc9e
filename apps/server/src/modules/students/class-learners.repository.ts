import { MAX_REPORT_LEARNERS, REPORT_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import { byLearnerName } from '../../db/learner-order.js';
import type { TenantTx } from '../../db/tenant.js';
import { invalid } from '../../errors.js';

/*
 * The one class-learners query (issue 25 point 8): who is a class's learner in a term, for the
 * report cards, the mark sheet, the comments screens and the marks grid alike, so a learner
 * listed on one is listed on every other. Set-based: many classes and terms in one statement
 * (a whole school's term, or every term of one learner's history).
 *
 * The rule: the learners in the class now (active), and those with marks in it that term (a
 * learner promoted since still gets the term's card). A learner's stream is their current one
 * while they are in the class, else the stream their marks were entered under.
 */

/** A class in a term: what a learner is a learner of. */
export interface ClassTerm {
  form: string;
  term: string;
  year: number;
}

export interface ClassLearner {
  id: string;
  studentid: string;
  firstname: string;
  othername: string | null;
  lastname: string;
  fullname: string;
  gender: 'F' | 'M' | null;
  lin: string | null;
  studentcategory_id: string | null;
  photo_path: string | null;
  /** The class and term this row makes the learner one of (the class as asked). */
  form: string;
  term: string;
  year: number;
  /** The learner's stream in the class that term (see the rule above). */
  stream: string | null;
  /** In the class now (false: there by the term's marks or comments only, since moved on). */
  inClassNow: boolean;
}

/** The key of a class in a term: the class compared without case, as every class query does. */
export const classTermKey = (where: ClassTerm) => `${where.form.trim().toLowerCase()}|${where.term}|${where.year}`;

interface PlacedRow {
  id: string;
  studentid: string;
  firstname: string;
  othername: string | null;
  lastname: string;
  gender: 'F' | 'M' | null;
  lin: string | null;
  studentcategory_id: string | null;
  photo_path: string | null;
  form: string;
  stream: string | null;
  class_form: string;
  term: string;
  year: number;
  marks_stream: string | null;
}

export interface ClassLearnersOptions {
  /** Also those with a subject comment of the term (the comments screens keep a moved learner's comments). */
  commented?: boolean;
  /** Only these learners (a save naming its learners). */
  ids?: readonly string[];
  /** The most rows read; beyond it a 422 (too many learners). */
  limit?: number;
}

/**
 * The learners of each class and term asked, in one statement, by class and term then by name
 * (byLearnerName). A learner is listed once per class and term they belong to.
 */
export async function classLearners(
  tx: TenantTx,
  classTerms: readonly ClassTerm[],
  options: ClassLearnersOptions = {},
): Promise<ClassLearner[]> {
  const unique = new Map(classTerms.map((each) => [classTermKey(each), each]));
  if (unique.size === 0 || options.ids?.length === 0) return [];
  const limit = options.limit ?? MAX_REPORT_LEARNERS;
  const tenantId = tx.tenantId;
  const asked = [...unique.values()];
  const keys = sql.join(asked.map((each) => sql`(${each.form.trim().toLowerCase()}::text, ${each.term}::text, ${each.year}::int)`));
  // ANY lists let the class indexes (lower(form), year, term) find the rows; `k` keeps the exact pairs asked.
  const forms = sql`ANY(${sql.val([...new Set(asked.map((each) => each.form.trim().toLowerCase()))])}::text[])`;
  const terms = sql`ANY(${sql.val([...new Set(asked.map((each) => each.term))])}::text[])`;
  const years = sql`ANY(${sql.val([...new Set(asked.map((each) => each.year))])}::int[])`;
  // Only the learners named (a save, a learner's history): narrowed in each branch, before grouping.
  const only = (column: string) => (options.ids ? sql` AND ${sql.ref(column)} = ANY(${sql.val([...options.ids])}::uuid[])` : sql``);
  const byComments = options.commented
    ? sql` UNION ALL SELECT c.student_id, lower(c.form), c.term, c.year, NULL FROM mark_comments c
        WHERE c.tenant_id = ${tenantId} AND lower(c.form) = ${forms} AND c.term = ${terms} AND c.year = ${years}${only('c.student_id')}`
    : sql``;
  // Each (learner, class, term) once: in the class now, or placed by the term's marks (their stream) or
  // comments; then each place's learner by the whole key (tenant, id), LATERAL so the plan stays an index
  // look-up per place whatever the planner's estimates (a fresh import has none).
  const placed = sql<PlacedRow>`(
    WITH k(form, term, year) AS (VALUES ${keys}),
    placed AS MATERIALIZED (
      SELECT e.student_id, e.form, e.term, e.year, max(e.stream) AS stream FROM (
        SELECT s.id AS student_id, lower(s.form) AS form, k.term, k.year, NULL::text AS stream
          FROM students s JOIN k ON lower(s.form) = k.form
          WHERE s.tenant_id = ${tenantId} AND s.status = 'active' AND lower(s.form) = ${forms}${only('s.id')}
        UNION ALL SELECT m.student_id, lower(m.form), m.term, m.year, m.stream FROM marks m
          WHERE m.tenant_id = ${tenantId} AND lower(m.form) = ${forms} AND m.term = ${terms} AND m.year = ${years}${only('m.student_id')}${byComments}
      ) e
      WHERE (e.form, e.term, e.year) IN (SELECT form, term, year FROM k)
      GROUP BY e.student_id, e.form, e.term, e.year
    )
    SELECT s.id, s.studentid, s.firstname, s.othername, s.lastname, s.gender, s.lin, s.studentcategory_id, s.photo_path,
      s.form, s.stream, p.form AS class_form, p.term, p.year, p.stream AS marks_stream
    FROM placed p CROSS JOIN LATERAL (
      SELECT * FROM students s WHERE s.tenant_id = ${tenantId} AND s.id = p.student_id
    ) s
  )`;
  const ordered = tx.trx
    .selectFrom(placed.as('p'))
    .selectAll()
    .orderBy('p.year')
    .orderBy('p.term')
    .orderBy('p.class_form')
    .$call(byLearnerName('p'))
    .limit(limit + 1);
  const rows = await ordered.execute();
  if (rows.length > limit) throw invalid({ form: [REPORT_MESSAGES.tooManyLearners] });
  return rows.map((row) => {
    const asked = unique.get(`${row.class_form}|${row.term}|${row.year}`);
    const inClassNow = row.form.trim().toLowerCase() === row.class_form;
    return {
      id: row.id,
      studentid: row.studentid,
      firstname: row.firstname,
      othername: row.othername,
      lastname: row.lastname,
      fullname: [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
      gender: row.gender,
      lin: row.lin?.trim() || null,
      studentcategory_id: row.studentcategory_id,
      photo_path: row.photo_path,
      form: asked?.form ?? row.form,
      term: row.term,
      year: Number(row.year),
      stream: (inClassNow ? row.stream : (row.marks_stream ?? row.stream)) ?? null,
      inClassNow,
    };
  });
}

/** The rows of classLearners grouped by class and term (classTermKey), each group in name order. */
export function byClassTerm<T extends ClassTerm>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = classTermKey(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
