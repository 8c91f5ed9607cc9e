import { SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * The shop reports read what the documents' own APIs write (issue 32 points 1, 4 and 8): a
 * September of a stationer built through /api/stockrecords, /api/invoices (draft, then issue)
 * and /api/vouchers (prepared by the cashier, approved by the manager, paid by the owner), and
 * the VAT, profit and debtors reports asserted on it, figures worked by hand:
 *
 *   1 Sep: 20 pens bought at 3,000.
 *   INV 5 Sep, due 20 Sep: 5 pens x 5,900 = 29,500 (VAT 18/118: 4,500; net 25,000; cost 15,000).
 *   INV 25 Sep, due 25 Oct: 2 pens = 11,800 (VAT 1,800; net 10,000; cost 6,000).
 *   A draft of 10 Sep for 3 pens: not issued, not counted.
 *   PV paid 12 Sep: rent 118,000 with 18,000 input VAT.
 */

let t: TestApp;
let owner: Caller;
let manager: Caller;
let cashier: Caller;
let vatCode: string;

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  const shop = await makeTenant(t.database, { tenantcode: `rep-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [SUPERADMIN_ROLE] }] });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const member = async (roles: string[]) =>
    caller(t.app, await login(t.app, (await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles }] })).email), shop.tenantcode);
  manager = await member(['manager']);
  cashier = await member(['cashier']);

  const store = ok(await owner.post('/api/locations', { name: 'Shop floor' }));
  const supplier = ok(await owner.post('/api/companies', { name: 'Nice House of Plastics', role: 'supplier' }));
  const kato = ok(await owner.post('/api/companies', { name: 'Kato Traders', role: 'customer' }));
  const standard = (ok(await owner.get('/api/taxes?per_page=1000')).taxes as Array<{ id: string; code: string; kind: string }>).find(
    (tax) => tax.kind === 'standard',
  );
  if (!standard) throw new Error('the business has no standard VAT');
  vatCode = standard.code;
  const pen = ok(await owner.post('/api/products', { code: 'PEN-1', name: 'Blue pen', unit: 'piece', price: '5900', tax_id: standard.id }));
  ok(
    await owner.post('/api/stockrecords', {
      request_id: newId(),
      kind: 'purchase',
      occurred_on: '2026-09-01',
      location_id: store.id,
      partner_id: supplier.id,
      lines: [{ product_id: pen.id, quantity: '20', unit_cost: '3000' }],
    }),
  );
  const invoice = async (issued_on: string, due_on: string, quantity: string, issue = true) => {
    const draft = ok(
      await cashier.post('/api/invoices', {
        request_id: newId(),
        customer_id: kato.id,
        location_id: store.id,
        issued_on,
        due_on,
        lines: [{ product_id: pen.id, quantity }],
      }),
    ).invoice;
    if (issue) ok(await cashier.post(`/api/invoices/${draft.id}/issue`));
  };
  await invoice('2026-09-05', '2026-09-20', '5');
  await invoice('2026-09-25', '2026-10-25', '2');
  await invoice('2026-09-10', '2026-09-30', '3', false);

  const rent = (ok(await owner.get('/api/accounts?per_page=1000')).accounts as Array<{ id: string; system_key: string | null }>).find(
    (account) => account.system_key === 'rent',
  );
  if (!rent) throw new Error('the chart has no rent account');
  const voucher = ok(
    await cashier.post('/api/vouchers', {
      request_id: newId(),
      payee_name: 'Nakasero landlord',
      method: 'cash',
      voucher_on: '2026-09-10',
      lines: [{ account_id: rent.id, description: 'Shop rent, September', amount: '118000', tax: '18000' }],
    }),
  ).voucher;
  ok(await manager.post(`/api/vouchers/${voucher.id}/approve`));
  ok(await owner.post(`/api/vouchers/${voucher.id}/pay`, { paid_on: '2026-09-12' }));
}, 60_000);
afterAll(() => t?.close());

describe('the reports of a month the documents wrote', () => {
  it('sums September’s output VAT from the issued invoices and the input VAT of the paid voucher', async () => {
    const vat = ok(await manager.get('/api/business/reports/vat?month=2026-09'));
    // 25,000 + 10,000 net; 4,500 + 1,800 VAT; 29,500 + 11,800 gross.
    expect(vat.output.map((row: Record<string, string>) => [row.tax_code, row.net, row.tax, row.gross])).toEqual([
      [vatCode, '35000', '6300', '41300'],
    ]);
    expect(vat.input.map((row: Record<string, string>) => [row.paid_on, row.net, row.tax, row.gross])).toEqual([
      ['2026-09-12', '100000', '18000', '118000'],
    ]);
    // 6,300 - 18,000: 11,700 to claim back.
    expect(vat.net_payable).toBe('-11700');
  });

  it('takes the cost of sales from the invoices’ lines and the expense net of its VAT', async () => {
    const profit = ok(await manager.get('/api/business/reports/profit?from=2026-09-01&to=2026-09-30'));
    // Sales 35,000; cost 7 x 3,000 = 21,000; gross 14,000; rent 100,000; net -86,000.
    expect(profit).toMatchObject({
      sales: '35000',
      net_sales: '35000',
      cost_of_sales: '21000',
      gross_profit: '14000',
      expenses_total: '100000',
      net_profit: '-86000',
    });
  });

  it('ages the two unpaid invoices on the last day of October', async () => {
    const debtors = ok(await manager.get('/api/business/reports/debtors?date=2026-10-31'));
    expect(debtors.customers.map((row: { name: string }) => row.name)).toEqual(['Kato Traders']);
    // 29,500 is 41 days past 20 Sep; 11,800 is 6 days past 25 Oct.
    expect(debtors.customers[0]).toMatchObject({
      buckets: { current: '0', '1_30': '11800', '31_60': '29500', '61_90': '0', over_90: '0' },
      total: '41300',
      advance: '0',
      net: '41300',
    });
  });
});
