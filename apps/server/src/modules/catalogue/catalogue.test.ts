import {
  BUSINESS_MESSAGES,
  banks,
  companies,
  currencies,
  ERROR_MESSAGES,
  IN_USE_MESSAGES,
  INPUT_MESSAGES,
  productGroups,
  products,
  RESULT_MESSAGES,
  type ResourceDefinition,
  SETTINGS_MESSAGES,
  SUPERADMIN_ROLE,
  taxes,
  whduties,
} from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant, withTenantTx } from '../../db/tenant.js';
import { seedBusinessDefaults } from '../../seed/business-defaults.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { valuesOf, workbookOf } from '../settings/settings-fixtures.js';

/*
 * The business catalogue through the API (issue 31 points 1 to 3), one app and one shop for the
 * file: the Ugandan defaults every business starts with, each resource's create, read, update,
 * delete and list, exact money, the rules of products and currencies, search and the
 * spreadsheet, isolation between businesses, permissions, the wall against schools, bad input,
 * and the countries.
 */

type Row = Record<string, unknown> & { id: string };

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
/** The shop's owner (superadmin of the shop, of `other` and of `school`). */
let owner: Caller;
/** A storekeeper of the shop: receives stock, keeps no catalogue. */
let storekeeper: Caller;
/** The shop's VAT standard-rated tax and a tax of `other`. */
let vat: Row;
let otherTax: Row;
let otherGroup: Row;

let counter = 0;
const next = () => ++counter;

function ok(response: LightMyRequestResponse): Row {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field]).toEqual([message]);
}

const listOf = async (c: Caller, path: string, key: string, query = ''): Promise<Row[]> =>
  ok(await c.get(`${path}?per_page=100${query}`))[key] as Row[];

const newProduct = (c: Caller, fields: Record<string, unknown> = {}) => {
  const n = next();
  return c.post('/api/products', { code: `P-${n}`, name: `Product ${n}`, unit: 'piece', price: '1000', ...fields });
};

const countIn = (tenantId: string, table: 'currencies' | 'taxes' | 'whduties' | 'banks' | 'business_settings' | 'products') =>
  withTenant(t.database.db, { tenantId }, async (trx) =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  school = await makeTenant(t.database);
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const keeper = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: ['storekeeper'] }] });
  storekeeper = caller(t.app, await login(t.app, keeper.email), shop.tenantcode);
  vat = (await listOf(owner, '/api/taxes', 'taxes', '&search=VAT')).find((tax) => tax.code === 'VAT') as Row;
  otherTax = (await listOf(owner.in(other.tenantcode), '/api/taxes', 'taxes'))[0] as Row;
  otherGroup = ok(await owner.in(other.tenantcode).post('/api/productgroups', { name: 'Nails' }));
});
afterAll(() => t?.close());

describe('the Ugandan defaults of a business', () => {
  it('gives a new business UGX as its default currency, the VAT codes, withholding duties, banks and its settings', async () => {
    const money = await listOf(owner, '/api/currencies', 'currencies');
    expect(money[0]).toMatchObject({ code: 'UGX', decimals: 0, rate: '1', is_default: true });
    expect(money.filter((currency) => currency.is_default)).toHaveLength(1);
    expect(money.map((currency) => currency.code).sort()).toEqual(['EUR', 'GBP', 'KES', 'RWF', 'TZS', 'UGX', 'USD']);
    expect(money.find((currency) => currency.code === 'USD')).toMatchObject({ decimals: 2, is_default: false });
    expect(money.find((currency) => currency.code === 'RWF')).toMatchObject({ decimals: 0 });

    const vatCodes = await listOf(owner, '/api/taxes', 'taxes');
    expect(vatCodes.map(({ code, kind, rate, inclusive }) => ({ code, kind, rate, inclusive }))).toEqual([
      { code: 'DEEMED', kind: 'deemed', rate: '18', inclusive: true },
      { code: 'EXEMPT', kind: 'exempt', rate: '0', inclusive: true },
      { code: 'VAT', kind: 'standard', rate: '18', inclusive: true },
      { code: 'ZERO', kind: 'zero', rate: '0', inclusive: true },
    ]);
    const duties = await listOf(owner, '/api/whduties', 'whduties');
    expect(duties.find((duty) => duty.kind === 'income_tax')).toMatchObject({ rate: '6', threshold: '1000000' });
    expect(duties.find((duty) => duty.kind === 'vat')).toMatchObject({ rate: '6' });
    expect(duties.find((duty) => duty.kind === 'non_resident')).toMatchObject({ rate: '15' });

    const providers = await listOf(owner, '/api/banks', 'banks');
    expect(providers.find((bank) => bank.name === 'Stanbic Bank Uganda')).toMatchObject({ swift: 'SBICUGKX', kind: 'bank' });
    expect(providers.find((bank) => bank.name === 'Centenary Bank')).toMatchObject({ swift: 'CERBUGKA' });
    expect(providers.filter((bank) => bank.kind === 'mobile_money').map((bank) => bank.name)).toEqual(['Airtel Money', 'MTN Mobile Money']);

    const settings = await withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
      trx.selectFrom('business_settings').selectAll().executeTakeFirstOrThrow(),
    );
    expect(settings.allow_negative_stock).toBe(false);
  });

  it('is written again without a change (the demo seed run twice)', async () => {
    const before = await Promise.all(
      (['currencies', 'taxes', 'whduties', 'banks', 'business_settings'] as const).map((table) => countIn(shop.id, table)),
    );
    const summary = await withTenantTx(t.database.db, { tenantId: shop.id }, (tx) => seedBusinessDefaults(tx));
    expect(summary).toEqual({ currencies: before[0], taxes: before[1], whduties: before[2], banks: before[3] });
    expect(await countIn(shop.id, 'business_settings')).toBe(1);
  });

  it('comes with a business created through the API, and never with a school', async () => {
    const business = ok(
      await owner.post('/api/tenants', { name: 'Nakasero Hardware', tenantcode: `hw-${newId().slice(-8)}`, category: 'Services' }),
    );
    expect(await countIn(business.id, 'currencies')).toBe(7);
    expect(await countIn(business.id, 'taxes')).toBe(4);
    expect(await countIn(business.id, 'whduties')).toBe(3);
    expect(await countIn(business.id, 'banks')).toBeGreaterThanOrEqual(10);
    expect(await countIn(business.id, 'business_settings')).toBe(1);

    const newSchool = ok(
      await owner.post('/api/tenants', {
        name: 'Kitante Primary',
        tenantcode: `sc-${newId().slice(-8)}`,
        category: 'School',
        schooltype: 'primary',
      }),
    );
    for (const table of ['currencies', 'taxes', 'whduties', 'banks', 'business_settings'] as const)
      expect(await countIn(newSchool.id, table)).toBe(0);
  });
});

interface Fixture {
  definition: ResourceDefinition;
  bodies(): Promise<{ body: Record<string, unknown>; changed: Record<string, unknown>; shows: Record<string, unknown> }>;
}

const FIXTURES: Fixture[] = [
  {
    definition: currencies,
    bodies: async () => ({
      body: { code: 'cdf', name: 'Congolese Franc', symbol: 'FC', decimals: 2, rate: '1.3' },
      changed: { code: 'CDF', name: 'Congo Franc', symbol: null, decimals: 2, rate: '1.35' },
      shows: { code: 'CDF', rate: '1.3', is_default: false },
    }),
  },
  {
    definition: taxes,
    bodies: async () => ({
      body: { code: 'EXP', name: 'Exports', kind: 'zero', rate: '0' },
      changed: { code: 'EXP', name: 'Exports zero-rated', kind: 'zero', rate: '0', active: false },
      shows: { code: 'EXP', rate: '0', inclusive: true, active: true },
    }),
  },
  {
    definition: whduties,
    bodies: async () => ({
      body: { code: 'RENT', name: 'Rent withholding', kind: 'other', rate: '10.5', threshold: '250000.5' },
      changed: { code: 'RENT', name: 'Rent withholding', kind: 'other', rate: '12', threshold: '0', account: 'WHT payable' },
      shows: { rate: '10.5', threshold: '250000.5', account: null },
    }),
  },
  {
    definition: banks,
    bodies: async () => ({
      body: { name: 'Test Savings Bank', code: 'TSB', swift: 'testugka', kind: 'bank' },
      changed: { name: 'Test Savings Bank', code: 'TSB', swift: null, kind: 'bank', active: false },
      shows: { swift: 'TESTUGKA', active: true },
    }),
  },
  {
    definition: productGroups,
    bodies: async () => ({
      body: { name: 'Exercise books', tax_id: vat.id, description: 'Counter books and notebooks' },
      changed: { name: 'Books', tax_id: null, description: null },
      shows: { tax_id: vat.id, tax: { name: 'VAT standard 18%' } },
    }),
  },
  {
    definition: products,
    bodies: async () => {
      const group = ok(await owner.post('/api/productgroups', { name: `Pens ${next()}`, tax_id: vat.id }));
      return {
        body: {
          code: 'BIC-01',
          barcode: '6001234567890',
          name: 'Bic pen blue',
          group_id: group.id,
          unit: 'piece',
          price: '12500',
          cost: '9000',
          tax_id: vat.id,
        },
        changed: { code: 'BIC-01', barcode: null, name: 'Bic pen', group_id: null, unit: 'box', price: '13000', cost: '0', tax_id: null },
        shows: {
          price: '12500',
          cost: '9000',
          group: { name: group.name },
          tax: { name: 'VAT standard 18%' },
          kind: 'goods',
          track_stock: true,
          reorder_level: '0',
          active: true,
        },
      };
    },
  },
  {
    definition: companies,
    bodies: async () => ({
      body: {
        name: 'Kampala Paper Supplies',
        role: 'supplier',
        tin: '1000123456',
        buyer_type: 'b2b',
        credit_limit: '5000000',
        terms_days: 30,
      },
      changed: { name: 'Kampala Paper Supplies Ltd', role: 'both', tin: null, buyer_type: 'b2c', email: 'orders@paper.example' },
      shows: { credit_limit: '5000000', terms_days: 30, active: true },
    }),
  },
];

describe('each resource: create, read, update, list and delete', () => {
  it.each(FIXTURES.map((fixture) => [fixture.definition.name, fixture] as const))('%s', async (_name, { definition, bodies }) => {
    const { body, changed, shows } = await bodies();
    const created = ok(await owner.post(definition.path, body));
    expect(created).toMatchObject(shows);
    expect(ok(await owner.get(`${definition.path}/${created.id}`))).toEqual(created);

    const list = ok(await owner.get(`${definition.path}?per_page=100`));
    expect(list.totalRecords).toBeGreaterThanOrEqual(1);
    expect((list[definition.listKey] as Row[]).find((row) => row.id === created.id)).toEqual(created);

    const updated = ok(await owner.put(`${definition.path}/${created.id}`, changed));
    for (const [field, value] of Object.entries(changed)) if (!field.endsWith('_id')) expect(updated[field], field).toEqual(value);

    expect(ok(await owner.delete(`${definition.path}/${created.id}`))).toEqual({ message: RESULT_MESSAGES.deleted });
    expect((await owner.get(`${definition.path}/${created.id}`)).statusCode).toBe(404);
  });
});

describe('products: exact money and their rules', () => {
  it('keeps prices exact, in the default currency’s decimals (UGX: none)', async () => {
    const product = ok(await newProduct(owner, { price: '999999999999.0', cost: '0.0' }));
    expect(product).toMatchObject({ price: '999999999999', cost: '0' });
    refused(await newProduct(owner, { price: '500.5' }), 'price', BUSINESS_MESSAGES.amountTooPrecise);
    refused(await newProduct(owner, { cost: '0.01' }), 'cost', BUSINESS_MESSAGES.amountTooPrecise);
    refused(
      await owner.put(`/api/products/${product.id}`, { ...product, price: '1.5', group: undefined, tax: undefined, id: undefined }),
      'price',
      BUSINESS_MESSAGES.amountTooPrecise,
    );
  });

  it('stores a service without stock, a whole reorder level for whole units, and a group’s tax for a product without one', async () => {
    expect(ok(await newProduct(owner, { kind: 'service', track_stock: true, unit: 'hour' }))).toMatchObject({
      kind: 'service',
      track_stock: false,
    });
    refused(await newProduct(owner, { reorder_level: '2.5' }), 'reorder_level', BUSINESS_MESSAGES.quantityWhole);
    expect(ok(await newProduct(owner, { fractional: true, unit: 'kg', reorder_level: '2.5' }))).toMatchObject({ reorder_level: '2.5' });
    const group = ok(await owner.post('/api/productgroups', { name: `Rulers ${next()}`, tax_id: vat.id }));
    expect(ok(await newProduct(owner, { group_id: group.id }))).toMatchObject({ tax_id: vat.id, tax: { name: 'VAT standard 18%' } });
  });

  it('refuses a duplicate code or barcode on its own field, and the same create twice at once saves one', async () => {
    const first = ok(await newProduct(owner, { barcode: `BC${next()}` }));
    refused(await newProduct(owner, { code: first.code }), 'code', BUSINESS_MESSAGES.codeTaken);
    refused(await newProduct(owner, { barcode: first.barcode }), 'barcode', BUSINESS_MESSAGES.barcodeTaken);
    const body = { code: `TWICE-${next()}`, name: 'Twice', unit: 'piece', price: '100' };
    const answers = await Promise.all([owner.post('/api/products', body), owner.post('/api/products', body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    expect((answers.find((answer) => answer.statusCode === 422) as LightMyRequestResponse).json().errors).toEqual({
      code: [BUSINESS_MESSAGES.codeTaken],
    });
    expect(await listOf(owner, '/api/products', 'products', `&search=${body.code}`)).toHaveLength(1);
  });

  it('refuses to delete a product with stock movements, and a tax products use', async () => {
    const product = ok(await newProduct(owner, { tax_id: vat.id }));
    await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
      const location = newId();
      const movement = newId();
      await trx
        .insertInto('locations')
        .values({ tenant_id: shop.id, id: location, name: `Shop ${next()}` })
        .execute();
      await trx
        .insertInto('stock_movements')
        .values({
          tenant_id: shop.id,
          id: movement,
          request_id: newId(),
          kind: 'opening',
          location_id: location,
          occurred_on: '2026-11-01',
        })
        .execute();
      await trx
        .insertInto('stock_records')
        .values({
          tenant_id: shop.id,
          id: newId(),
          movement_id: movement,
          line: 0,
          product_id: product.id,
          location_id: location,
          kind: 'opening',
          quantity: '5',
          unit_cost: '800',
          occurred_on: '2026-11-01',
        })
        .execute();
    });
    const response = await owner.delete(`/api/products/${product.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(IN_USE_MESSAGES.products);
    expect((await owner.delete(`/api/taxes/${vat.id}`)).json().message).toBe(IN_USE_MESSAGES.taxes);
  });
});

describe('currencies: always one default', () => {
  it('moves the default, refuses to drop or delete it, and keeps USD amounts exact', async () => {
    const all = await listOf(owner, '/api/currencies', 'currencies');
    const ugx = all.find((currency) => currency.code === 'UGX') as Row;
    const usd = all.find((currency) => currency.code === 'USD') as Row;
    const body = (row: Row, changes: Record<string, unknown>) => {
      const { code, name, symbol, decimals, rate, is_default } = row;
      return { code, name, symbol, decimals, rate, is_default, ...changes };
    };
    expect(ok(await owner.put(`/api/currencies/${usd.id}`, body(usd, { is_default: true })))).toMatchObject({ is_default: true });
    const after = await listOf(owner, '/api/currencies', 'currencies');
    expect(after.filter((currency) => currency.is_default).map((currency) => currency.code)).toEqual(['USD']);

    // USD has cents: 0.1 + 0.2 is 0.3, exactly.
    const product = ok(await newProduct(owner, { price: '0.30', cost: '0.1' }));
    expect(product).toMatchObject({ price: '0.3', cost: '0.1' });
    expect(ok(await newProduct(owner, { price: '1234567890.99' }))).toMatchObject({ price: '1234567890.99' });
    refused(await newProduct(owner, { price: '0.125' }), 'price', BUSINESS_MESSAGES.amountTooPrecise);

    refused(
      await owner.put(`/api/currencies/${usd.id}`, body(usd, { is_default: false })),
      'is_default',
      BUSINESS_MESSAGES.defaultCurrencyKept,
    );
    const removal = await owner.delete(`/api/currencies/${usd.id}`);
    expect(removal.statusCode).toBe(409);
    expect(removal.json().message).toBe(BUSINESS_MESSAGES.defaultCurrencyInUse);

    // Two made the default at once: one default after, every answer a clean one.
    const answers = await Promise.all([
      owner.put(`/api/currencies/${ugx.id}`, body(ugx, { is_default: true })),
      owner.put(
        `/api/currencies/${(all.find((currency) => currency.code === 'EUR') as Row).id}`,
        body(all.find((currency) => currency.code === 'EUR') as Row, { is_default: true }),
      ),
    ]);
    for (const answer of answers) expect([200, 422], answer.body).toContain(answer.statusCode);
    expect((await listOf(owner, '/api/currencies', 'currencies')).filter((currency) => currency.is_default)).toHaveLength(1);
    // Back to UGX for the rest of the file.
    ok(await owner.put(`/api/currencies/${ugx.id}`, body(ugx, { is_default: true })));
    expect((await listOf(owner, '/api/currencies', 'currencies'))[0]).toMatchObject({ code: 'UGX', is_default: true });
  });
});

describe('search and the spreadsheet', () => {
  it('finds a product by name, code and barcode, and exports the list as .xlsx', async () => {
    const n = next();
    const product = ok(await newProduct(owner, { code: `ZQ-${n}`, barcode: `99887766${n}`, name: `Pelikan ink ${n}`, price: '12500' }));
    for (const search of [`pelikan ink ${n}`, `zq-${n}`, `99887766${n}`])
      expect((await listOf(owner, '/api/products', 'products', `&search=${encodeURIComponent(search)}`)).map((row) => row.id)).toEqual([
        product.id,
      ]);

    const sheet = await workbookOf(await owner.get(`/api/products?excel=1&search=${encodeURIComponent(`ZQ-${n}`)}`));
    const rows = valuesOf(sheet, products.exportColumns.length);
    expect(rows[0]).toEqual(products.exportColumns.map(([, header]) => header));
    expect(rows.slice(1)).toHaveLength(1);
    const cell = (header: string) => (rows[1] as unknown[])[products.exportColumns.findIndex(([, name]) => name === header)];
    expect([cell('Code'), cell('Barcode'), cell('Name'), String(cell('Price'))]).toEqual([
      `ZQ-${n}`,
      `99887766${n}`,
      `Pelikan ink ${n}`,
      '12500',
    ]);
  });
});

describe('isolation, permissions and the wall against schools', () => {
  it('answers 404 for another business’s records and refuses its groups and taxes by field', async () => {
    const theirs = ok(await newProduct(owner.in(other.tenantcode)));
    for (const answer of [
      await owner.get(`/api/products/${theirs.id}`),
      await owner.put(`/api/products/${theirs.id}`, { code: 'X', name: 'X', unit: 'piece', price: '1' }),
      await owner.delete(`/api/products/${theirs.id}`),
      await owner.get(`/api/productgroups/${otherGroup.id}`),
      await owner.delete(`/api/taxes/${otherTax.id}`),
    ])
      expect(answer.statusCode).toBe(404);
    expect(ok(await owner.in(other.tenantcode).get(`/api/products/${theirs.id}`)).name).toBe(theirs.name);
    expect((await listOf(owner, '/api/products', 'products', `&search=${theirs.code}`)).map((row) => row.id)).not.toContain(theirs.id);

    refused(await newProduct(owner, { group_id: otherGroup.id }), 'group_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await newProduct(owner, { tax_id: otherTax.id }), 'tax_id', SETTINGS_MESSAGES.referenceMissing);
    refused(await newProduct(owner, { tax_id: newId() }), 'tax_id', SETTINGS_MESSAGES.referenceMissing);
    refused(
      await owner.post('/api/productgroups', { name: `G ${next()}`, tax_id: otherTax.id }),
      'tax_id',
      SETTINGS_MESSAGES.referenceMissing,
    );
  });

  it('lets every member read and only those with the ability write', async () => {
    expect((await storekeeper.get('/api/products')).statusCode).toBe(200);
    for (const [path, body] of [
      ['/api/products', { code: 'S-1', name: 'S', unit: 'piece', price: '1' }],
      ['/api/currencies', { code: 'ZAR', name: 'Rand', decimals: 2, rate: '200' }],
      ['/api/companies', { name: 'Someone', role: 'customer' }],
    ] as const) {
      const response = await storekeeper.post(path, body);
      expect(response.statusCode, path).toBe(403);
    }
  });

  it('answers a school 404 on every catalogue route, and lists the countries for both', async () => {
    for (const definition of [currencies, taxes, whduties, banks, productGroups, products, companies]) {
      const response = await owner.in(school.tenantcode).get(definition.path);
      expect(response.statusCode, definition.path).toBe(404);
      expect(response.json().message).toBe(ERROR_MESSAGES[404]);
    }
    for (const c of [owner, owner.in(school.tenantcode)]) {
      const { countries, totalRecords } = ok(await c.get('/api/countries')) as unknown as { countries: Row[]; totalRecords: number };
      expect(totalRecords).toBe(countries.length);
      expect(totalRecords).toBeGreaterThanOrEqual(195);
      expect(countries).toContainEqual({ code: 'UG', group: 'U', name: 'Uganda' });
      expect(countries.every((country) => /^[A-Z]$/.test(String(country.group)) && /^[A-Z]{2}$/.test(String(country.code)))).toBe(true);
    }
  });
});

describe('bad input', () => {
  it('names the field of every bad value, and saves nothing', async () => {
    const before = await countIn(shop.id, 'products');
    refused(await newProduct(owner, { price: true }), 'price', BUSINESS_MESSAGES.amountInvalid);
    refused(await newProduct(owner, { price: '-1' }), 'price', BUSINESS_MESSAGES.amountInvalid);
    refused(await newProduct(owner, { price: 'abc' }), 'price', BUSINESS_MESSAGES.amountInvalid);
    refused(await owner.post('/api/products', { code: 'NO-NAME', unit: 'piece', price: '1' }), 'name', SETTINGS_MESSAGES.nameRequired);
    expect((await newProduct(owner, { name: 'x'.repeat(10_000) })).json().errors.name).toBeDefined();
    expect((await newProduct(owner, { description: 'x'.repeat(10_000) })).json().errors.description).toBeDefined();
    refused(await newProduct(owner, { name: 'Ink\u0000pad' }), 'name', INPUT_MESSAGES.textInvalid);
    refused(await newProduct(owner, { barcode: '600 123' }), 'barcode', BUSINESS_MESSAGES.barcodeInvalid);
    refused(await newProduct(owner, { group_id: 'not-an-id' }), 'group_id', expect.any(String) as unknown as string);
    expect((await newProduct(owner, { track_stock: 'yes' })).statusCode).toBe(422);
    expect((await newProduct(owner, { extra: 1 })).statusCode).toBe(422);
    refused(
      await owner.post('/api/currencies', { code: 'US', name: 'Bad', decimals: 2, rate: '1' }),
      'code',
      BUSINESS_MESSAGES.currencyCodeInvalid,
    );
    refused(
      await owner.post('/api/currencies', { code: 'XAU', name: 'Gold', decimals: 9, rate: '1' }),
      'decimals',
      BUSINESS_MESSAGES.decimalsInvalid,
    );
    refused(
      await owner.post('/api/taxes', { code: 'BIG', name: 'Big', kind: 'standard', rate: '101' }),
      'rate',
      BUSINESS_MESSAGES.rateInvalid,
    );
    refused(
      await owner.post('/api/companies', { name: 'Ministry', role: 'customer', buyer_type: 'government' }),
      'tin',
      BUSINESS_MESSAGES.tinRequired,
    );
    refused(await owner.post('/api/banks', { name: 'Bad SWIFT', kind: 'bank', swift: 'ABC' }), 'swift', BUSINESS_MESSAGES.swiftInvalid);
    // A second record of the same code or name, on the field that is the same.
    refused(
      await owner.post('/api/currencies', { code: 'ugx', name: 'Shilling again', decimals: 0, rate: '1' }),
      'code',
      SETTINGS_MESSAGES.duplicate,
    );
    refused(
      await owner.post('/api/taxes', { code: 'VAT', name: 'VAT again', kind: 'standard', rate: '18' }),
      'code',
      SETTINGS_MESSAGES.duplicate,
    );
    refused(await owner.post('/api/banks', { name: 'Centenary Bank', kind: 'bank' }), 'name', SETTINGS_MESSAGES.duplicate);
    expect(await countIn(shop.id, 'products')).toBe(before);
  });
});
