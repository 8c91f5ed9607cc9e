import {
  BUSINESS_REPORT_MESSAGES,
  type CashupFact,
  type CustomerAdvanceFact,
  type DebtorInvoiceFact,
  MAX_REPORT_ROWS,
  type MobileMoneyReceipt,
  type ProfitFacts,
  type VatInputFact,
  type VatOutputFact,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { invalid } from '../../errors.js';

/*
 * The facts the shop's reports are built from (migration 0028's documents), read in the report's
 * one tenant transaction. Sums are taken by the database in numeric (exact); the building of rows
 * and totals is shared business/reports.ts. Only issued invoices and paid vouchers count; a
 * document dated outside the period does not. Invoices and memos in another currency are counted
 * in the business's own by the invoice's rate where the report is the business's (VAT, profit);
 * money received and owed stays in the currency it is in (a drawer of dollars is counted apart).
 */

/** Refuses a report whose detail rows pass the bound (read one more than it to know). */
function bounded<Row>(rows: Row[], field: 'from' | 'date' | 'month'): Row[] {
  if (rows.length > MAX_REPORT_ROWS) throw invalid({ [field]: [BUSINESS_REPORT_MESSAGES.tooManyRows] });
  return rows;
}

/** Each currency's decimals (UGX 0) and the business's own currency (its default; UGX when it has none). */
export async function currencies(tx: TenantTx): Promise<{ decimals: Record<string, number>; own: { code: string; decimals: number } }> {
  const rows = await tx.trx
    .selectFrom('currencies')
    .select(['code', 'decimals', 'is_default'])
    .where('tenant_id', '=', tx.tenantId)
    .orderBy('code')
    .execute();
  const decimals: Record<string, number> = { UGX: 0 };
  for (const row of rows) decimals[row.code] = Number(row.decimals);
  const own = rows.find((row) => row.is_default);
  return { decimals, own: own ? { code: own.code, decimals: Number(own.decimals) } : { code: 'UGX', decimals: 0 } };
}

/** Receipts of from..to summed by day, method, currency and who recorded them. */
export async function cashupFacts(tx: TenantTx, from: string, to: string): Promise<CashupFact[]> {
  const result = await sql<CashupFact & { count: number | string }>`
    SELECT r.received_on::text AS day, r.method, r.currency_code, r.created_by AS cashier_id, u.name AS cashier_name,
           count(*)::int AS count, sum(r.amount)::text AS amount
      FROM receipts r
      LEFT JOIN users u ON u.id = r.created_by
     WHERE r.tenant_id = ${tx.tenantId} AND r.received_on BETWEEN ${from}::date AND ${to}::date
     GROUP BY r.received_on, r.method, r.currency_code, r.created_by, u.name`.execute(tx.trx);
  return result.rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** The mobile-money receipts of from..to, each with its transaction reference. */
export async function mobileMoneyReceipts(tx: TenantTx, from: string, to: string): Promise<MobileMoneyReceipt[]> {
  const result = await sql<MobileMoneyReceipt>`
    SELECT r.id AS receipt_id, r.number, r.received_on::text AS received_on, r.method, r.reference, r.amount::text AS amount,
           r.currency_code, c.name AS customer_name, u.name AS cashier_name
      FROM receipts r
      JOIN companies c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      LEFT JOIN users u ON u.id = r.created_by
     WHERE r.tenant_id = ${tx.tenantId} AND r.received_on BETWEEN ${from}::date AND ${to}::date
       AND r.method IN ('mtn_momo', 'airtel_money')
     ORDER BY r.received_on, r.number
     LIMIT ${MAX_REPORT_ROWS + 1}`.execute(tx.trx);
  return bounded(result.rows, 'from');
}

/** Issued invoices with something left to pay on `date`: memos issued and allocations made by then. */
export async function openInvoiceFacts(tx: TenantTx, date: string): Promise<DebtorInvoiceFact[]> {
  const result = await sql<DebtorInvoiceFact>`
    SELECT * FROM (
      SELECT i.id AS invoice_id, i.number, i.customer_id, c.name AS customer_name, i.currency_code,
             i.issued_on::text AS issued_on, i.due_on::text AS due_on, i.gross_total::text AS gross_total,
             COALESCE((SELECT sum(m.gross_total) FROM memos m
                        WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'credit' AND m.issued_on <= ${date}::date), 0)::text AS credited,
             COALESCE((SELECT sum(m.gross_total) FROM memos m
                        WHERE m.tenant_id = i.tenant_id AND m.invoice_id = i.id AND m.kind = 'debit' AND m.issued_on <= ${date}::date), 0)::text AS debited,
             COALESCE((SELECT sum(a.amount) FROM receipt_allocations a
                        WHERE a.tenant_id = i.tenant_id AND a.invoice_id = i.id AND a.allocated_on <= ${date}::date), 0)::text AS paid
        FROM invoices i
        JOIN companies c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
       WHERE i.tenant_id = ${tx.tenantId} AND i.status = 'issued' AND i.issued_on <= ${date}::date
    ) open
     WHERE gross_total::numeric + debited::numeric - credited::numeric - paid::numeric > 0
     ORDER BY customer_id, due_on, number
     LIMIT ${MAX_REPORT_ROWS + 1}`.execute(tx.trx);
  return bounded(result.rows, 'date');
}

/** Per customer and currency: money received by `date` (with tax withheld) and what of it was allocated by then. */
export async function advanceFacts(tx: TenantTx, date: string): Promise<CustomerAdvanceFact[]> {
  const result = await sql<CustomerAdvanceFact>`
    SELECT r.customer_id, c.name AS customer_name, r.currency_code,
           sum(r.amount + r.wht_amount)::text AS received,
           COALESCE(sum((SELECT sum(a.amount) FROM receipt_allocations a
                          WHERE a.tenant_id = r.tenant_id AND a.receipt_id = r.id AND a.allocated_on <= ${date}::date)), 0)::text AS allocated
      FROM receipts r
      JOIN companies c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
     WHERE r.tenant_id = ${tx.tenantId} AND r.received_on <= ${date}::date
     GROUP BY r.customer_id, c.name, r.currency_code`.execute(tx.trx);
  return result.rows;
}

/**
 * Output VAT of from..to per source and tax code, in the business's currency: issued invoices'
 * lines, credit and debit memos' lines (a memo without lines by its totals, under no code).
 */
export async function vatOutputFacts(tx: TenantTx, from: string, to: string): Promise<VatOutputFact[]> {
  const result = await sql<VatOutputFact>`
    SELECT 'invoice' AS source, l.tax_code, l.tax_kind, l.tax_rate::text AS tax_rate,
           sum(round(l.net * i.rate, 4))::text AS net, sum(round(l.tax * i.rate, 4))::text AS tax,
           sum(round(l.gross * i.rate, 4))::text AS gross
      FROM invoice_lines l
      JOIN invoices i ON i.tenant_id = l.tenant_id AND i.id = l.invoice_id
     WHERE i.tenant_id = ${tx.tenantId} AND i.status = 'issued' AND i.issued_on BETWEEN ${from}::date AND ${to}::date
     GROUP BY l.tax_code, l.tax_kind, l.tax_rate
    UNION ALL
    SELECT CASE m.kind WHEN 'credit' THEN 'credit_memo' ELSE 'debit_memo' END, ml.tax_code, ml.tax_kind, ml.tax_rate::text,
           sum(round(ml.net * i.rate, 4))::text, sum(round(ml.tax * i.rate, 4))::text, sum(round(ml.gross * i.rate, 4))::text
      FROM memo_lines ml
      JOIN memos m ON m.tenant_id = ml.tenant_id AND m.id = ml.memo_id
      JOIN invoices i ON i.tenant_id = m.tenant_id AND i.id = m.invoice_id
     WHERE m.tenant_id = ${tx.tenantId} AND m.issued_on BETWEEN ${from}::date AND ${to}::date
     GROUP BY m.kind, ml.tax_code, ml.tax_kind, ml.tax_rate
    UNION ALL
    SELECT CASE m.kind WHEN 'credit' THEN 'credit_memo' ELSE 'debit_memo' END, NULL, NULL, '0',
           sum(round(m.net_total * i.rate, 4))::text, sum(round(m.tax_total * i.rate, 4))::text,
           sum(round(m.gross_total * i.rate, 4))::text
      FROM memos m
      JOIN invoices i ON i.tenant_id = m.tenant_id AND i.id = m.invoice_id
     WHERE m.tenant_id = ${tx.tenantId} AND m.issued_on BETWEEN ${from}::date AND ${to}::date
       AND NOT EXISTS (SELECT 1 FROM memo_lines ml WHERE ml.tenant_id = m.tenant_id AND ml.memo_id = m.id)
     GROUP BY m.kind`.execute(tx.trx);
  return result.rows;
}

/** Vouchers paid in from..to whose lines carry VAT: the input VAT to claim. */
export async function vatInputFacts(tx: TenantTx, from: string, to: string): Promise<VatInputFact[]> {
  const result = await sql<VatInputFact>`
    SELECT v.id AS voucher_id, v.number, v.paid_on::text AS paid_on, v.payee_name,
           sum(vl.amount - vl.tax)::text AS net, sum(vl.tax)::text AS tax, sum(vl.amount)::text AS gross
      FROM vouchers v
      JOIN voucher_lines vl ON vl.tenant_id = v.tenant_id AND vl.voucher_id = v.id
     WHERE v.tenant_id = ${tx.tenantId} AND v.status = 'paid' AND v.paid_on BETWEEN ${from}::date AND ${to}::date
     GROUP BY v.id, v.number, v.paid_on, v.payee_name
    HAVING sum(vl.tax) > 0
     ORDER BY v.paid_on, v.number
     LIMIT ${MAX_REPORT_ROWS + 1}`.execute(tx.trx);
  return bounded(result.rows, 'month');
}

/**
 * The profit's figures for from..to: sales and memos net of VAT (by the invoice's rate), the cost
 * of what was sold (the lines' unit cost, kept at issue) less what came back to stock, and the
 * expense lines of paid vouchers net of their VAT, by account.
 */
export async function profitFacts(tx: TenantTx, from: string, to: string): Promise<ProfitFacts> {
  const sums = await sql<Omit<ProfitFacts, 'expenses'>>`
    SELECT
      (SELECT COALESCE(sum(round(i.net_total * i.rate, 4)), 0) FROM invoices i
        WHERE i.tenant_id = ${tx.tenantId} AND i.status = 'issued' AND i.issued_on BETWEEN ${from}::date AND ${to}::date)::text AS sales,
      (SELECT COALESCE(sum(round(m.net_total * i.rate, 4)), 0) FROM memos m
         JOIN invoices i ON i.tenant_id = m.tenant_id AND i.id = m.invoice_id
        WHERE m.tenant_id = ${tx.tenantId} AND m.kind = 'credit' AND m.issued_on BETWEEN ${from}::date AND ${to}::date)::text AS credit_memos,
      (SELECT COALESCE(sum(round(m.net_total * i.rate, 4)), 0) FROM memos m
         JOIN invoices i ON i.tenant_id = m.tenant_id AND i.id = m.invoice_id
        WHERE m.tenant_id = ${tx.tenantId} AND m.kind = 'debit' AND m.issued_on BETWEEN ${from}::date AND ${to}::date)::text AS debit_memos,
      (SELECT COALESCE(sum(round(l.quantity * l.unit_cost, 4)), 0) FROM invoice_lines l
         JOIN invoices i ON i.tenant_id = l.tenant_id AND i.id = l.invoice_id
        WHERE i.tenant_id = ${tx.tenantId} AND i.status = 'issued' AND i.issued_on BETWEEN ${from}::date AND ${to}::date)::text AS cost_of_sales,
      (SELECT COALESCE(sum(round(ml.quantity * ml.unit_cost, 4)), 0) FROM memo_lines ml
         JOIN memos m ON m.tenant_id = ml.tenant_id AND m.id = ml.memo_id
        WHERE m.tenant_id = ${tx.tenantId} AND m.kind = 'credit' AND m.restock
          AND m.issued_on BETWEEN ${from}::date AND ${to}::date)::text AS returns_cost`.execute(tx.trx);
  const expenses = await sql<ProfitFacts['expenses'][number]>`
    SELECT a.id AS account_id, a.code, a.name, sum(vl.amount - vl.tax)::text AS amount
      FROM vouchers v
      JOIN voucher_lines vl ON vl.tenant_id = v.tenant_id AND vl.voucher_id = v.id
      JOIN accounts a ON a.tenant_id = vl.tenant_id AND a.id = vl.account_id
     WHERE v.tenant_id = ${tx.tenantId} AND v.status = 'paid' AND v.paid_on BETWEEN ${from}::date AND ${to}::date
       AND a.type = 'expense'
     GROUP BY a.id, a.code, a.name`.execute(tx.trx);
  const [row] = sums.rows;
  if (!row) throw new Error('The profit sums answered no row');
  return { ...row, expenses: expenses.rows };
}
