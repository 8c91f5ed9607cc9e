import {
  BUSINESS_MESSAGES,
  Decimal,
  foldStockValuation,
  SETTINGS_MESSAGES,
  STOCK_MESSAGES,
  type StockLedgerStep,
  SUPERADMIN_ROLE,
} from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { sqlState } from '../../errors.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, SPREADSHEET, workbookOf } from '../settings/settings-fixtures.js';

/*
 * The stock ledger through the API (issue 31 points 4, 5 and 7), one app and two shops for the
 * file: recording each kind of movement and the ledger's balances, its invariants under parallel
 * movements (nothing lost, never below zero, levels and value equal to the ledger's fold), a
 * request sent again, the append-only table, what is refused and why, isolation and permissions,
 * on hand, the lookup, the valuation, the settings and the dashboard.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let owner: Caller;
let storekeeper: Caller;
/** A member of the shop with no role: reads, records nothing. */
let reader: Caller;
let keeperId: string;
let store: Row;
let floor: Row;
let supplier: Row;
let customer: Row;
let otherProduct: Row;
let otherLocation: Row;

let counter = 0;
const next = () => ++counter;
/** Today in Kampala, the day the dashboard counts the movements of. */
const today = new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10);

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field]).toEqual([message]);
}

const newProduct = async (c: Caller, fields: Record<string, unknown> = {}): Promise<Row> => {
  const n = next();
  return ok(await c.post('/api/products', { code: `SK-${n}`, name: `Stock item ${n}`, unit: 'piece', price: '1000', ...fields }));
};

const movement = (fields: Record<string, unknown>, lines: Array<Record<string, unknown>>) => ({
  request_id: newId(),
  occurred_on: today,
  location_id: store.id,
  lines,
  ...fields,
});
const receipt = (productId: string, quantity: string, unitCost: string, fields: Record<string, unknown> = {}) =>
  movement({ kind: 'purchase', partner_id: supplier.id, ...fields }, [{ product_id: productId, quantity, unit_cost: unitCost }]);
const takeOut = (productId: string, quantity: string, fields: Record<string, unknown> = {}) =>
  movement({ kind: 'adjustment', direction: 'out', reason: 'damaged', ...fields }, [{ product_id: productId, quantity }]);

/** The shop's kept figures and ledger of a product, read as the app role. */
async function keptOf(productId: string) {
  const kept = await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => ({
    levels: await trx
      .selectFrom('stock_levels')
      .select(['location_id', 'on_hand'])
      .where('tenant_id', '=', shop.id)
      .where('product_id', '=', productId)
      .execute(),
    valuation: await trx
      .selectFrom('stock_valuations')
      .select(['quantity', 'value'])
      .where('tenant_id', '=', shop.id)
      .where('product_id', '=', productId)
      .executeTakeFirst(),
    records: await trx
      .selectFrom('stock_records')
      .select(['location_id', 'kind', 'quantity', 'unit_cost'])
      .where('tenant_id', '=', shop.id)
      .where('product_id', '=', productId)
      .orderBy('created_at')
      .orderBy('line')
      .orderBy('id')
      .execute(),
  }));
  // numeric columns come back as exact decimal text (their generated column types say otherwise).
  return {
    levels: kept.levels.map((level) => ({ location_id: level.location_id, on_hand: String(level.on_hand) })),
    valuation: kept.valuation ? { quantity: String(kept.valuation.quantity), value: String(kept.valuation.value) } : undefined,
    records: kept.records.map((record) => ({ ...record, quantity: String(record.quantity), unit_cost: String(record.unit_cost) })),
  };
}

/** Levels equal the ledger's sums per location; the valuation equals the moving average folded over the ledger. */
async function expectLedgerKept(productId: string) {
  const { levels, valuation, records } = await keptOf(productId);
  const sums = new Map<string, Decimal>();
  for (const record of records) sums.set(record.location_id, (sums.get(record.location_id) ?? new Decimal(0)).plus(record.quantity));
  for (const level of levels) expect(new Decimal(level.on_hand).eq(sums.get(level.location_id) ?? 0), level.location_id).toBe(true);
  expect(levels.length).toBe(sums.size);
  const steps: StockLedgerStep[] = records.map((record) =>
    record.kind.startsWith('transfer')
      ? { kind: 'transfer', quantity: record.quantity }
      : new Decimal(record.quantity).gt(0)
        ? { kind: 'in', quantity: record.quantity, unitCost: record.unit_cost }
        : { kind: 'out', quantity: new Decimal(record.quantity).neg() },
  );
  const folded = foldStockValuation(steps);
  expect(new Decimal(valuation?.quantity ?? 0).eq(folded.quantity)).toBe(true);
  expect(new Decimal(valuation?.value ?? 0).eq(folded.value), `${valuation?.value} vs ${folded.value}`).toBe(true);
  return { records, levels, valuation };
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const keeper = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['storekeeper'] }] });
  storekeeper = caller(t.app, await login(t.app, keeper.email), shop.tenantcode);
  keeperId = keeper.id;
  const plain = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [] }] });
  reader = caller(t.app, await login(t.app, plain.email), shop.tenantcode);
  store = ok(await owner.post('/api/locations', { name: 'Store room' }));
  floor = ok(await owner.post('/api/locations', { name: 'Shop floor' }));
  supplier = ok(await owner.post('/api/companies', { name: 'Nice House of Plastics', role: 'supplier' }));
  customer = ok(await owner.post('/api/companies', { name: 'Walk-in', role: 'customer' }));
  const away = owner.in(other.tenantcode);
  otherProduct = await newProduct(away);
  otherLocation = ok(await away.post('/api/locations', { name: 'Yard' }));
});
afterAll(() => t?.close());

describe('recording movements and the ledger', () => {
  it('records a purchase, adjustments and a transfer with the balances after each row, the value by moving average', async () => {
    const pen = await newProduct(owner, { cost: '400', reorder_level: '5' });
    const bought = ok(await storekeeper.post('/api/stockrecords', receipt(pen.id, '10', '1000', { reference: 'DN-17' })));
    expect(bought).toMatchObject({ message: STOCK_MESSAGES.recorded, created: true });
    expect(bought.records).toEqual([
      expect.objectContaining({
        kind: 'purchase',
        quantity: '10',
        unit_cost: '1000',
        balance: '10',
        total_balance: '10',
        location: { name: 'Store room' },
        partner: { name: 'Nice House of Plastics' },
        reference: 'DN-17',
        product: { code: pen.code, name: pen.name, unit: 'piece' },
        occurred_on: today,
      }),
    ]);
    ok(await storekeeper.post('/api/stockrecords', receipt(pen.id, '5', '1300'))); // 16500 for 15: 1100 each
    const moved = ok(
      await storekeeper.post(
        '/api/stockrecords',
        movement({ kind: 'transfer', to_location_id: floor.id }, [{ product_id: pen.id, quantity: '6' }]),
      ),
    );
    expect(moved.records.map((r: Row) => [r.kind, r.location_id, r.quantity, r.unit_cost, r.balance, r.total_balance])).toEqual([
      // Between its two rows the six are on the way: the product's total is 9 after the first.
      ['transfer_out', store.id, '-6', '1100', '9', '9'],
      ['transfer_in', floor.id, '6', '1100', '6', '15'],
    ]);
    const out = ok(await storekeeper.post('/api/stockrecords', takeOut(pen.id, '4', { location_id: floor.id })));
    expect(out.records[0]).toMatchObject({
      kind: 'adjustment_out',
      quantity: '-4',
      unit_cost: '1100',
      balance: '2',
      total_balance: '11',
      reason: 'damaged',
    });
    const found = ok(
      await storekeeper.post(
        '/api/stockrecords',
        movement({ kind: 'adjustment', direction: 'in', reason: 'found' }, [{ product_id: pen.id, quantity: '1' }]),
      ),
    );
    expect(found.records[0]).toMatchObject({ kind: 'adjustment_in', unit_cost: '1100', balance: '10', total_balance: '12' });
    const { valuation } = await expectLedgerKept(pen.id);
    expect(new Decimal(valuation?.value ?? 0).toFixed()).toBe('13200');

    const ledger = ok(await owner.get(`/api/stockrecords?product_id=${pen.id}`));
    expect(ledger.totalRecords).toBe(6);
    expect(ledger.stockrecords.map((r: Row) => r.total_balance)).toEqual(['10', '15', '9', '15', '11', '12']);
    // Filters keep the true balance of each row shown.
    const atFloor = ok(await owner.get(`/api/stockrecords?product_id=${pen.id}&location_id=${floor.id}&per_page=1&page=2`));
    expect(atFloor).toMatchObject({ totalRecords: 2, stockrecords: [expect.objectContaining({ quantity: '-4', balance: '2' })] });
    expect(ok(await owner.get(`/api/stockrecords?product_id=${pen.id}&kind=purchase`)).totalRecords).toBe(2);
    expect(ok(await owner.get(`/api/stockrecords?product_id=${pen.id}&from=2001-01-01&to=2001-01-02`)).totalRecords).toBe(0);
    refused(await owner.get(`/api/stockrecords?to=2026-02-30`), 'to', STOCK_MESSAGES.dateInvalid);

    const sheet = await owner.get(`/api/stockrecords?product_id=${pen.id}&excel=1`);
    expect(sheet.headers['content-type']).toBe(SPREADSHEET);
    expect(sheet.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    const rows = await workbookOf(sheet);
    expect(rows.getRow(1).getCell(1).value).toBe('Date');
    expect(rows.rowCount).toBe(7);
    expect(rows.getRow(7).getCell(9).value).toBe(12);
  });

  it('lists stock on hand per location, finds a code or barcode, values the stock, and flags what is low', async () => {
    const paper = await newProduct(owner, { name: 'Ream paper A4 zz', barcode: '6001234500017', cost: '20000', reorder_level: '3' });
    ok(await owner.post('/api/stockrecords', movement({ kind: 'opening' }, [{ product_id: paper.id, quantity: '4', unit_cost: '20000' }])));
    ok(
      await owner.post(
        '/api/stockrecords',
        movement({ kind: 'transfer', to_location_id: floor.id }, [{ product_id: paper.id, quantity: '1' }]),
      ),
    );
    const listed = ok(await reader.get('/api/stockrecords/onhand?search=paper a4 zz'));
    expect(listed.totalRecords).toBe(1);
    expect(listed.products[0]).toMatchObject({
      id: paper.id,
      on_hand: '4',
      avg_cost: '20000',
      value: '80000',
      low: false,
      locations: { [store.id]: '3', [floor.id]: '1' },
    });
    expect(listed.locations.map((l: Row) => l.name)).toEqual(['Shop floor', 'Store room']);
    ok(await owner.post('/api/stockrecords', takeOut(paper.id, '1')));
    const low = ok(await reader.get('/api/stockrecords/onhand?low=1&per_page=100'));
    expect(low.products.map((p: Row) => p.id)).toContain(paper.id);
    expect(low.products.every((p: Row) => p.low)).toBe(true);
    const here = ok(await reader.get(`/api/stockrecords/onhand?search=6001234500017&location_id=${floor.id}`)).products[0];
    expect(here).toMatchObject({ on_hand: '1', value: '20000', locations: { [floor.id]: '1' } });

    expect(ok(await reader.get(`/api/stockrecords/lookup?code=${String(paper.code).toLowerCase()}`)).product).toMatchObject({
      id: paper.id,
      on_hand: '3',
    });
    expect(ok(await reader.get('/api/stockrecords/lookup?code=6001234500017')).product.id).toBe(paper.id);
    refused(await reader.get('/api/stockrecords/lookup?code=NO-SUCH'), 'code', STOCK_MESSAGES.productUnknown);
    refused(await reader.get(`/api/stockrecords/lookup?code=${otherProduct.code}X`), 'code', STOCK_MESSAGES.productUnknown);

    const valued = ok(await reader.get('/api/stockrecords/valuation'));
    expect(valued.rows.find((r: Row) => r.product_id === paper.id)).toMatchObject({ quantity: '3', avg_cost: '20000', value: '60000' });
    const sum = valued.rows.reduce((total: Decimal, r: Row) => total.plus(r.value as string), new Decimal(0));
    expect(sum.toFixed()).toBe(valued.total_value);
    const atFloor = ok(await reader.get(`/api/stockrecords/valuation?location_id=${floor.id}`));
    expect(atFloor.rows.find((r: Row) => r.product_id === paper.id)).toMatchObject({ quantity: '1', value: '20000' });
    const sheet = await workbookOf(await reader.get('/api/stockrecords/valuation?excel=1'));
    expect(sheet.getRow(sheet.rowCount).getCell(7).value).toBe(Number(valued.total_value));
    const onHandSheet = await workbookOf(await reader.get('/api/stockrecords/onhand?excel=1&search=paper a4 zz'));
    expect(onHandSheet.getRow(2).getCell(3).value).toBe('Ream paper A4 zz');

    const home = ok(await reader.get('/api/home/business'));
    expect(home).toMatchObject({ stock_value: valued.total_value, locations: 2 });
    expect(home.low_stock).toBeGreaterThanOrEqual(1);
    expect(home.movements_today).toBeGreaterThanOrEqual(3);
  });

  it('answers the same request sent again, even five times at once, with the one movement', async () => {
    const glue = await newProduct(owner);
    const body = receipt(glue.id, '3', '500');
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => storekeeper.post('/api/stockrecords', body)));
    const bodies = answers.map(ok);
    expect(new Set(bodies.map((b) => b.movement_id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
    expect(bodies.filter((b) => !b.created).every((b) => b.message === STOCK_MESSAGES.alreadyRecorded)).toBe(true);
    expect(bodies.every((b) => b.records.length === 1)).toBe(true);
    const { records } = await expectLedgerKept(glue.id);
    expect(records).toHaveLength(1);
    // One audit entry, of the one movement, with who recorded it.
    const audit = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx
        .selectFrom('audit_log')
        .select(['action', 'user_id', 'after'])
        .where('tenant_id', '=', shop.id)
        .where('entity', '=', 'stock_movement')
        .where('entity_id', '=', bodies[0].movement_id)
        .execute(),
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', user_id: keeperId });
  });
});

describe('the ledger under parallel movements', () => {
  it('loses none of 20 receipts and 20 issues from two clerks at once, and never goes below zero', async () => {
    const book = await newProduct(owner);
    const calls = Array.from({ length: 20 }, (_, i) => [
      storekeeper.post('/api/stockrecords', receipt(book.id, '1', String(1000 + i))),
      owner.post('/api/stockrecords', takeOut(book.id, '1')),
    ]).flat();
    const answers = await Promise.all(calls);
    for (const answer of answers) if (answer.statusCode !== 200) refused(answer, 'lines.0.quantity', STOCK_MESSAGES.wouldGoNegative);
    const accepted = answers.filter((a) => a.statusCode === 200).length;
    const { records } = await expectLedgerKept(book.id);
    expect(records).toHaveLength(accepted);
    expect(records.filter((r) => r.kind === 'purchase')).toHaveLength(20);
    let balance = new Decimal(0);
    for (const record of records) {
      balance = balance.plus(record.quantity);
      expect(balance.gte(0)).toBe(true);
    }
  });

  it('refuses exactly the issues there is no stock for', async () => {
    const ink = await newProduct(owner);
    ok(await owner.post('/api/stockrecords', receipt(ink.id, '10', '700')));
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => (i % 2 ? owner : storekeeper).post('/api/stockrecords', takeOut(ink.id, '1'))),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) refused(answer, 'lines.0.quantity', STOCK_MESSAGES.wouldGoNegative);
    const { valuation } = await expectLedgerKept(ink.id);
    expect(valuation).toMatchObject({ quantity: expect.stringMatching(/^0(\.0+)?$/), value: expect.stringMatching(/^0(\.0+)?$/) });
  });

  it('lets stock go below zero once the business allows it', async () => {
    const clip = await newProduct(owner);
    expect(ok(await reader.get('/api/business/settings'))).toEqual({ allow_negative_stock: false });
    expect((await storekeeper.put('/api/business/settings', { allow_negative_stock: true })).statusCode).toBe(403);
    expect(ok(await owner.put('/api/business/settings', { allow_negative_stock: true }))).toEqual({ allow_negative_stock: true });
    try {
      const out = ok(await storekeeper.post('/api/stockrecords', takeOut(clip.id, '2')));
      expect(out.records[0]).toMatchObject({ balance: '-2', unit_cost: '0' });
      ok(await storekeeper.post('/api/stockrecords', receipt(clip.id, '5', '100')));
      const { valuation } = await expectLedgerKept(clip.id);
      expect(new Decimal(valuation?.value ?? 0).toFixed()).toBe('300');
    } finally {
      ok(await owner.put('/api/business/settings', { allow_negative_stock: false }));
    }
    refused(
      await owner.put('/api/business/settings', { allow_negative_stock: 'yes' }),
      'allow_negative_stock',
      expect.any(String) as never,
    );
  });

  it('keeps the ledger append-only: the app role may not change or remove a row', async () => {
    for (const change of ['update', 'delete'] as const) {
      const error = await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
        if (change === 'update') await trx.updateTable('stock_records').set({ quantity: '1' }).where('tenant_id', '=', shop.id).execute();
        else await trx.deleteFrom('stock_records').where('tenant_id', '=', shop.id).execute();
      }).catch((caught: unknown) => caught);
      expect(sqlState(error), String(error)).toBe('42501');
    }
  });
});

describe('what a movement refuses', () => {
  it('names the field of an unknown or foreign product, location or partner, a service, a fraction, a cost too fine', async () => {
    const pen = await newProduct(owner);
    const service = await newProduct(owner, { kind: 'service' });
    const sugar = await newProduct(owner, { unit: 'kg', fractional: true });
    const post = (body: unknown) => storekeeper.post('/api/stockrecords', body);
    refused(await post(receipt(otherProduct.id, '1', '100')), 'lines.0.product_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await post(receipt(pen.id, '1', '100', { location_id: otherLocation.id })), 'location_id', SETTINGS_MESSAGES.referenceMissing);
    refused(
      await post(movement({ kind: 'transfer', to_location_id: otherLocation.id }, [{ product_id: pen.id, quantity: '1' }])),
      'to_location_id',
      SETTINGS_MESSAGES.referenceMissing,
    );
    refused(await post(receipt(pen.id, '1', '100', { partner_id: newId() })), 'partner_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await post(receipt(pen.id, '1', '100', { partner_id: customer.id })), 'partner_id', STOCK_MESSAGES.supplierRequired);
    refused(await post(receipt(service.id, '1', '100')), 'lines.0.product_id', STOCK_MESSAGES.productNotStocked);
    refused(await post(receipt(pen.id, '1.5', '100')), 'lines.0.quantity', BUSINESS_MESSAGES.quantityWhole);
    ok(await post(receipt(sugar.id, '1.5', '3000')));
    refused(await post(receipt(pen.id, '1', '100.5')), 'lines.0.unit_cost', BUSINESS_MESSAGES.amountTooPrecise);
    refused(
      await post(movement({ kind: 'transfer', to_location_id: store.id }, [{ product_id: pen.id, quantity: '1' }])),
      'to_location_id',
      STOCK_MESSAGES.sameLocation,
    );
    // A movement of two lines, the second short: nothing of the first is kept.
    ok(await post(receipt(pen.id, '2', '100')));
    refused(
      await post(
        movement({ kind: 'adjustment', direction: 'out', reason: 'lost' }, [
          { product_id: pen.id, quantity: '1' },
          { product_id: pen.id, quantity: '2' },
        ]),
      ),
      'lines.1.quantity',
      STOCK_MESSAGES.wouldGoNegative,
    );
    const { records } = await expectLedgerKept(pen.id);
    expect(records).toHaveLength(1);
  });

  it('answers bad input with a 422 naming the field', async () => {
    const pen = await newProduct(owner);
    const post = (body: unknown) => storekeeper.post('/api/stockrecords', body);
    for (const quantity of ['1e5', '-1', '0.0001', '0', 'ten', 12.5e20])
      expect((await post(receipt(pen.id, quantity as string, '1'))).json().errors?.['lines.0.quantity'], String(quantity)).toBeDefined();
    const huge = await post({ ...receipt(pen.id, '1', '1'), note: 'x'.repeat(100_000) });
    expect(huge.statusCode, huge.body).toBe(422);
    expect(huge.json().errors?.note).toBeDefined();
    const nul = await post({ ...receipt(pen.id, '1', '1'), reference: 'a\u0000b' });
    expect(nul.statusCode, nul.body).toBe(422);
    expect(Object.keys(nul.json().errors ?? {})).toEqual(['reference']);
    expect((await post(receipt(pen.id, true as never, '1'))).json().errors?.['lines.0.quantity']).toBeDefined();
    expect((await post(receipt(pen.id, '1', { cost: 1 } as never))).json().errors?.['lines.0.unit_cost']).toBeDefined();
    expect((await post({ ...receipt(pen.id, '1', '1'), lines: 'all' })).json().errors?.lines).toBeDefined();
    expect((await post({ ...receipt(pen.id, '1', '1'), request_id: 5 })).json().errors?.request_id).toBeDefined();
    refused(
      await post(
        receipt(pen.id, '1', '1', { lines: Array.from({ length: 501 }, () => ({ product_id: pen.id, quantity: '1', unit_cost: '1' })) }),
      ),
      'lines',
      STOCK_MESSAGES.tooManyLines,
    );
    refused(
      await post(movement({ kind: 'purchase' }, [{ product_id: pen.id, quantity: '1', unit_cost: '1' }])),
      'partner_id',
      STOCK_MESSAGES.supplierRequired,
    );
    refused(
      await post(movement({ kind: 'adjustment', reason: 'lost' }, [{ product_id: pen.id, quantity: '1' }])),
      'direction',
      STOCK_MESSAGES.directionRequired,
    );
    refused(
      await post(movement({ kind: 'opening' }, [{ product_id: pen.id, quantity: '1' }])),
      'lines.0.unit_cost',
      STOCK_MESSAGES.unitCostRequired,
    );
    refused(await post(receipt(pen.id, '1', '1', { occurred_on: '2999-01-01' })), 'occurred_on', STOCK_MESSAGES.dateInFuture);
    expect((await keptOf(pen.id)).records).toHaveLength(0);
  });
});

describe('isolation and permissions', () => {
  it('keeps each business’s ledger its own and lets only those who may record stock record it', async () => {
    const pen = await newProduct(owner);
    ok(await owner.post('/api/stockrecords', receipt(pen.id, '1', '100')));
    const away = owner.in(other.tenantcode);
    expect(ok(await away.get(`/api/stockrecords?product_id=${pen.id}`)).totalRecords).toBe(0);
    expect(ok(await away.get('/api/stockrecords')).stockrecords.some((r: Row) => r.product_id === pen.id)).toBe(false);
    refused(await away.get(`/api/stockrecords/lookup?code=${pen.code}`), 'code', STOCK_MESSAGES.productUnknown);
    expect(ok(await away.get('/api/stockrecords/valuation')).rows.some((r: Row) => r.product_id === pen.id)).toBe(false);
    expect((await reader.post('/api/stockrecords', receipt(pen.id, '1', '100'))).statusCode).toBe(403);
    expect((await (await keptOf(pen.id)).records).length).toBe(1);
  });
});
