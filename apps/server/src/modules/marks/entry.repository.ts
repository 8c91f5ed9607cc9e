import { ABSENT, cellKey, type MarksDeleteSchema, type MarkValue, type marks, type StoredMark } from '@mustard/shared';
import { sql } from 'kysely';
import type { z } from 'zod';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import { byLearnerName } from '../../db/learner-order.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { classLearners } from '../students/class-learners.repository.js';

/*
 * The marks of one grid (issue 14): a class's learners, and for one subject, paper, term and
 * year their marks by mark type. Reads and writes of the save are batched: one statement per
 * kind, whatever the size of the grid (within the parameter limit, `inBatches`).
 */

/** Which marks a grid holds: subject, paper, term, year, and a competency where marks are its scores. */
export interface GridKey {
  subject_id: string;
  term: string;
  year: number;
  paper: string;
  topic_id: string | null;
}

export interface Learner {
  id: string;
  studentid: string;
  fullname: string;
}

/** The most learners one grid reads: a stream is some tens, a whole class some hundreds. */
const LEARNERS_LIMIT = 2000;

/**
 * The learners of a class in a term as the report cards list them (the one class-learners query,
 * students/class-learners.repository.ts: those in the class now, and those with the term's marks
 * in it), narrowed to the stream and category when given, by name. `streams` narrows a class
 * opened without a stream to the streams its teacher teaches (issue 23 item 18); absent or
 * 'all', every stream. A learner's stream is theirs in the class that term.
 */
export async function learnersOf(
  tx: TenantTx,
  where: {
    form: string;
    stream: string | null;
    term: string;
    year: number;
    studentcategory_id?: string | undefined;
    streams?: 'all' | readonly string[] | undefined;
  },
): Promise<Learner[]> {
  const streams = where.streams;
  if (streams !== undefined && streams !== 'all' && streams.length === 0) return [];
  const rows = await classLearners(tx, [where], { limit: LEARNERS_LIMIT });
  const same = (a: string | null, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();
  return rows
    .filter(
      (row) =>
        (where.stream === null || same(row.stream, where.stream)) &&
        (!where.studentcategory_id || row.studentcategory_id === where.studentcategory_id) &&
        (streams === undefined || streams === 'all' || streams.some((stream) => same(row.stream, stream))),
    )
    .map((row) => ({ id: row.id, studentid: row.studentid, fullname: row.fullname }));
}

/**
 * Which of these student ids the school has, in any class or state: a sheet's row naming a
 * learner outside the grid is told so, apart from an id no learner has. A sheet has at most a
 * grid's 2,000 cells, so at most as many rows.
 */
export async function existingStudentids(tx: TenantTx, studentids: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(studentids)].slice(0, LEARNERS_LIMIT);
  if (wanted.length === 0) return new Set();
  const rows = await tx.trx
    .selectFrom('students')
    .select('studentid')
    .$call(inTenant(tx.tenantId))
    .where('studentid', 'in', wanted)
    .execute();
  return new Set(rows.map((row) => row.studentid));
}

/** A stored row's mark as the grid shows it: a number, ABS, or none. */
export function markOf(row: { mark: number | string | null; absent: boolean }): Exclude<MarkValue, null> {
  return row.absent ? ABSENT : Number(row.mark);
}

/** The stored mark as history keeps it: text (67.5, ABS) or none. */
export function markText(value: MarkValue): string | null {
  return value === null ? null : String(value);
}

/** The grid's stored marks by cell; `lock` holds them until the save's transaction ends. */
export async function storedMarks(
  tx: TenantTx,
  key: GridKey,
  cells: { marktypeIds: readonly string[]; studentIds: readonly string[] },
  lock = false,
) {
  if (cells.marktypeIds.length === 0 || cells.studentIds.length === 0)
    return new Map<string, StoredMark & { id: string; userId: string | null }>();
  let query = tx.trx
    .selectFrom('marks')
    .select(['id', 'student_id', 'marktype_id', 'mark', 'absent', 'version', 'user_id'])
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', key.subject_id)
    .where('term', '=', key.term)
    .where('year', '=', key.year)
    .where('paper', '=', key.paper)
    .where('marktype_id', 'in', cells.marktypeIds)
    .where('student_id', 'in', cells.studentIds)
    .where((eb) => (key.topic_id ? eb('topic_id', '=', key.topic_id) : eb('topic_id', 'is', null)));
  if (lock) query = query.forUpdate();
  const rows = await query.execute();
  return new Map(
    rows.map((row) => [
      cellKey(row.marktype_id, row.student_id),
      { id: row.id, value: markOf(row), version: row.version, userId: row.user_id },
    ]),
  );
}

/** Mark types by id with their maximum and state. */
export async function markTypesByIds(tx: TenantTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx.trx
    .selectFrom('mark_types')
    .select(['id', 'label', 'outof', 'status', 'position', 'category'])
    .$call(inTenant(tx.tenantId))
    .where('id', 'in', ids)
    .orderBy(sql`position`, (order) => order.asc().nullsLast())
    .orderBy('label')
    .execute();
}

/** The mark types published for the term (their marks are locked to those who manage marks). */
export async function publishedMarkTypes(tx: TenantTx, when: { term: string; year: number }): Promise<Set<string>> {
  const rows = await tx.trx
    .selectFrom('publish_marks')
    .select('marktype_id')
    .$call(inTenant(tx.tenantId))
    .where('term', '=', when.term)
    .where('year', '=', when.year)
    .execute();
  return new Set(rows.map((row) => row.marktype_id));
}

/** Names of users by id (who wrote a conflicting mark, who changed a mark). */
export async function userNames(tx: TenantTx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.trx.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** One change of a mark for the history: the cell, old and new, where it came from. */
export interface MarkChange {
  student_id: string;
  marktype_id: string;
  old: MarkValue;
  new: MarkValue;
}

/** Where a grid's marks are: the class and stream they were entered in. */
export interface GridPlace extends GridKey {
  form: string;
  stream: string | null;
}

/**
 * Writes a save's changes: new marks inserted, changed ones updated (their version up by one),
 * cleared ones deleted, and every change into the history; each kind in one statement per batch
 * (`inBatches`: a grid's 2,000 cells fit in one).
 */
export async function applyMarkChanges(
  tx: TenantTx,
  place: GridPlace,
  changes: ReadonlyArray<MarkChange & { id?: string }>,
  source: 'grid' | 'sheet',
): Promise<void> {
  const userId = tx.userId;
  const stored = (value: Exclude<MarkValue, null>) => (value === ABSENT ? { mark: null, absent: true } : { mark: value, absent: false });
  const added = changes.filter((change) => change.id === undefined && change.new !== null);
  const changed = changes.filter((change) => change.id !== undefined && change.new !== null);
  const cleared = changes.filter((change) => change.id !== undefined && change.new === null);
  await inBatches(
    added.map((change) => ({
      ...cellRow(tx, place, change),
      user_id: userId,
      ...stored(change.new as Exclude<MarkValue, null>),
    })),
    (rows) => tx.trx.insertInto('marks').values(rows).execute(),
  );
  await inBatches(changed, (batch) => {
    const values = sql.join(
      batch.map((change) => {
        const { mark, absent } = stored(change.new as Exclude<MarkValue, null>);
        return sql`(${change.id}::uuid, ${mark}::numeric, ${absent}::boolean)`;
      }),
    );
    return sql`
      UPDATE marks SET mark = v.mark, absent = v.absent, version = marks.version + 1, user_id = ${userId}, updated_at = now()
      FROM (VALUES ${values}) AS v (id, mark, absent)
      WHERE marks.tenant_id = ${tx.tenantId} AND marks.id = v.id
    `.execute(tx.trx);
  });
  await inBatches(
    cleared.map((change) => change.id as string),
    (ids) => tx.trx.deleteFrom('marks').$call(inTenant(tx.tenantId)).where('id', 'in', ids).execute(),
  );
  await recordHistory(tx, place, changes, source);
}

/** What a mark and its history row both say of a cell: the school, a new id, the learner, the grid's place, the mark type. */
function cellRow(tx: TenantTx, place: GridPlace, change: MarkChange) {
  return {
    tenant_id: tx.tenantId,
    id: newId(),
    student_id: change.student_id,
    subject_id: place.subject_id,
    marktype_id: change.marktype_id,
    form: place.form,
    stream: place.stream,
    term: place.term,
    year: place.year,
    paper: place.paper,
    topic_id: place.topic_id,
  };
}

/** History rows of changes (deletions too), in as few inserts as the parameter limit allows. */
export async function recordHistory(
  tx: TenantTx,
  place: GridPlace,
  changes: ReadonlyArray<MarkChange>,
  source: 'grid' | 'sheet' | 'delete',
): Promise<void> {
  await inBatches(
    changes.map((change) => ({
      ...cellRow(tx, place, change),
      old_value: markText(change.old),
      new_value: markText(change.new),
      source,
      user_id: tx.userId,
    })),
    (rows) => tx.trx.insertInto('mark_history').values(rows).execute(),
  );
}

/** What one bulk delete names: a class's term, narrowed by stream, paper, subject, mark type or competency. */
export type MarksFilter = z.infer<typeof MarksDeleteSchema>;

/**
 * Deletes the marks the filter names, each with its history row ('delete', the value it had),
 * in two statements whatever their number: the marks are locked and read, then one statement
 * deletes them and writes their history from arrays (one parameter each), where rows of values
 * would pass PostgreSQL's 65,535 parameters at a class's term of some thousands of marks.
 * Answers how many were deleted.
 */
export async function deleteMarksWithHistory(tx: TenantTx, filter: MarksFilter): Promise<number> {
  let doomed = tx.trx
    .selectFrom('marks')
    .select(['id', 'mark', 'absent'])
    .$call(inTenant(tx.tenantId))
    .where(sql<boolean>`lower(form) = lower(${filter.form})`)
    .where('term', '=', filter.term)
    .where('year', '=', filter.year);
  if (filter.stream !== null) doomed = doomed.where(sql<boolean>`lower(coalesce(stream, '')) = lower(${filter.stream})`);
  if (filter.paper) doomed = doomed.where('paper', '=', filter.paper);
  if (filter.subject_id) doomed = doomed.where('subject_id', '=', filter.subject_id);
  if (filter.marktype_id) doomed = doomed.where('marktype_id', '=', filter.marktype_id);
  if (filter.topic_id) doomed = doomed.where('topic_id', '=', filter.topic_id);
  const rows = await doomed.forUpdate().execute();
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  const historyIds = rows.map(() => newId());
  const oldValues = rows.map((row) => markText(markOf(row)));
  await sql`
    WITH deleted AS (
      DELETE FROM marks
      USING unnest(${ids}::uuid[], ${historyIds}::uuid[], ${oldValues}::text[]) AS d (id, history_id, old_value)
      WHERE marks.tenant_id = ${tx.tenantId} AND marks.id = d.id
      RETURNING marks.tenant_id, d.history_id, marks.student_id, marks.subject_id, marks.marktype_id, marks.form, marks.stream,
        marks.term, marks.year, marks.paper, marks.topic_id, d.old_value
    )
    INSERT INTO mark_history
      (tenant_id, id, student_id, subject_id, marktype_id, form, stream, term, year, paper, topic_id, old_value, new_value, source, user_id)
    SELECT tenant_id, history_id, student_id, subject_id, marktype_id, form, stream, term, year, paper, topic_id, old_value, NULL,
      'delete', ${tx.userId}::uuid
    FROM deleted
  `.execute(tx.trx);
  return rows.length;
}

/** The terms a school set for a year, in the order they start (none: the school keeps the defaults). */
export function termDatesOf(tx: TenantTx, year: number) {
  return tx.trx
    .selectFrom('term_dates')
    .select(['term', sql<string>`to_char(starts, 'YYYY-MM-DD')`.as('starts'), sql<string>`to_char(ends, 'YYYY-MM-DD')`.as('ends')])
    .$call(inTenant(tx.tenantId))
    .where('year', '=', year)
    .orderBy('starts')
    .execute();
}

/** The school's subject by id, with what says which papers it is written in. */
export function gridSubject(tx: TenantTx, subjectId: string) {
  return tx.trx
    .selectFrom('subjects')
    .select(['id', 'name', 'multiple_papers', 'multiple_paper_forms'])
    .$call(inTenant(tx.tenantId))
    .where('id', '=', subjectId)
    .executeTakeFirst();
}

/** How many papers a subject is written in for a class's term, if the school set it. */
export function subjectPapers(tx: TenantTx, where: { subject_id: string; form: string; term: string; year: number }) {
  return tx.trx
    .selectFrom('subject_papers')
    .select('papers')
    .$call(inTenant(tx.tenantId))
    .where('subject_id', '=', where.subject_id)
    .where(sql<boolean>`lower(form) = lower(${where.form})`)
    .where('term', '=', where.term)
    .where('year', '=', where.year)
    .executeTakeFirst();
}

/** The school's topic (competency) by id, if it is of this subject, with its class and term. */
export function subjectTopic(tx: TenantTx, topicId: string, subjectId: string) {
  return tx.trx
    .selectFrom('topics')
    .select(['id', 'title', 'form', 'term'])
    .$call(inTenant(tx.tenantId))
    .where('id', '=', topicId)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
}

/**
 * Claims a save's key for the user (its answer still null), dropping the school's keys older than
 * `keepDays` in the same statement; answers the key when claimed, nothing when it was already
 * there (a retry: it waits here for the first save's transaction to end).
 */
export function claimSaveId(tx: TenantTx, saveId: string, userId: string, keepDays: number) {
  return tx.trx
    .with('expired', (db) =>
      db
        .deleteFrom('mark_saves')
        .where('tenant_id', '=', tx.tenantId)
        .where(sql<boolean>`saved_at < now() - make_interval(days => ${keepDays})`),
    )
    .insertInto('mark_saves')
    .values({ tenant_id: tx.tenantId, save_id: saveId, user_id: userId, answer: JSON.stringify(null) })
    .onConflict((oc) => oc.columns(['tenant_id', 'save_id']).doNothing())
    .returning('save_id')
    .executeTakeFirst();
}

/** A claimed save key: who saved and what it answered (null until its save ended). */
export function savedAnswer(tx: TenantTx, saveId: string) {
  return tx.trx
    .selectFrom('mark_saves')
    .select(['answer', 'user_id'])
    .$call(inTenant(tx.tenantId))
    .where('save_id', '=', saveId)
    .executeTakeFirstOrThrow();
}

/** Keeps a save's answer on its key, for a retry. */
export async function keepSaveAnswer(tx: TenantTx, saveId: string, answer: unknown): Promise<void> {
  await tx.trx
    .updateTable('mark_saves')
    .set({ answer: JSON.stringify(answer) })
    .$call(inTenant(tx.tenantId))
    .where('save_id', '=', saveId)
    .execute();
}

/** The marks list's filters: class, stream, term, year, subject, paper, mark type, competency (each optional). */
export type MarksListFilter = z.infer<typeof marks.filters>;

/** The school's marks the list's filter names, with their learner, subject, mark type and writer. */
function filteredMarks(tx: TenantTx, filter: MarksListFilter) {
  let base = tx.trx
    .selectFrom('marks as m')
    .innerJoin('students as st', (join) => join.onRef('st.tenant_id', '=', 'm.tenant_id').onRef('st.id', '=', 'm.student_id'))
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
    .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .$call(inTenant(tx.tenantId, 'm.tenant_id'));
  if (filter.form) base = base.where(sql<boolean>`lower(m.form) = lower(${filter.form})`);
  if (filter.term) base = base.where('m.term', '=', filter.term);
  if (filter.year) base = base.where('m.year', '=', filter.year);
  if (filter.stream) base = base.where(sql<boolean>`lower(coalesce(m.stream, '')) = lower(${filter.stream})`);
  if (filter.subject_id) base = base.where('m.subject_id', '=', filter.subject_id);
  if (filter.paper) base = base.where('m.paper', '=', filter.paper);
  if (filter.marktype_id) base = base.where('m.marktype_id', '=', filter.marktype_id);
  if (filter.topic_id) base = base.where('m.topic_id', '=', filter.topic_id);
  return base;
}

/** One page of the marks list: by learner's name, subject, paper and mark type. */
export function markListRows(tx: TenantTx, filter: MarksListFilter, paging: { limit: number; offset: number }) {
  return filteredMarks(tx, filter)
    .select([
      'm.id',
      'm.student_id',
      'st.studentid',
      'st.firstname',
      'st.othername',
      'st.lastname',
      'm.form',
      'm.stream',
      'm.term',
      'm.year',
      'm.paper',
      's.name as sub',
      'u.name as user',
      't.label as marktype',
      'm.mark',
      'm.absent',
      'm.topic_id',
    ])
    .$call(byLearnerName('st'))
    .orderBy('s.name')
    .orderBy('m.paper')
    .orderBy('t.label')
    .limit(paging.limit)
    .offset(paging.offset)
    .execute();
}

/** How many marks the list's filter names. */
export async function countMarks(tx: TenantTx, filter: MarksListFilter): Promise<number> {
  const total = await tx.trx
    .selectFrom(filteredMarks(tx, filter).select('m.id').as('found'))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return total.n;
}

/**
 * A cell's history rows, newest first (at most 200): old and new as stored, the source, who and
 * when (UTC). A competency's AOI and the subject's plain mark under one mark type are two cells:
 * `topic_id` names the competency's, its absence the plain mark's.
 */
export function markHistoryRows(
  tx: TenantTx,
  cell: {
    student_id: string;
    subject_id: string;
    marktype_id: string;
    term: string;
    year: number;
    paper: string;
    topic_id?: string | undefined;
  },
) {
  return tx.trx
    .selectFrom('mark_history as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select([
      'h.old_value',
      'h.new_value',
      'h.source',
      'u.name as user',
      sql<string>`to_char(h.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as('at'),
    ])
    .$call(inTenant(tx.tenantId, 'h.tenant_id'))
    .where('h.student_id', '=', cell.student_id)
    .where('h.subject_id', '=', cell.subject_id)
    .where('h.marktype_id', '=', cell.marktype_id)
    .where('h.term', '=', cell.term)
    .where('h.year', '=', cell.year)
    .where('h.paper', '=', cell.paper)
    .where((eb) => (cell.topic_id ? eb('h.topic_id', '=', cell.topic_id) : eb('h.topic_id', 'is', null)))
    .orderBy('h.changed_at', 'desc')
    .orderBy('h.id')
    .limit(200)
    .execute();
}
