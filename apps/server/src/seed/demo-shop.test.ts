import { Decimal } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../db/tenant.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';
import { DEMO_TEST_PASSWORD } from '../test/test-database.js';
import { DEMO_ADMIN_EMAIL } from './demo.js';
import { DEMO_SHOP_LOW, demoBarcode, demoMovementRequestId, demoShopProducts, ean13CheckDigit, seedDemoShop } from './demo-shop.js';

/*
 * The demo shop (issue 31 point 8), read from the run's seeded demo (test-database.ts copies it):
 * its catalogue, the month of stock whose levels, ledger and valuation agree, the low-stock list
 * it was arranged for, and a second seeding on a later day that changes nothing.
 */

let t: TestApp;
let shop: Caller;
let tenantId: string;

beforeAll(async () => {
  t = await buildTestApp({}, { demo: true });
  shop = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, DEMO_TEST_PASSWORD), 'demo-shop');
  tenantId = (await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-shop').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

/** What a seeding could change: the shop's rows counted. */
const counts = () =>
  withTenant(t.database.db, { tenantId }, async (trx) => {
    const count = async (table: 'products' | 'product_groups' | 'companies' | 'stock_movements' | 'stock_records' | 'locations') =>
      (await trx.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow())
        .n;
    return {
      products: await count('products'),
      groups: await count('product_groups'),
      companies: await count('companies'),
      movements: await count('stock_movements'),
      records: await count('stock_records'),
      locations: await count('locations'),
    };
  });

describe('the demo shop’s catalogue', () => {
  it('has about 150 products with their own codes, valid in-store EAN-13 barcodes and whole-shilling prices above cost', () => {
    const products = demoShopProducts();
    expect(products.length).toBeGreaterThanOrEqual(140);
    expect(products.length).toBeLessThanOrEqual(160);
    expect(new Set(products.map((p) => p.code)).size).toBe(products.length);
    // A real EAN-13 (4006381333931) checks out, and every demo barcode is 20… with its check digit.
    expect(ean13CheckDigit('400638133393')).toBe('1');
    expect(demoBarcode(96)).toBe('2000000000961');
    const barcodes = products.flatMap((p) => (p.barcode ? [p.barcode] : []));
    expect(new Set(barcodes).size).toBe(barcodes.length);
    for (const barcode of barcodes) {
      expect(barcode).toMatch(/^20\d{11}$/);
      expect(barcode.slice(12)).toBe(ean13CheckDigit(barcode.slice(0, 12)));
    }
    for (const p of products) {
      expect(Number.isInteger(p.price) && Number.isInteger(p.cost), p.code).toBe(true);
      expect(p.cost > 0 && p.cost < p.price, p.code).toBe(true);
      // The browser tests' own products are E2E-… with 60099… barcodes: none of the demo's.
      expect(p.code.startsWith('E2E')).toBe(false);
    }
    const services = products.filter((p) => p.kind === 'service');
    expect(services.length).toBeGreaterThan(0);
    expect(services.every((p) => p.barcode === null && p.reorder === 0)).toBe(true);
    expect(products.filter((p) => p.code.startsWith('EXB-')).every((p) => p.tax === 'EXEMPT')).toBe(true);
  });

  it('is in the shop with its groups, taxes, suppliers and customers', async () => {
    const rows = await withTenant(t.database.db, { tenantId }, (trx) =>
      trx
        .selectFrom('products as p')
        .innerJoin('taxes as x', (join) => join.onRef('x.tenant_id', '=', 'p.tenant_id').onRef('x.id', '=', 'p.tax_id'))
        .innerJoin('product_groups as g', (join) => join.onRef('g.tenant_id', '=', 'p.tenant_id').onRef('g.id', '=', 'p.group_id'))
        .select(['p.code', 'p.kind', 'p.track_stock', 'x.code as tax', 'g.name as group'])
        .where('p.tenant_id', '=', tenantId)
        .execute(),
    );
    expect(rows.length).toBe(demoShopProducts().length);
    expect(rows.find((row) => row.code === 'EXB-004')).toMatchObject({ tax: 'EXEMPT', group: 'Exercise books', track_stock: true });
    expect(rows.find((row) => row.code === 'SRV-001')).toMatchObject({ tax: 'VAT', kind: 'service', track_stock: false });
    const partners = await withTenant(t.database.db, { tenantId }, (trx) =>
      trx.selectFrom('companies').select(['name', 'role', 'tin', 'buyer_type']).where('tenant_id', '=', tenantId).execute(),
    );
    const suppliers = partners.filter((p) => p.role === 'supplier');
    expect(suppliers.length).toBeGreaterThanOrEqual(3);
    expect(suppliers.every((p) => /^\d{10}$/.test(p.tin ?? '') && p.buyer_type === 'b2b')).toBe(true);
    expect(partners.filter((p) => p.role === 'customer').map((p) => p.buyer_type)).toEqual(expect.arrayContaining(['b2c', 'government']));
  });
});

describe('the demo shop’s month of stock', () => {
  it('keeps its levels, ledger and valuation in agreement, never below zero, in two locations', async () => {
    const { locations } = await counts();
    expect(locations).toBe(2);
    const [levels, sums, valuations] = await withTenant(t.database.db, { tenantId }, async (trx) => [
      await trx
        .selectFrom('stock_levels')
        .select(['product_id', 'location_id', sql<string>`on_hand::text`.as('q')])
        .execute(),
      await trx
        .selectFrom('stock_records')
        .select(['product_id', 'location_id', sql<string>`sum(quantity)::text`.as('q')])
        .groupBy(['product_id', 'location_id'])
        .execute(),
      await trx
        .selectFrom('stock_valuations')
        .select(['product_id', sql<string>`quantity::text`.as('q')])
        .execute(),
    ]);
    const text = (rows: Array<{ product_id: string; location_id?: string; q: string }>) =>
      rows.map((row) => `${row.product_id}:${row.location_id ?? ''}=${new Decimal(row.q).toFixed()}`).sort();
    expect(levels.length).toBeGreaterThan(200);
    expect(text(levels)).toEqual(text(sums));
    expect(levels.every((row) => new Decimal(row.q).gte(0))).toBe(true);
    const totals = new Map<string, Decimal>();
    for (const row of levels) totals.set(row.product_id, (totals.get(row.product_id) ?? new Decimal(0)).plus(row.q));
    expect(text(valuations)).toEqual(text([...totals].map(([product_id, q]) => ({ product_id, q: q.toFixed() }))));

    const kinds = await withTenant(t.database.db, { tenantId }, (trx) =>
      trx.selectFrom('stock_movements').select(['kind', 'reason']).orderBy('occurred_on').orderBy('created_at').execute(),
    );
    // The month's sales and a restocked return come from its invoices and credit memo (demo-shop-sales.ts).
    expect(new Set(kinds.map((m) => m.kind))).toEqual(new Set(['opening', 'purchase', 'transfer', 'adjustment', 'sale', 'sale_return']));
    expect(kinds.map((m) => m.reason).filter(Boolean)).toEqual(['damaged', 'expired', 'damaged', 'count']);
  });

  it('shows the products it was arranged to leave short on the low-stock list, and a valuation', async () => {
    const low = await shop.get('/api/stockrecords/onhand?low=1&per_page=100');
    expect(low.statusCode, low.body).toBe(200);
    const codes = (low.json().products as Array<{ code: string }>).map((p) => p.code).sort();
    expect(codes).toEqual([...DEMO_SHOP_LOW].sort());
    const all = await shop.get('/api/stockrecords/onhand?per_page=1000');
    expect(
      all
        .json()
        .locations.map((l: { name: string }) => l.name)
        .sort(),
    ).toEqual(['Main store', 'Shop front']);
    const valuation = await shop.get('/api/stockrecords/valuation');
    expect(valuation.statusCode, valuation.body).toBe(200);
    expect(new Decimal(valuation.json().total_value).gt(0)).toBe(true);
    // The barcode the README names finds its product at the till; the fx-82 it names is low.
    expect(demoBarcode(4)).toBe('2000000000046');
    expect(codes).toContain('CAL-001');
    const found = await shop.get(`/api/stockrecords/lookup?code=${demoBarcode(4)}`);
    expect(found.json().product.code).toBe('EXB-004');
  });

  it('changes nothing when seeded again, even on a later day', async () => {
    const before = await counts();
    expect(before.products).toBe(demoShopProducts().length);
    const later = new Date(Date.now() + 9 * 86_400_000);
    await withTenant(t.database.db, { tenantId }, async (trx) => {
      const admin = await trx.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
      await seedDemoShop(trx, tenantId, admin.id, later);
    });
    expect(await counts()).toEqual(before);
    // The request ids are the movements' places in the month, not their days.
    const first = await withTenant(t.database.db, { tenantId }, (trx) =>
      trx
        .selectFrom('stock_movements')
        .select(['kind', 'occurred_on'])
        .where('request_id', '=', demoMovementRequestId(tenantId, 0))
        .execute(),
    );
    expect(first).toHaveLength(1);
    expect(first[0]?.kind).toBe('opening');
  });
});
