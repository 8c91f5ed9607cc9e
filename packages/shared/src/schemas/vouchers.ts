import { z } from 'zod';
import { ACCOUNT_MESSAGES as A } from '../business/messages-sales.js';
import { Decimal, decimalText } from '../business/money.js';
import { PAYMENT_METHODS } from '../business/sales.js';
import { flag, lowerId, optionalId } from '../endpoints/fields.js';
import { SETTINGS_MESSAGES } from '../messages.js';
import { exactText } from '../resources/business-catalogue.js';
import { named } from '../resources/fields.js';
import { bookDay } from './accounts.js';
import { optionalText, requiredText, text } from './common.js';

/*
 * Payment vouchers (issue 32 point 4; guide business.md "vouchers"): money out for expenses or
 * to suppliers. A draft is prepared (editable, no effect), approved (numbered PV-000001 ...,
 * frozen) and paid (posted to the books: Dr the lines' accounts and input VAT, Cr the paying
 * account and the withholding tax payable), by different members where the business has more
 * than one who may approve. Withholding tax is decided on the draft: the duty, the amount (its
 * rate over its threshold, or as given) and the certificate number. Amounts are exact text.
 */

export const VOUCHER_STATUSES = ['draft', 'approved', 'paid', 'cancelled'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const MAX_VOUCHER_LINES = 100;

/** An amount above 0 (its decimals are checked against the currency by the server). */
/** Whether `value` is decimal text within `test` (false for text that is no number: a refinement may run after a failed check). */
function amountWhere(value: unknown, test: (amount: Decimal) => boolean): boolean {
  try {
    return typeof value === 'string' && test(new Decimal(value));
  } catch {
    return false;
  }
}
const positiveAmount = decimalText(A.amountInvalid).refine((value) => amountWhere(value, (amount) => amount.gt(0) && amount.lt('1e15')), {
  error: A.amountInvalid,
});
const zeroOrMore = decimalText(A.amountInvalid).refine((value) => amountWhere(value, (amount) => amount.gte(0) && amount.lt('1e15')), {
  error: A.amountInvalid,
});
const upTo = (max: number) =>
  optionalText.refine((value) => value === null || value.length <= max, { error: SETTINGS_MESSAGES.nameTooLong });

export const VoucherLineInputSchema = z
  .strictObject({
    account_id: lowerId(A.accountRequired),
    description: requiredText(A.descriptionRequired).max(300, SETTINGS_MESSAGES.nameTooLong),
    amount: positiveAmount,
    /** Input VAT within the amount (claimable on the VAT return). */
    tax: zeroOrMore.default('0'),
  })
  .refine((line) => !amountWhere(line.amount, () => true) || amountWhere(line.tax, (tax) => tax.lte(line.amount)), {
    error: A.taxAboveAmount,
    path: ['tax'],
  });
export type VoucherLineInput = z.output<typeof VoucherLineInputSchema>;

const voucherFields = {
  payee_id: optionalId.transform((value) => value ?? null),
  /** Who is paid; left blank with a partner chosen, the partner's name. */
  payee_name: upTo(120),
  method: z.enum(PAYMENT_METHODS, { error: A.payingAccountInvalid }),
  /** The cash, bank or mobile-money account paid from; by default the method's account. */
  account_id: optionalId.transform((value) => value ?? null),
  reference: upTo(80),
  voucher_on: bookDay,
  whduty_id: optionalId.transform((value) => value ?? null),
  /** The tax withheld; left out, the duty's rate on the amount before VAT when it reaches the duty's threshold. */
  wht_amount: zeroOrMore.nullish().transform((value) => value ?? null),
  wht_certificate: upTo(40),
  notes: upTo(500),
  lines: z
    .array(VoucherLineInputSchema, { error: A.linesRequired })
    .min(1, { error: A.linesRequired })
    .max(MAX_VOUCHER_LINES, { error: A.tooManyLines }),
};

/** `POST /api/vouchers`: a new draft; the same `request_id` again answers the first draft. */
export const VoucherInputSchema = z.strictObject({ request_id: lowerId(), ...voucherFields });
export type VoucherInput = z.output<typeof VoucherInputSchema>;

/** `PUT /api/vouchers/:id`: the draft's new content (a request id sent along is ignored). */
export const VoucherUpdateSchema = z.strictObject({ request_id: lowerId().optional(), ...voucherFields });
export type VoucherUpdate = z.output<typeof VoucherUpdateSchema>;

/** `POST /api/vouchers/:id/pay`. */
export const VoucherPaySchema = z.strictObject({
  paid_on: bookDay,
  payment_reference: upTo(80),
});
export type VoucherPay = z.output<typeof VoucherPaySchema>;

export const VouchersQuerySchema = z.object({
  status: z.enum(VOUCHER_STATUSES).optional(),
  from: bookDay.optional(),
  to: bookDay.optional(),
  search: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(25),
  excel: flag,
});

const person = z.object({ id: z.string(), name: z.string() }).nullable();

export const VoucherSummarySchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.enum(VOUCHER_STATUSES),
  payee_id: z.string().nullable(),
  payee_name: z.string(),
  method: z.enum(PAYMENT_METHODS),
  account_id: z.string(),
  account: z.object({ code: z.string(), name: z.string() }),
  voucher_on: z.string(),
  currency_code: z.string(),
  gross_total: exactText,
  tax_total: exactText,
  wht_amount: exactText,
  net_paid: exactText,
  prepared_by: person,
  approved_by: person,
  paid_by: person,
  paid_on: z.string().nullable(),
});
export type VoucherSummary = z.output<typeof VoucherSummarySchema>;

export const VoucherLineSchema = z.object({
  line: z.number(),
  account_id: z.string(),
  account: z.object({ code: z.string(), name: z.string() }),
  description: z.string(),
  amount: exactText,
  tax: exactText,
});

export const VoucherSchema = VoucherSummarySchema.extend({
  request_id: z.string(),
  reference: z.string().nullable(),
  whduty_id: z.string().nullable(),
  whduty: named,
  wht_certificate: z.string().nullable(),
  notes: z.string().nullable(),
  approved_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  payment_reference: z.string().nullable(),
  lines: z.array(VoucherLineSchema),
});
export type Voucher = z.output<typeof VoucherSchema>;

export const VouchersResponseSchema = z.object({ vouchers: z.array(VoucherSummarySchema), totalRecords: z.number() });
export type VouchersResponse = z.output<typeof VouchersResponseSchema>;

/** What a voucher's save, approval or payment answers. */
export const VoucherAnswerSchema = z.object({
  message: z.string(),
  /** False when the request id was already used: nothing new was written. */
  created: z.boolean(),
  voucher: VoucherSchema,
});
export type VoucherAnswer = z.output<typeof VoucherAnswerSchema>;
