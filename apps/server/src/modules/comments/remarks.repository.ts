import { sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { classLearners } from '../students/class-learners.repository.js';

/*
 * Report comments' queries (issue 16): remark types, automatic report comments, a class's
 * learners as a save checks them, the stored remarks (locked for a save) and their writes, each
 * with its comment_history row. Every query is bounded by the class, term and year or by ids.
 */

const sameText = (column: string, value: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`;

/** Where remarks are written: a class in a term of a year. */
export interface RemarkClass {
  form: string;
  term: string;
  year: number;
}

export interface RemarkTypeRow {
  id: string;
  label: string;
  category: string;
  parent_id: string | null;
  displaytype: string;
  inputtype: string;
  position: number | null;
  forms: string | null;
  active: boolean;
}

/** Every remark type of the school (tens of rows), by position then label. */
export async function schoolRemarkTypes(tx: TenantTx): Promise<RemarkTypeRow[]> {
  return tx.trx
    .selectFrom('remark_types')
    .select(['id', 'label', 'category', 'parent_id', 'displaytype', 'inputtype', 'position', 'forms', 'active'])
    .$call(inTenant(tx.tenantId))
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
}

/** The class's automatic report comments of the remark types, by remark type and band. */
export async function autoRemarksOf(tx: TenantTx, form: string, remarktypeIds: readonly string[]) {
  if (remarktypeIds.length === 0) return [];
  const rows = await tx.trx
    .selectFrom('auto_report_comments')
    .select(['form', 'remarktype_id', sql<number>`score::float8`.as('score'), sql<number>`upper::float8`.as('upper'), 'comment'])
    .$call(inTenant(tx.tenantId))
    .where(sameText('form', form))
    .where('remarktype_id', 'in', [...remarktypeIds])
    .orderBy('remarktype_id')
    .orderBy('score')
    .orderBy('upper')
    .execute();
  return rows.map((row) => ({ ...row, score: Number(row.score), upper: Number(row.upper) }));
}

/** A learner of a class without marks yet, as a report lists one. */
export interface PlainLearner {
  id: string;
  studentid: string;
  fullname: string;
  firstname: string;
  gender: 'F' | 'M' | null;
  stream: string | null;
}

/**
 * The learners of a class in a term (a stream, a category), by name, as the report cards list
 * them (the one class-learners query, students/class-learners.repository.ts): those a report
 * comment is written for before any mark of the term is in.
 */
export async function activeLearners(
  tx: TenantTx,
  where: RemarkClass & { stream?: string | null | undefined; studentcategory_id?: string | null | undefined },
): Promise<PlainLearner[]> {
  const rows = await classLearners(tx, [where]);
  const wanted = where.stream ? where.stream.trim().toLowerCase() : null;
  return rows
    .filter(
      (row) =>
        (wanted === null || (row.stream ?? '').trim().toLowerCase() === wanted) &&
        (!where.studentcategory_id || row.studentcategory_id === where.studentcategory_id),
    )
    .map((row) => ({
      id: row.id,
      studentid: row.studentid,
      fullname: row.fullname,
      firstname: row.firstname,
      gender: row.gender,
      stream: row.stream,
    }));
}

/**
 * Of the given learners, those in the school, each with whether (and in which stream) they are
 * in the class for the term: in it by the one class-learners query, else in the school only.
 */
export async function learnersForClass(
  tx: TenantTx,
  where: RemarkClass,
  ids: readonly string[],
): Promise<Map<string, { fullname: string; inClass: boolean; stream: string | null }>> {
  if (ids.length === 0) return new Map();
  const inClass = new Map((await classLearners(tx, [where], { ids })).map((row) => [row.id, row]));
  const rows = await tx.trx
    .selectFrom('students')
    .select(['id', 'firstname', 'othername', 'lastname', 'stream'])
    .$call(inTenant(tx.tenantId))
    .where('id', 'in', [...ids])
    .execute();
  return new Map(
    rows.map((row) => {
      const listed = inClass.get(row.id);
      return [
        row.id,
        {
          fullname: listed?.fullname ?? [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
          inClass: listed !== undefined,
          stream: listed ? listed.stream : (row.stream ?? null),
        },
      ];
    }),
  );
}

export interface StoredRemark {
  id: string;
  student_id: string;
  remarktype_id: string;
  comment: string;
  version: number;
  user_id: string | null;
}

/** The class's stored remarks of these learners and remark types; locked for the save when `lock`. */
export async function storedRemarks(
  tx: TenantTx,
  where: RemarkClass,
  which: { studentIds: readonly string[]; remarktypeIds: readonly string[] },
  lock = false,
): Promise<StoredRemark[]> {
  if (which.studentIds.length === 0 || which.remarktypeIds.length === 0) return [];
  const query = tx.trx
    .selectFrom('remarks')
    .select(['id', 'student_id', 'remarktype_id', 'comment', 'version', 'user_id'])
    .$call(inTenant(tx.tenantId))
    .where(sameText('form', where.form))
    .where('term', '=', where.term)
    .where('year', '=', where.year)
    .where('student_id', 'in', [...which.studentIds])
    .where('remarktype_id', 'in', [...which.remarktypeIds]);
  return (lock ? query.forUpdate() : query).execute();
}

/** Names of the members who wrote comments, by user id. */
export async function userNames(tx: TenantTx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.trx.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** One planned write of a save: a new remark, a changed one, or one emptied (deleted). */
export type RemarkWrite =
  | { kind: 'insert'; student_id: string; remarktype_id: string; stream: string | null; comment: string }
  | { kind: 'update'; stored: StoredRemark; comment: string }
  | { kind: 'delete'; stored: StoredRemark };

/**
 * Writes a save's planned changes in the action's transaction, each with its history row.
 * Answers the new version of each written remark by `${remarktype_id}|${student_id}`.
 */
export async function applyRemarkWrites(tx: TenantTx, where: RemarkClass, writes: readonly RemarkWrite[]): Promise<Map<string, number>> {
  const versions = new Map<string, number>();
  const history: Array<{
    comment_id: string;
    student_id: string;
    old_value: string | null;
    new_value: string | null;
    action: 'save' | 'delete';
  }> = [];
  const inserts = writes.flatMap((write) => (write.kind === 'insert' ? [{ ...write, id: newId() }] : []));
  await inBatches(
    inserts.map((write) => ({
      tenant_id: tx.tenantId,
      id: write.id,
      student_id: write.student_id,
      remarktype_id: write.remarktype_id,
      form: where.form,
      stream: write.stream,
      term: where.term,
      year: where.year,
      comment: write.comment,
      version: 1,
      user_id: tx.userId,
    })),
    (rows) => tx.trx.insertInto('remarks').values(rows).execute(),
  );
  for (const write of inserts) {
    versions.set(`${write.remarktype_id}|${write.student_id}`, 1);
    history.push({ comment_id: write.id, student_id: write.student_id, old_value: null, new_value: write.comment, action: 'save' });
  }
  for (const write of writes) {
    if (write.kind !== 'update') continue;
    await tx.trx
      .updateTable('remarks')
      .set({ comment: write.comment, version: write.stored.version + 1, user_id: tx.userId, updated_at: sql`now()` })
      .$call(inTenant(tx.tenantId))
      .where('id', '=', write.stored.id)
      .execute();
    versions.set(`${write.stored.remarktype_id}|${write.stored.student_id}`, write.stored.version + 1);
    history.push({
      comment_id: write.stored.id,
      student_id: write.stored.student_id,
      old_value: write.stored.comment,
      new_value: write.comment,
      action: 'save',
    });
  }
  const deletes = writes.flatMap((write) => (write.kind === 'delete' ? [write.stored] : []));
  if (deletes.length > 0) await deleteStored(tx, deletes);
  for (const stored of deletes) {
    versions.set(`${stored.remarktype_id}|${stored.student_id}`, 0);
    history.push({ comment_id: stored.id, student_id: stored.student_id, old_value: stored.comment, new_value: null, action: 'delete' });
  }
  await recordHistory(tx, history);
  return versions;
}

async function recordHistory(
  tx: TenantTx,
  rows: ReadonlyArray<{
    comment_id: string;
    student_id: string;
    old_value: string | null;
    new_value: string | null;
    action: 'save' | 'delete';
  }>,
) {
  await inBatches(
    rows.map((row) => ({ tenant_id: tx.tenantId, id: newId(), source: 'remark' as const, user_id: tx.userId, ...row })),
    (batch) => tx.trx.insertInto('comment_history').values(batch).execute(),
  );
}

async function deleteStored(tx: TenantTx, rows: ReadonlyArray<{ id: string }>) {
  await inBatches(
    rows.map((row) => row.id),
    (ids) => tx.trx.deleteFrom('remarks').$call(inTenant(tx.tenantId)).where('id', 'in', ids).execute(),
  );
}

/**
 * Deletes a class's remarks of the remark types (of one learner, of a stream), in the action's
 * transaction, each text kept in comment_history ('delete'). Answers how many.
 */
export async function deleteClassRemarks(
  tx: TenantTx,
  where: RemarkClass & { stream: string | null; studentId: string | null },
  remarktypeIds: readonly string[],
): Promise<number> {
  let query = tx.trx
    .selectFrom('remarks')
    .select(['id', 'student_id', 'comment'])
    .$call(inTenant(tx.tenantId))
    .where(sameText('form', where.form))
    .where('term', '=', where.term)
    .where('year', '=', where.year)
    .where('remarktype_id', 'in', [...remarktypeIds]);
  if (where.stream !== null) query = query.where(sql<boolean>`lower(coalesce(stream, '')) = lower(${where.stream})`);
  if (where.studentId) query = query.where('student_id', '=', where.studentId);
  const rows = await query.forUpdate().execute();
  if (rows.length === 0) return 0;
  await recordHistory(
    tx,
    rows.map((row) => ({
      comment_id: row.id,
      student_id: row.student_id,
      old_value: row.comment,
      new_value: null,
      action: 'delete' as const,
    })),
  );
  await deleteStored(tx, rows);
  return rows.length;
}

/** Whether the learner is the school's. */
export async function learnerExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx.selectFrom('students').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
