import {
  type AllocationInput,
  type AllocationsInput,
  BUSINESS_MESSAGES,
  Decimal,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_ACCOUNT,
  type Receipt,
  type ReceiptAnswer,
  type ReceiptInput,
  type ReceiptsQuerySchema,
  receiptPostings,
  SETTINGS_MESSAGES,
  STOCK_MESSAGES,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { type FieldErrors, invalid, notFound } from '../../errors.js';
import { rowsToWorkbook, timestampedFileName } from '../../resources/excel.js';
import { accountIdByKey } from '../accounts/accounts.repository.js';
import { nextDocumentNumber } from '../accounts/numbering.js';
import { postEntry } from '../accounts/postings.js';
import { invoiceSettlements, lockInvoices } from '../sales/balances.js';
import {
  accountOf,
  allocationsOf,
  currencyDecimals,
  defaultCurrency,
  insertAllocations,
  insertReceipt,
  invoiceExists,
  issuedInvoicesOf,
  type NewAllocation,
  partnerOf,
  type ReceiptRecord,
  receiptOfRequest,
  receiptRecords,
  whdutyOf,
} from './receipts.repository.js';

/*
 * Getting paid (issue 32 point 2): one receipt is one transaction that numbers it (RCT-000001,
 * no gaps), settles the invoices it is allocated to, keeps the rest as the customer's advance,
 * and posts Dr cash/bank/MoMo (+ WHT receivable) / Cr debtors. Allocations never exceed what
 * remains on an invoice: the invoices are locked (sales balances.ts) before their balances are
 * read, so two receipts for one invoice take turns and the second sees the first's allocation.
 */

/** What recording a receipt takes: the action's transaction and who acts (the counter sale hands its own). */
export interface PaymentContext {
  readonly tx: TenantTx;
  readonly member?: { readonly userId: string } | null;
}

/** What sales/balances.ts knows of an invoice's settlement. */
type Settled = Awaited<ReturnType<typeof invoiceSettlements>> extends Map<string, infer S> ? S : never;

/** The money accounts a receipt may go into. */
const MONEY_SUBTYPES = new Set(['cash', 'bank', 'mobile_money']);

/** A numeric as its shortest exact text ("10.0000" -> "10"). */
const exact = (value: string | number) => new Decimal(value).toFixed();

/** Today in Kampala (UTC+3), the day a later allocation is dated by default. */
const kampalaToday = () => new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10);

function toReceipt(row: ReceiptRecord, allocations: Receipt['allocations']): Receipt {
  const settled = new Decimal(row.amount).plus(row.wht_amount);
  return {
    id: row.id,
    number: row.number,
    customer: { id: row.customer_id, name: row.customer_name },
    received_on: row.received_on,
    method: row.method,
    reference: row.reference,
    account: { id: row.account_id, code: row.account_code, name: row.account_name },
    currency_code: row.currency_code,
    amount: exact(row.amount),
    wht_amount: exact(row.wht_amount),
    allocated: exact(row.allocated),
    unallocated: settled.minus(row.allocated).toFixed(),
    created_at: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at),
    whduty: row.whduty_id && row.whduty_code ? { id: row.whduty_id, code: row.whduty_code, name: row.whduty_name ?? '' } : null,
    wht_certificate: row.wht_certificate,
    invoice_id: row.invoice_id,
    notes: row.notes,
    created_by: row.created_by_name === null ? null : { name: row.created_by_name },
    allocations,
  };
}

/** One receipt with its allocations, or undefined when the business has no such receipt. */
async function loadReceipt(tx: TenantTx, id: string): Promise<Receipt | undefined> {
  const [row] = await receiptRecords(tx, { id, page: 1, per_page: 1 });
  if (!row) return undefined;
  const allocations = await allocationsOf(tx, id);
  return toReceipt(
    row,
    allocations.map((allocation) => ({ ...allocation, amount: exact(allocation.amount) })),
  );
}

async function answerOf(tx: TenantTx, id: string, created: boolean, message: string): Promise<ReceiptAnswer> {
  const receipt = await loadReceipt(tx, id);
  if (!receipt) throw notFound();
  return { message, created, receipt };
}

/** GET /api/receipts/:id */
export async function receiptById({ tx }: { tx: TenantTx }, id: string): Promise<Receipt> {
  const receipt = await loadReceipt(tx, id);
  if (!receipt) throw notFound();
  return receipt;
}

/**
 * Checks allocations against the invoices they settle, locked first: each invoice must be the
 * business's (else 404), issued, of the customer, in the receipt's currency, and each amount
 * within what remains to be paid on it (422 on `<prefix>.<i>.amount`). Answers the currency of
 * the invoices (the first one's), or undefined without allocations.
 */
async function checkAllocations(
  tx: TenantTx,
  allocations: ReadonlyArray<AllocationInput>,
  expected: { customer_id: string; currency_code?: string; extraInvoiceId?: string },
): Promise<string | undefined> {
  const ids = [
    ...new Set([...allocations.map((allocation) => allocation.invoice_id), ...(expected.extraInvoiceId ? [expected.extraInvoiceId] : [])]),
  ];
  if (ids.length === 0) return expected.currency_code;
  await lockInvoices(tx, ids);
  const settlements = await invoiceSettlements(tx, ids);
  // Another business's invoice (or none at all) is not found, as GET /api/invoices/:id answers it.
  if (ids.some((id) => !settlements.has(id))) throw notFound();
  const currency = expected.currency_code ?? settlements.get(ids[0] as string)?.currency_code;
  const errors: FieldErrors = {};
  const describe = (id: string, path: string) => {
    const invoice = settlements.get(id);
    if (!invoice) return false;
    if (invoice.status !== 'issued') errors[path] = [PAYMENT_MESSAGES.invoiceNotIssued];
    else if (invoice.customer_id !== expected.customer_id) errors[path] = [PAYMENT_MESSAGES.invoiceOtherCustomer];
    else if (invoice.currency_code !== currency) errors[path] = [PAYMENT_MESSAGES.invoiceOtherCurrency];
    else return true;
    return false;
  };
  if (expected.extraInvoiceId) describe(expected.extraInvoiceId, 'invoice_id');
  allocations.forEach((allocation, index) => {
    if (!describe(allocation.invoice_id, `allocations.${index}.invoice_id`)) return;
    const balance = new Decimal(settlements.get(allocation.invoice_id)?.balance ?? '0');
    if (new Decimal(allocation.amount).gt(balance)) errors[`allocations.${index}.amount`] = [PAYMENT_MESSAGES.allocationAboveBalance];
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return currency;
}

/** Amounts finer than the currency takes, by field. */
function tooPrecise(decimals: number, amounts: Record<string, string>): FieldErrors {
  return Object.fromEntries(
    Object.entries(amounts)
      .filter(([, amount]) => new Decimal(amount).decimalPlaces() > decimals)
      .map(([field]) => [field, [BUSINESS_MESSAGES.amountTooPrecise]]),
  );
}

/**
 * Records one receipt in the caller's transaction: numbered, allocated, posted. The same
 * `request_id` again (even at the same moment) records nothing and answers the first receipt
 * (`created: false`). Refused with a 422 naming the field: a customer that is not one (or not
 * the business's), an account that is not a cash, bank or mobile-money account of the
 * business, a withholding duty not the business's, an amount finer than the currency, an
 * allocation above an invoice's balance or to an invoice not issued, of another customer or
 * in another currency; a 404 when an invoice named is not the business's. `input` is as
 * ReceiptInputSchema parses it (the counter sale builds it and parses it so).
 */
export async function recordReceipt(context: PaymentContext, input: ReceiptInput): Promise<ReceiptAnswer> {
  const { tx } = context;
  // Two requests with one id take turns here; the second then finds the first's receipt. (The
  // number is taken later: a second request must not take, and give back, a number of its own.)
  await lockInTenant(tx, `receipt-request:${input.request_id}`);
  const earlier = await receiptOfRequest(tx, input.request_id);
  if (earlier) return answerOf(tx, earlier, false, PAYMENT_MESSAGES.receiptAlreadyRecorded);

  const errors: FieldErrors = {};
  const customer = await partnerOf(tx, input.customer_id);
  if (!customer) errors.customer_id = [SETTINGS_MESSAGES.referenceMissing];
  else if (customer.role === 'supplier') errors.customer_id = [PAYMENT_MESSAGES.notACustomer];
  let accountId: string;
  if (input.account_id) {
    const account = await accountOf(tx, input.account_id);
    if (!account) errors.account_id = [SETTINGS_MESSAGES.referenceMissing];
    else if (!MONEY_SUBTYPES.has(account.subtype) || !account.active) errors.account_id = [PAYMENT_MESSAGES.accountNotMoney];
    accountId = input.account_id;
  } else accountId = await accountIdByKey(tx, PAYMENT_METHOD_ACCOUNT[input.method]);
  if (input.whduty_id && !(await whdutyOf(tx, input.whduty_id))) errors.whduty_id = [SETTINGS_MESSAGES.referenceMissing];
  if (input.invoice_id && !(await invoiceExists(tx, input.invoice_id))) throw notFound();
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const fallback = await defaultCurrency(tx);
  const currency =
    (await checkAllocations(tx, input.allocations, {
      customer_id: input.customer_id,
      ...(input.invoice_id ? { extraInvoiceId: input.invoice_id } : {}),
    })) ??
    fallback?.code ??
    'UGX';
  const decimals = (await currencyDecimals(tx, currency)) ?? fallback?.decimals ?? 0;
  const precision = tooPrecise(decimals, {
    amount: input.amount,
    wht_amount: input.wht_amount,
    ...Object.fromEntries(input.allocations.map((allocation, index) => [`allocations.${index}.amount`, allocation.amount])),
  });
  if (Object.keys(precision).length > 0) throw invalid(precision);

  const id = newId();
  const createdBy = context.member?.userId ?? tx.userId ?? null;
  const number = await nextDocumentNumber(tx, 'receipt');
  await insertReceipt(tx, {
    id,
    request_id: input.request_id,
    number,
    customer_id: input.customer_id,
    received_on: input.received_on,
    method: input.method,
    reference: input.reference,
    account_id: accountId,
    currency_code: currency,
    amount: input.amount,
    wht_amount: input.wht_amount,
    whduty_id: new Decimal(input.wht_amount).gt(0) ? (input.whduty_id ?? null) : null,
    wht_certificate: new Decimal(input.wht_amount).gt(0) ? input.wht_certificate : null,
    invoice_id: input.invoice_id ?? null,
    notes: input.notes,
    created_by: createdBy,
  });
  await insertAllocations(
    tx,
    input.allocations.map<NewAllocation>((allocation) => ({
      id: newId(),
      receipt_id: id,
      invoice_id: allocation.invoice_id,
      amount: allocation.amount,
      allocated_on: input.received_on,
      created_by: createdBy,
    })),
  );
  await postEntry(tx, {
    source_kind: 'receipt',
    source_id: id,
    occurred_on: input.received_on,
    description: `Receipt ${number} from ${customer?.name ?? ''}`.slice(0, 300),
    lines: receiptPostings({ amount: input.amount, wht_amount: input.wht_amount, account_id: accountId, customer_id: input.customer_id }),
    created_by: createdBy,
  });
  await recordAudit(tx, {
    action: 'create',
    entity: 'receipt',
    entityId: id,
    after: { ...input, number, account_id: accountId, currency_code: currency },
  });
  return answerOf(tx, id, true, PAYMENT_MESSAGES.receiptRecorded);
}

/**
 * Applies what remains unallocated on a receipt to invoices of its customer, as new allocation
 * rows (receipts are append-only). The books do not move: the receipt already credited the
 * customer's account in full, an advance included. 404 for a receipt or invoice not the
 * business's; 422 for more than remains on the receipt or on an invoice.
 */
export async function allocateReceipt(context: PaymentContext, id: string, input: AllocationsInput): Promise<ReceiptAnswer> {
  const { tx } = context;
  // Two allocations of one receipt take turns (the append-only table cannot be row-locked by the app).
  await lockInTenant(tx, `receipt:${id}`);
  const receipt = await loadReceipt(tx, id);
  if (!receipt) throw notFound();
  if (input.allocated_on && input.allocated_on < receipt.received_on) throw invalid({ allocated_on: [STOCK_MESSAGES.dateInvalid] });
  await checkAllocations(tx, input.allocations, { customer_id: receipt.customer.id, currency_code: receipt.currency_code });
  const decimals = (await currencyDecimals(tx, receipt.currency_code)) ?? (await defaultCurrency(tx))?.decimals ?? 0;
  const precision = tooPrecise(
    decimals,
    Object.fromEntries(input.allocations.map((allocation, index) => [`allocations.${index}.amount`, allocation.amount])),
  );
  if (Object.keys(precision).length > 0) throw invalid(precision);
  const allocating = input.allocations.reduce((sum, allocation) => sum.plus(allocation.amount), new Decimal(0));
  if (allocating.gt(receipt.unallocated)) throw invalid({ allocations: [PAYMENT_MESSAGES.allocationAboveUnallocated] });

  const createdBy = context.member?.userId ?? tx.userId ?? null;
  const allocatedOn = input.allocated_on ?? kampalaToday();
  await insertAllocations(
    tx,
    input.allocations.map<NewAllocation>((allocation) => ({
      id: newId(),
      receipt_id: id,
      invoice_id: allocation.invoice_id,
      amount: allocation.amount,
      allocated_on: allocatedOn,
      created_by: createdBy,
    })),
  );
  await recordAudit(tx, { action: 'create', entity: 'receipt_allocation', entityId: id, after: input });
  return answerOf(tx, id, true, PAYMENT_MESSAGES.allocationsRecorded);
}

/** GET /api/receipts: newest first; `excel=1` every receipt of the filter as a workbook. */
export async function listReceipts({ tx }: { tx: TenantTx }, query: z.output<typeof ReceiptsQuerySchema>) {
  if (query.to && !(/^\d{4}-\d{2}-\d{2}$/.test(query.to) && !Number.isNaN(Date.parse(query.to))))
    throw invalid({ to: [STOCK_MESSAGES.dateInvalid] });
  const rows = await receiptRecords(tx, { ...query, per_page: query.excel ? null : query.per_page });
  const receipts = rows.map((row) => {
    const { allocations: _none, ...listed } = toReceipt(row, []);
    return {
      id: listed.id,
      number: listed.number,
      customer: listed.customer,
      received_on: listed.received_on,
      method: listed.method,
      reference: listed.reference,
      account: listed.account,
      currency_code: listed.currency_code,
      amount: listed.amount,
      wht_amount: listed.wht_amount,
      allocated: listed.allocated,
      unallocated: listed.unallocated,
      created_at: listed.created_at,
    };
  });
  if (query.excel)
    return {
      file: {
        fileName: timestampedFileName('mustard'),
        workbook: await rowsToWorkbook(
          'Receipts',
          [
            { header: 'Number', value: (r) => r.number },
            { header: 'Date', value: (r) => r.received_on },
            { header: 'Customer', value: (r) => (r.customer as { name: string }).name },
            { header: 'Method', value: (r) => r.method },
            { header: 'Reference', value: (r) => r.reference ?? '' },
            { header: 'Account', value: (r) => (r.account as { name: string }).name },
            { header: 'Currency', value: (r) => r.currency_code },
            { header: 'Amount', value: (r) => Number(r.amount) },
            { header: 'WHT', value: (r) => Number(r.wht_amount) },
            { header: 'Allocated', value: (r) => Number(r.allocated) },
            { header: 'Unallocated', value: (r) => Number(r.unallocated) },
          ],
          receipts,
        ),
      },
    };
  return {
    answer: {
      receipts,
      totalRecords: Number(rows[0]?.total ?? 0),
      total_amount: exact(rows[0]?.total_amount ?? '0'),
      total_wht: exact(rows[0]?.total_wht ?? '0'),
    },
  };
}

/** The customer's issued invoices with a balance left, oldest first: what a receipt may settle. */
export async function openInvoices({ tx }: { tx: TenantTx }, customerId: string) {
  const invoices = await issuedInvoicesOf(tx, customerId);
  // invoiceSettlements reads at most 1000 invoices a call.
  const settlements = new Map<string, Settled>();
  for (let start = 0; start < invoices.length; start += 1000)
    for (const [id, settled] of await invoiceSettlements(
      tx,
      invoices.slice(start, start + 1000).map((invoice) => invoice.id),
    ))
      settlements.set(id, settled);
  const today = kampalaToday();
  return {
    invoices: invoices.flatMap((invoice) => {
      const settled = settlements.get(invoice.id);
      if (!settled || !new Decimal(settled.balance).gt(0)) return [];
      return [
        {
          id: invoice.id,
          number: invoice.number ?? '',
          issued_on: invoice.issued_on,
          due_on: invoice.due_on,
          currency_code: settled.currency_code,
          gross_total: exact(settled.gross_total),
          paid: exact(settled.paid),
          credited: exact(settled.credited),
          debited: exact(settled.debited),
          balance: exact(settled.balance),
          overdue: today > invoice.due_on,
        },
      ];
    }),
  };
}
