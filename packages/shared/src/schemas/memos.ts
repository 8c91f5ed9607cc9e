import { z } from 'zod';
import { TAX_KINDS } from '../business/constants.js';
import { PAYMENT_MESSAGES as P } from '../business/messages-sales.js';
import { amountText, Decimal, decimalText } from '../business/money.js';
import { flag, lowerId, optionalId } from '../endpoints/fields.js';
import { exactText } from '../resources/business-catalogue.js';
import { text } from './common.js';
import { stockDay } from './stock.js';

/*
 * Credit and debit memos (issue 32 point 3; guide business.md "memos"): a correction of an issued
 * invoice, which never changes. A credit memo takes back goods returned (at the invoice's price,
 * restocked if the goods come back to a location) or lowers a price; a debit memo charges more.
 * Each line names a line of the invoice; a credit never exceeds what remains of that line or of
 * the invoice (the server's check, against what earlier memos took).
 */

export const MEMO_KINDS = ['credit', 'debit'] as const;
export type MemoKind = (typeof MEMO_KINDS)[number];
/** Why: goods returned, a price or discount corrected, a sale cancelled, something else. */
export const MEMO_REASONS = ['return', 'price', 'discount', 'cancel', 'other'] as const;
export type MemoReason = (typeof MEMO_REASONS)[number];
/** The most lines of one memo (an invoice has at most 500). */
export const MAX_MEMO_LINES = 500;

const memoQuantity = decimalText(P.quantityInvalid).refine(
  (value) => {
    const quantity = new Decimal(value);
    return quantity.gt(0) && quantity.decimalPlaces() <= 3 && quantity.lt('1e12');
  },
  { error: P.quantityInvalid },
);

export const MemoLineInputSchema = z.strictObject({
  /** The invoice line's number (`line` of the invoice's lines, from 0). */
  invoice_line: z
    .number({ error: P.invoiceLineMissing })
    .int(P.invoiceLineMissing)
    .min(0, P.invoiceLineMissing)
    .max(499, P.invoiceLineMissing),
  /** Units returned (credit) or charged again (debit); for a price correction, the units whose price changes. */
  quantity: memoQuantity,
  /**
   * A price correction: the tax-inclusive amount per unit credited (at most the invoice's price)
   * or charged more. Left out, the line is at the invoice's price: goods returned (credit) or
   * units not charged before (debit).
   */
  unit_price: amountText
    .refine((value) => new Decimal(value).gt(0) && new Decimal(value).lt('1e16'), { error: P.memoAmountZero })
    .optional(),
});
export type MemoLineInput = z.output<typeof MemoLineInputSchema>;

export const MemoInputSchema = z
  .strictObject({
    /** Made by the screen for each memo: sent again it is recorded once. */
    request_id: lowerId(),
    kind: z.enum(MEMO_KINDS, { error: P.memoKindRequired }),
    invoice_id: lowerId(P.invoiceNotIssued),
    reason_code: z.enum(MEMO_REASONS, { error: P.reasonCodeRequired }),
    reason: text(P.reasonRequired).trim().min(1, { error: P.reasonRequired, abort: true }).max(300, P.reasonTooLong),
    issued_on: stockDay,
    /** A credit memo for goods returned puts them back in stock at this location. */
    restock: z.boolean().default(false),
    location_id: optionalId,
    lines: z.array(MemoLineInputSchema, { error: P.memoLinesRequired }).min(1, P.memoLinesRequired).max(MAX_MEMO_LINES, P.tooManyMemoLines),
  })
  .superRefine((memo, context) => {
    const need = (ok: boolean, path: Array<string | number>, message: string) => {
      if (!ok) context.addIssue({ code: 'custom', path, message });
    };
    if (memo.restock) {
      need(memo.kind === 'credit', ['restock'], P.restockOnlyReturns);
      need(memo.location_id !== undefined, ['location_id'], P.restockLocationRequired);
      memo.lines.forEach((line, index) => {
        need(line.unit_price === undefined, ['lines', index, 'unit_price'], P.restockOnlyReturns);
      });
    }
    const seen = new Set<number>();
    memo.lines.forEach((line, index) => {
      need(!seen.has(line.invoice_line), ['lines', index, 'invoice_line'], P.memoLineRepeated);
      seen.add(line.invoice_line);
    });
  });
export type MemoInput = z.output<typeof MemoInputSchema>;

const named = z.object({ id: z.string(), name: z.string() });

export const MemoLineSchema = z.object({
  line: z.number(),
  invoice_line: z.number(),
  product: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  description: z.string().nullable(),
  quantity: exactText,
  unit_price: exactText,
  tax_code: z.string().nullable(),
  tax_kind: z.enum(TAX_KINDS).nullable(),
  tax_rate: exactText,
  gross: exactText,
  tax: exactText,
  net: exactText,
  unit_cost: exactText,
});

/** A memo as the list shows it. */
export const MemoRowSchema = z.object({
  id: z.string(),
  number: z.string(),
  kind: z.enum(MEMO_KINDS),
  invoice: z.object({ id: z.string(), number: z.string().nullable() }),
  customer: named,
  reason_code: z.enum(MEMO_REASONS),
  reason: z.string(),
  restock: z.boolean(),
  issued_on: z.string(),
  currency_code: z.string(),
  net_total: exactText,
  tax_total: exactText,
  gross_total: exactText,
  fiscal_status: z.string(),
  created_at: z.string(),
});
export type MemoRow = z.output<typeof MemoRowSchema>;

export const MemoSchema = MemoRowSchema.extend({
  location: named.nullable(),
  fiscal_fdn: z.string().nullable(),
  fiscal_verification_code: z.string().nullable(),
  fiscal_simulated: z.boolean(),
  created_by: z.object({ name: z.string() }).nullable(),
  lines: z.array(MemoLineSchema),
});
export type Memo = z.output<typeof MemoSchema>;

export const MemoAnswerSchema = z.object({
  message: z.string(),
  /** False when the same request had already been recorded: nothing new was written. */
  created: z.boolean(),
  memo: MemoSchema,
});
export type MemoAnswer = z.input<typeof MemoAnswerSchema>;

export const MemosQuerySchema = z.object({
  from: stockDay.optional(),
  to: text().trim().max(10).optional(),
  kind: z.enum(MEMO_KINDS).optional(),
  invoice_id: optionalId,
  customer_id: optionalId,
  search: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
  excel: flag,
});

export const MemosResponseSchema = z.object({ memos: z.array(MemoRowSchema), totalRecords: z.number() });

/** What remains of an invoice to credit: the new memo form. */
export const MemoRemainsQuerySchema = z.object({ invoice_id: lowerId(P.invoiceNotIssued) });
export const MemoRemainsSchema = z.object({
  invoice: z.object({
    id: z.string(),
    number: z.string().nullable(),
    status: z.enum(['draft', 'issued']),
    customer: named,
    issued_on: z.string(),
    currency_code: z.string(),
    currency_decimals: z.number(),
    location_id: z.string(),
    gross_total: exactText,
    credited: exactText,
    debited: exactText,
    paid: exactText,
    balance: exactText,
    /** gross + debited - credited: the most a credit memo may still take. */
    creditable: exactText,
  }),
  lines: z.array(
    z.object({
      line: z.number(),
      product: z.object({ id: z.string(), code: z.string(), name: z.string() }),
      description: z.string().nullable(),
      track_stock: z.boolean(),
      fractional: z.boolean(),
      quantity: exactText,
      unit_price: exactText,
      discount: exactText,
      tax_code: z.string().nullable(),
      tax_rate: exactText,
      gross: exactText,
      /** Units taken back at the invoice's price so far. */
      returned: exactText,
      /** Units that may still be returned or have their price corrected. */
      remaining_quantity: exactText,
      /** The line's gross + debited - credited on it: the most a credit may still take of it. */
      remaining_gross: exactText,
    }),
  ),
});
