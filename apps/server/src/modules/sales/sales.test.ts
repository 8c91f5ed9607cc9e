import {
  BUSINESS_MESSAGES,
  ERROR_MESSAGES,
  SALES_MESSAGES,
  SETTINGS_MESSAGES,
  STOCK_MESSAGES,
  SUPERADMIN_ROLE,
  WALK_IN_CUSTOMER,
} from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * Sales invoices and the counter sale through the API (issue 32 point 1), one app and two shops
 * for the file: a draft's lifecycle, the figures of an issued invoice worked by hand, the stock
 * and the journal it writes, numbers without gaps under parallel issues, one number for a draft
 * issued twice at once, a sale beyond stock refused with nothing half-saved, the counter sale in
 * one transaction and its retry, isolation, abilities and bad input.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let owner: Caller;
let cashier: Caller;
let storekeeper: Caller;
let reader: Caller;
let store: Row;
let supplier: Row;
let buyer: Row;
let taxes: Record<string, Row>;
let otherProduct: Row;

let counter = 0;
const next = () => ++counter;

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string, status = 422) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().errors?.[field], response.body).toEqual([message]);
}

async function listOf(c: Caller, path: string, key: string): Promise<Row[]> {
  return ok(await c.get(`${path}?per_page=1000`))[key];
}

/** A product of the shop: goods keeping stock unless told, tax by code. */
async function newProduct(fields: Record<string, unknown> = {}, tax: string | null = 'VAT'): Promise<Row> {
  const n = next();
  return ok(
    await owner.post('/api/products', {
      code: `SL-${n}`,
      name: `Sale item ${n}`,
      unit: 'piece',
      price: '1000',
      tax_id: tax ? taxes[tax]?.id : null,
      ...fields,
    }),
  );
}

async function buy(productId: string, quantity: string, unitCost: string) {
  ok(
    await owner.post('/api/stockrecords', {
      request_id: newId(),
      kind: 'purchase',
      occurred_on: new Date().toISOString().slice(0, 10),
      location_id: store.id,
      partner_id: supplier.id,
      lines: [{ product_id: productId, quantity, unit_cost: unitCost }],
    }),
  );
}

const draftBody = (lines: Array<Record<string, unknown>>, fields: Record<string, unknown> = {}) => ({
  request_id: newId(),
  location_id: store.id,
  lines,
  ...fields,
});

const numberOf = (invoice: { number: string }) => Number(invoice.number.replace(/^\D+/, ''));

/** What the shop's books and ledger hold for a document, read as the app role. */
async function writtenFor(invoiceId: string) {
  return withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
    const postings = await sql<{ key: string | null; debit: string; credit: string }>`
      SELECT a.system_key AS key, l.debit::text AS debit, l.credit::text AS credit
        FROM journal_entries e JOIN journal_lines l ON l.tenant_id = e.tenant_id AND l.entry_id = e.id
        JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
       WHERE e.tenant_id = ${shop.id} AND e.source_kind = 'invoice' AND e.source_id = ${invoiceId}
       ORDER BY l.line`.execute(trx);
    const stock = await sql<{ product_id: string; kind: string; quantity: string; unit_cost: string }>`
      SELECT r.product_id, r.kind, r.quantity::text AS quantity, r.unit_cost::text AS unit_cost
        FROM stock_records r JOIN stock_movements m ON m.tenant_id = r.tenant_id AND m.id = r.movement_id
       WHERE r.tenant_id = ${shop.id} AND m.request_id = ${invoiceId}
       ORDER BY r.line`.execute(trx);
    return {
      postings: postings.rows.map((row) => ({ key: row.key, debit: Number(row.debit), credit: Number(row.credit) })),
      stock: stock.rows.map((row) => ({ ...row, quantity: Number(row.quantity), unit_cost: Number(row.unit_cost) })),
    };
  });
}

async function lastNumber(): Promise<number> {
  return withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
    const row = await trx
      .selectFrom('document_numbers')
      .select('last_number')
      .where('tenant_id', '=', shop.id)
      .where('series', '=', 'invoice')
      .executeTakeFirst();
    return Number(row?.last_number ?? 0);
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `sale-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `sale-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const till = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['cashier'] }] });
  cashier = caller(t.app, await login(t.app, till.email), shop.tenantcode);
  const keeper = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['storekeeper'] }] });
  storekeeper = caller(t.app, await login(t.app, keeper.email), shop.tenantcode);
  const plain = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [] }] });
  reader = caller(t.app, await login(t.app, plain.email), shop.tenantcode);
  store = ok(await owner.post('/api/locations', { name: 'Shop floor' }));
  supplier = ok(await owner.post('/api/companies', { name: 'Nice House of Plastics', role: 'supplier' }));
  buyer = ok(await owner.post('/api/companies', { name: 'Kampala Parents School', role: 'customer', terms_days: 30 }));
  taxes = Object.fromEntries((await listOf(owner, '/api/taxes', 'taxes')).map((tax) => [tax.code, tax]));
  const away = owner.in(other.tenantcode);
  otherProduct = ok(await away.post('/api/products', { code: 'X-1', name: 'Elsewhere', unit: 'piece', price: '1' }));
});
afterAll(() => t?.close());

describe('an invoice from draft to issued', () => {
  it('keeps a draft without effect, issues it with hand-worked figures, stock out and the books, then freezes it', async () => {
    const pen = await newProduct({ price: '1180' });
    const book = await newProduct({ price: '500' }, 'EXEMPT');
    const printing = await newProduct({ kind: 'service', track_stock: false, price: '1000' });
    await buy(pen.id, '10', '700');
    await buy(book.id, '10', '300');

    const saved = ok(
      await cashier.post(
        '/api/invoices',
        draftBody(
          [
            { product_id: pen.id, quantity: '3', discount: '40' },
            { product_id: book.id, quantity: '4' },
            { product_id: printing.id, quantity: '1', unit_price: '900' },
          ],
          { customer_id: buyer.id, issued_on: '2026-11-02', reference: 'LPO 77' },
        ),
      ),
    );
    expect(saved).toMatchObject({ message: SALES_MESSAGES.invoiceSaved, created: true });
    const draft = saved.invoice;
    // Due from the customer's 30 days' terms; no number; 900 VAT-inclusive = 763 + 137.
    expect(draft).toMatchObject({ status: 'draft', number: null, due_on: '2026-12-02', payment_status: 'draft', gross_total: '6400' });
    expect((await writtenFor(draft.id)).postings).toEqual([]);

    const changed = ok(
      await cashier.put(
        `/api/invoices/${draft.id}`,
        draftBody(
          [
            { product_id: pen.id, quantity: '3', discount: '40' },
            { product_id: book.id, quantity: '4' },
            { product_id: printing.id, quantity: '1' },
          ],
          { customer_id: buyer.id, issued_on: '2026-11-02', reference: 'LPO 77' },
        ),
      ),
    );
    expect(changed.invoice.gross_total).toBe('6500');
    const before = await lastNumber();

    const issued = ok(await cashier.post(`/api/invoices/${draft.id}/issue`));
    expect(issued).toMatchObject({ message: SALES_MESSAGES.invoiceIssued, created: true });
    const invoice = issued.invoice;
    expect(numberOf(invoice)).toBe(before + 1);
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    // Pen: 3 × 1,180 - 40 = 3,500, VAT 3,500 × 18/118 = 533.90 -> 534; books exempt 2,000; printing 1,000, VAT 152.54 -> 153.
    expect(invoice.lines.map((l: Row) => [l.gross, l.tax, l.net, l.discount])).toEqual([
      ['3500', '534', '2966', '40'],
      ['2000', '0', '2000', '0'],
      ['1000', '153', '847', '0'],
    ]);
    expect(invoice).toMatchObject({
      status: 'issued',
      gross_total: '6500',
      tax_total: '687',
      net_total: '5813',
      discount_total: '40',
      paid: '0',
      balance: '6500',
      customer: { name: 'Kampala Parents School' },
      fiscal_status: 'none',
    });
    expect(invoice.by_tax).toEqual([
      expect.objectContaining({ tax_code: 'EXEMPT', gross: '2000', tax: '0', net: '2000' }),
      expect.objectContaining({ tax_code: 'VAT', gross: '4500', tax: '687', net: '3813' }),
    ]);
    const { postings, stock } = await writtenFor(invoice.id);
    // Cost of sales at the moving average: 3 × 700 + 4 × 300.
    expect(stock).toEqual([
      { product_id: pen.id, kind: 'sale', quantity: -3, unit_cost: 700 },
      { product_id: book.id, kind: 'sale', quantity: -4, unit_cost: 300 },
    ]);
    const byKey = (key: string) => postings.filter((p) => p.key === key).map((p) => [p.debit, p.credit]);
    expect(byKey('debtors')).toEqual([[6500, 0]]);
    expect(byKey('sales')).toEqual([[0, 5813]]);
    expect(byKey('vat_payable')).toEqual([[0, 687]]);
    expect(byKey('cost_of_sales')).toEqual([[3300, 0]]);
    expect(byKey('inventory')).toEqual([[0, 3300]]);

    // Frozen: no edit, no delete; issuing again answers it as it is.
    const edit = await cashier.put(`/api/invoices/${draft.id}`, draftBody([{ product_id: pen.id, quantity: '1' }]));
    expect(edit.statusCode, edit.body).toBe(409);
    expect(edit.json().message).toBe(SALES_MESSAGES.documentIssued);
    expect((await cashier.delete(`/api/invoices/${draft.id}`)).statusCode).toBe(409);
    const again = ok(await cashier.post(`/api/invoices/${draft.id}/issue`));
    expect(again).toMatchObject({ created: false, invoice: { number: invoice.number } });
    expect(await lastNumber()).toBe(before + 1);

    // Listed from the spec's start date; by number; unpaid until its due date; the reader reads.
    const listed = ok(await reader.get(`/api/invoices?search=${invoice.number}`));
    expect(listed.invoices.map((row: Row) => row.number)).toEqual([invoice.number]);
    expect(ok(await reader.get(`/api/invoices/${invoice.id}`)).lines).toHaveLength(3);
    const overdue = ok(await reader.get(`/api/invoices?status=overdue&customer_id=${buyer.id}`)).invoices.map((r: Row) => r.id);
    const unpaid = ok(await reader.get(`/api/invoices?status=unpaid&customer_id=${buyer.id}`)).invoices.map((r: Row) => r.id);
    expect([...overdue, ...unpaid]).toContain(invoice.id);
    expect(ok(await reader.get('/api/invoices?sdate=2026-11-03')).invoices.some((r: Row) => r.id === invoice.id)).toBe(false);
    const sheet = await reader.get('/api/invoices?excel=1');
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toContain('spreadsheetml');
  });

  it('deletes a draft, answers a retried request with the first draft, and defaults to the walk-in customer', async () => {
    const pen = await newProduct();
    const body = draftBody([{ product_id: pen.id, quantity: '1' }]);
    const [first, second] = await Promise.all([cashier.post('/api/invoices', body), cashier.post('/api/invoices', body)]);
    const answers = [ok(first), ok(second)];
    expect(answers.map((a) => a.created).sort()).toEqual([false, true]);
    expect(answers[0].invoice.id).toBe(answers[1].invoice.id);
    expect(answers[0].invoice.customer.name).toBe(WALK_IN_CUSTOMER);
    expect(ok(await cashier.delete(`/api/invoices/${answers[0].invoice.id}`))).toEqual({ message: SALES_MESSAGES.invoiceDeleted });
    expect((await cashier.get(`/api/invoices/${answers[0].invoice.id}`)).statusCode).toBe(404);

    const defaults = ok(await reader.get('/api/invoices/defaults'));
    expect(defaults).toMatchObject({
      customer: { name: WALK_IN_CUSTOMER },
      currency: { code: 'UGX', decimals: 0 },
      vat_registered: true,
      payment_methods: ['cash', 'mtn_momo', 'airtel_money', 'bank', 'cheque', 'card'],
    });
    expect(defaults.locations.map((l: Row) => l.id)).toContain(store.id);
    expect(defaults.taxes.map((tax: Row) => tax.code)).toEqual(['DEEMED', 'EXEMPT', 'VAT', 'ZERO']);
  });
});

describe('numbers and stock under pressure', () => {
  it('gives 10 drafts issued at once 10 numbers without a gap', async () => {
    const pen = await newProduct();
    await buy(pen.id, '100', '500');
    const drafts = await Promise.all(
      Array.from(
        { length: 10 },
        async () => ok(await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '2' }]))).invoice,
      ),
    );
    const before = await lastNumber();
    const issued = await Promise.all(drafts.map(async (draft: Row) => ok(await cashier.post(`/api/invoices/${draft.id}/issue`)).invoice));
    const numbers = issued.map(numberOf).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 10 }, (_, at) => before + 1 + at));
    const onhand = ok(await reader.get(`/api/stockrecords/lookup?code=${pen.code}`)).product;
    expect(onhand.on_hand).toBe('80');
  });

  it('gives a draft issued twice at the same moment one number', async () => {
    const pen = await newProduct();
    await buy(pen.id, '5', '500');
    const draft = ok(await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '5' }]))).invoice;
    const before = await lastNumber();
    const answers = await Promise.all([cashier.post(`/api/invoices/${draft.id}/issue`), owner.post(`/api/invoices/${draft.id}/issue`)]);
    const issued = answers.map(ok);
    expect(issued[0].invoice.number).toBe(issued[1].invoice.number);
    expect(await lastNumber()).toBe(before + 1);
    expect((await writtenFor(draft.id)).stock).toHaveLength(1);
  });

  it('refuses a sale beyond stock on its line with nothing half-saved: no number, no ledger rows', async () => {
    const pen = await newProduct();
    const ink = await newProduct();
    await buy(pen.id, '3', '500');
    await buy(ink.id, '3', '500');
    const draft = ok(
      await cashier.post(
        '/api/invoices',
        draftBody([
          { product_id: ink.id, quantity: '1' },
          { product_id: pen.id, quantity: '4' },
        ]),
      ),
    ).invoice;
    const before = await lastNumber();
    refused(await cashier.post(`/api/invoices/${draft.id}/issue`), 'lines.1.quantity', STOCK_MESSAGES.wouldGoNegative);
    expect(await lastNumber()).toBe(before);
    expect(ok(await cashier.get(`/api/invoices/${draft.id}`))).toMatchObject({ status: 'draft', number: null });
    expect(await writtenFor(draft.id)).toEqual({ postings: [], stock: [] });
    expect(ok(await reader.get(`/api/stockrecords/lookup?code=${ink.code}`)).product.on_hand).toBe('3');
  });

  it('keeps refusing sales and returns on the public stock route', async () => {
    const pen = await newProduct();
    for (const kind of ['sale', 'sale_return']) {
      const response = await owner.post('/api/stockrecords', {
        request_id: newId(),
        kind,
        occurred_on: new Date().toISOString().slice(0, 10),
        location_id: store.id,
        lines: [{ product_id: pen.id, quantity: '1' }],
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors?.kind).toBeDefined();
    }
  });
});

describe('the counter sale', () => {
  it('sells, issues and takes the cash in one go, answers a retry with the first sale, gives the change', async () => {
    const pen = await newProduct({ price: '1500', barcode: `20${Date.now()}`.slice(0, 13) });
    await buy(pen.id, '10', '900');
    const body = { request_id: newId(), lines: [{ product_id: pen.id, quantity: '2' }], payment: { method: 'cash', tendered: '5000' } };
    const sold = ok(await cashier.post('/api/invoices/counter', body));
    expect(sold).toMatchObject({
      message: SALES_MESSAGES.saleRecorded,
      created: true,
      change: '2000',
      invoice: { kind: 'cash_sale', status: 'issued', gross_total: '3000', paid: '3000', balance: '0', payment_status: 'paid' },
    });
    expect(sold.invoice.customer.name).toBe(WALK_IN_CUSTOMER);
    expect(sold.receipt?.number).toMatch(/^RCT-\d{6}$/);
    const again = ok(await cashier.post('/api/invoices/counter', body));
    expect(again).toMatchObject({ created: false, invoice: { id: sold.invoice.id, number: sold.invoice.number }, receipt: sold.receipt });
    expect(ok(await reader.get(`/api/stockrecords/lookup?code=${pen.code}`)).product.on_hand).toBe('8');
  });

  it('refuses too little cash, mobile money without its reference, and stock it lacks, keeping nothing', async () => {
    const pen = await newProduct({ price: '1500' });
    await buy(pen.id, '1', '900');
    const before = await lastNumber();
    const sale = (payment: Record<string, unknown>, quantity = '1') => ({
      request_id: newId(),
      lines: [{ product_id: pen.id, quantity }],
      payment,
    });
    refused(
      await cashier.post('/api/invoices/counter', sale({ method: 'cash', tendered: '1000' })),
      'payment.tendered',
      SALES_MESSAGES.tenderedBelowTotal,
    );
    const momo = await cashier.post('/api/invoices/counter', sale({ method: 'mtn_momo' }));
    expect(momo.statusCode, momo.body).toBe(422);
    expect(momo.json().errors?.['payment.reference']).toBeDefined();
    refused(await cashier.post('/api/invoices/counter', sale({ method: 'cash' }, '2')), 'lines.0.quantity', STOCK_MESSAGES.wouldGoNegative);
    expect(await lastNumber()).toBe(before);
    expect(ok(await reader.get(`/api/stockrecords/lookup?code=${pen.code}`)).product.on_hand).toBe('1');
    const paid = ok(await cashier.post('/api/invoices/counter', sale({ method: 'mtn_momo', reference: 'MP241127.1532.A12345' })));
    expect(paid.invoice.payment_status).toBe('paid');
  });
});

describe('what an invoice refuses', () => {
  it('names each bad line: a fraction of a whole unit, a price finer than the currency, a discount above the line, an inactive or foreign product', async () => {
    const pen = await newProduct();
    const old = await newProduct({ active: false });
    const post = (lines: Array<Record<string, unknown>>) => cashier.post('/api/invoices', draftBody(lines));
    refused(await post([{ product_id: pen.id, quantity: '1.5' }]), 'lines.0.quantity', BUSINESS_MESSAGES.quantityWhole);
    refused(
      await post([{ product_id: pen.id, quantity: '1', unit_price: '10.5' }]),
      'lines.0.unit_price',
      BUSINESS_MESSAGES.amountTooPrecise,
    );
    refused(await post([{ product_id: pen.id, quantity: '1', discount: '1001' }]), 'lines.0.discount', SALES_MESSAGES.discountAboveLine);
    refused(await post([{ product_id: old.id, quantity: '1' }]), 'lines.0.product_id', SALES_MESSAGES.productInactive);
    refused(await post([{ product_id: otherProduct.id, quantity: '1' }]), 'lines.0.product_id', SETTINGS_MESSAGES.referenceMissing);
    refused(
      await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '1' }], { customer_id: supplier.id })),
      'customer_id',
      SALES_MESSAGES.notACustomer,
    );
    refused(
      await cashier.post(
        '/api/invoices',
        draftBody([{ product_id: pen.id, quantity: '1' }], { issued_on: '2026-11-10', due_on: '2026-11-01' }),
      ),
      'due_on',
      SALES_MESSAGES.dueBeforeIssue,
    );
    refused(
      await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '1' }], { currency_code: 'XYZ' })),
      'currency_code',
      SALES_MESSAGES.currencyUnknown,
    );
  });

  it('answers wrong types, huge strings and NUL bytes with a 422, never a 500', async () => {
    const pen = await newProduct();
    const line = { product_id: pen.id, quantity: '1' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [draftBody([line], { notes: 'x'.repeat(100_000) }), 'notes'],
      [draftBody([line], { reference: 'a\u0000b' }), 'reference'],
      [draftBody([{ ...line, quantity: true }]), 'lines.0.quantity'],
      [draftBody([{ ...line, quantity: '-1' }]), 'lines.0.quantity'],
      [draftBody([{ ...line, quantity: '1e5' }]), 'lines.0.quantity'],
      [draftBody([{ ...line, unit_price: { p: 1 } }]), 'lines.0.unit_price'],
      [draftBody([{ ...line, product_id: 'pen' }]), 'lines.0.product_id'],
      [draftBody([line], { issued_on: '2026-02-30' }), 'issued_on'],
      [draftBody([line], { request_id: 5 }), 'request_id'],
      [draftBody([]), 'lines'],
      [draftBody(Array.from({ length: 501 }, () => line)), 'lines'],
      [{ ...draftBody([line]), lines: 'all' }, 'lines'],
    ];
    for (const [body, field] of cases) {
      const response = await cashier.post('/api/invoices', body);
      expect(response.statusCode, `${field}: ${response.body.slice(0, 200)}`).toBe(422);
      expect(response.json().errors?.[field], field).toBeDefined();
    }
    for (const query of ['sdate=2026-13-01', 'status=lost', 'per_page=0', `search=${'x'.repeat(500)}`])
      expect((await reader.get(`/api/invoices?${query}`)).statusCode, query).toBe(422);
    expect((await reader.get('/api/invoices/not-an-id')).statusCode).toBe(422);
  });
});

describe('isolation and abilities', () => {
  it('keeps each business’s invoices its own and lets only those who sell draft, issue and sell', async () => {
    const pen = await newProduct();
    const draft = ok(await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '1' }]))).invoice;
    const away = owner.in(other.tenantcode);
    expect((await away.get(`/api/invoices/${draft.id}`)).statusCode).toBe(404);
    expect((await away.post(`/api/invoices/${draft.id}/issue`)).statusCode).toBe(404);
    expect((await away.put(`/api/invoices/${draft.id}`, draftBody([{ product_id: otherProduct.id, quantity: '1' }]))).statusCode).toBe(404);
    expect((await away.delete(`/api/invoices/${draft.id}`)).statusCode).toBe(404);
    expect(ok(await away.get('/api/invoices')).invoices.some((row: Row) => row.id === draft.id)).toBe(false);
    refused(
      await cashier.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '1' }], { location_id: newId() })),
      'location_id',
      SETTINGS_MESSAGES.referenceMissing,
    );

    for (const c of [storekeeper, reader]) {
      expect((await c.post('/api/invoices', draftBody([{ product_id: pen.id, quantity: '1' }]))).statusCode).toBe(403);
      expect((await c.post(`/api/invoices/${draft.id}/issue`)).statusCode).toBe(403);
      expect((await c.delete(`/api/invoices/${draft.id}`)).statusCode).toBe(403);
      const sale = { request_id: newId(), lines: [{ product_id: pen.id, quantity: '1' }], payment: { method: 'cash' } };
      expect((await c.post('/api/invoices/counter', sale)).statusCode).toBe(403);
    }
    expect(ok(await reader.get(`/api/invoices/${draft.id}`)).status).toBe('draft');

    const school = await makeTenant(t.database, { tenantcode: `sc-${newId().slice(-8)}`, category: 'School' });
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: [SUPERADMIN_ROLE] }] });
    const head = caller(t.app, await login(t.app, teacher.email), school.tenantcode);
    for (const path of ['/api/invoices', '/api/invoices/defaults', `/api/invoices/${draft.id}`]) {
      const response = await head.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().message).toBe(ERROR_MESSAGES[404]);
    }
    expect((await head.post('/api/invoices/counter', {})).statusCode).toBe(404);
  });
});
