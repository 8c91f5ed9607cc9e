import { invoiceBalance, type Settlement } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';

/*
 * What is settled on invoices (issue 32 point 1; guide business.md "Documents"): the gross
 * total, what credit and debit memos took off and added, and what receipts allocated to it.
 * Paid, part-paid, unpaid and overdue are derived from these and the due date (shared
 * paymentStatus), never stored. Receipts and memos (H4) and the debtors report (H6) read here.
 */

export interface InvoiceSettlement extends Settlement {
  balance: string;
  customer_id: string;
  currency_code: string;
  number: string | null;
  status: 'draft' | 'issued';
  due_on: string;
}

/** The most invoices one call reads: a receipt allocates to at most a page of them. */
const MAX_INVOICES = 1000;

/**
 * Each of the business's invoices among `invoiceIds` (another business's are not found) with its
 * settlement and balance (gross + debited - credited - paid). Call `lockInvoices` first when the
 * answer decides a write (an allocation, a memo), so no other receipt moves it meanwhile.
 */
export async function invoiceSettlements(tx: TenantTx, invoiceIds: ReadonlyArray<string>): Promise<Map<string, InvoiceSettlement>> {
  const ids = [...new Set(invoiceIds)];
  if (ids.length === 0) return new Map();
  if (ids.length > MAX_INVOICES) throw new RangeError(`invoiceSettlements: ${ids.length} invoices are more than ${MAX_INVOICES}`);
  const result = await sql<{
    id: string;
    customer_id: string;
    currency_code: string;
    number: string | null;
    status: 'draft' | 'issued';
    due_on: string;
    gross_total: string;
    paid: string;
    credited: string;
    debited: string;
  }>`
    SELECT i.id, i.customer_id, i.currency_code, i.number, i.status, i.due_on::text AS due_on, i.gross_total::text AS gross_total,
           coalesce((SELECT sum(a.amount) FROM receipt_allocations a WHERE a.tenant_id = i.tenant_id AND a.invoice_id = i.id), 0)::text AS paid,
           coalesce((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'credit'), 0)::text AS credited,
           coalesce((SELECT sum(m.gross_total) FROM memos m WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'debit'), 0)::text AS debited
      FROM invoices i
     WHERE i.tenant_id = ${tx.tenantId} AND i.id IN (${sql.join(ids)})`.execute(tx.trx);
  return new Map(
    result.rows.map((row) => {
      const settlement: Settlement = { gross_total: row.gross_total, paid: row.paid, credited: row.credited, debited: row.debited };
      return [
        row.id,
        {
          ...settlement,
          balance: invoiceBalance(settlement),
          customer_id: row.customer_id,
          currency_code: row.currency_code,
          number: row.number,
          status: row.status,
          due_on: row.due_on,
        },
      ];
    }),
  );
}

/**
 * Locks the business's invoices among `invoiceIds` to the end of the transaction (SELECT ... FOR
 * UPDATE, in id order, so two receipts of the same invoices never wait on each other in a
 * circle): a receipt or memo that then reads their balances is the only one moving them.
 */
export async function lockInvoices(tx: TenantTx, invoiceIds: ReadonlyArray<string>): Promise<void> {
  const ids = [...new Set(invoiceIds)].sort();
  if (ids.length === 0) return;
  if (ids.length > MAX_INVOICES) throw new RangeError(`lockInvoices: ${ids.length} invoices are more than ${MAX_INVOICES}`);
  await tx.trx
    .selectFrom('invoices')
    .select('id')
    .where('tenant_id', '=', tx.tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}
