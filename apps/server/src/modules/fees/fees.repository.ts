import { sql } from 'kysely';
import { inBatches } from '../../db/batches.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * Fee journals and statement lines (issue 5 points 4 and 5): the queries of the journal upload
 * and of a learner's statement; the rules are in fees.service.ts.
 */

/** Every learner of the school with the keys a journal row may name them by. */
export function learnerKeys(tx: TenantTx) {
  return tx.trx.selectFrom('students').select(['id', 'studentid', 'paymentcode']).$call(inTenant(tx.tenantId)).execute();
}

/** The journal of this file (by its hash) for the term, if it was uploaded before. */
export function journalOfFile(tx: TenantTx, which: { sha256: string; term: string; year: number }) {
  return tx.trx
    .selectFrom('fee_journals')
    .select(['id', 'uploaded_at', 'invoice_position', 'receipt_position'])
    .$call(inTenant(tx.tenantId))
    .where('sha256', '=', which.sha256)
    .where('term', '=', which.term)
    .where('year', '=', which.year)
    .executeTakeFirst();
}

/** A journal's statement lines as a journal reads them (date as text, amount as a number). */
export function linesOfJournal(tx: TenantTx, journalId: string) {
  return tx.trx
    .selectFrom('statement_lines')
    .select(['student_id', 'particulars', 'category'])
    .select([sql<string>`date::text`.as('date'), sql<number>`amount::float8`.as('amount')])
    .$call(inTenant(tx.tenantId))
    .where('journal_id', '=', journalId)
    .execute();
}

/** Empties a journal to write it again, with the positions of its new upload. */
export async function resetJournal(
  tx: TenantTx,
  journalId: string,
  upload: { fileName: string | null; invoice: number; receipt: number },
): Promise<void> {
  await tx.trx.deleteFrom('statement_lines').$call(inTenant(tx.tenantId)).where('journal_id', '=', journalId).execute();
  await tx.trx
    .updateTable('fee_journals')
    .set({ file_name: upload.fileName, invoice_position: upload.invoice, receipt_position: upload.receipt })
    .$call(inTenant(tx.tenantId))
    .where('id', '=', journalId)
    .execute();
}

/** Writes a new journal, uploaded by the acting user. */
export async function insertJournal(
  tx: TenantTx,
  journal: { id: string; sha256: string; fileName: string | null; term: string; year: number; invoice: number; receipt: number },
): Promise<void> {
  await tx.trx
    .insertInto('fee_journals')
    .values({
      tenant_id: tx.tenantId,
      id: journal.id,
      sha256: journal.sha256,
      file_name: journal.fileName,
      term: journal.term,
      year: journal.year,
      invoice_position: journal.invoice,
      receipt_position: journal.receipt,
      uploaded_by: tx.userId,
    })
    .execute();
}

/** Writes a journal's lines in sheet order (ids are time-ordered, so a learner's lines of one date keep it). */
export async function insertStatementLines(
  tx: TenantTx,
  journal: { id: string; term: string; year: number },
  lines: ReadonlyArray<{ student_id: string; date: string; particulars: string; category: 'invoice' | 'receipt'; amount: number }>,
): Promise<void> {
  await inBatches(
    lines.map((line) => ({ tenant_id: tx.tenantId, id: newId(), journal_id: journal.id, term: journal.term, year: journal.year, ...line })),
    (rows) => tx.trx.insertInto('statement_lines').values(rows).execute(),
  );
}

/** Whether the school has this learner. */
export async function learnerExists(tx: TenantTx, id: string): Promise<boolean> {
  const row = await tx.trx.selectFrom('students').select('id').$call(inTenant(tx.tenantId)).where('id', '=', id).executeTakeFirst();
  return Boolean(row);
}

/** A learner's statement lines by date, then as written. */
export function statementLinesOf(tx: TenantTx, studentId: string) {
  return tx.trx
    .selectFrom('statement_lines')
    .select(['id', 'particulars', 'category'])
    .select([sql<string>`date::text`.as('date'), sql<number>`amount::float8`.as('amount')])
    .$call(inTenant(tx.tenantId))
    .where('student_id', '=', studentId)
    .orderBy('date')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
