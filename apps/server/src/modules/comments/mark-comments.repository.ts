import { sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { classLearners as learnersOfClasses } from '../students/class-learners.repository.js';

/*
 * The rows of the subject comments and generic skills screens (issue 16): a class's learners,
 * their stored comments of one subject, and the writes of a save, each batched where the
 * statement allows (one read of a class, one insert, one history insert).
 */

/** The class, term and year a screen is about. */
export interface ClassTerm {
  form: string;
  stream: string | null;
  term: string;
  year: number;
}

/** Which comments: a subject's, of a report type, general (subject comment) or skill (generic skills). */
export interface CommentKey extends ClassTerm {
  subject_id: string;
  category: 'assesment' | 'exam';
  kind: 'general' | 'skill';
}

export interface CommentLearner {
  id: string;
  studentid: string;
  fullname: string;
  firstname: string;
  gender: 'F' | 'M' | null;
  /** The learner's stream in the class that term (their current one while still in the class). */
  stream: string | null;
}

export interface StoredComment {
  id: string;
  comment: string;
  version: number;
  userId: string | null;
}

const sameText = (column: string, value: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`;

/**
 * The class's learners as the report cards count them (the one class-learners query,
 * students/class-learners.repository.ts): those in the class now (active), and those with marks
 * or comments in it that term (a learner moved on since keeps their comments). A learner's
 * stream is the current one while in the class, else the one their marks were entered under.
 * Narrowed to the stream when one is given; by name.
 */
export async function classLearners(tx: TenantTx, where: ClassTerm): Promise<CommentLearner[]> {
  const rows = await learnersOfClasses(tx, [where], { commented: true });
  const wanted = where.stream?.trim().toLowerCase() ?? null;
  return rows
    .filter((row) => wanted === null || (row.stream ?? '').trim().toLowerCase() === wanted)
    .map((row) => ({
      id: row.id,
      studentid: row.studentid,
      fullname: row.fullname,
      firstname: row.firstname,
      gender: row.gender,
      stream: row.stream,
    }));
}

/** The stored comments of these learners by learner id; `lock` holds them until the save's transaction ends. */
export async function storedComments(
  tx: TenantTx,
  key: CommentKey,
  studentIds: readonly string[],
  lock = false,
): Promise<Map<string, StoredComment>> {
  if (studentIds.length === 0) return new Map();
  let query = tx.trx
    .selectFrom('mark_comments')
    .select(['id', 'student_id', 'comment', 'version', 'user_id'])
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', key.subject_id)
    .where(sameText('form', key.form))
    .where('term', '=', key.term)
    .where('year', '=', key.year)
    .where('category', '=', key.category)
    .where('kind', '=', key.kind)
    .where('student_id', 'in', studentIds);
  if (lock) query = query.forUpdate();
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.student_id, { id: row.id, comment: row.comment, version: row.version, userId: row.user_id }]));
}

/** The school's subject, if it is one. */
export async function subjectById(tx: TenantTx, id: string) {
  return tx.trx.selectFrom('subjects').select(['id', 'name']).$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
}

/** The school's active subjects, in its order. */
export async function activeSubjects(tx: TenantTx) {
  return tx.trx
    .selectFrom('subjects')
    .select(['id', 'name'])
    .$call(inTenant(tx.tenantId))
    .where('active', '=', true)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('name')
    .execute();
}

/** The school's mark types of these ids, in its order. */
export async function markTypesByIds(tx: TenantTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx.trx
    .selectFrom('mark_types')
    .select(['id', 'label'])
    .$call(inTenant(tx.tenantId))
    .where('id', 'in', ids)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
}

/** The school's automatic subject comments of one category (general, nc general, nc skill). */
export async function autoComments(tx: TenantTx, category: string) {
  return tx.trx
    .selectFrom('auto_mark_comments')
    .select(['score', 'comment'])
    .$call(inTenant(tx.tenantId))
    .where('category', '=', category)
    .orderBy('score')
    .orderBy('id')
    .execute();
}

/** Names of users by id (who wrote a conflicting comment). */
export async function userNames(tx: TenantTx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.trx.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** One change of a save: a new comment, a changed one, or one deleted. */
export type CommentWrite =
  | { action: 'insert'; studentId: string; stream: string | null; comment: string }
  | { action: 'update'; studentId: string; stored: StoredComment; comment: string }
  | { action: 'delete'; studentId: string; stored: StoredComment };

/**
 * Writes a save's changes in the action's transaction, each with its history row (who, old,
 * new, save or delete); answers each learner's comment and version as now stored.
 */
export async function applyCommentWrites(
  tx: TenantTx,
  key: CommentKey,
  writes: ReadonlyArray<CommentWrite>,
): Promise<Map<string, { comment: string | null; version: number | null }>> {
  const now = new Map<string, { comment: string | null; version: number | null }>();
  const history: Array<{ commentId: string; studentId: string; old: string | null; new: string | null; action: 'save' | 'delete' }> = [];
  const inserts = writes.flatMap((write) => (write.action === 'insert' ? [{ ...write, id: newId() }] : []));
  await inBatches(
    inserts.map((write) => ({
      tenant_id: tx.tenantId,
      id: write.id,
      student_id: write.studentId,
      subject_id: key.subject_id,
      form: key.form,
      stream: write.stream,
      term: key.term,
      year: key.year,
      category: key.category,
      kind: key.kind,
      comment: write.comment,
      version: 1,
      user_id: tx.userId,
    })),
    (rows) => tx.trx.insertInto('mark_comments').values(rows).execute(),
  );
  for (const write of inserts) {
    now.set(write.studentId, { comment: write.comment, version: 1 });
    history.push({ commentId: write.id, studentId: write.studentId, old: null, new: write.comment, action: 'save' });
  }
  for (const write of writes) {
    if (write.action === 'update') {
      await tx.trx
        .updateTable('mark_comments')
        .set({ comment: write.comment, version: write.stored.version + 1, user_id: tx.userId, updated_at: sql`now()` })
        .$call(inTenant(tx.tenantId))
        .where('id', '=', write.stored.id)
        .execute();
      now.set(write.studentId, { comment: write.comment, version: write.stored.version + 1 });
      history.push({
        commentId: write.stored.id,
        studentId: write.studentId,
        old: write.stored.comment,
        new: write.comment,
        action: 'save',
      });
    }
  }
  const deletes = writes.flatMap((write) => (write.action === 'delete' ? [write] : []));
  await inBatches(
    deletes.map((write) => write.stored.id),
    (ids) => tx.trx.deleteFrom('mark_comments').$call(inTenant(tx.tenantId)).where('id', 'in', ids).execute(),
  );
  for (const write of deletes) {
    now.set(write.studentId, { comment: null, version: null });
    history.push({ commentId: write.stored.id, studentId: write.studentId, old: write.stored.comment, new: null, action: 'delete' });
  }
  await inBatches(
    history.map((entry) => ({
      tenant_id: tx.tenantId,
      id: newId(),
      source: 'mark_comment' as const,
      comment_id: entry.commentId,
      student_id: entry.studentId,
      old_value: entry.old,
      new_value: entry.new,
      action: entry.action,
      user_id: tx.userId,
    })),
    (rows) => tx.trx.insertInto('comment_history').values(rows).execute(),
  );
  return now;
}
