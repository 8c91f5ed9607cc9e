import { sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import { byLearnerName } from '../../db/learner-order.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * Project scores (issue 26 point 5): a project's stored scores by learner, and a save's
 * writes, each kind in one statement per batch whatever the size of the class.
 */

/** A stored score: value, comment, version and who wrote it last. */
export interface StoredScore {
  id: string;
  score: number | null;
  comment: string | null;
  version: number;
  userId: string | null;
}

/** The school's project by id, with its subject's name; `lock` holds it until the save ends (saves of one project wait in turn). */
export async function projectOf(tx: TenantTx, projectId: string, lock = false) {
  let query = tx.trx
    .selectFrom('projects as p')
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'p.tenant_id').onRef('s.id', '=', 'p.subject_id'))
    .select(['p.id', 'p.title', 'p.form', 'p.term', 'p.year', 'p.subject_id', 's.name as subject', 'p.max_score'])
    .$call(inTenant(tx.tenantId, 'p.tenant_id'))
    .where('p.id', '=', projectId);
  if (lock) query = query.forUpdate('p');
  return query.executeTakeFirst();
}

const scoreOf = (value: string | number | null) => (value === null ? null : Number(value));

/** The project's stored scores by learner id (only these learners when given); `lock` holds them. */
export async function storedScores(tx: TenantTx, projectId: string, studentIds?: readonly string[]): Promise<Map<string, StoredScore>> {
  if (studentIds && studentIds.length === 0) return new Map();
  let query = tx.trx
    .selectFrom('project_scores')
    .select(['id', 'student_id', 'score', 'comment', 'version', 'user_id'])
    .$call(inTenant(tx.tenantId))
    .where('project_id', '=', projectId);
  if (studentIds) query = query.where('student_id', 'in', studentIds);
  const rows = await query.execute();
  return new Map(
    rows.map((row) => [
      row.student_id,
      { id: row.id, score: scoreOf(row.score), comment: row.comment, version: row.version, userId: row.user_id },
    ]),
  );
}

/** One learner's change: the new score and comment (both none: the row goes), and the stored row if any. */
export interface ScoreWrite {
  student_id: string;
  score: number | null;
  comment: string | null;
  before?: StoredScore;
}

/** Writes a save's changes: new rows inserted, changed ones updated (version up by one), emptied ones deleted. */
export async function applyScoreChanges(tx: TenantTx, projectId: string, writes: ReadonlyArray<ScoreWrite>): Promise<void> {
  const userId = tx.userId;
  const empty = (write: ScoreWrite) => write.score === null && write.comment === null;
  const added = writes.filter((write) => !write.before && !empty(write));
  const changed = writes.filter((write) => write.before && !empty(write));
  const cleared = writes.filter((write) => write.before && empty(write));
  await inBatches(
    added.map((write) => ({
      tenant_id: tx.tenantId,
      id: newId(),
      project_id: projectId,
      student_id: write.student_id,
      score: write.score,
      comment: write.comment,
      user_id: userId,
    })),
    (rows) => tx.trx.insertInto('project_scores').values(rows).execute(),
  );
  await inBatches(changed, (batch) => {
    const values = sql.join(batch.map((write) => sql`(${write.before?.id}::uuid, ${write.score}::numeric, ${write.comment}::text)`));
    return sql`
      UPDATE project_scores SET score = v.score, comment = v.comment, version = project_scores.version + 1, user_id = ${userId},
        updated_at = now()
      FROM (VALUES ${values}) AS v (id, score, comment)
      WHERE project_scores.tenant_id = ${tx.tenantId} AND project_scores.id = v.id
    `.execute(tx.trx);
  });
  await inBatches(
    cleared.map((write) => write.before?.id as string),
    (ids) => tx.trx.deleteFrom('project_scores').$call(inTenant(tx.tenantId)).where('id', 'in', ids).execute(),
  );
}

/** A project's scores with their learners, by learner name (the list). */
export function scoreListRows(tx: TenantTx, projectId: string) {
  return tx.trx
    .selectFrom('project_scores as ps')
    .innerJoin('students as st', (join) => join.onRef('st.tenant_id', '=', 'ps.tenant_id').onRef('st.id', '=', 'ps.student_id'))
    .select([
      'ps.id',
      'ps.project_id',
      'ps.student_id',
      'st.studentid',
      'st.firstname',
      'st.othername',
      'st.lastname',
      'ps.score',
      'ps.comment',
    ])
    .$call(inTenant(tx.tenantId, 'ps.tenant_id'))
    .where('ps.project_id', '=', projectId)
    .$call(byLearnerName('st'))
    .execute();
}

/** The highest score saved on a project (null for none), its project held until the action ends. */
export async function highestProjectScore(tx: TenantTx, projectId: string): Promise<number | null> {
  if (!(await projectOf(tx, projectId, true))) return null;
  const row = await tx.trx
    .selectFrom('project_scores')
    .select(sql<number | null>`max(score)::float8`.as('highest'))
    .$call(inTenant(tx.tenantId))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.highest ?? null;
}
