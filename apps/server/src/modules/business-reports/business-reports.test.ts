import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { INPUT_MESSAGES, BUSINESS_REPORT_MESSAGES as M, SUPERADMIN_ROLE } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * The shop's daily reports through the API (issue 32 point 8), on both databases: a small
 * October of a stationer (a counter sale paid in cash, an invoice part-paid by MTN MoMo with the
 * rest kept as an advance, a return on a credit memo, an invoice paid by Airtel Money, a paid
 * voucher for rent and electricity), every figure worked by hand below and asserted in the JSON,
 * in the workbook read back and in the PDF read back with pdftotext. Another shop sees none of
 * it; a cashier and a storekeeper are refused; a school is told the reports are a business's.
 *
 * The documents are written as migration 0028's rows in the shop's own transaction (under its
 * RLS), as the invoice, receipt, memo and voucher services of this issue leave them.
 *
 * October, in UGX:
 *   INV-000001 2 Oct counter sale: 2 pens x 5,900 (VAT A 18%: 1,800, net 10,000; cost 2 x 3,000),
 *     paid by RCT-000001 cash 11,800 (Agnes).
 *   INV-000002 5 Oct Kato Traders, due 20 Oct: 10 pens x 5,900 = 59,000 (VAT 9,000, net 50,000;
 *     cost 30,000) + 20 exercise books x 1,000 exempt (C) = 20,000 (cost 20 x 600 = 12,000):
 *     gross 79,000. RCT-000002 MTN MoMo 50,000 on 10 Oct (Brian, ref MP241010.1234.A12345):
 *     40,000 to INV-000002, 10,000 an advance. CN-000001 12 Oct: one pen back to stock, 5,900
 *     (VAT 900, net 5,000; cost 3,000).
 *   INV-000003 25 Oct Kato Traders, due 24 Nov: 4 pens = 23,600 (VAT 3,600, net 20,000; cost
 *     12,000). RCT-000003 Airtel Money 3,600 on 26 Oct (Agnes, ref AM-7781), all to INV-000003.
 *   A draft invoice of 15 Oct, and INV-000004 of 3 Nov (5,900, due 3 Dec): not October's.
 *   PV-000001 paid 20 Oct: rent 300,000 and electricity 118,000 with VAT 18,000. PV-000002
 *     approved, not paid (50,000 rent): not counted.
 */

const run = promisify(execFile);

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'business-report-'));
  try {
    const file = path.join(folder, 'report.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 16 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Every row of the workbook's first sheet, cells as values (empty as null). */
async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => {
    rows.push(Array.from((row.values as unknown[]).slice(1), (value) => value ?? null));
  });
  return rows;
}

/** The row of the sheet whose first cell is `label`, after the row whose first cell is `after`. */
function rowOf(rows: unknown[][], label: string, after?: string): unknown[] | undefined {
  const start = after ? rows.findIndex((row) => row[0] === after) : 0;
  return rows.slice(Math.max(0, start)).find((row) => row[0] === label);
}

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, field: string, message: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().errors[field]).toEqual([message]);
}

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let manager: Caller;
let cashier: Caller;
let storekeeper: Caller;
let agnes: string;
let brian: string;

const OCTOBER = 'from=2026-10-01&to=2026-10-31';

/**
 * A numeric column's value as its Kysely type takes it: sales-types.ts types the columns with a
 * default as Generated<Numeric>, a column type within a column type, whose insert type is not text.
 */
const numeric = (value: string) => value as never;

/** October's documents written into a shop as the services of issue 32 leave them. */
async function seedOctober(tenantId: string, c: Caller) {
  const made = (response: LightMyRequestResponse) => ok(response) as { id: string };
  const store = made(await c.post('/api/locations', { name: 'Shop floor' }));
  const kato = made(await c.post('/api/companies', { name: 'Kato Traders', role: 'customer' }));
  const walkIn = made(await c.post('/api/companies', { name: 'Walk-in customer', role: 'customer' }));
  const pen = made(await c.post('/api/products', { code: `PEN-${newId().slice(-6)}`, name: 'Blue pen', unit: 'piece', price: '5900' }));
  const book = made(
    await c.post('/api/products', { code: `BK-${newId().slice(-6)}`, name: 'Exercise book', unit: 'piece', price: '1000' }),
  );
  await withTenant(t.database.db, { tenantId }, async (trx) => {
    const account = async (code: string, name: string, type: 'asset' | 'expense', subtype: 'cash' | 'mobile_money' | 'expense') => {
      const id = newId();
      await trx.insertInto('accounts').values({ tenant_id: tenantId, id, code, name, type, subtype }).execute();
      return id;
    };
    const cash = await account('X-1000', 'Cash at hand', 'asset', 'cash');
    const momo = await account('X-1020', 'MTN MoMo', 'asset', 'mobile_money');
    const rent = await account('X-6100', 'Rent', 'expense', 'expense');
    const power = await account('X-6200', 'Electricity', 'expense', 'expense');

    type Line = {
      product: string;
      quantity: string;
      price: string;
      code: string | null;
      kind: 'standard' | 'exempt' | null;
      rate: string;
      gross: string;
      tax: string;
      net: string;
      cost: string;
    };
    const penLine = (quantity: number): Line => {
      const gross = 5900 * quantity;
      const tax = (gross * 18) / 118;
      return {
        product: pen.id,
        quantity: String(quantity),
        price: '5900',
        code: 'A',
        kind: 'standard',
        rate: '18',
        gross: String(gross),
        tax: String(tax),
        net: String(gross - tax),
        cost: '3000',
      };
    };
    const bookLine = (quantity: number): Line => ({
      product: book.id,
      quantity: String(quantity),
      price: '1000',
      code: 'C',
      kind: 'exempt',
      rate: '0',
      gross: String(1000 * quantity),
      tax: '0',
      net: String(1000 * quantity),
      cost: '600',
    });
    const invoice = async (
      fields: { number: string | null; customer: string; issued: string; due: string; kind?: 'cash_sale' },
      lines: Line[],
    ) => {
      const id = newId();
      const total = (key: 'gross' | 'tax' | 'net') => String(lines.reduce((sum, line) => sum + Number(line[key]), 0));
      await trx
        .insertInto('invoices')
        .values({
          tenant_id: tenantId,
          id,
          request_id: newId(),
          kind: fields.kind ?? 'invoice',
          status: fields.number ? 'issued' : 'draft',
          number: fields.number,
          customer_id: fields.customer,
          location_id: store.id,
          currency_code: 'UGX',
          currency_decimals: 0,
          issued_on: fields.issued,
          due_on: fields.due,
          gross_total: numeric(total('gross')),
          tax_total: numeric(total('tax')),
          net_total: numeric(total('net')),
        })
        .execute();
      await trx
        .insertInto('invoice_lines')
        .values(
          lines.map((line, index) => ({
            tenant_id: tenantId,
            invoice_id: id,
            line: index,
            product_id: line.product,
            quantity: line.quantity,
            unit_price: line.price,
            tax_code: line.code,
            tax_kind: line.kind,
            tax_rate: numeric(line.rate),
            gross: numeric(line.gross),
            tax: numeric(line.tax),
            net: numeric(line.net),
            unit_cost: numeric(line.cost),
          })),
        )
        .execute();
      return id;
    };
    const receipt = async (
      fields: {
        number: string;
        customer: string;
        on: string;
        method: 'cash' | 'mtn_momo' | 'airtel_money';
        reference?: string;
        amount: string;
        by: string;
      },
      allocations: Array<[invoiceId: string, amount: string]>,
    ) => {
      const id = newId();
      await trx
        .insertInto('receipts')
        .values({
          tenant_id: tenantId,
          id,
          request_id: newId(),
          number: fields.number,
          customer_id: fields.customer,
          received_on: fields.on,
          method: fields.method,
          reference: fields.reference ?? null,
          account_id: fields.method === 'cash' ? cash : momo,
          currency_code: 'UGX',
          amount: fields.amount,
          created_by: fields.by,
        })
        .execute();
      for (const [invoiceId, amount] of allocations)
        await trx
          .insertInto('receipt_allocations')
          .values({ tenant_id: tenantId, id: newId(), receipt_id: id, invoice_id: invoiceId, amount, allocated_on: fields.on })
          .execute();
    };

    const sale = await invoice({ number: 'INV-000001', customer: walkIn.id, issued: '2026-10-02', due: '2026-10-02', kind: 'cash_sale' }, [
      penLine(2),
    ]);
    await receipt({ number: 'RCT-000001', customer: walkIn.id, on: '2026-10-02', method: 'cash', amount: '11800', by: agnes }, [
      [sale, '11800'],
    ]);
    const second = await invoice({ number: 'INV-000002', customer: kato.id, issued: '2026-10-05', due: '2026-10-20' }, [
      penLine(10),
      bookLine(20),
    ]);
    await receipt(
      {
        number: 'RCT-000002',
        customer: kato.id,
        on: '2026-10-10',
        method: 'mtn_momo',
        reference: 'MP241010.1234.A12345',
        amount: '50000',
        by: brian,
      },
      [[second, '40000']],
    );
    const memo = newId();
    await trx
      .insertInto('memos')
      .values({
        tenant_id: tenantId,
        id: memo,
        request_id: newId(),
        number: 'CN-000001',
        kind: 'credit',
        invoice_id: second,
        reason_code: 'return',
        reason: 'One pen returned unused',
        restock: true,
        location_id: store.id,
        issued_on: '2026-10-12',
        currency_code: 'UGX',
        net_total: numeric('5000'),
        tax_total: numeric('900'),
        gross_total: '5900',
      })
      .execute();
    await trx
      .insertInto('memo_lines')
      .values({
        tenant_id: tenantId,
        memo_id: memo,
        line: 0,
        invoice_line: 0,
        invoice_id: second,
        product_id: pen.id,
        quantity: '1',
        unit_price: '5900',
        tax_code: 'A',
        tax_kind: 'standard',
        tax_rate: numeric('18'),
        gross: '5900',
        tax: numeric('900'),
        net: numeric('5000'),
        unit_cost: numeric('3000'),
      })
      .execute();
    const third = await invoice({ number: 'INV-000003', customer: kato.id, issued: '2026-10-25', due: '2026-11-24' }, [penLine(4)]);
    await receipt(
      {
        number: 'RCT-000003',
        customer: kato.id,
        on: '2026-10-26',
        method: 'airtel_money',
        reference: 'AM-7781',
        amount: '3600',
        by: agnes,
      },
      [[third, '3600']],
    );
    await invoice({ number: null, customer: kato.id, issued: '2026-10-15', due: '2026-10-30' }, [penLine(100)]);
    await invoice({ number: 'INV-000004', customer: kato.id, issued: '2026-11-03', due: '2026-12-03' }, [penLine(1)]);

    const voucher = async (
      number: string,
      status: 'approved' | 'paid',
      lines: Array<[account: string, description: string, amount: string, tax: string]>,
    ) => {
      const id = newId();
      const gross = lines.reduce((sum, line) => sum + Number(line[2]), 0);
      await trx
        .insertInto('vouchers')
        .values({
          tenant_id: tenantId,
          id,
          request_id: newId(),
          number,
          status,
          payee_name: 'Nakasero Properties',
          method: 'cash',
          account_id: cash,
          voucher_on: '2026-10-19',
          currency_code: 'UGX',
          gross_total: numeric(String(gross)),
          tax_total: numeric(String(lines.reduce((sum, line) => sum + Number(line[3]), 0))),
          net_paid: numeric(String(gross)),
          prepared_by: agnes,
          approved_by: brian,
          approved_at: new Date(),
          ...(status === 'paid' ? { paid_by: agnes, paid_at: new Date(), paid_on: '2026-10-20' } : {}),
        })
        .execute();
      await trx
        .insertInto('voucher_lines')
        .values(
          lines.map(([account_id, description, amount, tax], line) => ({
            tenant_id: tenantId,
            voucher_id: id,
            line,
            account_id,
            description,
            amount,
            tax: numeric(tax),
          })),
        )
        .execute();
    };
    await voucher('PV-000001', 'paid', [
      [rent, 'Rent for October', '300000', '0'],
      [power, 'Umeme token', '118000', '18000'],
    ]);
    await voucher('PV-000002', 'approved', [[rent, 'Rent deposit', '50000', '0']]);
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Kikuubo Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  school = await makeTenant(t.database, { name: 'Mengo Primary' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: other.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  owner = caller(t.app, await login(t.app, user.email), shop.tenantcode);
  const as = async (name: string, roles: string[]) => {
    const member = await makeUser(t.database, { name, memberOf: [{ tenantId: shop.id, roles }] });
    return { id: member.id, caller: caller(t.app, await login(t.app, member.email), shop.tenantcode) };
  };
  manager = (await as('Grace Manager', ['manager'])).caller;
  const first = await as('Agnes Namata', ['cashier']);
  agnes = first.id;
  cashier = first.caller;
  brian = (await as('Brian Okello', ['cashier'])).id;
  storekeeper = (await as('Sam Store', ['storekeeper'])).caller;
  await seedOctober(shop.id, owner);
}, 60_000);
afterAll(() => t?.close());

describe('the cash-up', () => {
  it('sums October by payment method per day and per cashier, with the mobile-money receipts to check', async () => {
    const report = ok(await manager.get(`/api/business/reports/cashup?${OCTOBER}`));
    expect(report.days.map((day: { day: string; count: number; amount: string }) => [day.day, day.count, day.amount])).toEqual([
      ['2026-10-02', 1, '11800'],
      ['2026-10-10', 1, '50000'],
      ['2026-10-26', 1, '3600'],
    ]);
    expect(report.days[1].methods.mtn_momo).toEqual({ count: 1, amount: '50000' });
    // 11,800 + 50,000 + 3,600 = 65,400 in three receipts.
    expect(report.totals).toHaveLength(1);
    expect(report.totals[0]).toMatchObject({ currency_code: 'UGX', count: 3, amount: '65400' });
    expect(report.totals[0].methods).toMatchObject({
      cash: { count: 1, amount: '11800' },
      mtn_momo: { count: 1, amount: '50000' },
      airtel_money: { count: 1, amount: '3600' },
      bank: { count: 0, amount: '0' },
    });
    // Agnes: 11,800 cash + 3,600 Airtel = 15,400; Brian 50,000 MoMo.
    expect(report.cashiers.map((row: { name: string; count: number; amount: string }) => [row.name, row.count, row.amount])).toEqual([
      ['Agnes Namata', 2, '15400'],
      ['Brian Okello', 1, '50000'],
    ]);
    expect(
      report.mobile_money.map((row: Record<string, string>) => [row.number, row.method, row.reference, row.amount, row.customer_name]),
    ).toEqual([
      ['RCT-000002', 'mtn_momo', 'MP241010.1234.A12345', '50000', 'Kato Traders'],
      ['RCT-000003', 'airtel_money', 'AM-7781', '3600', 'Kato Traders'],
    ]);
    // One day alone.
    const day = ok(await manager.get('/api/business/reports/cashup?from=2026-10-10&to=2026-10-10'));
    expect(day.totals[0]).toMatchObject({ count: 1, amount: '50000' });
  });

  it('answers the same figures as a workbook and a PDF', async () => {
    const excel = await manager.get(`/api/business/reports/cashup?${OCTOBER}&excel=1`);
    expect(excel.statusCode, excel.body).toBe(200);
    expect(excel.headers['content-disposition']).toBe('attachment; filename="cashup-2026-10-01-2026-10-31.xlsx"');
    const rows = await sheetRows(excel.rawPayload);
    expect(rows[0]).toEqual(['Kikuubo Stationers']);
    expect(rowOf(rows, 'Day')).toEqual(['Day', 'Cash', 'MTN MoMo', 'Airtel Money', 'Bank', 'Cheque', 'Card', 'Receipts', 'Total']);
    expect(rowOf(rows, '2026-10-02')).toEqual(['2026-10-02', 11800, 0, 0, 0, 0, 0, 1, 11800]);
    expect(rowOf(rows, 'Total')).toEqual(['Total', 11800, 50000, 3600, 0, 0, 0, 3, 65400]);
    expect(rowOf(rows, 'Agnes Namata')).toEqual(['Agnes Namata', 11800, 0, 3600, 0, 0, 0, 2, 15400]);
    expect(rowOf(rows, '2026-10-10', 'Mobile money check')).toEqual([
      '2026-10-10',
      'RCT-000002',
      'MTN MoMo',
      'MP241010.1234.A12345',
      'Kato Traders',
      'Brian Okello',
      50000,
    ]);

    const pdf = await manager.get(`/api/business/reports/cashup?${OCTOBER}&pdf=1`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="cashup-2026-10-01-2026-10-31.pdf"');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Kikuubo Stationers');
    expect(text).toContain('Cash-up 2026-10-01 to 2026-10-31');
    expect(text).toMatch(/Total\s+11,800\s+50,000\s+3,600\s+0\s+0\s+0\s+3\s+65,400/);
    expect(text).toMatch(/Agnes Namata\s+11,800\s+0\s+3,600\s+0\s+0\s+0\s+2\s+15,400/);
    // A PDF asked with the spreadsheet flag too (the web's download of a spreadsheet contract) is the PDF.
    expect((await manager.get(`/api/business/reports/cashup?${OCTOBER}&excel=1&pdf=1`)).headers['content-type']).toBe('application/pdf');
    expect(text).toMatch(/RCT-000002\s+MTN MoMo\s+MP241010\.1234\.A12345\s+Kato Traders\s+Brian Okello\s+50,000/);
  });
});

describe('debtors with aging', () => {
  it('ages what is left on each invoice on the day, with the advance kept from the MoMo receipt', async () => {
    const report = ok(await manager.get('/api/business/reports/debtors?date=2026-11-30'));
    expect(report.customers.map((row: { name: string }) => row.name)).toEqual(['Kato Traders']);
    const [kato] = report.customers;
    // INV-000002: 79,000 - 5,900 credited - 40,000 paid = 33,100, 41 days past 20 Oct;
    // INV-000003: 23,600 - 3,600 = 20,000, 6 days past 24 Nov; INV-000004: 5,900 not yet due.
    expect(kato.invoices.map((row: Record<string, unknown>) => [row.number, row.days_overdue, row.bucket, row.balance])).toEqual([
      ['INV-000002', 41, '31_60', '33100'],
      ['INV-000003', 6, '1_30', '20000'],
      ['INV-000004', 0, 'current', '5900'],
    ]);
    // Owed 59,000; advance 53,600 received - 43,600 allocated = 10,000; net 49,000.
    expect(kato).toMatchObject({
      buckets: { current: '5900', '1_30': '20000', '31_60': '33100', '61_90': '0', over_90: '0' },
      total: '59000',
      advance: '10000',
      net: '49000',
    });
    expect(report.totals).toEqual([{ currency_code: 'UGX', buckets: kato.buckets, total: '59000', advance: '10000', net: '49000' }]);
  });

  it('reads the books as they stood on an earlier day', async () => {
    // 15 Oct: INV-000002 has its memo and MoMo payment, not yet due; INV-000003 and RCT-000003 are later.
    const report = ok(await manager.get('/api/business/reports/debtors?date=2026-10-15'));
    expect(report.customers[0]).toMatchObject({ name: 'Kato Traders', total: '33100', advance: '10000', net: '23100' });
    expect(report.customers[0].buckets.current).toBe('33100');
    // Before any sale: nobody owes anything.
    expect(ok(await manager.get('/api/business/reports/debtors?date=2026-10-01')).customers).toEqual([]);
  });

  it('answers a workbook and a PDF with the same buckets', async () => {
    const rows = await sheetRows((await manager.get('/api/business/reports/debtors?date=2026-11-30&excel=1')).rawPayload);
    expect(rowOf(rows, 'Customer')).toEqual([
      'Customer',
      'Current',
      '1-30 days',
      '31-60 days',
      '61-90 days',
      'Over 90 days',
      'Owed',
      'Advances',
      'Net',
    ]);
    expect(rowOf(rows, 'Kato Traders')).toEqual(['Kato Traders', 5900, 20000, 33100, 0, 0, 59000, 10000, 49000]);
    expect(rowOf(rows, 'Kato Traders', 'Open invoices')).toEqual([
      'Kato Traders',
      'INV-000002',
      '2026-10-05',
      '2026-10-20',
      41,
      '31-60 days',
      33100,
    ]);
    const pdf = await manager.get('/api/business/reports/debtors?date=2026-11-30&pdf=1');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="debtors-2026-11-30.pdf"');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Debtors on 2026-11-30');
    expect(text).toMatch(/Kato Traders\s+5,900\s+20,000\s+33,100\s+0\s+0\s+59,000\s+10,000\s+49,000/);
    expect(text).toMatch(/INV-000003\s+2026-10-25\s+2026-11-24\s+6\s+1-30 days\s+20,000/);
  });
});

describe('the month’s VAT', () => {
  it('sums output VAT by tax code net of the credit memo, input VAT from the paid voucher, and the net', async () => {
    const report = ok(await manager.get('/api/business/reports/vat?month=2026-10'));
    expect(report).toMatchObject({ month: '2026-10', from: '2026-10-01', to: '2026-10-31', currency: { code: 'UGX', decimals: 0 } });
    // A: invoices 10,000 + 50,000 + 20,000 = 80,000 net, VAT 1,800 + 9,000 + 3,600 = 14,400; less CN 5,000 / 900.
    expect(
      report.output.map((row: Record<string, string>) => [row.tax_code, row.tax_kind, row.tax_rate, row.net, row.tax, row.gross]),
    ).toEqual([
      ['A', 'standard', '18', '75000', '13500', '88500'],
      ['C', 'exempt', '0', '20000', '0', '20000'],
    ]);
    expect(report.output[0].invoices).toEqual({ net: '80000', tax: '14400', gross: '94400' });
    expect(report.output[0].credit_memos).toEqual({ net: '5000', tax: '900', gross: '5900' });
    expect(report.output_total).toEqual({ net: '95000', tax: '13500', gross: '108500' });
    // PV-000001: 418,000 paid with 18,000 VAT; PV-000002 is not paid.
    expect(report.input.map((row: Record<string, string>) => [row.number, row.paid_on, row.net, row.tax, row.gross])).toEqual([
      ['PV-000001', '2026-10-20', '400000', '18000', '418000'],
    ]);
    // 13,500 - 18,000: 4,500 to claim back.
    expect(report.net_payable).toBe('-4500');
    // November holds INV-000004 alone: 5,900 with 900 VAT, nothing to claim.
    const november = ok(await manager.get('/api/business/reports/vat?month=2026-11'));
    expect(november.output_total).toEqual({ net: '5000', tax: '900', gross: '5900' });
    expect(november.net_payable).toBe('900');
  });

  it('answers a workbook and a PDF for the return', async () => {
    const rows = await sheetRows((await manager.get('/api/business/reports/vat?month=2026-10&excel=1')).rawPayload);
    expect(rowOf(rows, 'A')).toEqual(['A', '18', 14400, 900, 0, 75000, 13500, 88500]);
    expect(rowOf(rows, 'Output VAT')).toEqual(['Output VAT', '', null, null, null, 95000, 13500, 108500]);
    expect(rowOf(rows, 'Net VAT payable')).toEqual(['Net VAT payable', -4500]);
    const pdf = await manager.get('/api/business/reports/vat?month=2026-10&pdf=1');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="vat-2026-10.pdf"');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toMatch(/A\s+18\s+14,400\s+900\s+0\s+75,000\s+13,500\s+88,500/);
    expect(text).toMatch(/PV-000001\s+Nakasero Properties\s+400,000\s+18,000\s+418,000/);
    expect(text).toMatch(/Net VAT payable\s+-4,500/);
  });
});

describe('simple profit', () => {
  it('is sales net of VAT less credit memos, less the cost of what stayed sold, less the paid expenses', async () => {
    const report = ok(await manager.get(`/api/business/reports/profit?${OCTOBER}`));
    // Sales 10,000 + 70,000 + 20,000 = 100,000; less 5,000 = 95,000. Cost 6,000 + 42,000 + 12,000 =
    // 60,000; less 3,000 back in stock = 57,000. Gross 38,000. Expenses 300,000 + 100,000 (net of VAT).
    expect(report).toMatchObject({
      sales: '100000',
      credit_memos: '5000',
      debit_memos: '0',
      net_sales: '95000',
      cost_of_sales: '60000',
      returns_cost: '3000',
      net_cost_of_sales: '57000',
      gross_profit: '38000',
      expenses_total: '400000',
      net_profit: '-362000',
    });
    expect(report.expenses.map((row: Record<string, string>) => [row.code, row.name, row.amount])).toEqual([
      ['X-6100', 'Rent', '300000'],
      ['X-6200', 'Electricity', '100000'],
    ]);
    const rows = await sheetRows((await manager.get(`/api/business/reports/profit?${OCTOBER}&excel=1`)).rawPayload);
    expect(rowOf(rows, 'Gross profit')).toEqual(['Gross profit', 38000]);
    expect(rowOf(rows, 'X-6200 Electricity')).toEqual(['X-6200 Electricity', 100000]);
    expect(rowOf(rows, 'Net profit')).toEqual(['Net profit', -362000]);
    const text = await pdfText((await manager.get(`/api/business/reports/profit?${OCTOBER}&pdf=1`)).rawPayload);
    expect(text).toMatch(/Net sales\s+95,000/);
    expect(text).toMatch(/Net cost of sales\s+57,000/);
    expect(text).toMatch(/Net profit\s+-362,000/);
  });
});

describe('who may read them, and what is asked', () => {
  it('shows another shop none of this shop’s figures', async () => {
    const away = owner.in(other.tenantcode);
    const cashup = ok(await away.get(`/api/business/reports/cashup?${OCTOBER}`));
    expect(cashup).toMatchObject({ days: [], cashiers: [], totals: [], mobile_money: [] });
    expect(ok(await away.get('/api/business/reports/debtors?date=2026-11-30')).customers).toEqual([]);
    const vat = ok(await away.get('/api/business/reports/vat?month=2026-10'));
    expect(vat).toMatchObject({ output: [], input: [], net_payable: '0' });
    expect(ok(await away.get(`/api/business/reports/profit?${OCTOBER}`))).toMatchObject({ net_sales: '0', expenses: [], net_profit: '0' });
  });

  it('refuses a cashier and a storekeeper (403), and answers a school 404', async () => {
    for (const member of [cashier, storekeeper])
      for (const url of [
        `/api/business/reports/cashup?${OCTOBER}`,
        '/api/business/reports/debtors?date=2026-11-30',
        '/api/business/reports/vat?month=2026-10',
        `/api/business/reports/profit?${OCTOBER}&pdf=1`,
      ])
        expect((await member.get(url)).statusCode, url).toBe(403);
    expect((await owner.in(school.tenantcode).get(`/api/business/reports/cashup?${OCTOBER}`)).statusCode).toBe(404);
    expect((await owner.in(school.tenantcode).get('/api/business/reports/vat?month=2026-10&pdf=1')).statusCode).toBe(404);
    expect((await owner.get(`/api/business/reports/cashup?${OCTOBER}`)).statusCode).toBe(200);
  });

  it('refuses bad days, months and periods longer than a year with a 422 naming the field', async () => {
    refused(await manager.get('/api/business/reports/cashup?from=2026-02-30&to=2026-03-01'), 'from', M.dateInvalid);
    refused(await manager.get('/api/business/reports/cashup?from=2026-10-31&to=2026-10-01'), 'to', M.periodInvalid);
    refused(await manager.get('/api/business/reports/profit?from=2026-01-01&to=2027-01-01'), 'to', M.periodInvalid);
    ok(await manager.get('/api/business/reports/profit?from=2026-01-01&to=2026-12-31'));
    refused(await manager.get('/api/business/reports/debtors?date=yesterday'), 'date', M.dateInvalid);
    refused(await manager.get(`/api/business/reports/debtors?date=${'9'.repeat(5000)}`), 'date', M.dateInvalid);
    refused(await manager.get('/api/business/reports/debtors?date=2026-10-01%00'), 'date', INPUT_MESSAGES.textInvalid);
    refused(await manager.get('/api/business/reports/vat?month=2026-13'), 'month', M.monthInvalid);
    refused(await manager.get('/api/business/reports/vat?month=2026-1'), 'month', M.monthInvalid);
    for (const url of [
      '/api/business/reports/cashup?to=2026-10-01',
      '/api/business/reports/vat',
      '/api/business/reports/debtors?date=2026-10-01&excel=maybe',
    ])
      expect((await manager.get(url)).statusCode, url).toBe(422);
  });
});
