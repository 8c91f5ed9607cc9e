/*
 * The business side's messages (issue 31), two catalogues registered in messages.ts
 * (`MESSAGE_CATALOGUES.business`, `.stock`): the web translates them as `messages.business.*`
 * and `messages.stock.*`. English here is the one source of the exact texts.
 */

/** Products, groups, partners and the reference data. */
export const BUSINESS_MESSAGES = {
  codeRequired: 'Please enter the code',
  codeTaken: 'Another product already has this code',
  barcodeTaken: 'Another product already has this barcode',
  barcodeInvalid: 'Enter the barcode without spaces, at most 64 characters',
  unitRequired: 'Please enter the unit',
  kindRequired: 'Choose goods or service',
  amountInvalid: 'Enter an amount of 0 or more',
  amountTooPrecise: 'This amount has more decimals than the currency allows',
  quantityInvalid: 'Enter a quantity',
  quantityWhole: 'This product is counted in whole units',
  rateInvalid: 'Enter a rate from 0 to 100',
  currencyCodeInvalid: 'Enter the currency’s three-letter code, as UGX',
  decimalsInvalid: 'Enter from 0 to 4 decimals',
  swiftInvalid: 'Enter the SWIFT code of 8 or 11 letters and digits',
  tinInvalid: 'Enter the TIN of 10 digits',
  tinRequired: 'A business or government buyer needs its TIN',
  roleRequired: 'Choose customer, supplier or both',
  termsInvalid: 'Enter payment terms of 0 to 365 days',
  emailInvalid: 'Enter a valid e-mail address',
  oneDefaultCurrency: 'Another currency is the default: make it not the default first',
  defaultCurrencyKept: 'A business always has a default currency: make another currency the default instead',
  defaultCurrencyInUse: 'The default currency cannot be deleted: make another currency the default first',
  notABusiness: 'This screen is for businesses',
  notASchool: 'This screen is for schools',
  taxUnknown: 'No tax of this business has this code or name',
  codeRepeated: 'This code is on an earlier row too',
  uploaded: 'The upload is saved',
  sheetEmpty: 'The sheet has no rows to upload',
  sheetTooManyRows: 'The sheet has too many rows (at most 5,000)',
  sheetRowsInvalid: 'Some rows are not valid; nothing was saved',
} as const;

/** The stock ledger and its screens. */
export const STOCK_MESSAGES = {
  productRequired: 'Please select a product',
  productUnknown: 'No product of this business has this code or barcode',
  quantityInvalid: 'Enter a quantity above 0, with at most 3 decimals',
  productNotStocked: 'This product does not keep stock',
  locationRequired: 'Please select a location',
  toLocationRequired: 'Please select the location to move to',
  sameLocation: 'Choose another location to move to',
  supplierRequired: 'Please select the supplier',
  reasonRequired: 'Please choose the reason',
  linesRequired: 'Add at least one product',
  tooManyLines: 'A movement takes at most 500 lines',
  dateInvalid: 'Enter the day as YYYY-MM-DD',
  dateInFuture: 'The day cannot be in the future',
  wouldGoNegative: 'There is not enough stock of this product at this location',
  unitCostRequired: 'Please enter the cost of one unit',
  referenceTooLong: 'The reference is too long',
  directionRequired: 'Choose whether stock comes in or goes out',
  recorded: 'The stock movement is recorded',
  alreadyRecorded: 'This movement was already recorded',
} as const;
