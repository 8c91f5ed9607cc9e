/*
 * The messages of selling and getting paid (issue 32), catalogues registered in messages.ts:
 * `sales` (invoices and the counter), `payments` (receipts, credit and debit memos), `accounts`
 * (the chart, postings, vouchers), `efris` (URA's e-invoicing) and `businessReports`. The web
 * translates them as `messages.<catalogue>.*`; English here is the one source of the texts.
 * Each catalogue is its own constant so the people building each part never edit one object.
 */

/** Invoices, drafts, issuing and the counter sale. */
export const SALES_MESSAGES = {
  documentIssued: 'This document is issued and cannot be changed: correct it with a credit or debit memo',
} as const;

/** Receipts, allocations, credit and debit memos. */
export const PAYMENT_MESSAGES = {
  allocationAboveBalance: 'This is more than remains to be paid on the invoice',
} as const;

/** The chart of accounts, the books and payment vouchers. */
export const ACCOUNT_MESSAGES = {
  accountRequired: 'Please select an account',
} as const;

/** EFRIS: URA's e-invoicing. */
export const EFRIS_MESSAGES = {
  simulated: 'SIMULATED - NOT A VALID TAX INVOICE',
} as const;

/** The shop's daily reports. */
export const BUSINESS_REPORT_MESSAGES = {
  periodInvalid: 'Choose a period of at most one year',
  dateInvalid: 'Please enter a valid date (YYYY-MM-DD)',
  monthInvalid: 'Please choose a month (YYYY-MM)',
  tooManyRows: 'This report has too many rows to show at once: choose a shorter period',
} as const;
