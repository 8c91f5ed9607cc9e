import { z } from 'zod';
import { TAX_KINDS } from '../business/constants.js';
import { SALES_MESSAGES as M } from '../business/messages-sales.js';
import { amountText, Decimal, decimalText } from '../business/money.js';
import { PAYMENT_METHODS } from '../business/sales.js';
import { flag, lowerId, optionalId } from '../endpoints/fields.js';
import { exactText } from '../resources/business-catalogue.js';
import { text } from './common.js';

/*
 * Sales invoices and the counter's cash sale (issue 32 point 1; guide business.md "Documents"):
 * a draft is editable and has no effect; issuing numbers it, freezes it and posts stock and the
 * books. Prices are tax-inclusive; amounts and quantities are exact decimal text on the wire.
 */

/** The name of the customer every business has for sales to people it does not know. */
export const WALK_IN_CUSTOMER = 'Walk-in customer';

/** The most lines one invoice takes (invoice_lines.line is 0 to 499). */
export const MAX_INVOICE_LINES = 500;

/** The list's start date when none is asked (spec §9: `GET /api/invoices?sdate=2020-01-01`). */
export const INVOICE_LIST_START = '2020-01-01';

export const INVOICE_KINDS = ['invoice', 'cash_sale'] as const;
export const INVOICE_STATUSES = ['draft', 'issued'] as const;
/** What the list filters by: the draft, or an issued invoice's payment status. */
export const INVOICE_PAYMENT_STATUSES = ['draft', 'paid', 'part_paid', 'unpaid', 'overdue'] as const;
export const FISCAL_STATUSES = ['none', 'pending', 'fiscalised', 'failed'] as const;

/** YYYY-MM-DD naming a real day from 2000 on. */
export function isInvoiceDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '2000-01-01' || value > '2999-12-31') return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}
export const invoiceDay = text(M.dateInvalid).trim().refine(isInvoiceDay, { error: M.dateInvalid });

/** Text of at most `max` characters, blank is none. */
const shortText = (max: number) =>
  text(M.textTooLong)
    .trim()
    .max(max, { error: M.textTooLong })
    .nullish()
    .transform((value) => (value ? value : null));

/** A quantity sold: above 0, at most 3 decimals (whether fractions are allowed is the product's). */
export const soldQuantity = decimalText(M.quantityInvalid).refine(
  (value) => {
    const quantity = new Decimal(value);
    return quantity.gt(0) && quantity.decimalPlaces() <= 3 && quantity.lt('1e12');
  },
  { error: M.quantityInvalid },
);

/** A price or discount: 0 or more, below numeric(20, 4)'s limit (the currency's decimals are checked by the server). */
const money = (message: string) => amountText.refine((value) => new Decimal(value).lt('1e15'), { error: message });

export const InvoiceLineInputSchema = z.strictObject({
  product_id: lowerId(M.productRequired),
  quantity: soldQuantity,
  /** One unit, tax included; none: the product's selling price. */
  unit_price: money(M.priceInvalid).optional(),
  /** Off the line's amount, tax included. */
  discount: money(M.discountAboveLine).optional(),
  description: shortText(300),
});
export type InvoiceLineInput = z.output<typeof InvoiceLineInputSchema>;

const invoiceLines = z
  .array(InvoiceLineInputSchema, { error: M.linesRequired })
  .min(1, M.linesRequired)
  .max(MAX_INVOICE_LINES, M.tooManyLines);

/** What a draft invoice holds: anything left out is taken from the business's defaults. */
export const InvoiceInputSchema = z
  .strictObject({
    /** Made by the screen for each new document: sent again (a retry), the same draft is answered. */
    request_id: lowerId(),
    /** None: the walk-in customer. */
    customer_id: optionalId,
    /** A walk-in buyer's name and phone, for the print. */
    buyer_name: shortText(120),
    buyer_phone: shortText(30),
    /** None: the business's first location. */
    location_id: optionalId,
    /** None: the default currency. */
    currency_code: text(M.currencyUnknown)
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{3}$/, { error: M.currencyUnknown }))
      .optional(),
    /** None: today. */
    issued_on: invoiceDay.optional(),
    /** None: the invoice date plus the customer's payment terms. */
    due_on: invoiceDay.optional(),
    reference: shortText(80),
    notes: shortText(1000),
    lines: invoiceLines,
  })
  .superRefine((invoice, context) => {
    if (invoice.issued_on && invoice.due_on && invoice.due_on < invoice.issued_on)
      context.addIssue({ code: 'custom', path: ['due_on'], message: M.dueBeforeIssue });
  });
export type InvoiceInput = z.output<typeof InvoiceInputSchema>;

/** How the counter's customer pays: the method, its reference (a mobile-money transaction id), the cash handed over. */
export const CounterPaymentSchema = z.strictObject({
  method: z.enum(PAYMENT_METHODS, { error: M.methodRequired }),
  reference: shortText(80),
  /** Cash handed over, for the change; none: the exact total. */
  tendered: money(M.tenderedBelowTotal).optional(),
});

/** A counter sale: a cash sale to the walk-in customer (or one named), issued and paid at once. */
export const CounterSaleInputSchema = z.strictObject({
  request_id: lowerId(),
  customer_id: optionalId,
  buyer_name: shortText(120),
  buyer_phone: shortText(30),
  location_id: optionalId,
  reference: shortText(80),
  notes: shortText(1000),
  lines: invoiceLines,
  payment: CounterPaymentSchema,
});
export type CounterSaleInput = z.output<typeof CounterSaleInputSchema>;

const named = z.object({ name: z.string() });

export const InvoiceLineSchema = z.object({
  line: z.number(),
  product_id: z.string(),
  product: z.object({ code: z.string(), name: z.string(), unit: z.string(), barcode: z.string().nullable() }),
  description: z.string().nullable(),
  quantity: exactText,
  unit_price: exactText,
  discount: exactText,
  tax_id: z.string().nullable(),
  tax_code: z.string().nullable(),
  tax_kind: z.enum(TAX_KINDS).nullable(),
  tax_rate: exactText,
  gross: exactText,
  tax: exactText,
  net: exactText,
});
export type InvoiceLine = z.output<typeof InvoiceLineSchema>;

export const TaxSummaryRowSchema = z.object({
  tax_code: z.string(),
  tax_kind: z.string(),
  tax_rate: exactText,
  gross: exactText,
  tax: exactText,
  net: exactText,
});

/** An invoice as the list shows it: with what is settled and its payment status. */
export const InvoiceSummarySchema = z.object({
  id: z.string(),
  request_id: z.string(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  number: z.string().nullable(),
  customer_id: z.string(),
  customer: z.object({ name: z.string(), tin: z.string().nullable(), phone: z.string().nullable() }),
  buyer_name: z.string().nullable(),
  buyer_phone: z.string().nullable(),
  location_id: z.string(),
  location: named.nullable(),
  currency_code: z.string(),
  currency_decimals: z.number(),
  issued_on: z.string(),
  due_on: z.string(),
  reference: z.string().nullable(),
  notes: z.string().nullable(),
  vat_registered: z.boolean(),
  discount_total: exactText,
  net_total: exactText,
  tax_total: exactText,
  gross_total: exactText,
  paid: exactText,
  credited: exactText,
  debited: exactText,
  balance: exactText,
  payment_status: z.enum(INVOICE_PAYMENT_STATUSES),
  fiscal_status: z.enum(FISCAL_STATUSES),
  fiscal_fdn: z.string().nullable(),
  fiscal_verification_code: z.string().nullable(),
  fiscal_qr_code: z.string().nullable(),
  fiscal_simulated: z.boolean(),
  created_at: z.string(),
  issued_at: z.string().nullable(),
});
export type InvoiceSummary = z.output<typeof InvoiceSummarySchema>;

/** One invoice with its lines and its totals per tax code. */
export const InvoiceSchema = InvoiceSummarySchema.extend({
  lines: z.array(InvoiceLineSchema),
  by_tax: z.array(TaxSummaryRowSchema),
});
export type Invoice = z.output<typeof InvoiceSchema>;

export const InvoiceAnswerSchema = z.object({
  message: z.string(),
  /** False when the same request had been answered before: nothing new was written. */
  created: z.boolean(),
  invoice: InvoiceSchema,
});

export const CounterSaleAnswerSchema = z.object({
  message: z.string(),
  created: z.boolean(),
  invoice: InvoiceSchema,
  /** The receipt of the payment (none for a sale of nothing). */
  receipt: z.object({ id: z.string(), number: z.string() }).nullable(),
  /** Cash to hand back: tendered less the total. */
  change: exactText,
});

export const InvoicesQuerySchema = z.object({
  /** From this invoice date (spec §9). */
  sdate: invoiceDay.default(INVOICE_LIST_START),
  edate: invoiceDay.optional(),
  status: z.enum(INVOICE_PAYMENT_STATUSES, { error: M.statusInvalid }).optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  customer_id: optionalId,
  /** A number or a customer's name (or a walk-in buyer's). */
  search: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
  excel: flag,
});

export const InvoicesResponseSchema = z.object({
  invoices: z.array(InvoiceSummarySchema),
  totalRecords: z.number(),
});

/** What a new invoice or counter sale starts from. */
export const InvoiceDefaultsSchema = z.object({
  customer: z.object({ id: z.string(), name: z.string() }),
  location: z.object({ id: z.string(), name: z.string() }).nullable(),
  locations: z.array(z.object({ id: z.string(), name: z.string() })),
  currency: z.object({ code: z.string(), decimals: z.number(), symbol: z.string().nullable() }),
  currencies: z.array(z.object({ code: z.string(), decimals: z.number(), symbol: z.string().nullable() })),
  today: z.string(),
  vat_registered: z.boolean(),
  allow_negative_stock: z.boolean(),
  payment_methods: z.array(z.enum(PAYMENT_METHODS)),
  taxes: z.array(z.object({ id: z.string(), code: z.string(), name: z.string(), kind: z.enum(TAX_KINDS), rate: exactText })),
});
export type InvoiceDefaults = z.output<typeof InvoiceDefaultsSchema>;
