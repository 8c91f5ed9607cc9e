import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';

/*
 * The way into EFRIS for the documents that must be fiscalised (issue 32 point 7): an issued
 * invoice (T109) or credit note (T110). Called by the issuing service inside its transaction:
 * the document becomes "fiscal: pending" and a row of the EFRIS outbox is due at once, both
 * committed with the issue or not at all. Nothing here talks to URA, so an issue never fails or
 * waits because URA is down; the EFRIS worker (worker.ts) sends after commit.
 */

export type FiscalDocumentKind = 'invoice' | 'credit_memo';

/** Tenants that queued something since the worker last looked: a hint to send soon (install.ts). */
const hinted = new Set<string>();
const listeners = new Set<() => void>();
/** After this long a queued document's transaction has most likely committed: the worker looks then too. */
const HINT_DELAY_MS = 250;

/** Takes the hints (the app does when a response went out, i.e. after the action's commit). */
export function takeFiscalHints(): string[] {
  const tenants = [...hinted];
  hinted.clear();
  return tenants;
}

/** Calls `wake` a moment after a document is queued; answers how to stop. */
export function onFiscalHint(wake: () => void): () => void {
  listeners.add(wake);
  return () => listeners.delete(wake);
}

function hint(tenantId: string): void {
  hinted.add(tenantId);
  const timer = setTimeout(() => {
    for (const wake of listeners) wake();
  }, HINT_DELAY_MS);
  timer.unref();
}

/**
 * A no-op unless the business's Efris flag (`tenants.efrist`) is on, and for a debit memo
 * (URA fiscalises invoices and credit notes). Otherwise sets the document's fiscal_status to
 * 'pending' and queues it; queueing the same document twice keeps the one row.
 */
export async function queueFiscalDocument(tx: TenantTx, doc: { kind: FiscalDocumentKind; id: string }): Promise<void> {
  const tenant = await tx.trx.selectFrom('tenants').select('efrist').where('id', '=', tx.tenantId).executeTakeFirst();
  if (!tenant?.efrist) return;
  let reference: string | null;
  if (doc.kind === 'invoice') {
    const invoice = await tx.trx
      .updateTable('invoices')
      .set({ fiscal_status: 'pending', updated_at: sql`now()` })
      .where('tenant_id', '=', tx.tenantId)
      .where('id', '=', doc.id)
      .where('status', '=', 'issued')
      .where('fiscal_status', 'in', ['none', 'failed'])
      .returning('number')
      .executeTakeFirst();
    reference = invoice?.number ?? null;
  } else {
    const memo = await tx.trx
      .updateTable('memos')
      .set({ fiscal_status: 'pending', updated_at: sql`now()` })
      .where('tenant_id', '=', tx.tenantId)
      .where('id', '=', doc.id)
      .where('kind', '=', 'credit')
      .where('fiscal_status', 'in', ['none', 'failed'])
      .returning('number')
      .executeTakeFirst();
    reference = memo?.number ?? null;
  }
  // Not issued, not a credit note, or already queued: nothing to fiscalise again.
  if (!reference) return;
  await tx.trx
    .insertInto('efris_outbox')
    .values({
      tenant_id: tx.tenantId,
      id: randomUUID(),
      document_kind: doc.kind,
      document_id: doc.id,
      interface_code: doc.kind === 'invoice' ? 'T109' : 'T110',
      reference,
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'document_kind', 'document_id']).doNothing())
    .execute();
  hint(tx.tenantId);
}
