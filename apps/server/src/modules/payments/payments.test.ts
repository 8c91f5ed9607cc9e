import { BUSINESS_MESSAGES, Decimal, PAYMENT_MESSAGES, SETTINGS_MESSAGES, SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * Getting paid through the API (issue 32 points 2 and 3), one app and two shops for the file:
 * receipts allocated to invoices with an advance left, withholding tax, retries, the allocation
 * of an advance later; credit and debit memos with their limits, restocking and postings; the
 * invoices' payment status following both; what is refused and why, with nothing saved;
 * isolation between businesses, permissions and the school wall.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let owner: Caller;
let storekeeper: Caller;
/** A member of the shop with no role: reads, records nothing. */
let reader: Caller;
let schoolCaller: Caller;
let store: Row;
let customer: Row;
let secondCustomer: Row;
let supplier: Row;
let vat: Row;
let whduty: Row;
let pen: Row;
let service: Row;
let otherInvoice: Row;
let otherReceipt: Row;

let counter = 0;
const next = () => ++counter;
const today = new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10);

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field], response.body).toEqual([message]);
}

async function newProduct(c: Caller, fields: Record<string, unknown> = {}): Promise<Row> {
  const n = next();
  return ok(await c.post('/api/products', { code: `PY-${n}`, name: `Pay item ${n}`, unit: 'piece', price: '11800', ...fields }));
}

/** An issued invoice of `customerId` (through the invoices' own API). */
async function issuedInvoice(
  c: Caller,
  customerId: string,
  lines: Array<{ product_id: string; quantity: string; unit_price: string; discount?: string }>,
  fields: Record<string, unknown> = {},
): Promise<Row> {
  const draft = ok(
    await c.post('/api/invoices', { request_id: newId(), customer_id: customerId, location_id: store.id, lines, ...fields }),
  );
  const issued = ok(await c.post(`/api/invoices/${draft.id ?? draft.invoice?.id}/issue`, {}));
  return (issued.invoice ?? issued) as Row;
}

const invoiceOf = async (c: Caller, id: string): Promise<Row> => {
  const answer = ok(await c.get(`/api/invoices/${id}`));
  return (answer.invoice ?? answer) as Row;
};

const receiptBody = (fields: Record<string, unknown>) => ({
  request_id: newId(),
  customer_id: customer.id,
  received_on: today,
  method: 'cash',
  ...fields,
});

/** What the shop holds in a table, counted as the app role. */
async function countOf(table: 'receipts' | 'receipt_allocations' | 'journal_entries' | 'memos' | 'stock_records', tenantId = shop.id) {
  return withTenant(t.database.db, { tenantId }, async (trx) => {
    const row = await trx.selectFrom(table).select(sql<string>`count(*)`.as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(row?.n ?? 0);
  });
}

/** The journal lines a document posted, by account system key: [key, debit, credit]. */
async function postingsOf(sourceId: string): Promise<Array<[string, string, string]>> {
  return withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
    const result = await sql<{ key: string; debit: string; credit: string }>`
      SELECT coalesce(a.system_key, a.code) AS key, l.debit::text AS debit, l.credit::text AS credit
        FROM journal_lines l
        JOIN journal_entries e ON e.tenant_id = l.tenant_id AND e.id = l.entry_id
        JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
       WHERE e.tenant_id = ${shop.id} AND e.source_id = ${sourceId}
       ORDER BY l.line`.execute(trx);
    return result.rows.map((row) => [row.key, new Decimal(row.debit).toFixed(), new Decimal(row.credit).toFixed()]);
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `pay-${newId().slice(-8)}`, name: 'Kikuubo Traders', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `pay-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  const school = await makeTenant(t.database, { tenantcode: `sch-${newId().slice(-8)}`, name: 'Hill School' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  const token = await login(t.app, user.email);
  owner = caller(t.app, token, shop.tenantcode);
  schoolCaller = caller(t.app, token, school.tenantcode);
  const keeper = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['storekeeper'] }] });
  storekeeper = caller(t.app, await login(t.app, keeper.email), shop.tenantcode);
  const plain = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [] }] });
  reader = caller(t.app, await login(t.app, plain.email), shop.tenantcode);

  store = ok(await owner.post('/api/locations', { name: 'Shop floor' }));
  customer = ok(await owner.post('/api/companies', { name: 'Mukwano Stores', role: 'customer' }));
  secondCustomer = ok(await owner.post('/api/companies', { name: 'Nakasero Books', role: 'both' }));
  supplier = ok(await owner.post('/api/companies', { name: 'Nice House of Plastics', role: 'supplier' }));
  vat = (ok(await owner.get('/api/taxes')).taxes as Row[]).find((tax) => tax.kind === 'standard') as Row;
  whduty = (ok(await owner.get('/api/whduties')).whduties as Row[]).find((duty) => duty.code === 'WHVAT6') as Row;
  pen = await newProduct(owner, { tax_id: vat.id, cost: '7000' });
  service = await newProduct(owner, { kind: 'service', track_stock: false, price: '5000' });
  ok(
    await owner.post('/api/stockrecords', {
      request_id: newId(),
      kind: 'purchase',
      occurred_on: today,
      location_id: store.id,
      partner_id: supplier.id,
      lines: [{ product_id: pen.id, quantity: '200', unit_cost: '7000' }],
    }),
  );

  const away = owner.in(other.tenantcode);
  const awayCustomer = ok(await away.post('/api/companies', { name: 'Elsewhere Ltd', role: 'customer' }));
  const awayStore = ok(await away.post('/api/locations', { name: 'Yard' }));
  const awayService = await newProduct(away, { kind: 'service', track_stock: false, price: '3000' });
  const draft = ok(
    await away.post('/api/invoices', {
      request_id: newId(),
      customer_id: awayCustomer.id,
      location_id: awayStore.id,
      lines: [{ product_id: awayService.id, quantity: '1', unit_price: '3000' }],
    }),
  );
  otherInvoice = ok(await away.post(`/api/invoices/${draft.id ?? draft.invoice?.id}/issue`, {}));
  otherInvoice = (otherInvoice.invoice ?? otherInvoice) as Row;
  otherReceipt = ok(
    await away.post('/api/receipts', {
      request_id: newId(),
      customer_id: awayCustomer.id,
      received_on: today,
      method: 'cash',
      amount: '5000',
      allocations: [{ invoice_id: otherInvoice.id, amount: '1000' }],
    }),
  ).receipt;
});
afterAll(() => t?.close());

describe('receipts', () => {
  it('allocates one receipt to two invoices, keeps the rest as an advance, posts it and the statuses follow', async () => {
    const first = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    const second = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '1', unit_price: '5000' }]);
    expect(first.gross_total).toBe('10000');
    const answer = ok(
      await owner.post(
        '/api/receipts',
        receiptBody({
          amount: '20000',
          notes: 'Paid at the shop',
          allocations: [
            { invoice_id: first.id, amount: '10000' },
            { invoice_id: second.id, amount: '3000' },
          ],
        }),
      ),
    );
    expect(answer).toMatchObject({ message: PAYMENT_MESSAGES.receiptRecorded, created: true });
    const receipt = answer.receipt;
    expect(receipt.number).toMatch(/^RCT-\d{6}$/);
    expect(receipt).toMatchObject({
      customer: { id: customer.id, name: 'Mukwano Stores' },
      method: 'cash',
      amount: '20000',
      wht_amount: '0',
      allocated: '13000',
      unallocated: '7000',
      currency_code: 'UGX',
      notes: 'Paid at the shop',
    });
    expect(receipt.allocations.map((a: Row) => [a.invoice_id, a.amount, a.invoice_number])).toEqual([
      [first.id, '10000', first.number],
      [second.id, '3000', second.number],
    ]);
    expect(await postingsOf(receipt.id)).toEqual([
      ['cash', '20000', '0'],
      ['debtors', '0', '20000'],
    ]);
    expect(await invoiceOf(owner, first.id as string)).toMatchObject({ payment_status: 'paid', balance: '0', paid: '10000' });
    expect(await invoiceOf(owner, second.id as string)).toMatchObject({ payment_status: 'part_paid', balance: '2000' });

    // The grid of the customer's open invoices shows the second with its balance, not the first.
    const open = ok(await reader.get(`/api/receipts/openinvoices?customer_id=${customer.id}`)).invoices as Row[];
    expect(open.find((invoice) => invoice.id === second.id)).toMatchObject({ balance: '2000', paid: '3000', gross_total: '5000' });
    expect(open.some((invoice) => invoice.id === first.id)).toBe(false);

    // The advance applied later: the second invoice paid, the rest still an advance; no posting (debtors already credited).
    const entries = await countOf('journal_entries');
    const applied = ok(
      await owner.post(`/api/receipts/${receipt.id}/allocations`, { allocations: [{ invoice_id: second.id, amount: '2000' }] }),
    );
    expect(applied.receipt).toMatchObject({ allocated: '15000', unallocated: '5000' });
    expect(applied.receipt.allocations).toHaveLength(3);
    expect(await countOf('journal_entries')).toBe(entries);
    expect(await invoiceOf(owner, second.id as string)).toMatchObject({ payment_status: 'paid', balance: '0' });
    const third = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    refused(
      await owner.post(`/api/receipts/${receipt.id}/allocations`, { allocations: [{ invoice_id: third.id, amount: '6000' }] }),
      'allocations',
      PAYMENT_MESSAGES.allocationAboveUnallocated,
    );
    // An invoice of another customer takes none of this customer's advance.
    const theirs = await issuedInvoice(owner, secondCustomer.id, [{ product_id: service.id, quantity: '1', unit_price: '5000' }]);
    refused(
      await owner.post(`/api/receipts/${receipt.id}/allocations`, { allocations: [{ invoice_id: theirs.id, amount: '1000' }] }),
      'allocations.0.invoice_id',
      PAYMENT_MESSAGES.invoiceOtherCustomer,
    );

    // Read back: one, the list with its filters and sums, the workbook.
    expect(ok(await reader.get(`/api/receipts/${receipt.id}`))).toMatchObject({ id: receipt.id, allocated: '15000' });
    const listed = ok(await reader.get(`/api/receipts?customer_id=${customer.id}&method=cash&from=${today}&to=${today}`));
    expect(listed.receipts.some((row: Row) => row.id === receipt.id)).toBe(true);
    expect(new Decimal(listed.total_amount).gte(20000)).toBe(true);
    expect(ok(await reader.get('/api/receipts?method=bank')).receipts.some((row: Row) => row.id === receipt.id)).toBe(false);
    expect(ok(await reader.get(`/api/receipts?open=1&customer_id=${customer.id}`)).receipts.map((row: Row) => row.id)).toContain(
      receipt.id,
    );
    const sheet = await reader.get(`/api/receipts?excel=1&customer_id=${customer.id}`);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toContain('spreadsheetml');
  });

  it('refuses an allocation above an invoice balance, with nothing saved and no number used', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '1', unit_price: '5000' }]);
    const before = await Promise.all([countOf('receipts'), countOf('receipt_allocations'), countOf('journal_entries')]);
    refused(
      await owner.post('/api/receipts', receiptBody({ amount: '8000', allocations: [{ invoice_id: invoice.id, amount: '5001' }] })),
      'allocations.0.amount',
      PAYMENT_MESSAGES.allocationAboveBalance,
    );
    refused(
      await owner.post('/api/receipts', receiptBody({ amount: '1000', allocations: [{ invoice_id: invoice.id, amount: '1001' }] })),
      'allocations',
      PAYMENT_MESSAGES.allocationsAboveReceipt,
    );
    expect(await Promise.all([countOf('receipts'), countOf('receipt_allocations'), countOf('journal_entries')])).toEqual(before);
    const last = ok(await owner.get('/api/receipts?per_page=1')).receipts[0];
    const paid = ok(
      await owner.post('/api/receipts', receiptBody({ amount: '5000', allocations: [{ invoice_id: invoice.id, amount: '5000' }] })),
    );
    expect(Number(paid.receipt.number.slice(4))).toBe(Number(last.number.slice(4)) + 1);
  });

  it('two receipts for the whole of one invoice at once: one allocates, the other is refused', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '1', unit_price: '5000' }]);
    const both = await Promise.all(
      [1, 2].map(() =>
        owner.post('/api/receipts', receiptBody({ amount: '5000', allocations: [{ invoice_id: invoice.id, amount: '5000' }] })),
      ),
    );
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 422]);
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ payment_status: 'paid', balance: '0', paid: '5000' });
  });

  it('records withholding tax with its certificate, posted to WHT receivable', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    refused(
      await owner.post('/api/receipts', receiptBody({ amount: '9400', wht_amount: '600', whduty_id: whduty.id })),
      'wht_certificate',
      PAYMENT_MESSAGES.whtCertificateRequired,
    );
    const answer = ok(
      await owner.post(
        '/api/receipts',
        receiptBody({
          method: 'bank',
          reference: 'STANBIC-TT-5521',
          amount: '9400',
          wht_amount: '600',
          whduty_id: whduty.id,
          wht_certificate: 'WHT/2026/00123',
          allocations: [{ invoice_id: invoice.id, amount: '10000' }],
        }),
      ),
    );
    expect(answer.receipt).toMatchObject({
      amount: '9400',
      wht_amount: '600',
      wht_certificate: 'WHT/2026/00123',
      whduty: { id: whduty.id, code: 'WHVAT6' },
      reference: 'STANBIC-TT-5521',
      allocated: '10000',
      unallocated: '0',
    });
    expect(await postingsOf(answer.receipt.id)).toEqual([
      ['bank', '9400', '0'],
      ['wht_receivable', '600', '0'],
      ['debtors', '0', '10000'],
    ]);
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ payment_status: 'paid' });
  });

  it('records the same request sent twice at once only once', async () => {
    const body = receiptBody({ amount: '2500' });
    const before = await countOf('receipts');
    const answers = (await Promise.all([owner.post('/api/receipts', body), owner.post('/api/receipts', body)])).map(ok);
    expect(answers.map((answer) => answer.created).sort()).toEqual([false, true]);
    expect(answers[0].receipt.id).toBe(answers[1].receipt.id);
    expect(answers[0].receipt.number).toBe(answers[1].receipt.number);
    expect(await countOf('receipts')).toBe(before + 1);
    const again = ok(await owner.post('/api/receipts', body));
    expect(again).toMatchObject({ created: false, message: PAYMENT_MESSAGES.receiptAlreadyRecorded });
  });

  it('takes mobile money with its transaction id into the MoMo account, and refuses it without one', async () => {
    refused(
      await owner.post('/api/receipts', receiptBody({ method: 'mtn_momo', amount: '5000' })),
      'reference',
      PAYMENT_MESSAGES.referenceRequired,
    );
    refused(
      await owner.post('/api/receipts', receiptBody({ method: 'cheque', amount: '5000', reference: '   ' })),
      'reference',
      PAYMENT_MESSAGES.referenceRequired,
    );
    const momo = ok(
      await owner.post('/api/receipts', receiptBody({ method: 'mtn_momo', amount: '5000', reference: 'MP261127.1432.A12345' })),
    );
    expect(momo.receipt).toMatchObject({ method: 'mtn_momo', reference: 'MP261127.1432.A12345', unallocated: '5000' });
    expect(await postingsOf(momo.receipt.id)).toEqual([
      ['mtn_momo', '5000', '0'],
      ['debtors', '0', '5000'],
    ]);
    const airtel = ok(await owner.post('/api/receipts', receiptBody({ method: 'airtel_money', amount: '5000', reference: 'AM-889' })));
    expect((await postingsOf(airtel.receipt.id))[0]?.[0]).toBe('airtel_money');
  });

  it('takes the money into a chosen cash, bank or mobile-money account only', async () => {
    const accountOf = (key: string) =>
      withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
        trx.selectFrom('accounts').select('id').where('tenant_id', '=', shop.id).where('system_key', '=', key).executeTakeFirstOrThrow(),
      );
    const [sales, bank] = [await accountOf('sales'), await accountOf('bank')];
    refused(
      await owner.post('/api/receipts', receiptBody({ amount: '100', account_id: sales.id })),
      'account_id',
      PAYMENT_MESSAGES.accountNotMoney,
    );
    const chosen = ok(await owner.post('/api/receipts', receiptBody({ amount: '100', account_id: bank.id })));
    expect(chosen.receipt.account.id).toBe(bank.id);
  });

  it('refuses a supplier as the payer, amounts finer than the currency, and what is no receipt', async () => {
    refused(
      await owner.post('/api/receipts', receiptBody({ customer_id: supplier.id, amount: '100' })),
      'customer_id',
      PAYMENT_MESSAGES.notACustomer,
    );
    refused(await owner.post('/api/receipts', receiptBody({ amount: '100.5' })), 'amount', BUSINESS_MESSAGES.amountTooPrecise);
    refused(await owner.post('/api/receipts', receiptBody({ amount: '0' })), 'amount', PAYMENT_MESSAGES.amountRequired);
    refused(await owner.post('/api/receipts', receiptBody({ amount: '-5' })), 'amount', PAYMENT_MESSAGES.amountRequired);
    refused(await owner.post('/api/receipts', receiptBody({ amount: '1e20' })), 'amount', PAYMENT_MESSAGES.amountRequired);
    refused(await owner.post('/api/receipts', receiptBody({ amount: '99999999999999999' })), 'amount', PAYMENT_MESSAGES.amountRequired);
    for (const bad of [
      receiptBody({ amount: true }),
      receiptBody({ amount: '100', method: 'barter' }),
      receiptBody({ amount: '100', allocations: 'all' }),
      receiptBody({ amount: '100', reference: 'MP\u0000 1' }),
      receiptBody({ amount: '100', notes: 'x'.repeat(1001) }),
      receiptBody({ amount: '100', reference: 'x'.repeat(81) }),
      receiptBody({ amount: '100', customer_id: 'not-an-id' }),
      receiptBody({ amount: '100', received_on: '2026-02-30' }),
      receiptBody({ amount: '100', extra: 1 }),
      receiptBody({ amount: '100', allocations: Array.from({ length: 101 }, () => ({ invoice_id: newId(), amount: '1' })) }),
      { ...receiptBody({ amount: '100' }), request_id: undefined },
    ]) {
      const response = await owner.post('/api/receipts', bad);
      expect(response.statusCode, JSON.stringify(bad).slice(0, 200)).toBe(422);
    }
    const huge = await owner.post('/api/receipts', receiptBody({ amount: '100', notes: 'y'.repeat(2_000_000) }));
    expect([413, 422]).toContain(huge.statusCode);
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '1', unit_price: '5000' }]);
    refused(
      await owner.post(
        '/api/receipts',
        receiptBody({
          amount: '5000',
          allocations: [
            { invoice_id: invoice.id, amount: '1000' },
            { invoice_id: invoice.id.toUpperCase(), amount: '1000' },
          ],
        }),
      ),
      'allocations.1.invoice_id',
      PAYMENT_MESSAGES.allocationRepeated,
    );
  });

  it("keeps to the business: another's receipt, invoice and customer are not found", async () => {
    expect((await owner.get(`/api/receipts/${otherReceipt.id}`)).statusCode).toBe(404);
    expect((await owner.get(`/api/receipts/${newId()}`)).statusCode).toBe(404);
    const before = await countOf('receipts');
    const foreign = await owner.post(
      '/api/receipts',
      receiptBody({ amount: '1000', allocations: [{ invoice_id: otherInvoice.id, amount: '1000' }] }),
    );
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect((await owner.post('/api/receipts', receiptBody({ amount: '1000', invoice_id: otherInvoice.id }))).statusCode).toBe(404);
    const mine = ok(await owner.post('/api/receipts', receiptBody({ amount: '1000' }))).receipt;
    expect(
      (await owner.post(`/api/receipts/${mine.id}/allocations`, { allocations: [{ invoice_id: otherInvoice.id, amount: '100' }] }))
        .statusCode,
    ).toBe(404);
    expect(
      (await owner.post(`/api/receipts/${otherReceipt.id}/allocations`, { allocations: [{ invoice_id: otherInvoice.id, amount: '100' }] }))
        .statusCode,
    ).toBe(404);
    const awayCustomer = ok(await owner.in(other.tenantcode).get(`/api/receipts/${otherReceipt.id}`)).customer;
    refused(
      await owner.post('/api/receipts', receiptBody({ customer_id: awayCustomer.id, amount: '100' })),
      'customer_id',
      SETTINGS_MESSAGES.referenceMissing,
    );
    expect(await countOf('receipts')).toBe(before + 1);
    expect(ok(await owner.get('/api/receipts?per_page=1000')).receipts.some((row: Row) => row.id === otherReceipt.id)).toBe(false);
  });

  it('lets members read, those who sell record; a storekeeper and a school are refused', async () => {
    expect(ok(await reader.get('/api/receipts')).receipts.length).toBeGreaterThan(0);
    expect((await reader.post('/api/receipts', receiptBody({ amount: '100' }))).statusCode).toBe(403);
    expect((await storekeeper.post('/api/receipts', receiptBody({ amount: '100' }))).statusCode).toBe(403);
    const mine = ok(await owner.get('/api/receipts?per_page=1')).receipts[0];
    expect((await storekeeper.post(`/api/receipts/${mine.id}/allocations`, { allocations: [] })).statusCode).toBe(403);
    expect((await schoolCaller.get('/api/receipts')).statusCode).toBe(404);
    expect((await schoolCaller.post('/api/receipts', receiptBody({ amount: '100' }))).statusCode).toBe(404);
    expect((await schoolCaller.get('/api/memos')).statusCode).toBe(404);
  });
});

describe('memos', () => {
  const memoBody = (invoiceId: string, fields: Record<string, unknown>) => ({
    request_id: newId(),
    kind: 'credit',
    invoice_id: invoiceId,
    reason_code: 'return',
    reason: 'Customer returned damaged pens',
    issued_on: today,
    ...fields,
  });

  it('credits part of an invoice, refuses a second credit beyond what remains, and the status follows', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [
      { product_id: pen.id, quantity: '3', unit_price: '11800', discount: '100' },
      { product_id: service.id, quantity: '1', unit_price: '5000' },
    ]);
    expect(invoice.gross_total).toBe('40300');
    ok(await owner.post('/api/receipts', receiptBody({ amount: '40300', allocations: [{ invoice_id: invoice.id, amount: '40300' }] })));
    const first = ok(await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] })));
    expect(first).toMatchObject({ message: PAYMENT_MESSAGES.memoRecorded, created: true });
    expect(first.memo.number).toMatch(/^CN-\d{6}$/);
    // One of three pens carries a third of the line's discount: 11800 - 33 = 11767, VAT 11767 x 18/118.
    expect(first.memo).toMatchObject({ kind: 'credit', gross_total: '11767', tax_total: '1795', net_total: '9972', restock: false });
    expect(first.memo.lines).toEqual([
      expect.objectContaining({ invoice_line: 0, quantity: '1', unit_price: '11800', gross: '11767', tax: '1795', tax_code: 'VAT' }),
    ]);
    expect(await postingsOf(first.memo.id)).toEqual([
      ['sales', '9972', '0'],
      ['vat_payable', '1795', '0'],
      ['debtors', '0', '11767'],
    ]);
    // Paid in full, then credited: the customer is owed; the invoice stays paid.
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ credited: '11767', payment_status: 'paid' });

    const remains = ok(await reader.get(`/api/memos/remains?invoice_id=${invoice.id}`));
    expect(remains.lines[0]).toMatchObject({ quantity: '3', returned: '1', remaining_quantity: '2', remaining_gross: '23533' });
    expect(remains.invoice).toMatchObject({ creditable: '28533', credited: '11767' });

    const before = await Promise.all([countOf('memos'), countOf('journal_entries')]);
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '3' }] })),
      'lines.0.quantity',
      PAYMENT_MESSAGES.quantityAboveRemaining,
    );
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 9, quantity: '1' }] })),
      'lines.0.invoice_line',
      PAYMENT_MESSAGES.invoiceLineMissing,
    );
    refused(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { reason_code: 'price', lines: [{ invoice_line: 1, quantity: '1', unit_price: '5001' }] }),
      ),
      'lines.0.unit_price',
      PAYMENT_MESSAGES.priceAboveInvoice,
    );
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1.5' }] })),
      'lines.0.quantity',
      BUSINESS_MESSAGES.quantityWhole,
    );
    expect(await Promise.all([countOf('memos'), countOf('journal_entries')])).toEqual(before);

    // The last two pens take exactly what remains of the line, whatever the rounding of the first.
    const rest = ok(await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '2' }] })));
    expect(rest.memo.gross_total).toBe('23533');
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] })),
      'lines.0.quantity',
      PAYMENT_MESSAGES.quantityAboveRemaining,
    );
    // A price correction of the service, then more than remains of it.
    ok(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { reason_code: 'price', lines: [{ invoice_line: 1, quantity: '1', unit_price: '3000' }] }),
      ),
    );
    refused(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { reason_code: 'price', lines: [{ invoice_line: 1, quantity: '1', unit_price: '2001' }] }),
      ),
      'lines.0.unit_price',
      PAYMENT_MESSAGES.creditAboveLine,
    );
    expect(ok(await owner.get(`/api/memos/remains?invoice_id=${invoice.id}`)).invoice.creditable).toBe('2000');
    const listed = ok(await reader.get(`/api/memos?invoice_id=${invoice.id}`));
    expect(listed.totalRecords).toBe(3);
    expect(ok(await reader.get(`/api/memos/${first.memo.id}`))).toMatchObject({ id: first.memo.id, invoice: { id: invoice.id } });
  });

  it('refuses a credit above what remains of the invoice in all', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    ok(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { reason_code: 'discount', lines: [{ invoice_line: 0, quantity: '2', unit_price: '4000' }] }),
      ),
    );
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { reason_code: 'cancel', lines: [{ invoice_line: 0, quantity: '1' }] })),
      'lines.0.quantity',
      PAYMENT_MESSAGES.creditAboveLine,
    );
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ credited: '8000', balance: '2000', payment_status: 'unpaid' });
  });

  it('puts returned goods back in stock at their cost and posts the cost back', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: pen.id, quantity: '4', unit_price: '11800' }]);
    const levelBefore = ok(await owner.get(`/api/stockrecords/onhand?location_id=${store.id}&search=${pen.code}`)).products[0];
    const answer = ok(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { restock: true, location_id: store.id, lines: [{ invoice_line: 0, quantity: '2' }] }),
      ),
    );
    expect(answer.memo).toMatchObject({ restock: true, location: { id: store.id }, gross_total: '23600', tax_total: '3600' });
    const unitCost = answer.memo.lines[0].unit_cost;
    expect(new Decimal(unitCost).gt(0)).toBe(true);
    const levelAfter = ok(await owner.get(`/api/stockrecords/onhand?location_id=${store.id}&search=${pen.code}`)).products[0];
    expect(new Decimal(levelAfter.on_hand).minus(levelBefore.on_hand).toFixed()).toBe('2');
    const ledger = ok(await owner.get(`/api/stockrecords?product_id=${pen.id}&kind=sale_return`)).stockrecords as Row[];
    expect(ledger.at(-1)).toMatchObject({ kind: 'sale_return', quantity: '2', unit_cost: unitCost, reference: answer.memo.number });
    const cost = new Decimal(unitCost).times(2).toFixed();
    expect(await postingsOf(answer.memo.id)).toEqual([
      ['sales', '20000', '0'],
      ['vat_payable', '3600', '0'],
      ['debtors', '0', '23600'],
      ['inventory', cost, '0'],
      ['cost_of_sales', '0', cost],
    ]);
    refused(
      await owner.post('/api/memos', memoBody(invoice.id, { restock: true, lines: [{ invoice_line: 0, quantity: '1' }] })),
      'location_id',
      PAYMENT_MESSAGES.restockLocationRequired,
    );
    refused(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { kind: 'debit', restock: true, location_id: store.id, lines: [{ invoice_line: 0, quantity: '1' }] }),
      ),
      'restock',
      PAYMENT_MESSAGES.restockOnlyReturns,
    );
  });

  it('restocks goods whose average cost has decimals the currency has not, at that cost', async () => {
    const ink = await newProduct(owner, { tax_id: vat.id, price: '5900' });
    for (const [quantity, cost] of [
      ['2', '1000'],
      ['1', '1001'],
    ])
      ok(
        await owner.post('/api/stockrecords', {
          request_id: newId(),
          kind: 'purchase',
          occurred_on: today,
          location_id: store.id,
          partner_id: supplier.id,
          lines: [{ product_id: ink.id, quantity, unit_cost: cost }],
        }),
      );
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: ink.id, quantity: '3', unit_price: '5900' }]);
    const answer = ok(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, { restock: true, location_id: store.id, lines: [{ invoice_line: 0, quantity: '1' }] }),
      ),
    );
    const unitCost = answer.memo.lines[0].unit_cost as string;
    expect(new Decimal(unitCost).decimalPlaces()).toBeGreaterThan(0);
    const ledger = ok(await owner.get(`/api/stockrecords?product_id=${ink.id}&kind=sale_return`)).stockrecords as Row[];
    expect(ledger).toEqual([expect.objectContaining({ quantity: '1', unit_cost: unitCost })]);
  });

  it('a debit memo raises the balance: a paid invoice becomes part paid', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    ok(await owner.post('/api/receipts', receiptBody({ amount: '10000', allocations: [{ invoice_id: invoice.id, amount: '10000' }] })));
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ payment_status: 'paid' });
    const debit = ok(
      await owner.post(
        '/api/memos',
        memoBody(invoice.id, {
          kind: 'debit',
          reason_code: 'price',
          reason: 'Undercharged',
          lines: [{ invoice_line: 0, quantity: '2', unit_price: '500' }],
        }),
      ),
    );
    expect(debit.memo.number).toMatch(/^DN-\d{6}$/);
    expect(debit.memo).toMatchObject({ kind: 'debit', gross_total: '1000' });
    expect(await postingsOf(debit.memo.id)).toEqual([
      ['debtors', '1000', '0'],
      ['sales', '0', '1000'],
    ]);
    expect(await invoiceOf(owner, invoice.id as string)).toMatchObject({ debited: '1000', balance: '1000', payment_status: 'part_paid' });
  });

  it('records the same memo request once, and a draft or foreign invoice takes none', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    const body = memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] });
    const answers = (await Promise.all([owner.post('/api/memos', body), owner.post('/api/memos', body)])).map(ok);
    expect(answers.map((answer) => answer.created).sort()).toEqual([false, true]);
    expect(answers[0].memo.number).toBe(answers[1].memo.number);
    expect(ok(await owner.get(`/api/memos?invoice_id=${invoice.id}`)).totalRecords).toBe(1);

    const draft = ok(
      await owner.post('/api/invoices', {
        request_id: newId(),
        customer_id: customer.id,
        location_id: store.id,
        lines: [{ product_id: service.id, quantity: '1', unit_price: '5000' }],
      }),
    );
    refused(
      await owner.post('/api/memos', memoBody(draft.id ?? draft.invoice?.id, { lines: [{ invoice_line: 0, quantity: '1' }] })),
      'invoice_id',
      PAYMENT_MESSAGES.invoiceNotIssued,
    );
    expect((await owner.post('/api/memos', memoBody(otherInvoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] }))).statusCode).toBe(
      404,
    );
    expect((await owner.get(`/api/memos/remains?invoice_id=${otherInvoice.id}`)).statusCode).toBe(404);
    const awayMemo = ok(
      await owner
        .in(other.tenantcode)
        .post('/api/memos', memoBody(otherInvoice.id, { reason_code: 'cancel', lines: [{ invoice_line: 0, quantity: '1' }] })),
    );
    expect((await owner.get(`/api/memos/${awayMemo.memo.id}`)).statusCode).toBe(404);
    expect(ok(await owner.get('/api/memos?per_page=1000')).memos.some((row: Row) => row.id === awayMemo.memo.id)).toBe(false);
  });

  it('refuses bad input, a storekeeper, and queues a credit note for EFRIS when the flag is on', async () => {
    const invoice = await issuedInvoice(owner, customer.id, [{ product_id: service.id, quantity: '2', unit_price: '5000' }]);
    for (const bad of [
      memoBody(invoice.id, { lines: [] }),
      memoBody(invoice.id, { lines: [{ invoice_line: '0', quantity: '1' }] }),
      memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '0' }] }),
      memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }], reason: '' }),
      memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }], reason: 'r'.repeat(301) }),
      memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }], reason: 'bad\u0000' }),
      memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }], kind: 'refund' }),
      memoBody(invoice.id, {
        lines: [
          { invoice_line: 0, quantity: '1' },
          { invoice_line: 0, quantity: '1' },
        ],
      }),
      memoBody('nope', { lines: [{ invoice_line: 0, quantity: '1' }] }),
    ]) {
      const response = await owner.post('/api/memos', bad);
      expect(response.statusCode, JSON.stringify(bad).slice(0, 200)).toBe(422);
    }
    expect((await storekeeper.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] }))).statusCode).toBe(
      403,
    );
    expect((await reader.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] }))).statusCode).toBe(403);
    expect(ok(await reader.get('/api/memos')).memos.length).toBeGreaterThan(0);

    const current = ok(await owner.get(`/api/tenants/${shop.id}`)).tenant;
    const setEfris = async (efrist: boolean) =>
      ok(
        await owner.put(`/api/tenants/${shop.id}`, {
          name: current.name,
          tenantcode: current.tenantcode,
          category: current.category,
          efrist,
        }),
      );
    await setEfris(true);
    try {
      const credit = ok(await owner.post('/api/memos', memoBody(invoice.id, { lines: [{ invoice_line: 0, quantity: '1' }] })));
      expect(credit.memo.fiscal_status).toBe('pending');
      const debit = ok(
        await owner.post(
          '/api/memos',
          memoBody(invoice.id, { kind: 'debit', reason_code: 'other', lines: [{ invoice_line: 0, quantity: '1' }] }),
        ),
      );
      expect(debit.memo.fiscal_status).toBe('none');
    } finally {
      await setEfris(false);
    }
  });
});
