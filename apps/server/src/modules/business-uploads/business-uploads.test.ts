import { BUSINESS_MESSAGES, SUPERADMIN_ROLE, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * A business's uploads (issue 31 point 1) through the API, one app and one shop for the file:
 * the product list (created, the same file again unchanged, an edited price updated, bad rows
 * refused by row with nothing saved), opening stock (on hand and value, the same file twice
 * recorded once), a sheet too big, a school's 404 and a member without the ability's 403.
 */

let t: TestApp;
let shop: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let ownerToken: string;
let readerToken: string;
let store: { id: string };

const PRODUCT_HEADER = [
  'Code',
  'Barcode',
  'Name',
  'Group',
  'Kind',
  'Unit',
  'Fractional',
  'Price',
  'Cost',
  'Tax',
  'Track stock',
  'Reorder level',
  'Active',
  'Description',
];

async function workbook(header: string[], rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(token: string, tenantcode: string, buffer: Buffer, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(buffer)]), 'upload.xlsx');
  const request = new Request('http://mustard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      authorization: `Bearer ${token}`,
      [TENANT_HEADER]: tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const pen = (price: string) => [
  'PEN-1',
  '6001234567892',
  'Blue pen',
  'Pens and pencils',
  'goods',
  'piece',
  'no',
  price,
  '350',
  '',
  'yes',
  '10',
  'yes',
  null,
];
const book = [
  'EXB-96',
  null,
  'Exercise book 96 pages',
  'Exercise books',
  'goods',
  'piece',
  'no',
  '1200',
  '900',
  '',
  'yes',
  '20',
  'yes',
  'Ruled',
];
const printing = ['PRT-A4', null, 'Printing A4', 'Printing services', 'service', 'page', 'no', '200', '0', '', 'no', '0', 'yes', null];

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Upload Stationers', category: 'Retail' });
  school = await makeTenant(t.database);
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  ownerToken = await login(t.app, user.email);
  owner = caller(t.app, ownerToken, shop.tenantcode);
  const plain = await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [] }] });
  readerToken = await login(t.app, plain.email);
  const answer = await owner.post('/api/locations', { name: 'Store' });
  expect(answer.statusCode, answer.body).toBe(200);
  store = answer.json();
});
afterAll(() => t?.close());

const productsOf = () =>
  withTenant(t.database.db, { tenantId: shop.id }, (trx) =>
    trx.selectFrom('products').select(['code', 'price', 'kind', 'group_id']).where('tenant_id', '=', shop.id).orderBy('code').execute(),
  );

describe('the product list', () => {
  it('creates, then counts the same file unchanged, updates an edited price, refuses bad rows by row with nothing saved', async () => {
    const template = await owner.get('/api/uploads/template?kind=products');
    expect(template.statusCode, template.body).toBe(200);
    const loaded = new ExcelJS.Workbook();
    await loaded.xlsx.load(template.rawPayload as unknown as ExcelJS.Buffer);
    expect(loaded.worksheets[0]?.getRow(1).values).toEqual([undefined, ...PRODUCT_HEADER]);

    const file = await workbook(PRODUCT_HEADER, [pen('500'), book, printing]);
    const first = await upload(ownerToken, shop.tenantcode, file, { kind: 'products' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: BUSINESS_MESSAGES.uploaded, created: 3, updated: 0, unchanged: 0 });
    const products = await productsOf();
    expect(products.map((product) => product.code)).toEqual(['EXB-96', 'PEN-1', 'PRT-A4']);
    expect(products.find((product) => product.code === 'PRT-A4')?.kind).toBe('service');
    expect(new Set(products.map((product) => product.group_id)).size).toBe(3);

    const again = await upload(ownerToken, shop.tenantcode, file, { kind: 'products' });
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 3 });

    const edited = await upload(ownerToken, shop.tenantcode, await workbook(PRODUCT_HEADER, [pen('550'), book, printing]), {
      kind: 'products',
    });
    expect(edited.json()).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    expect((await productsOf()).find((product) => product.code === 'PEN-1')?.price).toMatch(/^550(\.0+)?$/);

    const bad = await upload(
      ownerToken,
      shop.tenantcode,
      await workbook(PRODUCT_HEADER, [
        ['NEW-1', null, 'New thing', 'A new group', 'goods', 'piece', 'no', '100', '50', '', 'yes', '0', 'yes', null],
        ['NEW-2', null, '', null, 'goods', 'piece', 'no', '100', '50', '', 'yes', '0', 'yes', null],
        ['NEW-3', null, 'Dear', null, 'goods', 'piece', 'no', 'much', '50', 'NOTAX', 'yes', '0', 'yes', null],
      ]),
      { kind: 'products' },
    );
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().message).toBe(BUSINESS_MESSAGES.sheetRowsInvalid);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['3.name', '4.price', '4.tax']);
    expect(bad.json().errors['4.tax']).toEqual([BUSINESS_MESSAGES.taxUnknown]);
    expect(await productsOf()).toHaveLength(3);
  });
});

describe('opening stock', () => {
  it('records the stock once for the same file, with the value at the costs given, errors by row', async () => {
    const header = ['Code', 'Quantity', 'Unit cost'];
    const file = await workbook(header, [
      ['PEN-1', '100', '350'],
      ['EXB-96', '40', '900'],
    ]);
    const fields = { kind: 'openingstock', location_id: store.id, occurred_on: '2026-11-01' };
    const first = await upload(ownerToken, shop.tenantcode, file, fields);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: 2, unchanged: 0 });
    const again = await upload(ownerToken, shop.tenantcode, file, fields);
    expect(again.json()).toMatchObject({ created: 0, unchanged: 2 });
    const kept = await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => ({
      levels: await trx
        .selectFrom('stock_levels')
        .innerJoin('products', 'products.id', 'stock_levels.product_id')
        .select(['products.code', 'stock_levels.on_hand'])
        .where('stock_levels.tenant_id', '=', shop.id)
        .orderBy('products.code')
        .execute(),
      values: await trx.selectFrom('stock_valuations').select(['value']).where('tenant_id', '=', shop.id).execute(),
      movements: await trx.selectFrom('stock_movements').select('id').where('tenant_id', '=', shop.id).execute(),
    }));
    expect(kept.levels.map((level) => [level.code, Number(level.on_hand)])).toEqual([
      ['EXB-96', 40],
      ['PEN-1', 100],
    ]);
    expect(kept.values.map((row) => String(row.value)).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^35000(\.0+)?$/), expect.stringMatching(/^36000(\.0+)?$/)]),
    );
    expect(kept.movements).toHaveLength(1);

    const bad = await upload(
      ownerToken,
      shop.tenantcode,
      await workbook(header, [
        ['PEN-1', '1.5', '350'],
        ['NOPE', '1', '1'],
        ['PRT-A4', '2', '0'],
      ]),
      {
        ...fields,
        occurred_on: '2026-11-02',
      },
    );
    expect(bad.statusCode, bad.body).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['3.code']);
    const ledgerRefusal = await upload(
      ownerToken,
      shop.tenantcode,
      await workbook(header, [
        ['PEN-1', '1.5', '350'],
        ['PRT-A4', '2', '0'],
      ]),
      {
        ...fields,
        occurred_on: '2026-11-02',
      },
    );
    expect(ledgerRefusal.statusCode, ledgerRefusal.body).toBe(422);
    expect(ledgerRefusal.json().errors['2.quantity']).toEqual([BUSINESS_MESSAGES.quantityWhole]);
  });
});

describe('bounds and who may upload', () => {
  it('refuses a sheet of more than 5,000 rows, a school and a member without the ability', async () => {
    const rows = Array.from({ length: 5001 }, (_, index) => [`X-${index}`, '1', '1']);
    const huge = await upload(ownerToken, shop.tenantcode, await workbook(['Code', 'Quantity', 'Unit cost'], rows), {
      kind: 'openingstock',
      location_id: store.id,
    });
    expect([413, 422]).toContain(huge.statusCode);
    // A shop's sheet is answered in a shop's words, not the school's "no learners".
    if (huge.statusCode === 422) expect(huge.json().message).toBe(BUSINESS_MESSAGES.sheetTooManyRows);
    for (const [header, kind] of [
      [PRODUCT_HEADER, 'products'],
      [['Code', 'Quantity', 'Unit cost'], 'openingstock'],
    ] as const) {
      const empty = await upload(ownerToken, shop.tenantcode, await workbook([...header], []), { kind, location_id: store.id });
      expect(empty.statusCode, empty.body).toBe(422);
      expect(empty.json().message).toBe(BUSINESS_MESSAGES.sheetEmpty);
    }
    const file = await workbook(PRODUCT_HEADER, [pen('500')]);
    expect((await upload(ownerToken, school.tenantcode, file, { kind: 'products' })).statusCode).toBe(404);
    expect((await upload(readerToken, shop.tenantcode, file, { kind: 'products' })).statusCode).toBe(403);
  });
});
