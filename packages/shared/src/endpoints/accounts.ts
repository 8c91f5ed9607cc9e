import { JournalQuerySchema, JournalResponseSchema, TrialBalanceQuerySchema, TrialBalanceSchema } from '../schemas/accounts.js';
import { defineEndpoint } from './definition.js';

/*
 * The books' reports (issue 32 point 5), for those who may read the accounts: the chart itself
 * is the `accounts` resource (schemas/accounts.ts). Business routes: a school gets 404.
 */

/** Every account's debit and credit totals and balance up to `to` (`excel=1`: as a workbook). */
export const trialBalanceEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/accounts/trialbalance',
  access: { action: 'read', subject: 'account' },
  query: TrialBalanceQuerySchema,
  response: TrialBalanceSchema,
  spreadsheet: true,
});

/** The journal: entries with their lines, filtered by period, account and source, paged. */
export const journalEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/accounts/journal',
  access: { action: 'read', subject: 'account' },
  query: JournalQuerySchema,
  response: JournalResponseSchema,
  spreadsheet: true,
});
