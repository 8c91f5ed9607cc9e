import { z } from 'zod';
import { PAYMENT_MESSAGES as P } from '../business/messages-sales.js';
import { Decimal, decimalText } from '../business/money.js';
import { PAYMENT_METHODS } from '../business/sales.js';
import { flag, lowerId, optionalId } from '../endpoints/fields.js';
import { exactText } from '../resources/business-catalogue.js';
import { text } from './common.js';
import { stockDay } from './stock.js';

/*
 * Getting paid (issue 32 point 2; guide business.md "receipts"): money received from a customer
 * by cash, MTN MoMo, Airtel Money, bank, cheque or card, with its transaction reference,
 * allocated to one or more of the customer's issued invoices or kept as an advance, and the
 * withholding tax the customer withheld with its certificate number. Amounts are exact decimal
 * text; whether they fit the currency's decimals is the server's check (the currency is the
 * business's).
 */

/** The methods whose money leaves a trace to reconcile: a MoMo transaction id, a bank reference, a cheque number. */
export const METHODS_WITH_REFERENCE = ['mtn_momo', 'airtel_money', 'bank', 'cheque', 'card'] as const;

/** The most invoices one receipt (or one later allocation) settles at once. */
export const MAX_ALLOCATIONS = 100;

/** numeric(20, 4) holds less than 1e16. */
const LIMIT = new Decimal('1e16');

/** An amount of 0 or more that the database can hold. */
const moneyText = decimalText(P.amountRequired).refine(
  (value) => {
    const amount = new Decimal(value);
    return !amount.isNeg() && amount.lt(LIMIT);
  },
  // Abort: the receipt's own checks (amount + tax > 0, allocations within it) then do not run on a non-amount.
  { error: P.amountRequired, abort: true },
);
/** An amount above 0. */
const positiveMoney = moneyText.refine((value) => new Decimal(value).gt(0), { error: P.amountRequired });

/** A short text that may be left out: blank is none. */
const optionalShort = (max: number, tooLong: string) =>
  text()
    .trim()
    .nullish()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || value.length <= max, { error: tooLong });

export const AllocationInputSchema = z.strictObject({
  invoice_id: lowerId(P.invoiceNotIssued),
  amount: positiveMoney,
});
export type AllocationInput = z.output<typeof AllocationInputSchema>;

const allocationList = z.array(AllocationInputSchema, { error: P.allocationsRequired }).max(MAX_ALLOCATIONS, P.tooManyAllocations);

/** Each invoice once in one list of allocations. */
function refineDistinct(allocations: ReadonlyArray<AllocationInput>, context: z.RefinementCtx) {
  const seen = new Set<string>();
  allocations.forEach((allocation, index) => {
    if (seen.has(allocation.invoice_id))
      context.addIssue({ code: 'custom', path: ['allocations', index, 'invoice_id'], message: P.allocationRepeated });
    seen.add(allocation.invoice_id);
  });
}

export const ReceiptInputSchema = z
  .strictObject({
    /** Made by the screen for each receipt: sent again (a retry on a dropping connection) it is recorded once. */
    request_id: lowerId(),
    customer_id: lowerId(P.customerRequired),
    received_on: stockDay,
    method: z.enum(PAYMENT_METHODS, { error: P.methodRequired }),
    /** The MoMo transaction id, bank reference, cheque or card slip number: required for all but cash. */
    reference: optionalShort(80, P.referenceTooLong),
    /** The cash, bank or mobile-money account the money went into: by default the method's (PAYMENT_METHOD_ACCOUNT). */
    account_id: optionalId,
    /** The money received. */
    amount: moneyText,
    /** Withholding tax the customer kept and paid to URA for us, with its certificate. */
    wht_amount: moneyText.default('0'),
    whduty_id: optionalId,
    wht_certificate: optionalShort(40, P.certificateTooLong),
    notes: optionalShort(1000, P.notesTooLong),
    /** The cash sale the receipt paid at the counter. */
    invoice_id: optionalId,
    /** To the customer's issued invoices; what is left of amount + wht_amount is an advance. */
    allocations: allocationList.default([]),
  })
  .superRefine((receipt, context) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) context.addIssue({ code: 'custom', path: [path], message });
    };
    need(receipt.method === 'cash' || receipt.reference !== null, 'reference', P.referenceRequired);
    const settled = new Decimal(receipt.amount).plus(receipt.wht_amount);
    need(settled.gt(0), 'amount', P.amountRequired);
    if (new Decimal(receipt.wht_amount).gt(0)) {
      need(receipt.wht_certificate !== null, 'wht_certificate', P.whtCertificateRequired);
      need(receipt.whduty_id !== undefined, 'whduty_id', P.whtDutyRequired);
    }
    refineDistinct(receipt.allocations, context);
    const allocated = receipt.allocations.reduce((sum, allocation) => sum.plus(allocation.amount), new Decimal(0));
    need(allocated.lte(settled), 'allocations', P.allocationsAboveReceipt);
  });
export type ReceiptInput = z.output<typeof ReceiptInputSchema>;

/** Applying what remains unallocated on a receipt (an advance) to invoices later. */
export const AllocationsInputSchema = z
  .strictObject({
    allocations: allocationList.min(1, P.allocationsRequired),
    /** The day of the allocation (default today). */
    allocated_on: stockDay.optional(),
  })
  .superRefine((input, context) => refineDistinct(input.allocations, context));
export type AllocationsInput = z.output<typeof AllocationsInputSchema>;

const named = z.object({ id: z.string(), name: z.string() });

export const AllocationSchema = z.object({
  id: z.string(),
  invoice_id: z.string(),
  invoice_number: z.string().nullable(),
  amount: exactText,
  allocated_on: z.string(),
});
export type Allocation = z.output<typeof AllocationSchema>;

/** A receipt as the list shows it. */
export const ReceiptRowSchema = z.object({
  id: z.string(),
  number: z.string(),
  customer: named,
  received_on: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string().nullable(),
  account: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  currency_code: z.string(),
  amount: exactText,
  wht_amount: exactText,
  /** Allocated to invoices, now and later. */
  allocated: exactText,
  /** amount + wht_amount - allocated: the customer's advance left on this receipt. */
  unallocated: exactText,
  created_at: z.string(),
});
export type ReceiptRow = z.output<typeof ReceiptRowSchema>;

/** One receipt with its allocations. */
export const ReceiptSchema = ReceiptRowSchema.extend({
  whduty: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  wht_certificate: z.string().nullable(),
  invoice_id: z.string().nullable(),
  notes: z.string().nullable(),
  created_by: z.object({ name: z.string() }).nullable(),
  allocations: z.array(AllocationSchema),
});
export type Receipt = z.output<typeof ReceiptSchema>;

/** What recording a receipt (or allocating one later) answers. */
export const ReceiptAnswerSchema = z.object({
  message: z.string(),
  /** False when the same request had already been recorded: nothing new was written. */
  created: z.boolean(),
  receipt: ReceiptSchema,
});
export type ReceiptAnswer = z.input<typeof ReceiptAnswerSchema>;

export const ReceiptsQuerySchema = z.object({
  from: stockDay.optional(),
  to: text().trim().max(10).optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  customer_id: optionalId,
  /** Only receipts with money left to allocate (advances). */
  open: flag,
  search: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
  excel: flag,
});

export const ReceiptsResponseSchema = z.object({
  receipts: z.array(ReceiptRowSchema),
  totalRecords: z.number(),
  /** Sums of the receipts the filter selects (every page). */
  total_amount: exactText,
  total_wht: exactText,
});

/** The customer's issued invoices with something left to pay, oldest first: the allocation grid. */
export const OpenInvoicesQuerySchema = z.object({ customer_id: lowerId(P.customerRequired) });
export const OpenInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  issued_on: z.string(),
  due_on: z.string(),
  currency_code: z.string(),
  gross_total: exactText,
  paid: exactText,
  credited: exactText,
  debited: exactText,
  balance: exactText,
  overdue: z.boolean(),
});
export const OpenInvoicesResponseSchema = z.object({ invoices: z.array(OpenInvoiceSchema) });
