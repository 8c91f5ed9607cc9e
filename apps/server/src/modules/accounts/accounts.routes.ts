import { ACCOUNT_MESSAGES, accounts, journalEndpoint, SETTINGS_MESSAGES, trialBalanceEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, spreadsheetAnswer } from '../../plugins/endpoints.js';
import { registerResource } from '../../resources/resource-routes.js';
import { checkAccount, checkAccountRemoval, journal, trialBalance, type Workbook } from './accounts.service.js';

/*
 * The books' routes (issue 32 point 5): the chart of accounts on the one list mechanism (every
 * member reads it, those who manage accounts change it), the trial balance and the journal (for
 * those who may read accounts). Business routes: a school's TENANTCODE is answered 404 by path.
 */

const sheetOr = <T>(result: { answer: T } | { file: Workbook }) =>
  'file' in result ? spreadsheetAnswer(result.file.fileName, result.file.workbook) : result.answer;

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  registerResource(app, accounts, {
    table: 'accounts',
    references: {
      parent: { table: 'accounts', key: 'parent_id', column: 'name' },
      bank: { table: 'banks', key: 'bank_id', column: 'name' },
    },
    beforeWrite: checkAccount,
    beforeRemove: checkAccountRemoval,
    constraints: {
      accounts_tenant_id_code_key: { field: 'code', message: ACCOUNT_MESSAGES.codeTaken },
      accounts_tenant_id_parent_id_fkey: { field: 'parent_id', message: SETTINGS_MESSAGES.referenceMissing },
      accounts_tenant_id_bank_id_fkey: { field: 'bank_id', message: SETTINGS_MESSAGES.referenceMissing },
    },
  });
  actionRoute(app, trialBalanceEndpoint, async ({ tx }, { query }) => sheetOr(await trialBalance(tx, query)));
  actionRoute(app, journalEndpoint, async ({ tx }, { query }) => sheetOr(await journal(tx, query)));
};
