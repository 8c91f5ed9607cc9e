import {
  type CashupReportAnswer,
  DEBTOR_AGING_BUCKETS,
  type DebtorsReportAnswer,
  type ProfitReportAnswer,
  REPORT_PAYMENT_METHODS,
  type VatReportAnswer,
} from '@mustard/shared';

/*
 * A shop report as tables (issue 32 point 8): what the workbook and the PDF both print, so the
 * two say the same. Plain data (it crosses to the document workers): text, counts, and amounts as
 * exact decimal text with the decimals to show them with. The printed words are English, as the
 * other documents' are.
 */

export type ReportCell = string | number | { amount: string; decimals: number } | null;

export interface ReportTable {
  title: string;
  head: string[];
  rows: ReportCell[][];
  /** Rows printed in bold (totals). */
  bold?: number[];
}

export interface ReportDocument {
  /** The report's name, as the file's title. */
  title: string;
  /** The business's name. */
  business: string;
  /** What the report is of: its period, day or month. */
  subtitle: string;
  orientation: 'portrait' | 'landscape';
  tables: ReportTable[];
}

export const METHOD_WORDS: Record<(typeof REPORT_PAYMENT_METHODS)[number], string> = {
  cash: 'Cash',
  mtn_momo: 'MTN MoMo',
  airtel_money: 'Airtel Money',
  bank: 'Bank',
  cheque: 'Cheque',
  card: 'Card',
};

export const BUCKET_WORDS: Record<(typeof DEBTOR_AGING_BUCKETS)[number], string> = {
  current: 'Current',
  '1_30': '1-30 days',
  '31_60': '31-60 days',
  '61_90': '61-90 days',
  over_90: 'Over 90 days',
};

const money = (amount: string, decimals: number): ReportCell => ({ amount, decimals });
const decimalsIn = (decimals: Record<string, number>, currency: string) => decimals[currency] ?? 2;

/** The cash-up: by day, by cashier, the totals, then the mobile-money receipts to tick off. */
export function cashupDocument(report: CashupReportAnswer, business: string): ReportDocument {
  const several = report.totals.length > 1;
  const methodHead = (first: string) => [
    first,
    ...(several ? ['Currency'] : []),
    ...REPORT_PAYMENT_METHODS.map((m) => METHOD_WORDS[m]),
    'Receipts',
    'Total',
  ];
  const methodRow = (label: string, row: CashupReportAnswer['totals'][number]): ReportCell[] => {
    const places = decimalsIn(report.decimals, row.currency_code);
    return [
      label,
      ...(several ? [row.currency_code] : []),
      ...REPORT_PAYMENT_METHODS.map((method) => money(row.methods[method].amount, places)),
      row.count,
      money(row.amount, places),
    ];
  };
  const totals = report.totals.map((row) => methodRow('Total', row));
  return {
    title: 'Cash-up',
    business,
    subtitle: `Cash-up ${report.from} to ${report.to}`,
    orientation: 'landscape',
    tables: [
      {
        title: 'By day',
        head: methodHead('Day'),
        rows: [...report.days.map((row) => methodRow(row.day, row)), ...totals],
        bold: totals.map((_, index) => report.days.length + index),
      },
      {
        title: 'By cashier',
        head: methodHead('Cashier'),
        rows: report.cashiers.map((row) => methodRow(row.name ?? '—', row)),
      },
      {
        title: 'Receipts by method',
        head: ['Method', ...(several ? ['Currency'] : []), 'Receipts', 'Amount'],
        rows: report.totals.flatMap((row) =>
          REPORT_PAYMENT_METHODS.map((method) => [
            METHOD_WORDS[method],
            ...(several ? [row.currency_code] : []),
            row.methods[method].count,
            money(row.methods[method].amount, decimalsIn(report.decimals, row.currency_code)),
          ]),
        ),
      },
      {
        title: 'Mobile money check',
        head: ['Date', 'Receipt', 'Method', 'Reference', 'Customer', 'Cashier', 'Amount'],
        rows: report.mobile_money.map((row) => [
          row.received_on,
          row.number,
          METHOD_WORDS[row.method],
          row.reference ?? '',
          row.customer_name,
          row.cashier_name ?? '',
          money(row.amount, decimalsIn(report.decimals, row.currency_code)),
        ]),
      },
    ],
  };
}

/** Debtors: a row per customer by aging bucket with advances and the net, then the totals; then each open invoice. */
export function debtorsDocument(report: DebtorsReportAnswer, business: string): ReportDocument {
  const several = report.totals.length > 1;
  const row = (label: string, figures: DebtorsReportAnswer['totals'][number]): ReportCell[] => {
    const places = decimalsIn(report.decimals, figures.currency_code);
    return [
      label,
      ...(several ? [figures.currency_code] : []),
      ...DEBTOR_AGING_BUCKETS.map((bucket) => money(figures.buckets[bucket], places)),
      money(figures.total, places),
      money(figures.advance, places),
      money(figures.net, places),
    ];
  };
  const totals = report.totals.map((figures) => row('Total', figures));
  return {
    title: 'Debtors',
    business,
    subtitle: `Debtors on ${report.date}`,
    orientation: 'landscape',
    tables: [
      {
        title: 'Debtors by age',
        head: [
          'Customer',
          ...(several ? ['Currency'] : []),
          ...DEBTOR_AGING_BUCKETS.map((b) => BUCKET_WORDS[b]),
          'Owed',
          'Advances',
          'Net',
        ],
        rows: [...report.customers.map((customer) => row(customer.name, customer)), ...totals],
        bold: totals.map((_, index) => report.customers.length + index),
      },
      {
        title: 'Open invoices',
        head: ['Customer', 'Invoice', 'Date', 'Due', 'Days overdue', 'Age', 'Balance'],
        rows: report.customers.flatMap((customer) =>
          customer.invoices.map((invoice) => [
            customer.name,
            invoice.number,
            invoice.issued_on,
            invoice.due_on,
            invoice.days_overdue,
            BUCKET_WORDS[invoice.bucket],
            money(invoice.balance, decimalsIn(report.decimals, customer.currency_code)),
          ]),
        ),
      },
    ],
  };
}

/** The VAT summary for the month's return: output by tax code, input by voucher, the net. */
export function vatDocument(report: VatReportAnswer, business: string): ReportDocument {
  const places = report.currency.decimals;
  const figures = (each: { net: string; tax: string; gross: string }) => [
    money(each.net, places),
    money(each.tax, places),
    money(each.gross, places),
  ];
  return {
    title: 'VAT summary',
    business,
    subtitle: `VAT summary ${report.month} (${report.from} to ${report.to}), ${report.currency.code}`,
    orientation: 'landscape',
    tables: [
      {
        title: 'Output VAT by tax code',
        head: ['Tax code', 'Rate %', 'Invoices VAT', 'Credit memos VAT', 'Debit memos VAT', 'Net', 'VAT', 'Gross'],
        rows: [
          ...report.output.map((row) => [
            row.tax_code || '—',
            row.tax_rate,
            money(row.invoices.tax, places),
            money(row.credit_memos.tax, places),
            money(row.debit_memos.tax, places),
            ...figures(row),
          ]),
          ['Output VAT', '', null, null, null, ...figures(report.output_total)],
        ],
        bold: [report.output.length],
      },
      {
        title: 'Input VAT from paid vouchers',
        head: ['Paid on', 'Voucher', 'Payee', 'Net', 'VAT', 'Gross'],
        rows: [
          ...report.input.map((row) => [row.paid_on, row.number, row.payee_name, ...figures(row)]),
          ['Input VAT', '', '', ...figures(report.input_total)],
        ],
        bold: [report.input.length],
      },
      {
        title: 'VAT payable',
        head: ['', 'Amount'],
        rows: [
          ['Output VAT', money(report.output_total.tax, places)],
          ['Input VAT', money(report.input_total.tax, places)],
          ['Net VAT payable', money(report.net_payable, places)],
        ],
        bold: [2],
      },
    ],
  };
}

/** Simple profit as a statement: sales, cost of sales, gross profit, expenses by account, net profit. */
export function profitDocument(report: ProfitReportAnswer, business: string): ReportDocument {
  const places = report.currency.decimals;
  const line = (label: string, amount: string): ReportCell[] => [label, money(amount, places)];
  const expensesStart = 9;
  return {
    title: 'Profit',
    business,
    subtitle: `Profit ${report.from} to ${report.to}, ${report.currency.code}`,
    orientation: 'portrait',
    tables: [
      {
        title: 'Profit',
        head: ['', 'Amount'],
        rows: [
          line('Sales (net of VAT)', report.sales),
          line('Less credit memos', report.credit_memos),
          line('Add debit memos', report.debit_memos),
          line('Net sales', report.net_sales),
          line('Cost of sales', report.cost_of_sales),
          line('Less restocked returns', report.returns_cost),
          line('Net cost of sales', report.net_cost_of_sales),
          line('Gross profit', report.gross_profit),
          ['Expenses', null],
          ...report.expenses.map((each) => line(`${each.code} ${each.name}`, each.amount)),
          line('Total expenses', report.expenses_total),
          line('Net profit', report.net_profit),
        ],
        bold: [3, 6, 7, expensesStart + report.expenses.length, expensesStart + report.expenses.length + 1],
      },
    ],
  };
}
