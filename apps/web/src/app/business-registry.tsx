import type { ComponentType } from 'react';
import type { PageKey } from '../lib/pages.js';
import { screen } from './public-pages.js';

/*
 * A business's pages (paths under /inventory/ or /business/, lib/pages.ts), registered as in
 * app/registry.tsx: `key: screen(loader, (m) => m.Component)`, one line each. This registry is a
 * chunk of its own, fetched by the first business page shown (app/RegisteredPage.tsx): a school's
 * cold load carries none of it, and a new business page costs the first paint nothing.
 */

const catalogue = () => import('../features/catalogue/pages.js');
const accountPages = () => import('../features/accounts/pages.js');
const stock = () => import('../features/stock/pages.js');
const businessUploads = () => import('../features/business-uploads/BusinessUploadsPage.js');
const payments = () => import('../features/payments/pages.js');
const efris = () => import('../features/efris/pages.js');
const businessReports = () => import('../features/business-reports/pages.js');
const sales = () => import('../features/sales/pages.js');
/** Each business page registered once, by its key in PAGES (lib/pages.ts). */
export const BUSINESS_PAGE_COMPONENTS: { readonly [Key in PageKey]?: ComponentType } = {
  stockOnHand: screen(stock, (m) => m.StockOnHandPage),
  stockReceive: screen(stock, (m) => m.ReceivePage),
  stockAdjust: screen(stock, (m) => m.AdjustPage),
  stockTransfer: screen(stock, (m) => m.TransferPage),
  stockLedger: screen(stock, (m) => m.LedgerPage),
  stockLow: screen(stock, (m) => m.LowStockPage),
  stockValuation: screen(stock, (m) => m.ValuationPage),
  businessUploads: screen(businessUploads, (m) => m.BusinessUploadsPage),
  efris: screen(efris, (m) => m.EfrisPage),
  products: screen(catalogue, (m) => m.ProductsPage),
  productGroups: screen(catalogue, (m) => m.ProductGroupsPage),
  partners: screen(catalogue, (m) => m.PartnersPage),
  currencies: screen(catalogue, (m) => m.CurrenciesPage),
  taxes: screen(catalogue, (m) => m.TaxesPage),
  whduties: screen(catalogue, (m) => m.WhdutiesPage),
  banks: screen(catalogue, (m) => m.BanksPage),
  receipts: screen(payments, (m) => m.ReceiptsPage),
  newReceipt: screen(payments, (m) => m.ReceiptPage),
  memos: screen(payments, (m) => m.MemosPage),
  newMemo: screen(payments, (m) => m.MemoPage),
  accounts: screen(accountPages, (m) => m.AccountsPage),
  trialBalance: screen(accountPages, (m) => m.TrialBalancePage),
  journal: screen(accountPages, (m) => m.JournalPage),
  vouchers: screen(accountPages, (m) => m.VouchersPage),
  newVoucher: screen(accountPages, (m) => m.VoucherPage),
  voucher: screen(accountPages, (m) => m.VoucherPage),
  businessCashup: screen(businessReports, (m) => m.CashupReportPage),
  businessDebtors: screen(businessReports, (m) => m.DebtorsReportPage),
  businessVat: screen(businessReports, (m) => m.VatReportPage),
  businessProfit: screen(businessReports, (m) => m.ProfitReportPage),
  salesCounter: screen(sales, (m) => m.CounterSalePage),
  salesInvoices: screen(sales, (m) => m.InvoicesPage),
  salesInvoiceNew: screen(sales, (m) => m.InvoicePage),
  salesInvoice: screen(sales, (m) => m.InvoicePage),
};
