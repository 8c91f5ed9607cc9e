import { newId } from '../../db/ids.js';
import type { AccountSubtype, AccountType } from '../../db/sales-types.js';
import type { TenantTx } from '../../db/tenant.js';

/*
 * The chart of accounts of a Ugandan shop (issue 32 point 5; guide business.md "Postings"):
 * cash, MTN MoMo, Airtel Money and the bank are accounts like any other, so money in and out
 * is a posting to one of them. Every account the automatic postings need carries a
 * `system_key` (packages/shared business/sales.ts `PostingKey`): the code finds it by that key,
 * so the business may rename or renumber it, but not delete it. The common expenses of a shop
 * have keys too, for the demo and the vouchers' defaults. Codes follow the usual numbering:
 * 1 assets, 2 liabilities, 3 equity, 4 income, 5 cost of sales, 6 expenses.
 */
export interface ChartAccountSeed {
  code: string;
  name: string;
  type: AccountType;
  subtype: AccountSubtype;
  system_key: string;
}

export const CHART_OF_ACCOUNTS: ReadonlyArray<ChartAccountSeed> = [
  { code: '1000', name: 'Cash on hand', type: 'asset', subtype: 'cash', system_key: 'cash' },
  { code: '1010', name: 'MTN Mobile Money', type: 'asset', subtype: 'mobile_money', system_key: 'mtn_momo' },
  { code: '1020', name: 'Airtel Money', type: 'asset', subtype: 'mobile_money', system_key: 'airtel_money' },
  { code: '1030', name: 'Bank account', type: 'asset', subtype: 'bank', system_key: 'bank' },
  { code: '1100', name: 'Debtors', type: 'asset', subtype: 'receivable', system_key: 'debtors' },
  { code: '1150', name: 'Withholding tax receivable', type: 'asset', subtype: 'tax_receivable', system_key: 'wht_receivable' },
  { code: '1160', name: 'VAT receivable (input VAT)', type: 'asset', subtype: 'tax_receivable', system_key: 'vat_receivable' },
  { code: '1200', name: 'Inventory', type: 'asset', subtype: 'inventory', system_key: 'inventory' },
  { code: '2000', name: 'Creditors', type: 'liability', subtype: 'payable', system_key: 'creditors' },
  { code: '2100', name: 'VAT payable', type: 'liability', subtype: 'tax_payable', system_key: 'vat_payable' },
  { code: '2110', name: 'Withholding tax payable', type: 'liability', subtype: 'tax_payable', system_key: 'wht_payable' },
  { code: '2200', name: 'Customer advances', type: 'liability', subtype: 'other_liability', system_key: 'customer_advances' },
  { code: '3000', name: "Owner's capital", type: 'equity', subtype: 'equity', system_key: 'equity' },
  { code: '3100', name: 'Retained earnings', type: 'equity', subtype: 'equity', system_key: 'retained_earnings' },
  { code: '4000', name: 'Sales', type: 'income', subtype: 'sales', system_key: 'sales' },
  { code: '5000', name: 'Cost of sales', type: 'expense', subtype: 'cost_of_sales', system_key: 'cost_of_sales' },
  { code: '6000', name: 'Rent', type: 'expense', subtype: 'expense', system_key: 'rent' },
  { code: '6010', name: 'Salaries and wages', type: 'expense', subtype: 'expense', system_key: 'salaries' },
  { code: '6020', name: 'Utilities (power and water)', type: 'expense', subtype: 'expense', system_key: 'utilities' },
  { code: '6030', name: 'Transport', type: 'expense', subtype: 'expense', system_key: 'transport' },
  { code: '6040', name: 'Airtime and data', type: 'expense', subtype: 'expense', system_key: 'airtime' },
  { code: '6050', name: 'Repairs and maintenance', type: 'expense', subtype: 'expense', system_key: 'repairs' },
  { code: '6060', name: 'Bank and mobile-money charges', type: 'expense', subtype: 'expense', system_key: 'bank_charges' },
  { code: '6070', name: 'Stationery and printing', type: 'expense', subtype: 'expense', system_key: 'stationery' },
  { code: '6080', name: 'Licences and fees', type: 'expense', subtype: 'expense', system_key: 'licences' },
  { code: '6900', name: 'Other expenses', type: 'expense', subtype: 'expense', system_key: 'other_expenses' },
];

/**
 * Writes the chart into the business `tx` is bound to. Idempotent and safe at the same moment
 * in two transactions: an account whose code or system key is already there is skipped (the
 * business may have renumbered or renamed it). Called with the other defaults when a business
 * is made, and lazily by the postings for a business made before the chart existed.
 */
export async function seedChartOfAccounts(tx: TenantTx): Promise<void> {
  await tx.trx
    .insertInto('accounts')
    .values(CHART_OF_ACCOUNTS.map((account) => ({ ...account, tenant_id: tx.tenantId, id: newId() })))
    // No conflict target: a clash on the code or on the system key is skipped alike.
    .onConflict((oc) => oc.doNothing())
    .execute();
}
