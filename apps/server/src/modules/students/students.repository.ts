import type { Student, StudentInput } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import { containsPattern } from '../../db/search.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import type { DB } from '../../db/types.js';

export interface StudentFilters {
  form?: string;
  stream?: string;
  name?: string;
  studentid?: string;
  studentcategory_id?: string;
  status?: string;
}

const like = containsPattern;

/** Learners of the tenant matching the class list's filters; active ones unless a status is asked. */
function filtered(db: Kysely<DB>, tenantId: string, filters: StudentFilters) {
  let query = db.selectFrom('students as s').$call(inTenant(tenantId, 's.tenant_id'));
  query = query.where('s.status', '=', (filters.status ?? 'active') as 'active');
  if (filters.form) query = query.where(sql`lower(s.form)`, '=', filters.form.trim().toLowerCase());
  if (filters.stream) query = query.where(sql`lower(s.stream)`, '=', filters.stream.toLowerCase());
  if (filters.studentcategory_id) query = query.where('s.studentcategory_id', '=', filters.studentcategory_id);
  if (filters.studentid) query = query.where('s.studentid', 'ilike', like(filters.studentid));
  if (filters.name) {
    const pattern = like(filters.name);
    query = query.where(sql`concat_ws(' ', s.firstname, s.othername, s.lastname)`, 'ilike', pattern);
  }
  return query;
}

function withCategory<QB extends ReturnType<typeof filtered>>(query: QB) {
  return query
    .leftJoin('student_categories as c', (join) => join.onRef('c.tenant_id', '=', 's.tenant_id').onRef('c.id', '=', 's.studentcategory_id'))
    .select([
      's.id',
      's.studentid',
      's.firstname',
      's.lastname',
      's.othername',
      's.gender',
      sql<string | null>`s.dob::text`.as('dob'),
      's.form',
      's.stream',
      's.status',
      's.studentcategory_id',
      'c.name as category_name',
      's.paymentcode',
      's.address',
      's.phone',
      's.email',
      's.house',
      's.lin',
      's.code',
      's.guardian_email',
      's.photo_path',
    ]);
}

type StudentRow = Awaited<ReturnType<ReturnType<typeof withCategory>['execute']>>[number];

export function toStudent(row: StudentRow): Student {
  const { category_name, ...rest } = row;
  return {
    ...rest,
    fullname: [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
    studentcategory: category_name ? { name: category_name } : null,
  } as Student;
}

export async function listStudents(tx: TenantTx, filters: StudentFilters, paging: { page: number; perPage: number } | null) {
  const base = filtered(tx.trx, tx.tenantId, filters);
  const { total } = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  let query = withCategory(base).orderBy('s.form').orderBy('s.stream').orderBy('s.lastname').orderBy('s.firstname').orderBy('s.id');
  if (paging) query = query.limit(paging.perPage).offset((paging.page - 1) * paging.perPage);
  const rows = await query.execute();
  return { students: rows.map(toStudent), totalRecords: total };
}

export async function findStudent(tx: TenantTx, id: string): Promise<Student | undefined> {
  const row = await withCategory(tx.trx.selectFrom('students as s').$call(inTenant(tx.tenantId, 's.tenant_id')))
    .where('s.id', '=', id)
    .executeTakeFirst();
  return row ? toStudent(row) : undefined;
}

/**
 * A learner's stored fields besides the student id (the key) and the photo (stored apart): the
 * one list the form, the upload and the class list's select write and read.
 */
export const LEARNER_COLUMNS = [
  'firstname',
  'lastname',
  'othername',
  'gender',
  'dob',
  'form',
  'stream',
  'status',
  'studentcategory_id',
  'paymentcode',
  'address',
  'phone',
  'email',
  'house',
  'lin',
  'code',
  'guardian_email',
] as const satisfies ReadonlyArray<keyof StudentInput>;

export type LearnerColumn = (typeof LEARNER_COLUMNS)[number];

/** The columns a form writes (photo_path is set apart, after the photo is stored). */
export function studentColumns(input: StudentInput & { studentid: string }) {
  const columns: Partial<Pick<StudentInput, LearnerColumn>> = {};
  for (const column of LEARNER_COLUMNS) (columns as Record<string, unknown>)[column] = input[column];
  return { ...(columns as Pick<StudentInput, LearnerColumn>), studentid: input.studentid };
}

/** The streams the school's learners are in, the most used spelling of each first. */
export async function schoolStreams(tx: TenantTx): Promise<string[]> {
  const rows = await tx.trx
    .selectFrom('students')
    .select(['stream', sql<number>`count(*)::int`.as('learners')])
    .$call(inTenant(tx.tenantId))
    .where('stream', 'is not', null)
    .groupBy('stream')
    .orderBy('learners', 'desc')
    .orderBy('stream')
    .execute();
  return rows.map((row) => row.stream as string);
}

/** Each class's streams, from its active learners: the choices of a class sheet's Stream field. */
export async function classStreams(tx: TenantTx): Promise<Array<{ form: string; streams: string[] }>> {
  const rows = await tx.trx
    .selectFrom('students')
    .select(['form', 'stream'])
    .distinct()
    .$call(inTenant(tx.tenantId))
    .where('status', '=', 'active')
    .where('stream', 'is not', null)
    .where('stream', '<>', '')
    .orderBy('form')
    .orderBy('stream')
    .execute();
  const byForm = new Map<string, string[]>();
  for (const row of rows) byForm.set(row.form, [...(byForm.get(row.form) ?? []), row.stream as string]);
  return [...byForm].map(([form, streams]) => ({ form, streams }));
}

/** The school's student category of this id, if it has one. */
export async function findStudentCategory(tx: TenantTx, id: string): Promise<{ id: string } | undefined> {
  return tx.trx.selectFrom('student_categories').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
}

/** A learner of the school (other than `exceptId`) whose student id, passcode or payment code is `value`. */
export async function studentHolding(
  tx: TenantTx,
  field: 'studentid' | 'code' | 'paymentcode',
  value: string,
  exceptId: string | null,
): Promise<{ id: string } | undefined> {
  let query = tx.trx.selectFrom('students').select('id').$call(inTenant(tx.tenantId)).where(field, '=', value);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/** What the form writes of a learner (studentColumns), and the photo file when one was stored. */
export type StudentColumns = ReturnType<typeof studentColumns> & { photo_path?: string };

export async function insertStudent(tx: TenantTx, id: string, columns: StudentColumns): Promise<void> {
  await tx.trx
    .insertInto('students')
    .values({ ...columns, tenant_id: tx.tenantId, id })
    .execute();
}

export async function updateStudent(tx: TenantTx, id: string, columns: StudentColumns): Promise<void> {
  await tx.trx
    .updateTable('students')
    .set({ ...columns, updated_at: sql`now()` })
    .$call(inTenant(tx.tenantId))
    .where('id', '=', id)
    .execute();
}

/** Locks the learner's row until the transaction ends; answers its id, or nothing if there is no such learner. */
export async function lockStudent(tx: TenantTx, id: string): Promise<{ id: string } | undefined> {
  return tx.trx.selectFrom('students').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Removes the learner; the database's foreign keys refuse it while marks or fee lines hang on them. */
export async function deleteStudentRow(tx: TenantTx, id: string): Promise<void> {
  await tx.trx.deleteFrom('students').$call(inTenant(tx.tenantId)).where('id', '=', id).execute();
}

/** A class history entry of the school written in the last ten minutes (a promotion just made), if any. */
export async function recentClassHistory(tx: TenantTx): Promise<{ id: string } | undefined> {
  return tx.trx
    .selectFrom('student_class_history')
    .select('id')
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`recorded_at > now() - interval '10 minutes'`)
    .executeTakeFirst();
}

/** The active learners of `classes`: those in the `top` one (completing) and the others (promoted). */
export async function promotionCounts(
  tx: TenantTx,
  classes: ReadonlyArray<string>,
  top: string,
): Promise<{ completed: number; promoted: number }> {
  return tx.trx
    .selectFrom('students')
    .select([
      sql<number>`count(*) FILTER (WHERE form = ${top})::int`.as('completed'),
      sql<number>`count(*) FILTER (WHERE form <> ${top})::int`.as('promoted'),
    ])
    .$call(inTenant(tx.tenantId))
    .where('status', '=', 'active')
    .where('form', 'in', classes)
    .executeTakeFirstOrThrow();
}

/** Each active learner of `classes` in their class history for `year`: completed in `top`, promoted elsewhere. */
export async function recordClassHistory(tx: TenantTx, classes: ReadonlyArray<string>, top: string, year: number): Promise<void> {
  await sql`
    INSERT INTO student_class_history (tenant_id, id, student_id, form, stream, year, outcome)
    SELECT tenant_id, gen_random_uuid(), id, form, stream, ${year}, CASE WHEN form = ${top} THEN 'completed' ELSE 'promoted' END
      FROM students
     WHERE tenant_id = ${tx.tenantId} AND status = 'active' AND form IN (${sql.join(classes)})
  `.execute(tx.trx);
}

/** The active learners of `form` leave the active list as completed. */
export async function completeClass(tx: TenantTx, form: string): Promise<void> {
  await tx.trx
    .updateTable('students')
    .set({ status: 'completed', updated_at: sql`now()` })
    .$call(inTenant(tx.tenantId))
    .where('status', '=', 'active')
    .where('form', '=', form)
    .execute();
}

/** Moves the active learners of each class `from` to its class `to`, all in one statement (none moves twice). */
export async function moveClasses(tx: TenantTx, moves: ReadonlyArray<readonly [from: string, to: string]>): Promise<void> {
  if (moves.length === 0) return;
  const next = sql<string>`CASE form ${sql.join(
    moves.map(([from, to]) => sql`WHEN ${from} THEN ${to}`),
    sql` `,
  )} END`;
  await tx.trx
    .updateTable('students')
    .set({ form: next, updated_at: sql`now()` })
    .$call(inTenant(tx.tenantId))
    .where('status', '=', 'active')
    .where(
      'form',
      'in',
      moves.map(([from]) => from),
    )
    .execute();
}
