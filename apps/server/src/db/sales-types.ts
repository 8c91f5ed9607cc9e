import type { ColumnType, Generated } from 'kysely';

/*
 * The rows of migration 0028 (issue 32: selling, getting paid, paying out, the books) as Kysely
 * sees them; `Database` in types.ts names them. Money is numeric: exact decimal text read back.
 */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | number, string | number>;
/** A numeric column with a default: optional on insert (Kysely's Generated does not unwrap a ColumnType). */
type DefaultNumeric = ColumnType<string, string | number | undefined, string | number>;
type Day = ColumnType<string, string, string>;
type PaymentMethod = 'cash' | 'mtn_momo' | 'airtel_money' | 'bank' | 'cheque' | 'card';
type TaxKind = 'standard' | 'zero' | 'exempt' | 'deemed';

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type AccountSubtype =
  | 'cash'
  | 'bank'
  | 'mobile_money'
  | 'receivable'
  | 'inventory'
  | 'tax_receivable'
  | 'other_asset'
  | 'payable'
  | 'tax_payable'
  | 'other_liability'
  | 'equity'
  | 'sales'
  | 'other_income'
  | 'cost_of_sales'
  | 'expense';

export interface AccountsTable {
  tenant_id: string;
  id: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  parent_id: string | null;
  /** The posting role the code finds this account by (debtors, sales, vat_payable, ...). */
  system_key: string | null;
  bank_id: string | null;
  description: string | null;
  active: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface DocumentNumbersTable {
  tenant_id: string;
  series: 'invoice' | 'receipt' | 'credit_memo' | 'debit_memo' | 'voucher';
  last_number: Generated<number>;
}

export interface InvoicesTable {
  tenant_id: string;
  id: string;
  request_id: string;
  kind: Generated<'invoice' | 'cash_sale'>;
  status: Generated<'draft' | 'issued'>;
  number: string | null;
  customer_id: string;
  buyer_name: string | null;
  buyer_phone: string | null;
  location_id: string;
  currency_code: string;
  currency_decimals: number;
  rate: DefaultNumeric;
  issued_on: Day;
  due_on: Day;
  reference: string | null;
  notes: string | null;
  vat_registered: Generated<boolean>;
  discount_total: DefaultNumeric;
  net_total: DefaultNumeric;
  tax_total: DefaultNumeric;
  gross_total: DefaultNumeric;
  stock_movement_id: string | null;
  fiscal_status: Generated<'none' | 'pending' | 'fiscalised' | 'failed'>;
  fiscal_fdn: string | null;
  fiscal_verification_code: string | null;
  fiscal_qr_code: string | null;
  fiscal_invoice_id: string | null;
  fiscal_at: Timestamp | null;
  fiscal_simulated: Generated<boolean>;
  created_by: string | null;
  issued_by: string | null;
  issued_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

interface DocumentLine {
  tenant_id: string;
  line: number;
  product_id: string;
  description: string | null;
  quantity: Numeric;
  unit_price: Numeric;
  tax_id: string | null;
  tax_code: string | null;
  tax_kind: TaxKind | null;
  tax_rate: DefaultNumeric;
  gross: Numeric;
  tax: DefaultNumeric;
  net: DefaultNumeric;
  unit_cost: DefaultNumeric;
}

export interface InvoiceLinesTable extends DocumentLine {
  invoice_id: string;
  discount: DefaultNumeric;
}

export interface ReceiptsTable {
  tenant_id: string;
  id: string;
  request_id: string;
  number: string;
  customer_id: string;
  received_on: Day;
  method: PaymentMethod;
  reference: string | null;
  account_id: string;
  currency_code: string;
  amount: Numeric;
  wht_amount: DefaultNumeric;
  whduty_id: string | null;
  wht_certificate: string | null;
  /** The cash sale this receipt paid at the counter, if any. */
  invoice_id: string | null;
  notes: string | null;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

export interface ReceiptAllocationsTable {
  tenant_id: string;
  id: string;
  receipt_id: string;
  invoice_id: string;
  amount: Numeric;
  allocated_on: Day;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

export interface MemosTable {
  tenant_id: string;
  id: string;
  request_id: string;
  number: string;
  kind: 'credit' | 'debit';
  invoice_id: string;
  reason_code: 'return' | 'price' | 'discount' | 'cancel' | 'other';
  reason: string;
  restock: Generated<boolean>;
  location_id: string | null;
  issued_on: Day;
  currency_code: string;
  net_total: DefaultNumeric;
  tax_total: DefaultNumeric;
  gross_total: Numeric;
  stock_movement_id: string | null;
  fiscal_status: Generated<'none' | 'pending' | 'submitted' | 'approved' | 'rejected' | 'failed'>;
  fiscal_reference: string | null;
  fiscal_fdn: string | null;
  fiscal_verification_code: string | null;
  fiscal_qr_code: string | null;
  fiscal_at: Timestamp | null;
  fiscal_simulated: Generated<boolean>;
  created_by: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface MemoLinesTable extends DocumentLine {
  memo_id: string;
  invoice_id: string;
  /** The invoice line this line credits or debits. */
  invoice_line: number;
}

export interface VouchersTable {
  tenant_id: string;
  id: string;
  request_id: string;
  number: string | null;
  status: Generated<'draft' | 'approved' | 'paid' | 'cancelled'>;
  payee_id: string | null;
  payee_name: string;
  method: PaymentMethod;
  account_id: string;
  reference: string | null;
  voucher_on: Day;
  currency_code: string;
  gross_total: DefaultNumeric;
  tax_total: DefaultNumeric;
  whduty_id: string | null;
  wht_amount: DefaultNumeric;
  wht_certificate: string | null;
  net_paid: DefaultNumeric;
  notes: string | null;
  prepared_by: string | null;
  approved_by: string | null;
  approved_at: Timestamp | null;
  paid_by: string | null;
  paid_at: Timestamp | null;
  paid_on: Day | null;
  payment_reference: string | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface VoucherLinesTable {
  tenant_id: string;
  voucher_id: string;
  line: number;
  account_id: string;
  description: string;
  amount: Numeric;
  /** Input VAT within the amount, claimable on the VAT return. */
  tax: DefaultNumeric;
}

export type JournalSourceKind = 'invoice' | 'receipt' | 'memo' | 'voucher' | 'opening' | 'manual';

export interface JournalEntriesTable {
  tenant_id: string;
  id: string;
  source_kind: JournalSourceKind;
  source_id: string | null;
  occurred_on: Day;
  description: string;
  created_by: string | null;
  created_at: Generated<Timestamp>;
}

export interface JournalLinesTable {
  tenant_id: string;
  entry_id: string;
  line: number;
  account_id: string;
  partner_id: string | null;
  debit: DefaultNumeric;
  credit: DefaultNumeric;
}
