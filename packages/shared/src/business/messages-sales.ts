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
  customerRequired: 'Choose the customer',
  notACustomer: 'This partner is not a customer',
  locationRequired: 'Choose the location the goods leave from',
  currencyUnknown: 'The business has no such currency',
  dateInvalid: 'Enter a date as YYYY-MM-DD',
  dueBeforeIssue: 'The due date cannot be before the invoice date',
  linesRequired: 'Add at least one product',
  tooManyLines: 'An invoice has at most 500 lines',
  productRequired: 'Choose a product',
  productInactive: 'This product is inactive: it is not sold any more',
  quantityInvalid: 'Enter a quantity above 0 with at most 3 decimals',
  priceInvalid: 'Enter a price of 0 or more',
  discountAboveLine: 'The discount cannot be more than the line amount',
  textTooLong: 'This text is too long',
  statusInvalid: 'Choose draft, paid, part paid, unpaid or overdue',
  methodRequired: 'Choose how the customer pays',
  tenderedBelowTotal: 'The amount tendered is less than the total',
  requestReused: 'This request was already used for another invoice',
  invoiceSaved: 'Invoice saved',
  invoiceIssued: 'Invoice issued',
  invoiceDeleted: 'Draft deleted',
  saleRecorded: 'Sale recorded',
  saleAlreadyRecorded: 'This sale was already recorded',
} as const;

/** Receipts, allocations, credit and debit memos. */
export const PAYMENT_MESSAGES = {
  allocationAboveBalance: 'This is more than remains to be paid on the invoice',
  receiptRecorded: 'Receipt recorded',
  receiptAlreadyRecorded: 'This receipt was already recorded',
  allocationsRecorded: 'Allocations recorded',
  customerRequired: 'Choose the customer who paid',
  notACustomer: 'This partner is not a customer',
  methodRequired: 'Choose how the money was paid',
  referenceRequired: 'Enter the transaction reference (mobile money transaction id, bank reference or cheque number)',
  referenceTooLong: 'A reference has at most 80 characters',
  accountNotMoney: 'Choose a cash, bank or mobile-money account',
  amountRequired: 'Enter the amount received',
  amountTooLarge: 'This amount is too large',
  whtCertificateRequired: 'Enter the number of the withholding tax certificate',
  whtDutyRequired: 'Choose the withholding duty the customer withheld under',
  certificateTooLong: 'A certificate number has at most 40 characters',
  notesTooLong: 'Notes have at most 1000 characters',
  allocationsAboveReceipt: 'The allocations are more than the amount received and the tax withheld',
  allocationAboveUnallocated: 'This is more than remains unallocated on the receipt',
  allocationRepeated: 'This invoice is already allocated above',
  tooManyAllocations: 'A receipt is allocated to at most 100 invoices at a time',
  allocationsRequired: 'Allocate to at least one invoice',
  invoiceNotIssued: 'This invoice is not issued yet',
  invoiceOtherCustomer: 'This invoice is of another customer',
  invoiceOtherCurrency: 'This invoice is in another currency',
  memoRecorded: 'Memo recorded',
  memoAlreadyRecorded: 'This memo was already recorded',
  memoKindRequired: 'Choose a credit or a debit memo',
  reasonCodeRequired: 'Choose the reason of the memo',
  reasonRequired: 'Describe the reason of the memo',
  reasonTooLong: 'A reason has at most 300 characters',
  memoLinesRequired: 'Add at least one line of the invoice',
  tooManyMemoLines: 'A memo has at most 500 lines',
  memoLineRepeated: 'This invoice line is already in the memo',
  invoiceLineMissing: 'The invoice has no such line',
  quantityInvalid: 'Enter a quantity above 0 with at most 3 decimals',
  quantityAboveRemaining: 'This is more than remains of the invoice line',
  priceAboveInvoice: 'A price correction cannot be more than the price on the invoice',
  creditAboveLine: 'This credits more than remains of the invoice line',
  creditAboveInvoice: 'This credit is more than remains on the invoice',
  memoAmountZero: 'This memo comes to nothing',
  restockOnlyReturns: 'Only a credit memo for goods returned at the invoice price puts stock back',
  restockLocationRequired: 'Choose the location the goods are returned to',
} as const;

/** The chart of accounts, the books and payment vouchers. */
export const ACCOUNT_MESSAGES = {
  accountRequired: 'Please select an account',
} as const;

/** EFRIS: URA's e-invoicing. */
export const EFRIS_MESSAGES = {
  simulated: 'SIMULATED - NOT A VALID TAX INVOICE',
  tinInvalid: 'A TIN is 10 digits',
  deviceNoInvalid: 'Please enter the device number URA gave (up to 40 letters, digits, dashes or underscores)',
  urlInvalid: "Please enter URA's https:// address for a live device",
  keyInvalid: 'The private key must be a PEM RSA private key',
  keyRequired: 'A live device needs its private key',
  notConfigured: 'Set up the EFRIS device first',
  efrisOff: "EFRIS is off for this business: switch on its Efris flag in the business's details",
  fakeUnavailable: 'The local EFRIS simulator is not available on this server',
  tinUnknown: 'URA does not know this TIN',
  uraUnavailable: 'URA did not answer: try again later',
  uraRefused: 'URA refused the request',
  productsRequired: 'Please select 1 to 50 products',
  productUnknown: 'A selected product is not one of this business',
  notRetryable: 'Only a failed or waiting document can be sent again',
} as const;

/** The shop's daily reports. */
export const BUSINESS_REPORT_MESSAGES = {
  periodInvalid: 'Choose a period of at most one year',
  dateInvalid: 'Please enter a valid date (YYYY-MM-DD)',
  monthInvalid: 'Please choose a month (YYYY-MM)',
  tooManyRows: 'This report has too many rows to show at once: choose a shorter period',
} as const;
