import { EFRIS_MESSAGES as E, SUPERADMIN_ROLE } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant, withTenantTx } from '../../db/tenant.js';
import { SIMULATED } from '../../efris-fake/ura.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { openSecret } from '../auth/secret-box.js';
import { seedFakeDevice } from './efris.service.js';
import { queueFiscalDocument } from './outbox.js';

/*
 * EFRIS through the API against the local fake of URA, in process (issue 32 point 7): the
 * device and its sealed key, products registered and stocked in before an invoice, an invoice
 * fiscalised with every message kept, URA down, slow, a reply lost after URA committed (the
 * retry asks T108 first: one FDN, never two), a credit note approved later (T111), the TIN
 * check, and who may see what. Documents are written here as issued rows and queued the way
 * the issuing services queue them (queueFiscalDocument in their transaction).
 */

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let cashier: Caller;
let schoolHead: Caller;
let location: { id: string };
let customer: { id: string };
let otherOutboxId: string;
const TIN = '1000012345';
let counter = 0;

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const fake = () => {
  const instance = t.app.efris.fake;
  if (!instance) throw new Error('the fake is on in this test');
  return instance;
};
const drain = () => t.app.efris.worker.drain();

async function newProduct(c: Caller, price = '11800'): Promise<{ id: string; code: string }> {
  counter += 1;
  return ok(await c.post('/api/products', { code: `EF-${counter}`, name: `Exercise book ${counter}`, unit: 'piece', price }));
}

/** An issued invoice of `tenantId` (one standard-rated line per product), queued for URA. */
async function issuedInvoice(
  tenantId: string,
  lines: Array<{ product: string; quantity: string; gross: string }>,
  customerId = customer.id,
) {
  const id = newId();
  counter += 1;
  const number = `INV-T${String(counter).padStart(5, '0')}`;
  const tax = (gross: string) => String(Math.round((Number(gross) * 18) / 118));
  const gross = lines.reduce((sum, line) => sum + Number(line.gross), 0);
  const taxTotal = lines.reduce((sum, line) => sum + Number(tax(line.gross)), 0);
  await withTenantTx(t.database.db, { tenantId }, async (tx) => {
    await tx.trx
      .insertInto('invoices')
      .values({
        tenant_id: tenantId,
        id,
        request_id: newId(),
        status: 'issued',
        number,
        customer_id: customerId,
        location_id: location.id,
        currency_code: 'UGX',
        currency_decimals: 0,
        issued_on: '2026-11-20',
        due_on: '2026-11-30',
        issued_at: new Date(),
        gross_total: String(gross) as never,
        tax_total: String(taxTotal) as never,
        net_total: String(gross - taxTotal) as never,
      })
      .execute();
    await tx.trx
      .insertInto('invoice_lines')
      .values(
        lines.map((line, index) => ({
          tenant_id: tenantId,
          invoice_id: id,
          line: index,
          product_id: line.product,
          quantity: line.quantity,
          unit_price: String(Number(line.gross) / Number(line.quantity)),
          tax_code: 'VAT18',
          tax_kind: 'standard' as const,
          tax_rate: '18' as never,
          gross: line.gross,
          tax: tax(line.gross) as never,
          net: String(Number(line.gross) - Number(tax(line.gross))) as never,
        })),
      )
      .execute();
    await queueFiscalDocument(tx, { kind: 'invoice', id });
  });
  return { id, number };
}

async function invoiceRow(id: string) {
  return withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
    trx
      .selectFrom('invoices')
      .select([
        'fiscal_status',
        'fiscal_fdn',
        'fiscal_verification_code',
        'fiscal_qr_code',
        'fiscal_invoice_id',
        'fiscal_simulated',
        'fiscal_at',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );
}

async function outboxOf(documentId: string) {
  return withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
    trx.selectFrom('efris_outbox').selectAll().where('document_id', '=', documentId).executeTakeFirstOrThrow(),
  );
}

/** The interface codes of a document's messages in order, each with its direction. */
async function exchangesOf(documentId: string): Promise<string[]> {
  const { id } = await outboxOf(documentId);
  const rows = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
    trx
      .selectFrom('efris_messages')
      .select(['interface_code', 'direction', 'return_code'])
      .where('outbox_id', '=', id)
      .orderBy('created_at')
      .execute(),
  );
  return rows.map((row) => `${row.interface_code} ${row.direction}${row.return_code ? ` ${row.return_code}` : ''}`);
}

beforeAll(async () => {
  t = await buildTestApp({
    efrisFake: true,
    // No backoff, a short patience and no wake-ups but the test's own, so a test sees each attempt at its own drain.
    efrisTiming: { pollMs: 3_600_000, retryBaseMs: 0, timeoutMs: 300, approvalPollMs: 0, hints: false },
  });
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  school = await makeTenant(t.database, { tenantcode: `school-${newId().slice(-8)}` });
  for (const id of [shop.id, other.id, school.id])
    await t.database.db.updateTable('tenants').set({ efrist: true, tin: TIN }).where('id', '=', id).execute();
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const till = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['cashier'] }] });
  cashier = caller(t.app, await login(t.app, till.email), shop.tenantcode);
  const head = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: [SUPERADMIN_ROLE] }] });
  schoolHead = caller(t.app, await login(t.app, head.email), school.tenantcode);
  location = ok(await owner.post('/api/locations', { name: 'Shop floor' }));
  customer = ok(await owner.post('/api/companies', { name: 'Walk-in', role: 'customer' }));
  ok(await owner.put('/api/efris/device', { device_no: 'TCS-DEV-01', tin: TIN, mode: 'fake' }));
});
afterAll(() => t?.close());

describe('the device', () => {
  it('keeps the private key sealed at rest and never answers it back', async () => {
    const device = ok(await owner.get('/api/efris/device'));
    expect(device).toMatchObject({
      configured: true,
      device_no: 'TCS-DEV-01',
      tin: TIN,
      mode: 'fake',
      has_credentials: true,
      efris_on: true,
    });
    expect(JSON.stringify(device)).not.toMatch(/PRIVATE KEY/);
    const row = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx.selectFrom('efris_devices').select('credentials_sealed').executeTakeFirstOrThrow(),
    );
    // The raw row: no PEM, no key material in the clear, only the sealed form.
    expect(row.credentials_sealed).toMatch(/^v1\./);
    expect(row.credentials_sealed).not.toContain('PRIVATE KEY');
    // The key it opens to under the server's secrets key is nowhere in the row.
    const opened = openSecret(t.config.secretsKey, `efris-device:${shop.id}`, row.credentials_sealed as string);
    const body = (JSON.parse(opened as string) as { private_key: string }).private_key.split('\n')[1] as string;
    expect(body.length).toBeGreaterThan(40);
    expect(row.credentials_sealed).not.toContain(body.slice(0, 40));
    // Saving again without a key keeps the one kept (the fake still accepts the device's signatures).
    ok(await owner.put('/api/efris/device', { device_no: 'TCS-DEV-01', tin: TIN, mode: 'fake', enabled: true }));
  });

  it('a device seeded by code (the demo) works against the fake at its first use', async () => {
    const seeded = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Seeded Shop', category: 'Retail' });
    await withTenantTx(t.database.db, { tenantId: seeded.id }, (tx) =>
      seedFakeDevice(tx, t.config.secretsKey, { device_no: 'TCS-SEED-1', tin: '1000000077' }),
    );
    expect(fake().knowsDevice('1000000077', 'TCS-SEED-1')).toBe(false);
    expect(await t.app.efris.worker.checkTin(seeded.id, '1000000001')).toMatchObject({ legalName: 'KAMPALA OFFICE SUPPLIES LIMITED' });
    expect(fake().knowsDevice('1000000077', 'TCS-SEED-1')).toBe(true);
  });

  it('enrols a fake device again with a fake that forgot it (a restart of an in-memory fake)', async () => {
    const forgetful = fake() as unknown as { state: { taxpayers: Record<string, { devices: Record<string, string> }> } };
    const devices = forgetful.state.taxpayers[TIN]?.devices ?? {};
    delete devices['TCS-DEV-01'];
    expect(fake().knowsDevice(TIN, 'TCS-DEV-01')).toBe(false);
    expect(ok(await owner.get('/api/efris/tin?tin=1000000002'))).toMatchObject({ legal_name: 'ENTEBBE SCHOOLS TRUST' });
    expect(fake().knowsDevice(TIN, 'TCS-DEV-01')).toBe(true);
  });

  it('refuses bad input with a 422 on the field', async () => {
    for (const [body, field, message] of [
      [{ device_no: 'TCS-1', tin: '12345', mode: 'fake' }, 'tin', E.tinInvalid],
      [{ device_no: 'a b\u0000', tin: TIN, mode: 'fake' }, 'device_no', undefined],
      [{ device_no: 'TCS-1', tin: TIN, mode: 'live' }, 'url', E.urlInvalid],
      [{ device_no: 'TCS-1', tin: TIN, mode: 'fake', private_key: 'not a key' }, 'private_key', E.keyInvalid],
      [{ device_no: 'x'.repeat(5000), tin: TIN, mode: 'fake' }, 'device_no', E.deviceNoInvalid],
    ] as const) {
      const response = await owner.put('/api/efris/device', body);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors[field]).toBeDefined();
      if (message) expect(response.json().errors[field]).toContain(message);
    }
  });

  it('is a business route with its ability: a cashier gets 403, a school 404', async () => {
    expect((await cashier.get('/api/efris/device')).statusCode).toBe(403);
    expect((await cashier.put('/api/efris/device', { device_no: 'X', tin: TIN, mode: 'fake' })).statusCode).toBe(403);
    expect((await cashier.get('/api/efris/outbox')).statusCode).toBe(403);
    expect((await schoolHead.get('/api/efris/device')).statusCode).toBe(404);
    expect((await schoolHead.get('/api/efris/outbox')).statusCode).toBe(404);
    expect((await schoolHead.get('/api/products/efris')).statusCode).toBe(404);
  });
});

describe('products with URA', () => {
  it('registers the selected products (T130) and stocks in what is on hand (T131)', async () => {
    const pen = await newProduct(owner);
    ok(
      await owner.post('/api/stockrecords', {
        request_id: newId(),
        kind: 'opening',
        occurred_on: '2026-11-01',
        location_id: location.id,
        lines: [{ product_id: pen.id, quantity: '12', unit_cost: '5000' }],
      }),
    );
    const answer = ok(await owner.post('/api/products/efris', { product_ids: [pen.id] }));
    expect(answer).toMatchObject({ registered: 1, stocked: 1, failed: [] });
    expect(answer.rows[0]).toMatchObject({ product_id: pen.id, goods_code: pen.code, stocked_quantity: '12.000', on_hand: '12.000' });
    expect(
      fake()
        .goodsOf(TIN)
        .find((goods) => goods.goodsCode === pen.code),
    ).toMatchObject({ stock: '12' });
    // Again: nothing more to register or stock in.
    expect(ok(await owner.post('/api/products/efris', { product_ids: [pen.id] }))).toMatchObject({ registered: 0, stocked: 0 });
    const listed = ok(await owner.get('/api/products/efris?registered=yes'));
    expect(listed.rows.map((row: { product_id: string }) => row.product_id)).toContain(pen.id);
  });

  it('the same registration twice at once stocks in once', async () => {
    const ruler = await newProduct(owner);
    ok(
      await owner.post('/api/stockrecords', {
        request_id: newId(),
        kind: 'opening',
        occurred_on: '2026-11-01',
        location_id: location.id,
        lines: [{ product_id: ruler.id, quantity: '7', unit_cost: '500' }],
      }),
    );
    const answers = await Promise.all([
      owner.post('/api/products/efris', { product_ids: [ruler.id] }),
      owner.post('/api/products/efris', { product_ids: [ruler.id] }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    // Neither is refused by URA as a second registration of the same goods.
    expect(answers.map((answer) => answer.json().failed)).toEqual([[], []]);
    expect(
      fake()
        .goodsOf(TIN)
        .find((goods) => goods.goodsCode === ruler.code),
    ).toMatchObject({ stock: '7' });
    const listed = ok(await owner.get(`/api/products/efris?q=${ruler.code}`));
    expect(listed.rows[0]).toMatchObject({ stocked_quantity: '7.000' });
  });

  it("refuses another business's product, none, and too many", async () => {
    const theirs = await newProduct(owner.in(other.tenantcode));
    expect((await owner.post('/api/products/efris', { product_ids: [theirs.id] })).statusCode).toBe(422);
    expect((await owner.post('/api/products/efris', { product_ids: [] })).statusCode).toBe(422);
    expect((await owner.post('/api/products/efris', { product_ids: Array.from({ length: 51 }, () => newId()) })).statusCode).toBe(422);
    expect((await cashier.post('/api/products/efris', { product_ids: [theirs.id] })).statusCode).toBe(403);
  });
});

describe('fiscalising invoices', () => {
  it('registers and stocks in the products first, then fiscalises the invoice (T109) and keeps every message', async () => {
    const book = await newProduct(owner);
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '2', gross: '23600' }]);
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('pending');
    await drain();
    const row = await invoiceRow(invoice.id);
    const held = fake()
      .invoicesOf(TIN)
      .filter((kept) => kept.referenceNo === invoice.number);
    expect(held).toHaveLength(1);
    expect(row).toMatchObject({
      fiscal_status: 'fiscalised',
      fiscal_fdn: held[0]?.invoiceNo,
      fiscal_verification_code: held[0]?.antifakeCode,
      fiscal_invoice_id: held[0]?.invoiceId,
      fiscal_simulated: true,
    });
    expect(row.fiscal_qr_code).toContain(SIMULATED);
    expect(await exchangesOf(invoice.id)).toEqual([
      'T130 request',
      'T130 answer 00',
      'T131 request',
      'T131 answer 00',
      'T109 request',
      'T109 answer 00',
    ]);
    const outbox = ok(await owner.get('/api/efris/outbox'));
    expect(outbox.rows.find((entry: { document_id: string }) => entry.document_id === invoice.id)).toMatchObject({
      status: 'done',
      fiscal_status: 'fiscalised',
      fiscal_fdn: held[0]?.invoiceNo,
      messages: 6,
    });
  });

  it('URA down: the invoice stays issued and fiscal pending, and is fiscalised once URA is back', async () => {
    const book = await newProduct(owner);
    fake().faults.down = true;
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '1', gross: '11800' }]);
    await drain();
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('pending');
    expect(await outboxOf(invoice.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await outboxOf(invoice.id)).last_error).toMatch(/ECONNREFUSED/);
    fake().faults.down = false;
    await drain();
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('fiscalised');
  });

  it('a reply lost after URA committed: the retry asks T108 first and takes its FDN, one FDN only', async () => {
    const book = await newProduct(owner);
    ok(await owner.post('/api/products/efris', { product_ids: [book.id], stock_in: false }));
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '1', gross: '11800' }]);
    // Only the invoice's answer is lost (after the fake stored it).
    const lose = fake();
    const originalExchange = lose.exchange.bind(lose);
    lose.exchange = async (request: unknown) => {
      const code = (request as { globalInfo?: { interfaceCode?: string } }).globalInfo?.interfaceCode;
      if (code === 'T109') lose.faults.loseReplies = 1;
      return originalExchange(request);
    };
    try {
      await drain();
    } finally {
      lose.exchange = originalExchange;
    }
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('pending');
    expect(
      fake()
        .invoicesOf(TIN)
        .filter((kept) => kept.referenceNo === invoice.number),
    ).toHaveLength(1);
    await drain();
    const held = fake()
      .invoicesOf(TIN)
      .filter((kept) => kept.referenceNo === invoice.number);
    expect(held).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ fiscal_status: 'fiscalised', fiscal_fdn: held[0]?.invoiceNo });
    const exchanges = await exchangesOf(invoice.id);
    expect(exchanges.slice(-4)).toEqual(['T109 request', 'T109 failure', 'T108 request', 'T108 answer 00']);
    expect(exchanges.filter((line) => line === 'T109 request')).toHaveLength(1);
  });

  it('slow URA: given up at the timeout, then found by T108 rather than sent twice', async () => {
    const book = await newProduct(owner);
    ok(await owner.post('/api/products/efris', { product_ids: [book.id], stock_in: false }));
    ok(
      await owner.post('/api/stockrecords', {
        request_id: newId(),
        kind: 'opening',
        occurred_on: '2026-11-01',
        location_id: location.id,
        lines: [{ product_id: book.id, quantity: '5', unit_cost: '5000' }],
      }),
    );
    ok(await owner.post('/api/products/efris', { product_ids: [book.id] }));
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '1', gross: '11800' }]);
    // A backoff for this test, so no other round resends while URA is still working on the first.
    const timing = t.app.efris.worker.timing;
    timing.retryBaseMs = 60_000;
    fake().faults.slowMs = 600;
    try {
      await drain();
    } finally {
      fake().faults.slowMs = 0;
      timing.retryBaseMs = 0;
    }
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('pending');
    expect((await outboxOf(invoice.id)).last_error).toMatch(/did not answer/);
    // URA finishes the slow request after Mustard gave up on it; then the backoff is over.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx.updateTable('efris_outbox').set({ next_attempt_at: new Date() }).where('document_id', '=', invoice.id).execute(),
    );
    await drain();
    const held = fake()
      .invoicesOf(TIN)
      .filter((kept) => kept.referenceNo === invoice.number);
    expect(held).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ fiscal_status: 'fiscalised', fiscal_fdn: held[0]?.invoiceNo });
    expect((await exchangesOf(invoice.id)).filter((line) => line === 'T109 request')).toHaveLength(1);
  });

  it('URA refuses a B2B sale without the buyer TIN: failed with its message, and sent again by hand once mended', async () => {
    const book = await newProduct(owner);
    // A business customer kept without its TIN (Mustard's own form asks for it; a row from before does not have it).
    const business = { id: newId() };
    await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx
        .insertInto('companies')
        .values({ tenant_id: shop.id, id: business.id, name: 'Kampala Office Supplies', role: 'customer', buyer_type: 'b2b' })
        .execute(),
    );
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '1', gross: '11800' }], business.id);
    await drain();
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('failed');
    const outbox = await outboxOf(invoice.id);
    expect(outbox.status).toBe('failed');
    expect(outbox.last_error).toMatch(/buyerTin/);
    ok(
      await owner.put(`/api/companies/${business.id}`, {
        name: 'Kampala Office Supplies',
        role: 'customer',
        buyer_type: 'b2b',
        tin: '1000000001',
      }),
    );
    const retried = ok(await owner.post(`/api/efris/outbox/${outbox.id}/retry`));
    expect(retried).toMatchObject({ id: outbox.id, status: 'pending' });
    await drain();
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('fiscalised');
    // A done document is not sent again; another business's row and a made-up one are not found.
    expect((await owner.post(`/api/efris/outbox/${outbox.id}/retry`)).statusCode).toBe(409);
    expect((await owner.post(`/api/efris/outbox/${newId()}/retry`)).statusCode).toBe(404);
    expect((await cashier.post(`/api/efris/outbox/${outbox.id}/retry`)).statusCode).toBe(403);
  });

  it("another business's outbox rows are not found", async () => {
    const theirs = await newProduct(owner.in(other.tenantcode));
    const away = {
      otherLocation: ok(await owner.in(other.tenantcode).post('/api/locations', { name: 'Yard' })),
      otherCustomer: ok(await owner.in(other.tenantcode).post('/api/companies', { name: 'Walk-in', role: 'customer' })),
    };
    const id = newId();
    await withTenantTx(t.database.db, { tenantId: other.id }, async (tx) => {
      await tx.trx
        .insertInto('invoices')
        .values({
          tenant_id: other.id,
          id,
          request_id: newId(),
          status: 'issued',
          number: 'INV-000001',
          customer_id: away.otherCustomer.id,
          location_id: away.otherLocation.id,
          currency_code: 'UGX',
          currency_decimals: 0,
          issued_on: '2026-11-20',
          due_on: '2026-11-20',
        })
        .execute();
      await tx.trx
        .insertInto('invoice_lines')
        .values({ tenant_id: other.id, invoice_id: id, line: 0, product_id: theirs.id, quantity: '1', unit_price: '100', gross: '100' })
        .execute();
      await queueFiscalDocument(tx, { kind: 'invoice', id });
    });
    const row = await withTenant(t.database.db, { tenantId: other.id }, (trx) =>
      trx.selectFrom('efris_outbox').select('id').where('document_id', '=', id).executeTakeFirstOrThrow(),
    );
    otherOutboxId = row.id;
    expect((await owner.post(`/api/efris/outbox/${otherOutboxId}/retry`)).statusCode).toBe(404);
    const listed = ok(await owner.get('/api/efris/outbox?per_page=100'));
    expect(listed.rows.map((entry: { id: string }) => entry.id)).not.toContain(otherOutboxId);
  });
});

describe('credit notes', () => {
  it('applies for a credit note (T110) and follows it until URA approves it (T111)', async () => {
    const book = await newProduct(owner);
    const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '2', gross: '23600' }]);
    await drain();
    expect((await invoiceRow(invoice.id)).fiscal_status).toBe('fiscalised');
    fake().approvalDelayMs = 3_600_000;
    const memoId = newId();
    await withTenantTx(t.database.db, { tenantId: shop.id }, async (tx) => {
      await tx.trx
        .insertInto('memos')
        .values({
          tenant_id: shop.id,
          id: memoId,
          request_id: newId(),
          number: `CN-T${memoId.slice(0, 6)}`,
          kind: 'credit',
          invoice_id: invoice.id,
          reason_code: 'return',
          reason: 'One book returned torn',
          issued_on: '2026-11-21',
          currency_code: 'UGX',
          gross_total: '11800' as never,
          tax_total: '1800' as never,
          net_total: '10000' as never,
        })
        .execute();
      await tx.trx
        .insertInto('memo_lines')
        .values({
          tenant_id: shop.id,
          memo_id: memoId,
          line: 0,
          invoice_line: 0,
          invoice_id: invoice.id,
          product_id: book.id,
          quantity: '1',
          unit_price: '11800',
          tax_code: 'VAT18',
          tax_kind: 'standard',
          tax_rate: '18' as never,
          gross: '11800',
          tax: '1800' as never,
          net: '10000' as never,
        })
        .execute();
      await queueFiscalDocument(tx, { kind: 'credit_memo', id: memoId });
    });
    const memoRow = () =>
      withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
        trx
          .selectFrom('memos')
          .select(['fiscal_status', 'fiscal_reference', 'fiscal_fdn', 'fiscal_simulated'])
          .where('id', '=', memoId)
          .executeTakeFirstOrThrow(),
      );
    expect((await memoRow()).fiscal_status).toBe('pending');
    await drain();
    const submitted = await memoRow();
    expect(submitted.fiscal_status).toBe('submitted');
    expect(submitted.fiscal_reference).toBeTruthy();
    await drain();
    expect((await memoRow()).fiscal_status).toBe('submitted');
    expect(fake().approveCreditNotes()).toBe(1);
    await drain();
    const approved = await memoRow();
    const note = fake()
      .creditNotesOf(TIN)
      .find((kept) => kept.referenceNo === submitted.fiscal_reference);
    expect(approved).toMatchObject({ fiscal_status: 'approved', fiscal_fdn: note?.invoiceNo, fiscal_simulated: true });
    const exchanges = await exchangesOf(memoId);
    expect(exchanges.slice(0, 2)).toEqual(['T110 request', 'T110 answer 00']);
    expect(exchanges.at(-1)).toBe('T111 answer 00');
  });
});

describe('through the selling routes', () => {
  it('an invoice issued by POST /api/invoices/:id/issue is fiscalised, and its credit memo approved later', async () => {
    const pen = await newProduct(owner, '11800');
    ok(
      await owner.post('/api/stockrecords', {
        request_id: newId(),
        kind: 'opening',
        occurred_on: '2026-11-01',
        location_id: location.id,
        lines: [{ product_id: pen.id, quantity: '5', unit_cost: '5000' }],
      }),
    );
    const draft = ok(
      await owner.post('/api/invoices', {
        request_id: newId(),
        location_id: location.id,
        customer_id: customer.id,
        lines: [{ product_id: pen.id, quantity: '2' }],
      }),
    ).invoice;
    const issued = ok(await owner.post(`/api/invoices/${draft.id}/issue`)).invoice;
    expect((await invoiceRow(issued.id)).fiscal_status).toBe('pending');
    await drain();
    const row = await invoiceRow(issued.id);
    const held = fake()
      .invoicesOf(TIN)
      .filter((kept) => kept.referenceNo === issued.number);
    expect(held).toHaveLength(1);
    expect(row).toMatchObject({ fiscal_status: 'fiscalised', fiscal_fdn: held[0]?.invoiceNo, fiscal_simulated: true });
    fake().approvalDelayMs = 3_600_000;
    const memo = ok(
      await owner.post('/api/memos', {
        request_id: newId(),
        kind: 'credit',
        invoice_id: issued.id,
        reason_code: 'return',
        reason: 'One pen returned',
        issued_on: issued.issued_on,
        lines: [{ invoice_line: 0, quantity: '1' }],
      }),
    ).memo;
    await drain();
    const memoStatus = () =>
      withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
        trx.selectFrom('memos').select(['fiscal_status', 'fiscal_fdn']).where('id', '=', memo.id).executeTakeFirstOrThrow(),
      );
    expect((await memoStatus()).fiscal_status).toBe('submitted');
    fake().approveCreditNotes();
    await drain();
    expect(await memoStatus()).toMatchObject({ fiscal_status: 'approved', fiscal_fdn: expect.stringMatching(/^3\d{11}$/) });
  });
});

describe('the TIN check (T119) and the Efris flag', () => {
  it("answers URA's name for a known TIN, 422 for an unknown or malformed one", async () => {
    expect(ok(await owner.get('/api/efris/tin?tin=1000000001'))).toMatchObject({
      tin: '1000000001',
      legal_name: 'KAMPALA OFFICE SUPPLIES LIMITED',
      simulated: true,
    });
    expect((await owner.get('/api/efris/tin?tin=1999999999')).statusCode).toBe(422);
    expect((await owner.get('/api/efris/tin?tin=12ab')).statusCode).toBe(422);
    expect((await schoolHead.get('/api/efris/tin?tin=1000000001')).statusCode).toBe(404);
  });

  it("answers URA's time (T101) and dictionary (T115), both kept as messages; a school 404, a cashier 403", async () => {
    const kept = async () =>
      (
        await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
          trx.selectFrom('efris_messages').select('id').where('interface_code', 'in', ['T101', 'T115']).execute(),
        )
      ).length;
    const before = await kept();
    const answer = ok(await owner.get('/api/efris/dictionary'));
    expect(answer).toMatchObject({ simulated: true, ura_time: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/) });
    expect(answer.payment_modes.length).toBeGreaterThan(0);
    expect(answer.tax_categories).toContainEqual({ value: '01', name: 'Standard' });
    expect(answer.currencies).toContainEqual({ value: '101', name: 'UGX' });
    const after = await kept();
    // A request and an answer each.
    expect(after - before).toBe(4);
    expect((await schoolHead.get('/api/efris/dictionary')).statusCode).toBe(404);
    expect((await cashier.get('/api/efris/dictionary')).statusCode).toBe(403);
  });

  it('queues nothing for a business with Efris off', async () => {
    await t.database.db.updateTable('tenants').set({ efrist: false }).where('id', '=', shop.id).execute();
    try {
      const book = await newProduct(owner);
      const invoice = await issuedInvoice(shop.id, [{ product: book.id, quantity: '1', gross: '100' }]);
      expect((await invoiceRow(invoice.id)).fiscal_status).toBe('none');
      const rows = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
        trx.selectFrom('efris_outbox').select('id').where('document_id', '=', invoice.id).execute(),
      );
      expect(rows).toEqual([]);
    } finally {
      await t.database.db.updateTable('tenants').set({ efrist: true }).where('id', '=', shop.id).execute();
    }
  });

  it('keeps its messages append-only', async () => {
    const failed = await withTenant(t.database.db, { tenantId: shop.id }, (trx) => trx.deleteFrom('efris_messages').execute()).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
  });
});
