import type { StudentInput } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import type { DB, NewStudent } from '../../db/types.js';
import { LEARNER_COLUMNS, type LearnerColumn } from './students.repository.js';

/*
 * The bulk upload's queries (upload.service.ts holds its rules): the school's learners and
 * categories as the upload compares them, its writes in batches, and the headings the school
 * told it about.
 */

/** A learner as the upload compares them: the learner columns as text (dates as YYYY-MM-DD). */
export type ExistingLearner = { id: string; studentid: string } & Record<LearnerColumn, string | null>;

/** The school's learners, every learner column as text to compare with a sheet's, by student id. */
export async function learnersToCompare(tx: TenantTx): Promise<ExistingLearner[]> {
  const rows = await tx.trx
    .selectFrom('students')
    .$call(inTenant(tx.tenantId))
    .select(['id', 'studentid'])
    // Every learner column as text to compare with the sheet's (a date as YYYY-MM-DD).
    .select(LEARNER_COLUMNS.map((column) => (column === 'dob' ? sql<string | null>`dob::text`.as('dob') : sql.ref(column).as(column))))
    .orderBy('studentid')
    .execute();
  return rows as ExistingLearner[];
}

/** The school's student categories, by name. */
export async function studentCategories(tx: TenantTx): Promise<Array<{ id: string; name: string }>> {
  return tx.trx.selectFrom('student_categories').$call(inTenant(tx.tenantId)).select(['id', 'name']).orderBy('name').execute();
}

/** A learner to write: their student id and what the sheet gives. */
export interface LearnerWrite {
  studentid: string;
  input: StudentInput;
}

/** The rows to write: the tenant, a new id (kept only by an insert), the student id and `columns` of the input. */
function rowsOf(tx: TenantTx, writes: ReadonlyArray<LearnerWrite>, columns: ReadonlyArray<LearnerColumn>): NewStudent[] {
  return writes.map(({ studentid, input }) => {
    const row: Record<string, unknown> = { tenant_id: tx.tenantId, id: newId(), studentid };
    for (const column of columns) row[column] = input[column];
    return row as unknown as NewStudent;
  });
}

/**
 * New learners with `columns`, as multi-row INSERTs in batches (`inBatches`): a student id
 * another learner of the school has fails the statement (unique violation), nothing overwritten.
 */
export async function insertLearners(
  tx: TenantTx,
  writes: ReadonlyArray<LearnerWrite>,
  columns: ReadonlyArray<LearnerColumn>,
): Promise<void> {
  const db = tx.trx as unknown as Kysely<DB>;
  await inBatches(rowsOf(tx, writes, columns), (rows) => db.insertInto('students').values(rows).execute());
}

/**
 * Existing learners' `columns` set from the input, matched by student id: the same multi-row
 * INSERT in batches, turned into an UPDATE of those columns (ON CONFLICT (tenant_id, studentid)).
 */
export async function updateLearners(
  tx: TenantTx,
  writes: ReadonlyArray<LearnerWrite>,
  columns: ReadonlyArray<LearnerColumn>,
): Promise<void> {
  const db = tx.trx as unknown as Kysely<DB>;
  await inBatches(rowsOf(tx, writes, columns), (rows) =>
    db
      .insertInto('students')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'studentid']).doUpdateSet(() => {
          const set: Record<string, unknown> = { updated_at: sql`now()` };
          for (const column of columns) set[column] = sql.ref(`excluded.${column}`);
          return set as never;
        }),
      )
      .execute(),
  );
}

/** The headings the school told the learner upload about, each with the field (or ignore) it chose. */
export async function learnerUploadMappings(tx: TenantTx): Promise<Array<{ header: string; field: string }>> {
  return tx.trx
    .selectFrom('upload_mappings')
    .$call(inTenant(tx.tenantId))
    .where('kind', '=', 'students')
    .select(['header', 'field'])
    .execute();
}

/** Remembers (or replaces) the field chosen for each heading of the learner upload. */
export async function saveLearnerUploadMappings(tx: TenantTx, mappings: ReadonlyArray<{ header: string; field: string }>): Promise<void> {
  if (mappings.length === 0) return;
  await tx.trx
    .insertInto('upload_mappings')
    .values(mappings.map(({ header, field }) => ({ tenant_id: tx.tenantId, kind: 'students' as const, header, field })))
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'kind', 'header']).doUpdateSet({ field: sql.ref('excluded.field'), updated_at: sql`now()` }),
    )
    .execute();
}
