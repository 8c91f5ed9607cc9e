import { z } from 'zod';
import { ACCOUNT_MESSAGES as A } from '../business/messages-sales.js';
import { flag, optionalId } from '../endpoints/fields.js';
import { IN_USE_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { exactText } from '../resources/business-catalogue.js';
import { defineResource } from '../resources/definition.js';
import { id, named } from '../resources/fields.js';
import { optionalText, requiredText, text } from './common.js';

/*
 * The chart of accounts and the books (issue 32 point 5; guide business.md "Postings"): the
 * accounts as a resource on the one list mechanism, the trial balance and the journal. Cash,
 * bank and mobile-money accounts are accounts (their subtype). Amounts are exact decimal text.
 */

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Each kind (subtype) of account and the type it belongs to. */
export const ACCOUNT_SUBTYPE_TYPE = {
  cash: 'asset',
  bank: 'asset',
  mobile_money: 'asset',
  receivable: 'asset',
  inventory: 'asset',
  tax_receivable: 'asset',
  other_asset: 'asset',
  payable: 'liability',
  tax_payable: 'liability',
  other_liability: 'liability',
  equity: 'equity',
  sales: 'income',
  other_income: 'income',
  cost_of_sales: 'expense',
  expense: 'expense',
} as const satisfies Record<string, AccountType>;
export type AccountSubtype = keyof typeof ACCOUNT_SUBTYPE_TYPE;
export const ACCOUNT_SUBTYPES = Object.keys(ACCOUNT_SUBTYPE_TYPE) as [AccountSubtype, ...AccountSubtype[]];

/** The kinds of account money is paid from or into: cash, a bank, a mobile-money wallet. */
export const MONEY_SUBTYPES = ['cash', 'bank', 'mobile_money'] as const satisfies ReadonlyArray<AccountSubtype>;

/** Where the books' entries come from. */
export const JOURNAL_SOURCES = ['invoice', 'receipt', 'memo', 'voucher', 'opening', 'manual'] as const;
export type JournalSource = (typeof JOURNAL_SOURCES)[number];

/** YYYY-MM-DD naming a real day from 2000 on. */
export function isBookDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '2000-01-01') return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}
export const bookDay = text(A.dateInvalid).trim().refine(isBookDay, { error: A.dateInvalid });

const activeFilter = z.enum(['true', 'false']).optional();

export const accounts = defineResource({
  name: 'accounts',
  path: '/api/accounts',
  listKey: 'accounts',
  record: z.object({
    id,
    code: z.string(),
    name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    subtype: z.enum(ACCOUNT_SUBTYPES),
    parent_id: z.string().nullable(),
    parent: named,
    /** Set on the accounts the automatic postings use: these cannot be deleted or change type. */
    system_key: z.string().nullable(),
    bank_id: z.string().nullable(),
    bank: named,
    description: z.string().nullable(),
    active: z.boolean(),
  }),
  input: z.strictObject({
    code: requiredText(A.codeInvalid)
      .trim()
      .pipe(z.string().regex(/^[0-9A-Za-z.-]{1,20}$/, { error: A.codeInvalid })),
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(120, SETTINGS_MESSAGES.nameTooLong),
    type: z.enum(ACCOUNT_TYPES, { error: A.typeRequired }),
    subtype: z.enum(ACCOUNT_SUBTYPES, { error: A.subtypeRequired }),
    parent_id: optionalId.transform((value) => value ?? null),
    bank_id: optionalId.transform((value) => value ?? null),
    description: optionalText.refine((value) => value === null || value.length <= 500, { error: SETTINGS_MESSAGES.nameTooLong }),
    active: z.boolean().default(true),
  }),
  filters: z.object({ type: z.enum(ACCOUNT_TYPES).optional(), subtype: z.enum(ACCOUNT_SUBTYPES).optional(), active: activeFilter }),
  searchFields: ['code', 'name'],
  sort: [['code', 'asc']],
  pageSize: 100,
  subject: 'account',
  // Changing the chart is for those who manage the books, whatever create or update grant.
  writeAction: 'manage',
  inUse: IN_USE_MESSAGES.accounts,
  exportColumns: [
    ['code', 'Code'],
    ['name', 'Name'],
    ['type', 'Type'],
    ['subtype', 'Kind'],
    ['parent.name', 'Parent'],
    ['bank.name', 'Bank'],
    ['system_key', 'Used by postings'],
    ['active', 'Active'],
  ],
});
export type Account = z.output<typeof accounts.record>;

/** `GET /api/accounts/trialbalance?to=`: every account's totals up to a day (all when none). */
export const TrialBalanceQuerySchema = z.object({
  to: bookDay.optional(),
  excel: flag,
});

export const TrialBalanceRowSchema = z.object({
  account_id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  subtype: z.enum(ACCOUNT_SUBTYPES),
  debit: exactText,
  credit: exactText,
  /** Debit total less credit total: positive is a debit balance. */
  balance: exactText,
});
export type TrialBalanceRow = z.output<typeof TrialBalanceRowSchema>;

export const TrialBalanceSchema = z.object({
  to: z.string().nullable(),
  rows: z.array(TrialBalanceRowSchema),
  /** The totals of all rows: debit always equals credit (every entry balances). */
  totals: z.object({ debit: exactText, credit: exactText }),
});
export type TrialBalance = z.output<typeof TrialBalanceSchema>;

/** `GET /api/accounts/journal`: entries, newest first, with their lines. */
export const JournalQuerySchema = z.object({
  from: bookDay.optional(),
  to: bookDay.optional(),
  account_id: optionalId,
  source_kind: z.enum(JOURNAL_SOURCES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(25),
  excel: flag,
});

export const JournalLineSchema = z.object({
  line: z.number(),
  account_id: z.string(),
  account: z.object({ code: z.string(), name: z.string() }),
  partner_id: z.string().nullable(),
  partner: named,
  debit: exactText,
  credit: exactText,
});

export const JournalEntrySchema = z.object({
  id: z.string(),
  occurred_on: z.string(),
  source_kind: z.enum(JOURNAL_SOURCES),
  source_id: z.string().nullable(),
  description: z.string(),
  created_at: z.string(),
  created_by: named,
  lines: z.array(JournalLineSchema),
});
export type JournalEntry = z.output<typeof JournalEntrySchema>;

export const JournalResponseSchema = z.object({ entries: z.array(JournalEntrySchema), totalRecords: z.number() });
export type JournalResponse = z.output<typeof JournalResponseSchema>;
