import type { MarkTargetRequest, markTargets } from '@mustard/shared';
import { sql } from 'kysely';
import type { z } from 'zod';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import { byLearnerName } from '../../db/learner-order.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * A class's one value per learner for a term (issue 14 points 6 and 7), as stored: each
 * learner's days attended with the term's total days (`attendances`), and each learner's target
 * in a subject (`mark_targets`). Writes of a class are batched (`inBatches`), one statement per
 * kind whatever the size of the class.
 */

/** A class's term as its pages name it: the class and stream (null: every stream), term and year. */
export interface ClassTerm {
  form: string;
  stream: string | null;
  term: string;
  year: number;
}

/** A learner's value to write (days attended, a target). */
export interface LearnerValue {
  studentId: string;
  value: number;
}

/* ---- Attendance ---- */

/** The attendance recorded for these learners in the term; `lock` holds the rows until the transaction ends. */
export async function storedAttendance(tx: TenantTx, where: ClassTerm, studentIds: readonly string[], lock = false) {
  if (studentIds.length === 0) return [];
  let query = tx.trx
    .selectFrom('attendances')
    .select(['student_id', 'days', 'total_days'])
    .$call(inTenant(tx.tenantId))
    .where('term', '=', where.term)
    .where('year', '=', where.year)
    .where('student_id', 'in', studentIds);
  if (lock) query = query.forUpdate();
  return query.execute();
}

/** Writes learners' days attended with the term's total days (a learner's row of the term replaced), the class and writer with them. */
export async function upsertAttendance(
  tx: TenantTx,
  where: ClassTerm,
  days: ReadonlyArray<LearnerValue>,
  totalDays: number,
): Promise<void> {
  await inBatches(
    days.map((change) => ({
      tenant_id: tx.tenantId,
      id: newId(),
      student_id: change.studentId,
      form: where.form,
      stream: where.stream,
      term: where.term,
      year: where.year,
      days: change.value,
      total_days: totalDays,
      user_id: tx.userId,
    })),
    (rows) =>
      tx.trx
        .insertInto('attendances')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'student_id', 'term', 'year']).doUpdateSet((eb) => ({
            days: eb.ref('excluded.days'),
            total_days: eb.ref('excluded.total_days'),
            form: eb.ref('excluded.form'),
            stream: eb.ref('excluded.stream'),
            user_id: eb.ref('excluded.user_id'),
            updated_at: sql`now()`,
          })),
        )
        .execute(),
  );
}

/** Deletes these learners' attendance of the term. */
export async function deleteAttendance(tx: TenantTx, where: ClassTerm, studentIds: readonly string[]): Promise<void> {
  await inBatches(studentIds, (ids) =>
    tx.trx
      .deleteFrom('attendances')
      .$call(inTenant(tx.tenantId))
      .where('term', '=', where.term)
      .where('year', '=', where.year)
      .where('student_id', 'in', ids)
      .execute(),
  );
}

/** Gives these learners' recorded attendance of the term the total days (rows with another total only). */
export async function setAttendanceTotal(tx: TenantTx, where: ClassTerm, studentIds: readonly string[], totalDays: number): Promise<void> {
  await inBatches(studentIds, (ids) =>
    tx.trx
      .updateTable('attendances')
      .set({ total_days: totalDays, updated_at: sql`now()` })
      .$call(inTenant(tx.tenantId))
      .where('term', '=', where.term)
      .where('year', '=', where.year)
      .where('student_id', 'in', ids)
      .where('total_days', '<>', totalDays)
      .execute(),
  );
}

/* ---- Mark targets ---- */

/** The school's subject by id and name, if it has it. */
export function subjectById(tx: TenantTx, subjectId: string) {
  return tx.trx.selectFrom('subjects').select(['id', 'name']).$call(inTenant(tx.tenantId)).where('id', '=', subjectId).executeTakeFirst();
}

/** These learners' targets in the subject for the term, by learner id; `lock` holds the rows until the transaction ends. */
export async function storedTargets(tx: TenantTx, where: MarkTargetRequest, studentIds: readonly string[], lock = false) {
  if (studentIds.length === 0) return new Map<string, number>();
  let query = tx.trx
    .selectFrom('mark_targets')
    .select(['student_id', 'target'])
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', where.subject_id)
    .where('term', '=', where.term)
    .where('year', '=', where.year)
    .where('student_id', 'in', studentIds);
  if (lock) query = query.forUpdate();
  return new Map((await query.execute()).map((row) => [row.student_id, Number(row.target)]));
}

/** Writes learners' targets in the subject for the term (a learner's target replaced), the class and writer with them. */
export async function upsertTargets(tx: TenantTx, where: MarkTargetRequest, targets: ReadonlyArray<LearnerValue>): Promise<void> {
  await inBatches(
    targets.map((change) => ({
      tenant_id: tx.tenantId,
      id: newId(),
      student_id: change.studentId,
      subject_id: where.subject_id,
      form: where.form,
      stream: where.stream,
      term: where.term,
      year: where.year,
      target: change.value,
      user_id: tx.userId,
    })),
    (rows) =>
      tx.trx
        .insertInto('mark_targets')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'student_id', 'subject_id', 'term', 'year']).doUpdateSet((eb) => ({
            target: eb.ref('excluded.target'),
            form: eb.ref('excluded.form'),
            stream: eb.ref('excluded.stream'),
            user_id: eb.ref('excluded.user_id'),
            updated_at: sql`now()`,
          })),
        )
        .execute(),
  );
}

/** Deletes these learners' targets in the subject for the term. */
export async function deleteTargets(tx: TenantTx, where: MarkTargetRequest, studentIds: readonly string[]): Promise<void> {
  await inBatches(studentIds, (ids) =>
    tx.trx
      .deleteFrom('mark_targets')
      .$call(inTenant(tx.tenantId))
      .where('subject_id', '=', where.subject_id)
      .where('term', '=', where.term)
      .where('year', '=', where.year)
      .where('student_id', 'in', ids)
      .execute(),
  );
}

/** The targets list's filters: class, stream, term, year and subject (each optional). */
export type TargetsListFilter = z.infer<typeof markTargets.filters>;

/** The school's targets the list's filter names, with their learner and subject. */
function filteredTargets(tx: TenantTx, filter: TargetsListFilter) {
  let base = tx.trx
    .selectFrom('mark_targets as g')
    .innerJoin('students as st', (join) => join.onRef('st.tenant_id', '=', 'g.tenant_id').onRef('st.id', '=', 'g.student_id'))
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.id', '=', 'g.subject_id'))
    .$call(inTenant(tx.tenantId, 'g.tenant_id'));
  if (filter.form) base = base.where(sql<boolean>`lower(g.form) = lower(${filter.form})`);
  if (filter.stream) base = base.where(sql<boolean>`lower(coalesce(g.stream, '')) = lower(${filter.stream})`);
  if (filter.term) base = base.where('g.term', '=', filter.term);
  if (filter.year) base = base.where('g.year', '=', filter.year);
  if (filter.subject_id) base = base.where('g.subject_id', '=', filter.subject_id);
  return base;
}

/** One page of the targets list: by learner's name and subject. */
export function targetListRows(tx: TenantTx, filter: TargetsListFilter, paging: { limit: number; offset: number }) {
  return filteredTargets(tx, filter)
    .select([
      'g.id',
      'g.student_id',
      'st.studentid',
      'st.firstname',
      'st.othername',
      'st.lastname',
      'g.form',
      'g.stream',
      'g.term',
      'g.year',
      's.name as subject',
      'g.subject_id',
      'g.target',
    ])
    .$call(byLearnerName('st'))
    .orderBy('s.name')
    .orderBy('g.id')
    .limit(paging.limit)
    .offset(paging.offset)
    .execute();
}

/** How many targets the list's filter names. */
export async function countTargets(tx: TenantTx, filter: TargetsListFilter): Promise<number> {
  const total = await tx.trx
    .selectFrom(filteredTargets(tx, filter).select('g.id').as('found'))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return total.n;
}
