import { ACCOUNT_MESSAGES as A, BUSINESS_MESSAGES, Decimal, SETTINGS_MESSAGES, SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { sqlState } from '../../errors.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { SPREADSHEET, workbookOf } from '../settings/settings-fixtures.js';

/*
 * Payment vouchers through the API (issue 32 point 4), on both databases: a draft prepared by a
 * cashier, approved by a manager (numbered PV-...), paid by another and posted to the books with
 * its input VAT and the tax withheld; separation of duties where the business has more than one
 * approver, and none where it has one; the same request twice, two approvals or payments at
 * once; what is refused and why; isolation and permissions; the trial balance at zero after.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let solo: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let managerA: Caller;
let managerB: Caller;
let cashier: Caller;
let reader: Caller;
let soloOwner: Caller;
const accounts = new Map<string, Row>();
let wht6: Row;
let supplier: Row;

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field], response.body).toEqual([message]);
}

function conflicted(response: LightMyRequestResponse, message: string) {
  expect(response.statusCode, response.body).toBe(409);
  expect(response.json().message).toBe(message);
}

const key = (name: string) => (accounts.get(name) as Row).id;

const draft = (fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  payee_name: 'Nakasero landlord',
  method: 'cash',
  voucher_on: '2026-11-05',
  lines: [{ account_id: key('rent'), description: 'Shop rent, November', amount: '500000' }],
  ...fields,
});

async function trialBalanceZero(c: Caller) {
  const balance = ok(await c.get('/api/accounts/trialbalance'));
  expect(balance.totals.debit).toBe(balance.totals.credit);
  const sum = balance.rows.reduce((total: Decimal, row: Row) => total.plus(row.balance as string), new Decimal(0));
  expect(sum.toFixed()).toBe('0');
  return balance;
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `pv-${newId().slice(-8)}`, name: 'Kikuubo Wholesalers', category: 'Retail' });
  solo = await makeTenant(t.database, { tenantcode: `pv-${newId().slice(-8)}`, name: 'One-man kiosk', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `pv-${newId().slice(-8)}`, name: 'Owino Wholesalers', category: 'Retail' });
  school = await makeTenant(t.database, { tenantcode: `sch-${newId().slice(-8)}` });
  const boss = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, boss.email), shop.tenantcode);
  const asRole = async (roles: string[], tenant = shop) =>
    caller(
      t.app,
      await login(t.app, (await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles }] })).email),
      tenant.tenantcode,
    );
  managerA = await asRole(['manager']);
  managerB = await asRole(['manager']);
  cashier = await asRole(['cashier']);
  reader = await asRole([]);
  soloOwner = await asRole([SUPERADMIN_ROLE], solo);
  for (const row of ok(await owner.get('/api/accounts?per_page=1000')).accounts as Row[])
    if (row.system_key) accounts.set(String(row.system_key), row);
  wht6 = ok(await owner.get('/api/whduties?search=WHT6')).whduties[0];
  supplier = ok(await owner.post('/api/companies', { name: 'Crown Beverages', role: 'supplier', tin: '1000012345' }));
});
afterAll(() => t?.close());

describe('a voucher from draft to paid', () => {
  it('is prepared, approved by another, paid by a third and posted with input VAT and the tax withheld', async () => {
    // 1,180,000 with 180,000 input VAT: 1,000,000 before VAT reaches WHT6's threshold: 6% is 60,000.
    const body = draft({
      payee_id: supplier.id,
      payee_name: null,
      method: 'mtn_momo',
      whduty_id: wht6.id,
      lines: [{ account_id: key('creditors'), description: 'Sodas, invoice 4411', amount: '1,180,000', tax: '180000' }],
    });
    refused(await cashier.post('/api/vouchers', body), 'wht_certificate', A.whtCertificateRequired);
    const prepared = ok(await cashier.post('/api/vouchers', { ...body, wht_certificate: 'WHT-2026-0099' }));
    expect(prepared).toMatchObject({ message: A.voucherSaved, created: true });
    const voucher = prepared.voucher;
    expect(voucher).toMatchObject({
      status: 'draft',
      number: null,
      payee_name: 'Crown Beverages',
      account: { code: '1010', name: 'MTN Mobile Money' },
      gross_total: '1180000',
      tax_total: '180000',
      wht_amount: '60000',
      net_paid: '1120000',
      wht_certificate: 'WHT-2026-0099',
      whduty: { name: 'Withholding tax 6%' },
      currency_code: 'UGX',
    });
    expect(voucher.lines).toEqual([
      expect.objectContaining({ line: 0, description: 'Sodas, invoice 4411', amount: '1180000', tax: '180000' }),
    ]);

    expect((await cashier.post(`/api/vouchers/${voucher.id}/approve`)).statusCode).toBe(403);
    const approved = ok(await managerA.post(`/api/vouchers/${voucher.id}/approve`));
    expect(approved.voucher).toMatchObject({ status: 'approved', number: expect.stringMatching(/^PV-\d{6}$/) });
    expect(approved.voucher.approved_by.name).toBeTruthy();
    conflicted(await managerA.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-06' }), A.payerIsApprover);
    refused(await managerB.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-04' }), 'paid_on', A.paidBeforeVoucher);
    const paid = ok(await managerB.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-06', payment_reference: 'MP261106.1234' }));
    expect(paid.voucher).toMatchObject({ status: 'paid', paid_on: '2026-11-06', payment_reference: 'MP261106.1234' });
    conflicted(await managerB.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-06' }), A.voucherAlreadyPaid);
    conflicted(await managerB.post(`/api/vouchers/${voucher.id}/approve`), A.voucherAlreadyApproved);

    const journal = ok(await owner.get('/api/accounts/journal?source_kind=voucher'));
    const entry = journal.entries.find((e: Row) => e.source_id === voucher.id);
    expect(entry).toMatchObject({ occurred_on: '2026-11-06' });
    const posted = entry.lines.map((line: Row) => [(line.account as Row).name, line.debit, line.credit]);
    expect(posted).toEqual(
      expect.arrayContaining([
        ['Creditors', '1000000', '0'],
        ['VAT receivable (input VAT)', '180000', '0'],
        ['MTN Mobile Money', '0', '1120000'],
        ['Withholding tax payable', '0', '60000'],
      ]),
    );
    expect(posted.length).toBe(4);
    await trialBalanceZero(owner);
  });

  it('keeps an approved voucher: no edit, no delete, and the database refuses a change too', async () => {
    const { voucher } = ok(await cashier.post('/api/vouchers', draft()));
    ok(await managerA.post(`/api/vouchers/${voucher.id}/approve`));
    conflicted(await cashier.put(`/api/vouchers/${voucher.id}`, draft()), A.voucherNotDraft);
    conflicted(await cashier.delete(`/api/vouchers/${voucher.id}`), A.voucherNotDraft);
    const error = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx
        .updateTable('vouchers')
        .set({ payee_name: 'Someone else' })
        .where('tenant_id', '=', shop.id)
        .where('id', '=', voucher.id)
        .execute(),
    ).catch((caught: unknown) => caught);
    expect(sqlState(error), String(error)).toBe('55000');
  });

  it('edits and deletes a draft', async () => {
    const { voucher } = ok(await cashier.post('/api/vouchers', draft()));
    const edited = ok(
      await cashier.put(`/api/vouchers/${voucher.id}`, {
        ...draft({ payee_name: 'UMEME', voucher_on: '2026-11-07' }),
        lines: [
          { account_id: key('utilities'), description: 'Power', amount: '120000' },
          { account_id: key('airtime'), description: 'Data bundle', amount: '30000' },
        ],
      }),
    );
    expect(edited.voucher).toMatchObject({ payee_name: 'UMEME', gross_total: '150000', voucher_on: '2026-11-07', status: 'draft' });
    expect(edited.voucher.lines.map((line: Row) => line.description)).toEqual(['Power', 'Data bundle']);
    ok(await cashier.delete(`/api/vouchers/${voucher.id}`));
    expect((await cashier.get(`/api/vouchers/${voucher.id}`)).statusCode).toBe(404);
  });

  it('needs no second person where one member alone may approve', async () => {
    const ids = new Map<string, string>();
    for (const row of ok(await soloOwner.get('/api/accounts?per_page=1000')).accounts as Row[])
      if (row.system_key) ids.set(String(row.system_key), row.id);
    const { voucher } = ok(
      await soloOwner.post('/api/vouchers', {
        ...draft(),
        lines: [{ account_id: ids.get('transport'), description: 'Boda boda', amount: '5000' }],
      }),
    );
    const approved = ok(await soloOwner.post(`/api/vouchers/${voucher.id}/approve`));
    expect(approved.voucher.number).toBe('PV-000001');
    expect(ok(await soloOwner.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-05' })).voucher.status).toBe('paid');
    await trialBalanceZero(soloOwner);
  });

  it('refuses the preparer as approver where another may approve', async () => {
    const { voucher } = ok(await managerA.post('/api/vouchers', draft()));
    conflicted(await managerA.post(`/api/vouchers/${voucher.id}/approve`), A.approverIsPreparer);
    ok(await managerB.post(`/api/vouchers/${voucher.id}/approve`));
  });
});

describe('at the same moment', () => {
  it('saves one draft for one request id sent twice at once', async () => {
    const body = draft();
    const answers = await Promise.all([cashier.post('/api/vouchers', body), cashier.post('/api/vouchers', body)]);
    const saved = answers.map(ok);
    expect(saved[0].voucher.id).toBe(saved[1].voucher.id);
    expect(saved.map((answer) => answer.created).sort()).toEqual([false, true]);
    const again = ok(await cashier.post('/api/vouchers', body));
    expect(again).toMatchObject({ created: false, voucher: { id: saved[0].voucher.id } });
  });

  it('approves once and pays once when asked twice at once', async () => {
    const { voucher } = ok(await cashier.post('/api/vouchers', draft()));
    const approvals = await Promise.all([
      managerA.post(`/api/vouchers/${voucher.id}/approve`),
      managerB.post(`/api/vouchers/${voucher.id}/approve`),
    ]);
    expect(approvals.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const approver = approvals[0]?.statusCode === 200 ? managerA : managerB;
    const payers = [owner, approver === managerA ? managerB : managerA];
    const payments = await Promise.all(payers.map((payer) => payer.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-08' })));
    expect(payments.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const entries = ok(await owner.get('/api/accounts/journal?source_kind=voucher&per_page=200')).entries;
    expect(entries.filter((e: Row) => e.source_id === voucher.id).length).toBe(1);
    await trialBalanceZero(owner);
  });

  it('numbers approvals of many drafts at once without gaps', async () => {
    const drafts = await Promise.all(Array.from({ length: 5 }, () => cashier.post('/api/vouchers', draft())));
    const ids = drafts.map((answer) => ok(answer).voucher.id as string);
    const approved = await Promise.all(ids.map((id, index) => (index % 2 ? managerA : managerB).post(`/api/vouchers/${id}/approve`)));
    const numbers = approved.map((answer) => ok(answer).voucher.number as string);
    const all = (ok(await owner.get('/api/vouchers?per_page=200')).vouchers as Row[])
      .map((v) => v.number)
      .filter((n): n is string => typeof n === 'string')
      .map((n) => Number(n.slice(3)))
      .sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: all.length }, (_, index) => index + 1));
    expect(new Set(numbers).size).toBe(5);
  });
});

describe('what a voucher refuses', () => {
  it('names the field at fault, saving nothing', async () => {
    const before = ok(await owner.get('/api/vouchers')).totalRecords;
    const post = (fields: Record<string, unknown>) => cashier.post('/api/vouchers', draft(fields));
    const line = (fields: Record<string, unknown>) => ({
      lines: [{ account_id: key('rent'), description: 'Rent', amount: '1000', ...fields }],
    });
    refused(await post({ payee_name: null }), 'payee_name', A.payeeRequired);
    refused(await post({ account_id: key('sales') }), 'account_id', A.payingAccountInvalid);
    refused(await post(line({ account_id: key('cash') })), 'lines.0.account_id', A.lineAccountInvalid);
    refused(await post(line({ tax: '2000' })), 'lines.0.tax', A.taxAboveAmount);
    refused(await post(line({ amount: '1000.50' })), 'lines.0.amount', BUSINESS_MESSAGES.amountTooPrecise);
    refused(await post(line({ amount: '0' })), 'lines.0.amount', A.amountInvalid);
    refused(await post(line({ amount: 'lots' })), 'lines.0.amount', A.amountInvalid);
    refused(await post(line({ description: '' })), 'lines.0.description', A.descriptionRequired);
    refused(await post({ lines: [] }), 'lines', A.linesRequired);
    refused(await post({ lines: Array.from({ length: 101 }, () => line({}).lines[0]) }), 'lines', A.tooManyLines);
    refused(await post({ voucher_on: '2026-13-01' }), 'voucher_on', A.dateInvalid);
    refused(await post({ wht_amount: '100' }), 'whduty_id', A.whtWithoutDuty);
    refused(await post({ whduty_id: wht6.id, wht_amount: '600000', wht_certificate: 'C1' }), 'wht_amount', A.whtAboveTotal);
    refused(await post({ payee_name: 'x'.repeat(121) }), 'payee_name', SETTINGS_MESSAGES.nameTooLong);
    expect((await post({ payee_name: 'Null\u0000byte' })).statusCode).toBe(422);
    expect((await post({ method: 'barter' })).statusCode).toBe(422);
    expect((await post({ request_id: 'again' })).statusCode).toBe(422);
    expect((await post({ surprise: true })).statusCode).toBe(422);
    // Another business's partner, account or duty is not found here.
    const away = owner.in(other.tenantcode);
    const theirPartner = ok(await away.post('/api/companies', { name: 'Their supplier', role: 'supplier' }));
    const theirAccounts = ok(await away.get('/api/accounts?per_page=1000')).accounts as Row[];
    const theirRent = theirAccounts.find((a) => a.system_key === 'rent') as Row;
    const theirCash = theirAccounts.find((a) => a.system_key === 'cash') as Row;
    const theirDuty = ok(await away.get('/api/whduties')).whduties[0];
    refused(await post({ payee_id: theirPartner.id }), 'payee_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await post(line({ account_id: theirRent.id })), 'lines.0.account_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await post({ account_id: theirCash.id }), 'account_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await post({ whduty_id: theirDuty.id }), 'whduty_id', SETTINGS_MESSAGES.referenceMissing);
    expect(ok(await owner.get('/api/vouchers')).totalRecords).toBe(before);
  });

  it('refuses a payment date that is no date and a pay body with more', async () => {
    const { voucher } = ok(await cashier.post('/api/vouchers', draft()));
    ok(await managerA.post(`/api/vouchers/${voucher.id}/approve`));
    refused(await managerB.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: 'soon' }), 'paid_on', A.dateInvalid);
    expect((await managerB.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-09', extra: 1 })).statusCode).toBe(422);
    conflicted(
      await managerB.post(`/api/vouchers/${ok(await cashier.post('/api/vouchers', draft())).voucher.id}/pay`, { paid_on: '2026-11-09' }),
      A.voucherNotApproved,
    );
  });
});

describe('who sees and does what', () => {
  it("answers 404 for another business's voucher and for a school; 403 without the ability", async () => {
    const theirs = ok(
      await owner.in(other.tenantcode).post('/api/vouchers', {
        ...draft(),
        lines: [
          {
            account_id: (ok(await owner.in(other.tenantcode).get('/api/accounts?per_page=1000')).accounts as Row[]).find(
              (a) => a.system_key === 'rent',
            )?.id,
            description: 'Rent',
            amount: '1000',
          },
        ],
      }),
    ).voucher;
    expect((await owner.get(`/api/vouchers/${theirs.id}`)).statusCode).toBe(404);
    expect((await owner.put(`/api/vouchers/${theirs.id}`, draft())).statusCode).toBe(404);
    expect((await owner.delete(`/api/vouchers/${theirs.id}`)).statusCode).toBe(404);
    expect((await owner.post(`/api/vouchers/${theirs.id}/approve`)).statusCode).toBe(404);
    expect((await owner.post(`/api/vouchers/${theirs.id}/pay`, { paid_on: '2026-11-09' })).statusCode).toBe(404);
    expect((await owner.get(`/api/vouchers/${newId()}`)).statusCode).toBe(404);
    expect((await owner.get('/api/vouchers/not-an-id')).statusCode).toBe(422);

    const inSchool = owner.in(school.tenantcode);
    expect((await inSchool.get('/api/vouchers')).statusCode).toBe(404);
    expect((await inSchool.post('/api/vouchers', draft())).statusCode).toBe(404);
    expect((await inSchool.post(`/api/vouchers/${theirs.id}/approve`)).statusCode).toBe(404);

    expect((await reader.post('/api/vouchers', draft())).statusCode).toBe(403);
    const { voucher } = ok(await cashier.post('/api/vouchers', draft()));
    expect((await reader.put(`/api/vouchers/${voucher.id}`, draft())).statusCode).toBe(403);
    expect((await reader.delete(`/api/vouchers/${voucher.id}`)).statusCode).toBe(403);
    expect((await reader.post(`/api/vouchers/${voucher.id}/approve`)).statusCode).toBe(403);
    expect((await cashier.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-11-09' })).statusCode).toBe(403);
    // Every member reads them.
    expect(ok(await reader.get(`/api/vouchers/${voucher.id}`)).id).toBe(voucher.id);
  });

  it('lists by status and period, searches, pages and downloads', async () => {
    const all = ok(await reader.get('/api/vouchers?per_page=200'));
    expect(all.totalRecords).toBeGreaterThan(5);
    const paid = ok(await reader.get('/api/vouchers?status=paid&per_page=200'));
    expect(paid.vouchers.length).toBeGreaterThan(0);
    expect(paid.vouchers.every((v: Row) => v.status === 'paid')).toBe(true);
    expect(ok(await reader.get('/api/vouchers?search=Crown')).vouchers.map((v: Row) => v.payee_name)).toEqual(['Crown Beverages']);
    const early = ok(await reader.get('/api/vouchers?from=2026-11-07&to=2026-11-07'));
    expect(early.vouchers.every((v: Row) => v.voucher_on === '2026-11-07')).toBe(true);
    expect(ok(await reader.get('/api/vouchers?per_page=2&page=2')).vouchers.length).toBe(2);
    refused(await reader.get('/api/vouchers?from=2026-11-09&to=2026-11-01'), 'from', A.periodInvalid);
    expect((await reader.get('/api/vouchers?status=lost')).statusCode).toBe(422);
    const sheet = await reader.get('/api/vouchers?excel=1&status=paid');
    expect(sheet.headers['content-type']).toBe(SPREADSHEET);
    const rows = await workbookOf(sheet);
    expect(rows.getRow(1).getCell(1).value).toBe('Number');
    expect(rows.rowCount).toBe(paid.totalRecords + 1);
  });
});

describe('the books after a mix of documents', () => {
  it('keep a trial balance at zero after an issued invoice and paid vouchers, each posting where it belongs', async () => {
    const before = await trialBalanceZero(owner);
    const vat = (ok(await owner.get('/api/taxes?search=VAT')).taxes as Row[]).find((tax) => tax.code === 'VAT') as Row;
    ok(await owner.post('/api/locations', { name: 'Mixed books shop' }));
    const service = ok(
      await owner.post('/api/products', {
        code: `SRV-${newId().slice(-6)}`,
        name: 'Photocopying',
        unit: 'page',
        price: '118000',
        kind: 'service',
        tax_id: vat.id,
      }),
    );
    const drafted = ok(await owner.post('/api/invoices', { request_id: newId(), lines: [{ product_id: service.id, quantity: '1' }] }));
    const invoiceId = (drafted.invoice ?? drafted).id as string;
    ok(await owner.post(`/api/invoices/${invoiceId}/issue`));
    const after = await trialBalanceZero(owner);
    const moved = (name: string) => {
      const row = (answer: { rows: Row[] }) => answer.rows.find((r) => r.name === name) as Row;
      return new Decimal(row(after).balance as string).minus(row(before).balance as string).toFixed();
    };
    expect(moved('Sales')).toBe('-100000');
    expect(moved('VAT payable')).toBe('-18000');
    expect(moved('Debtors')).toBe('118000');
    const journal = ok(await owner.get('/api/accounts/journal?source_kind=invoice'));
    expect(journal.entries.some((entry: Row) => entry.source_id === invoiceId)).toBe(true);
  });
});
