import { ACCOUNT_MESSAGES as A, Decimal, ERROR_MESSAGES, IN_USE_MESSAGES, SETTINGS_MESSAGES, SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenantTx } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, SPREADSHEET, workbookOf } from '../settings/settings-fixtures.js';
import { postEntry } from './postings.js';

/*
 * The chart of accounts and the books' reports through the API (issue 32 point 5), on both
 * databases: the chart on the list mechanism with its rules (system accounts kept, accounts with
 * postings kept, a kind that fits the type, a parent without loops), the trial balance whose
 * totals are equal, the journal with its filters, and who may see and change what.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let manager: Caller;
let cashier: Caller;
let reader: Caller;

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field]).toEqual([message]);
}

const account = (fields: Record<string, unknown> = {}) => ({
  code: `7${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
  name: 'Security guard',
  type: 'expense',
  subtype: 'expense',
  ...fields,
});

const keyed = async (c: Caller, key: string): Promise<Row> =>
  ok(await c.get('/api/accounts?per_page=1000')).accounts.find((a: Row) => a.system_key === key);

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `acc-${newId().slice(-8)}`, name: 'Kikuubo Traders', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `acc-${newId().slice(-8)}`, name: 'Owino Traders', category: 'Retail' });
  school = await makeTenant(t.database, { tenantcode: `sch-${newId().slice(-8)}` });
  const boss = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, boss.email), shop.tenantcode);
  const asRole = async (roles: string[]) =>
    caller(t.app, await login(t.app, (await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles }] })).email), shop.tenantcode);
  manager = await asRole(['manager']);
  cashier = await asRole(['cashier']);
  reader = await asRole([]);
});
afterAll(() => t?.close());

describe('the chart of accounts', () => {
  it('lists the seeded chart to every member, with cash, mobile money and the bank as accounts', async () => {
    const listed = ok(await reader.get('/api/accounts?per_page=1000'));
    expect(listed.totalRecords).toBeGreaterThanOrEqual(26);
    const byKey = new Map(listed.accounts.map((a: Row) => [a.system_key, a]));
    expect(byKey.get('cash')).toMatchObject({ code: '1000', type: 'asset', subtype: 'cash', active: true });
    expect(byKey.get('mtn_momo')).toMatchObject({ subtype: 'mobile_money' });
    expect(byKey.get('vat_payable')).toMatchObject({ type: 'liability', subtype: 'tax_payable' });
    expect(byKey.get('other_expenses')).toMatchObject({ type: 'expense' });
    const money = ok(await reader.get('/api/accounts?subtype=mobile_money'));
    expect(money.accounts.map((a: Row) => a.name)).toEqual(['MTN Mobile Money', 'Airtel Money']);
    expect(ok(await reader.get('/api/accounts?search=debtors')).accounts.map((a: Row) => a.system_key)).toEqual(['debtors']);
    const sheet = await reader.get('/api/accounts?excel=1');
    expect(sheet.headers['content-type']).toBe(SPREADSHEET);
    expect(sheet.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    expect((await workbookOf(sheet)).getRow(2).getCell(1).value).toBe('1000');
  });

  it('adds, renames and removes an account for those who manage accounts only', async () => {
    const bank = ok(await manager.get('/api/banks?search=Stanbic')).banks[0];
    const stanbic = ok(
      await manager.post(
        '/api/accounts',
        account({ code: '1031', name: 'Stanbic current', type: 'asset', subtype: 'bank', bank_id: bank.id }),
      ),
    );
    expect(stanbic).toMatchObject({ code: '1031', subtype: 'bank', bank: { name: 'Stanbic Bank Uganda' }, system_key: null });
    const parent = await keyed(manager, 'other_expenses');
    const guard = ok(await manager.post('/api/accounts', account({ parent_id: parent.id })));
    expect(guard.parent).toEqual({ name: 'Other expenses' });
    expect(ok(await manager.put(`/api/accounts/${guard.id}`, account({ code: guard.code, name: 'Guards', active: false }))).name).toBe(
      'Guards',
    );
    for (const c of [cashier, reader]) {
      expect((await c.post('/api/accounts', account())).statusCode).toBe(403);
      expect((await c.put(`/api/accounts/${guard.id}`, account())).statusCode).toBe(403);
      expect((await c.delete(`/api/accounts/${guard.id}`)).statusCode).toBe(403);
    }
    ok(await manager.delete(`/api/accounts/${guard.id}`));
    expect((await manager.get(`/api/accounts/${guard.id}`)).statusCode).toBe(404);
  });

  it('refuses a taken code, a kind of another type, a bank on an expense, a parent of another type or a loop, bad text', async () => {
    refused(await manager.post('/api/accounts', account({ code: '1000' })), 'code', A.codeTaken);
    refused(await manager.post('/api/accounts', account({ subtype: 'cash' })), 'subtype', A.subtypeMismatch);
    refused(await manager.post('/api/accounts', account({ code: 'a b' })), 'code', A.codeInvalid);
    refused(await manager.post('/api/accounts', account({ type: 'nonsense' })), 'type', A.typeRequired);
    const bank = ok(await manager.get('/api/banks?search=Stanbic')).banks[0];
    refused(await manager.post('/api/accounts', account({ bank_id: bank.id })), 'bank_id', A.bankOnlyForBankAccounts);
    const cash = await keyed(manager, 'cash');
    refused(await manager.post('/api/accounts', account({ parent_id: cash.id })), 'parent_id', A.parentInvalid);
    const top = ok(await manager.post('/api/accounts', account({ name: 'Top' })));
    const child = ok(await manager.post('/api/accounts', account({ name: 'Child', parent_id: top.id })));
    refused(await manager.put(`/api/accounts/${top.id}`, account({ code: top.code, parent_id: child.id })), 'parent_id', A.parentInvalid);
    refused(await manager.put(`/api/accounts/${top.id}`, account({ code: top.code, parent_id: top.id })), 'parent_id', A.parentInvalid);
    refused(await manager.post('/api/accounts', account({ name: 'x'.repeat(121) })), 'name', SETTINGS_MESSAGES.nameTooLong);
    expect((await manager.post('/api/accounts', account({ name: 'Bad\u0000name' }))).statusCode).toBe(422);
    expect((await manager.post('/api/accounts', account({ parent_id: 'not-an-id' }))).statusCode).toBe(422);
    expect((await manager.post('/api/accounts', { ...account(), extra: 1 })).statusCode).toBe(422);
    // Another business's account as the parent is not found here.
    const theirs = await keyed(owner.in(other.tenantcode), 'other_expenses');
    refused(await manager.post('/api/accounts', account({ parent_id: theirs.id })), 'parent_id', A.parentInvalid);
  });

  it('adds one account when the same code is sent twice at once; the other is told the code is taken', async () => {
    const body = account({ code: '6995', name: 'Cleaning' });
    const answers = await Promise.all([manager.post('/api/accounts', body), manager.post('/api/accounts', body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    refused(answers.find((answer) => answer.statusCode === 422) as LightMyRequestResponse, 'code', A.codeTaken);
    expect(ok(await manager.get('/api/accounts?search=Cleaning')).totalRecords).toBe(1);
  });

  it('keeps the accounts the postings use, and any account with postings', async () => {
    const cash = await keyed(manager, 'cash');
    const conflicted = await manager.delete(`/api/accounts/${cash.id}`);
    expect(conflicted.statusCode).toBe(409);
    expect(conflicted.json().message).toBe(A.systemAccountKept);
    refused(
      await manager.put(`/api/accounts/${cash.id}`, account({ code: '1000', name: 'Till', type: 'expense', subtype: 'expense' })),
      'type',
      A.systemAccountType,
    );
    const renamed = ok(await manager.put(`/api/accounts/${cash.id}`, { code: '1001', name: 'Till cash', type: 'asset', subtype: 'cash' }));
    expect(renamed).toMatchObject({ code: '1001', name: 'Till cash', system_key: 'cash' });

    const petty = ok(await manager.post('/api/accounts', account({ name: 'Petty cash', type: 'asset', subtype: 'cash' })));
    await withTenantTx(t.database.db, { tenantId: shop.id }, (tx) =>
      postEntry(tx, {
        source_kind: 'manual',
        source_id: null,
        occurred_on: '2026-11-10',
        description: 'Float',
        lines: [
          { account: { id: petty.id }, debit: '50000', credit: '0' },
          { account: { key: 'equity' }, debit: '0', credit: '50000' },
        ],
      }),
    );
    const inUse = await manager.delete(`/api/accounts/${petty.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(IN_USE_MESSAGES.accounts);
  });

  it("answers 404 for another business's account and for a school", async () => {
    const theirs = await keyed(owner.in(other.tenantcode), 'sales');
    expect((await owner.get(`/api/accounts/${theirs.id}`)).statusCode).toBe(404);
    expect((await owner.put(`/api/accounts/${theirs.id}`, account())).statusCode).toBe(404);
    expect((await owner.delete(`/api/accounts/${theirs.id}`)).statusCode).toBe(404);
    const inSchool = owner.in(school.tenantcode);
    for (const url of ['/api/accounts', '/api/accounts/trialbalance', '/api/accounts/journal'])
      expect((await inSchool.get(url)).statusCode, url).toBe(404);
    expect((await inSchool.post('/api/accounts', account())).statusCode).toBe(404);
  });
});

describe('the trial balance and the journal', () => {
  it('sums every account, debits equal to credits, up to a day; for those who may read accounts', async () => {
    const post = (occurred_on: string, lines: Array<[string, string, string]>) =>
      withTenantTx(t.database.db, { tenantId: shop.id }, (tx) =>
        postEntry(tx, {
          source_kind: 'manual',
          source_id: null,
          occurred_on,
          description: `Entry of ${occurred_on}`,
          lines: lines.map(([key, debit, credit]) => ({ account: { key: key as 'cash' }, debit, credit })),
        }),
      );
    await post('2026-10-01', [
      ['bank', '5000000', '0'],
      ['equity', '0', '5000000'],
    ]);
    await post('2026-10-15', [
      ['debtors', '118000', '0'],
      ['sales', '0', '100000'],
      ['vat_payable', '0', '18000'],
    ]);
    await post('2026-11-20', [
      ['mtn_momo', '118000', '0'],
      ['debtors', '0', '118000'],
    ]);
    const all = ok(await manager.get('/api/accounts/trialbalance'));
    expect(all.totals.debit).toBe(all.totals.credit);
    const sum = all.rows.reduce((total: Decimal, row: Row) => total.plus(row.balance as string), new Decimal(0));
    expect(sum.toFixed()).toBe('0');
    const row = (answer: { rows: Row[] }, key: string, code?: string) => answer.rows.find((r) => (code ? r.code === code : r.name === key));
    expect(row(all, 'Debtors')).toMatchObject({ debit: '118000', credit: '118000', balance: '0' });
    expect(row(all, 'Sales')).toMatchObject({ debit: '0', credit: '100000', balance: '-100000' });
    const october = ok(await manager.get('/api/accounts/trialbalance?to=2026-10-31'));
    expect(row(october, 'Debtors')).toMatchObject({ debit: '118000', credit: '0', balance: '118000' });
    expect(row(october, 'MTN Mobile Money')).toMatchObject({ debit: '0', balance: '0' });
    expect(october.totals.debit).toBe(october.totals.credit);
    expect(october.to).toBe('2026-10-31');

    const sheet = await manager.get('/api/accounts/trialbalance?excel=1&to=2026-10-31');
    expect(sheet.headers['content-type']).toBe(SPREADSHEET);
    const rows = await workbookOf(sheet);
    expect(rows.getRow(1).getCell(4).value).toBe('Debit');
    expect(rows.getRow(rows.rowCount).getCell(2).value).toBe('Total');
    expect(rows.getRow(rows.rowCount).getCell(4).value).toBe(Number(october.totals.debit));

    for (const c of [cashier, reader]) expect((await c.get('/api/accounts/trialbalance')).statusCode).toBe(403);
    refused(await manager.get('/api/accounts/trialbalance?to=2026-02-30'), 'to', A.dateInvalid);
    refused(await manager.get('/api/accounts/trialbalance?to=yesterday'), 'to', A.dateInvalid);
  });

  it('lists journal entries with their lines, newest first, by period, account and source, paged and as a workbook', async () => {
    const momo = await keyed(manager, 'mtn_momo');
    const byAccount = ok(await manager.get(`/api/accounts/journal?account_id=${momo.id}`));
    expect(byAccount.totalRecords).toBe(1);
    expect(byAccount.entries[0]).toMatchObject({ occurred_on: '2026-11-20', source_kind: 'manual', description: 'Entry of 2026-11-20' });
    expect(byAccount.entries[0].lines).toEqual([
      expect.objectContaining({ line: 0, account: { code: '1010', name: 'MTN Mobile Money' }, debit: '118000', credit: '0' }),
      expect.objectContaining({ line: 1, account: expect.objectContaining({ name: 'Debtors' }), debit: '0', credit: '118000' }),
    ]);
    const october = ok(await manager.get('/api/accounts/journal?from=2026-10-01&to=2026-10-31&per_page=1'));
    expect(october.totalRecords).toBe(2);
    expect(october.entries.map((e: Row) => e.occurred_on)).toEqual(['2026-10-15']);
    const second = ok(await manager.get('/api/accounts/journal?from=2026-10-01&to=2026-10-31&per_page=1&page=2'));
    expect(second.entries.map((e: Row) => e.occurred_on)).toEqual(['2026-10-01']);
    expect(ok(await manager.get('/api/accounts/journal?source_kind=voucher')).totalRecords).toBe(0);
    const sheet = await manager.get('/api/accounts/journal?from=2026-10-15&to=2026-10-15&excel=1');
    expect(sheet.headers['content-type']).toBe(SPREADSHEET);
    const rows = await workbookOf(sheet);
    expect(rows.rowCount).toBe(4);
    expect(rows.getRow(2).getCell(5).value).toBe('Debtors');

    refused(await manager.get('/api/accounts/journal?from=2026-11-01&to=2026-10-01'), 'from', A.periodInvalid);
    expect((await manager.get('/api/accounts/journal?account_id=nope')).statusCode).toBe(422);
    expect((await manager.get('/api/accounts/journal?source_kind=nope')).statusCode).toBe(422);
    expect((await manager.get('/api/accounts/journal?per_page=100000')).statusCode).toBe(422);
    // Another business's account finds none of this business's entries.
    const theirs = await keyed(owner.in(other.tenantcode), 'mtn_momo');
    expect(ok(await manager.get(`/api/accounts/journal?account_id=${theirs.id}`)).totalRecords).toBe(0);
    expect(ok(await owner.in(other.tenantcode).get('/api/accounts/journal')).totalRecords).toBe(0);
    for (const c of [cashier, reader]) expect((await c.get('/api/accounts/journal')).statusCode).toBe(403);
    expect(ERROR_MESSAGES[403]).toBeTruthy();
  });
});
