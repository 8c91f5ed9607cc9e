import { z } from 'zod';
import { BUSINESS_REPORT_MESSAGES as M } from '../business/messages-sales.js';
import { DEBTOR_AGING_BUCKETS, isReportDay, isReportPeriod, REPORT_PAYMENT_METHODS } from '../business/reports.js';
import { flag } from '../endpoints/fields.js';
import { text } from './common.js';

/*
 * The shop's daily reports' calls (issue 32 point 8): what each asks (a period of at most a
 * year, a day, a month) and what each answers (business/reports.ts builds it). Money is exact
 * decimal text. `excel=1` answers the report as a workbook, `pdf=1` as an A4 PDF.
 */

/** YYYY-MM-DD naming a real day from 2000 on. */
export const reportDay = text(M.dateInvalid)
  .trim()
  .max(10, { error: M.dateInvalid, abort: true })
  .refine((value) => isReportDay(value) && value >= '2000-01-01' && value <= '2999-12-31', { error: M.dateInvalid });

const outputs = { excel: flag, pdf: flag };

/** A period, both days included: `to` on or after `from`, at most a year. */
export const ReportPeriodQuerySchema = z
  .object({ from: reportDay, to: reportDay, ...outputs })
  .refine((query) => isReportPeriod(query.from, query.to), { path: ['to'], error: M.periodInvalid });
export type ReportPeriodQuery = z.output<typeof ReportPeriodQuerySchema>;

export const DebtorsQuerySchema = z.object({ date: reportDay, ...outputs });
export type DebtorsQuery = z.output<typeof DebtorsQuerySchema>;

export const VatQuerySchema = z.object({
  month: text(M.monthInvalid)
    .trim()
    .regex(/^(2\d{3})-(0[1-9]|1[0-2])$/, { error: M.monthInvalid })
    .refine((value) => value >= '2000-01', { error: M.monthInvalid }),
  ...outputs,
});
export type VatQuery = z.output<typeof VatQuerySchema>;

const money = z.string();
const methodFigures = z.object({ count: z.number(), amount: money });
const methodTotals = {
  methods: z.object(
    Object.fromEntries(REPORT_PAYMENT_METHODS.map((method) => [method, methodFigures])) as Record<
      (typeof REPORT_PAYMENT_METHODS)[number],
      typeof methodFigures
    >,
  ),
  count: z.number(),
  amount: money,
};

/** The business's own currency, which the VAT and profit figures are in. */
const CurrencySchema = z.object({ code: z.string(), decimals: z.number() });

export const CashupReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(z.object({ day: z.string(), currency_code: z.string(), ...methodTotals })),
  cashiers: z.array(
    z.object({ cashier_id: z.string().nullable(), name: z.string().nullable(), currency_code: z.string(), ...methodTotals }),
  ),
  totals: z.array(z.object({ currency_code: z.string(), ...methodTotals })),
  mobile_money: z.array(
    z.object({
      receipt_id: z.string(),
      number: z.string(),
      received_on: z.string(),
      method: z.enum(REPORT_PAYMENT_METHODS),
      reference: z.string().nullable(),
      amount: money,
      currency_code: z.string(),
      customer_name: z.string(),
      cashier_name: z.string().nullable(),
    }),
  ),
  /** Each currency's decimals (UGX 0), for showing the amounts. */
  decimals: z.record(z.string(), z.number()),
});
export type CashupReportAnswer = z.output<typeof CashupReportSchema>;

const buckets = z.object(
  Object.fromEntries(DEBTOR_AGING_BUCKETS.map((bucket) => [bucket, money])) as Record<(typeof DEBTOR_AGING_BUCKETS)[number], typeof money>,
);
const debtorTotals = { currency_code: z.string(), buckets, total: money, advance: money, net: money };

export const DebtorsReportSchema = z.object({
  date: z.string(),
  customers: z.array(
    z.object({
      customer_id: z.string(),
      name: z.string(),
      ...debtorTotals,
      invoices: z.array(
        z.object({
          invoice_id: z.string(),
          number: z.string(),
          issued_on: z.string(),
          due_on: z.string(),
          days_overdue: z.number(),
          bucket: z.enum(DEBTOR_AGING_BUCKETS),
          balance: money,
        }),
      ),
    }),
  ),
  totals: z.array(z.object(debtorTotals)),
  decimals: z.record(z.string(), z.number()),
});
export type DebtorsReportAnswer = z.output<typeof DebtorsReportSchema>;

const taxFigures = z.object({ net: money, tax: money, gross: money });

export const VatReportSchema = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  currency: CurrencySchema,
  output: z.array(
    taxFigures.extend({
      tax_code: z.string(),
      tax_kind: z.string().nullable(),
      tax_rate: z.string(),
      invoices: taxFigures,
      credit_memos: taxFigures,
      debit_memos: taxFigures,
    }),
  ),
  output_total: taxFigures,
  input: z.array(taxFigures.extend({ voucher_id: z.string(), number: z.string(), paid_on: z.string(), payee_name: z.string() })),
  input_total: taxFigures,
  net_payable: money,
});
export type VatReportAnswer = z.output<typeof VatReportSchema>;

export const ProfitReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: CurrencySchema,
  sales: money,
  credit_memos: money,
  debit_memos: money,
  net_sales: money,
  cost_of_sales: money,
  returns_cost: money,
  net_cost_of_sales: money,
  gross_profit: money,
  expenses: z.array(z.object({ account_id: z.string(), code: z.string(), name: z.string(), amount: money })),
  expenses_total: money,
  net_profit: money,
});
export type ProfitReportAnswer = z.output<typeof ProfitReportSchema>;
