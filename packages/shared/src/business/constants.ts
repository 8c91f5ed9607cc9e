/*
 * The business side's fixed lists (guide business.md). What a business may change (its taxes,
 * currencies, banks) is data, seeded from these defaults; these are the kinds the code knows.
 */
export const PRODUCT_KINDS = ['goods', 'service'] as const;
export const TAX_KINDS = ['standard', 'zero', 'exempt', 'deemed'] as const;
export const WHDUTY_KINDS = ['income_tax', 'vat', 'non_resident', 'other'] as const;
export const BANK_KINDS = ['bank', 'mobile_money'] as const;
export const PARTNER_ROLES = ['customer', 'supplier', 'both'] as const;
export const BUYER_TYPES = ['b2c', 'b2b', 'government', 'foreigner'] as const;

/** Kinds of a stock movement (one user action) and of its ledger rows. */
export const STOCK_MOVEMENT_KINDS = ['opening', 'purchase', 'adjustment', 'transfer', 'sale', 'sale_return'] as const;
export const STOCK_RECORD_KINDS = [
  'opening',
  'purchase',
  'sale',
  'sale_return',
  'adjustment_in',
  'adjustment_out',
  'transfer_out',
  'transfer_in',
] as const;
/** Why stock was adjusted (business.md: expired, damaged, personal use, other; and counts). */
export const ADJUSTMENT_REASONS = ['expired', 'damaged', 'personal_use', 'lost', 'count', 'found', 'other'] as const;
/** Lines one movement takes: a delivery note, not a warehouse. */
export const MAX_MOVEMENT_LINES = 500;

export type StockRecordKind = (typeof STOCK_RECORD_KINDS)[number];
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];
