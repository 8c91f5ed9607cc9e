import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ERROR_MESSAGES, INPUT_MESSAGES, type PrintDocument, SIMULATED_MARK, SUPERADMIN_ROLE, TENANT_HEADER } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { drawSalesPrint, thermalQrBox } from './pdf.js';

/*
 * The prints of invoices and receipts through the API (issue 32 point 6), on both databases:
 * an A4 PDF, the 80 mm and 58 mm thermal receipts as text and as PDF, read back with poppler's
 * pdftotext and pdfinfo (page widths 226.77 and 164.41 pt) and pdfimages (the logo). Another
 * business's ids and a school answer 404; a format or output not offered answers 422 on its field.
 *
 * The documents are migration 0028's rows, written in the shop's own transaction (under its RLS)
 * as the invoice and receipt services leave them:
 *   INV-000101, 27 Nov, cash sale to a walk-in buyer, fiscalised by the local EFRIS fake (FDN,
 *     verification code, QR, simulated): 2 x exercise book 5,900 (VAT 18%: 1,800) = 11,800;
 *     10 x Bible 1,200 less 500 (EXEMPT) = 11,500; 1 x atlas 25,000 (ZERO). Gross 48,300, VAT 1,800,
 *     net 46,500, discount 500. Paid at the counter by MTN MoMo (ref MP261127.0001), RCT-000101.
 *   The shop's first invoice through the API (INV-000001), 20 Nov, due 30 Nov, to Kato Traders (TIN 1000555666): 50 x exercise book =
 *     295,000 (VAT 45,000). Its receipt through the receipts API (RCT-000001), 25 Nov, bank, 200,000 with 6,000 withheld (certificate
 *     WHT-77): 150,000 to that invoice, the rest (200,000 + 6,000 - 150,000 = 56,000) kept as an
 *     advance. Its balance: 295,000 - 150,000 = 145,000.
 *   A draft of 28 Nov (no number).
 */

const run = promisify(execFile);

async function withPdf<T>(bytes: Buffer, work: (file: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sales-print-'));
  try {
    const file = path.join(folder, 'print.pdf');
    await writeFile(file, bytes);
    return await work(file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
const pdfText = (bytes: Buffer) =>
  withPdf(bytes, async (file) => (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 16 << 20 })).stdout);

/** Each page's size in points, as pdfinfo reports it. */
const pageSizes = (bytes: Buffer) =>
  withPdf(bytes, async (file) => {
    const { stdout } = await run('pdfinfo', ['-f', '1', '-l', '100', file]);
    return [...stdout.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((match) => ({
      width: Number(match[1]),
      height: Number(match[2]),
    }));
  });

/** How many images the PDF embeds (pdfimages -list). */
const imageCount = (bytes: Buffer) =>
  withPdf(bytes, async (file) => (await run('pdfimages', ['-list', file])).stdout.trim().split('\n').slice(2).length);

function pdf(response: LightMyRequestResponse): Buffer {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  return response.rawPayload;
}

function text(response: LightMyRequestResponse): string[] {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  return response.body.replace(/\n$/, '').split('\n');
}

/** The page rendered by poppler's pdftoppm at `scale` pixels a point, as grey pixels. */
const rendered = (bytes: Buffer, scale: number) =>
  withPdf(bytes, async (file) => {
    const out = path.join(path.dirname(file), 'page');
    await run('pdftoppm', ['-r', String(72 * scale), '-gray', '-png', '-singlefile', file, out]);
    const { data, info } = await sharp(`${out}.png`).raw().toBuffer({ resolveWithObject: true });
    return { at: (x: number, y: number) => data[Math.round(y) * info.width * info.channels + Math.round(x) * info.channels] ?? 255 };
  });

/** pdftotext's text with runs of spaces made one (a layout's columns are its own business). */
const squeezed = (value: string) => value.replace(/[ \t]+/g, ' ');

let t: TestApp;
let shop: { id: string; tenantcode: string };
let other: { id: string; tenantcode: string };
let school: { id: string; tenantcode: string };
let owner: Caller;
let cashier: Caller;
let otherOwner: Caller;
let schoolOwner: Caller;
const ids = {
  cashSale: '',
  invoice: '',
  creditNumber: '',
  draft: '',
  counterReceipt: '',
  receipt: '',
  receiptNumber: '',
  otherInvoice: '',
  otherReceipt: '',
};

const numeric = (value: string) => value as never;
const ok = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string };
};

type Line = {
  product: string;
  quantity: string;
  price: string;
  discount?: string;
  code: string;
  kind: 'standard' | 'exempt' | 'zero';
  rate: string;
  gross: string;
  tax: string;
};

/**
 * A shop's documents. The invoice on credit and the draft go through the invoices API (H3's
 * POST /api/invoices and /issue), after stock is bought in, and its receipt through the
 * receipts API (H4's POST /api/receipts). The counter's cash sale and its receipt are written as
 * migration 0028's rows in the shop's own transaction, as the counter leaves them (the counter
 * route was not in yet), with URA's answer as the EFRIS worker writes it (fiscal columns only).
 */
async function seedShop(tenantId: string, c: Caller, by: string, prefix: string) {
  const store = ok(await c.post('/api/locations', { name: 'Shop floor' }));
  const supplier = ok(await c.post('/api/companies', { name: 'Nice House of Plastics', role: 'supplier' }));
  const walkIn = ok(await c.post('/api/companies', { name: 'Walk-in customer', role: 'customer' }));
  const kato = ok(
    await c.post('/api/companies', { name: 'Kato Traders', role: 'customer', tin: '1000555666', phone: '+256 772 000111', terms_days: 10 }),
  );
  const taxes = (await c.get('/api/taxes?per_page=100')).json().taxes as Array<{ id: string; code: string }>;
  const taxId = (code: string) => taxes.find((tax) => tax.code === code)?.id ?? null;
  const product = async (name: string, price: string, tax: string) =>
    ok(await c.post('/api/products', { code: `P-${newId().slice(-8)}`, name, unit: 'piece', price, tax_id: taxId(tax) })).id;
  const book = await product('Exercise book 96 pages A4 ruled, hard cover', '5900', 'VAT');
  const bible = await product('Bible', '1200', 'EXEMPT');
  const atlas = await product('Atlas of East Africa', '25000', 'ZERO');
  ok(
    await c.post('/api/stockrecords', {
      request_id: newId(),
      kind: 'purchase',
      occurred_on: '2026-11-01',
      location_id: store.id,
      partner_id: supplier.id,
      lines: [{ product_id: book, quantity: '100', unit_cost: '3000' }],
    }),
  );
  const drafted = async (fields: Record<string, unknown>) =>
    (
      (await c.post('/api/invoices', { request_id: newId(), location_id: store.id, customer_id: kato.id, ...fields })).json() as {
        invoice: { id: string };
      }
    ).invoice.id;
  const credit = await drafted({ issued_on: '2026-11-20', due_on: '2026-11-30', lines: [{ product_id: book, quantity: '50' }] });
  const issued = await c.post(`/api/invoices/${credit}/issue`);
  expect(issued.statusCode, issued.body).toBe(200);
  const creditNumber = issued.json().invoice.number as string;
  const draft = await drafted({ issued_on: '2026-11-28', lines: [{ product_id: book, quantity: '1' }] });

  const rows = await withTenant(t.database.db, { tenantId }, async (trx) => {
    const bank = newId();
    await trx
      .insertInto('accounts')
      .values({ tenant_id: tenantId, id: bank, code: `X-${prefix}`, name: 'Bank', type: 'asset', subtype: 'bank' })
      .execute();
    const cashSale = newId();
    const lines: Line[] = [
      { product: book, quantity: '2', price: '5900', code: 'VAT', kind: 'standard', rate: '18', gross: '11800', tax: '1800' },
      {
        product: bible,
        quantity: '10',
        price: '1200',
        discount: '500',
        code: 'EXEMPT',
        kind: 'exempt',
        rate: '0',
        gross: '11500',
        tax: '0',
      },
      { product: atlas, quantity: '1', price: '25000', code: 'ZERO', kind: 'zero', rate: '0', gross: '25000', tax: '0' },
    ];
    await trx
      .insertInto('invoices')
      .values({
        tenant_id: tenantId,
        id: cashSale,
        request_id: newId(),
        kind: 'cash_sale',
        status: 'issued',
        number: `INV-${prefix}101`,
        customer_id: walkIn.id,
        buyer_name: 'Sarah Nambi',
        location_id: store.id,
        currency_code: 'UGX',
        currency_decimals: 0,
        issued_on: '2026-11-27',
        due_on: '2026-11-27',
        discount_total: numeric('500'),
        gross_total: numeric('48300'),
        tax_total: numeric('1800'),
        net_total: numeric('46500'),
        created_by: by,
        issued_by: by,
      })
      .execute();
    await trx
      .insertInto('invoice_lines')
      .values(
        lines.map((line, index) => ({
          tenant_id: tenantId,
          invoice_id: cashSale,
          line: index,
          product_id: line.product,
          quantity: line.quantity,
          unit_price: line.price,
          discount: numeric(line.discount ?? '0'),
          tax_code: line.code,
          tax_kind: line.kind,
          tax_rate: numeric(line.rate),
          gross: numeric(line.gross),
          tax: numeric(line.tax),
          net: numeric(String(Number(line.gross) - Number(line.tax))),
        })),
      )
      .execute();
    // URA's answer, as the EFRIS worker writes it on an issued invoice (its fiscal columns only).
    await trx
      .updateTable('invoices')
      .set({
        fiscal_status: 'fiscalised',
        fiscal_fdn: '3250001112223',
        fiscal_verification_code: '8213-4471-0093-2214',
        fiscal_qr_code: 'https://efris.ura.go.ug/site_mobile/#/invoiceValidation?invoiceNo=3250001112223',
        fiscal_simulated: true,
      })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', cashSale)
      .execute();
    const receipt = async (
      fields: {
        number: string;
        customer: string;
        on: string;
        method: 'mtn_momo' | 'bank';
        reference: string;
        amount: string;
        wht?: string;
        invoice?: string;
      },
      allocations: Array<[string, string]>,
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
          reference: fields.reference,
          account_id: bank,
          currency_code: 'UGX',
          amount: fields.amount,
          wht_amount: numeric(fields.wht ?? '0'),
          wht_certificate: fields.wht ? 'WHT-77' : null,
          invoice_id: fields.invoice ?? null,
          created_by: by,
        })
        .execute();
      for (const [invoiceId, amount] of allocations)
        await trx
          .insertInto('receipt_allocations')
          .values({ tenant_id: tenantId, id: newId(), receipt_id: id, invoice_id: invoiceId, amount, allocated_on: fields.on })
          .execute();
      return id;
    };
    const counterReceipt = await receipt(
      {
        number: `RCT-${prefix}101`,
        customer: walkIn.id,
        on: '2026-11-27',
        method: 'mtn_momo',
        reference: 'MP261127.0001',
        amount: '48300',
        invoice: cashSale,
      },
      [[cashSale, '48300']],
    );
    return { cashSale, counterReceipt };
  });
  // The credit invoice part-paid through the receipts API: by bank, with 6% withheld, the rest an advance.
  const whduties = (await c.get('/api/whduties?per_page=100')).json().whduties as Array<{ id: string; code: string }>;
  const received = await c.post('/api/receipts', {
    request_id: newId(),
    customer_id: kato.id,
    received_on: '2026-11-25',
    method: 'bank',
    reference: 'EFT 99812',
    amount: '200000',
    wht_amount: '6000',
    whduty_id: whduties.find((duty) => duty.code === 'WHT6')?.id,
    wht_certificate: 'WHT-77',
    allocations: [{ invoice_id: credit, amount: '150000' }],
  });
  expect(received.statusCode, received.body).toBe(200);
  const { id: receipt, number: receiptNumber } = received.json().receipt as { id: string; number: string };
  return { ...rows, invoice: credit, creditNumber, draft, receipt, receiptNumber };
}

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Mustard Stationers', category: 'Retail' });
  other = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(-8)}`, name: 'Owino Hardware', category: 'Retail' });
  school = await makeTenant(t.database, { name: 'Mengo Primary' });
  await t.database.db
    .updateTable('tenants')
    .set({ address: 'Plot 12, Kampala Road, Kampala', phone: '+256 700 123456', tin: '1000123456' })
    .where('id', '=', shop.id)
    .execute();
  const user = await makeUser(t.database, {
    name: 'Grace Nakato',
    memberOf: [
      { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  const token = await login(t.app, user.email);
  owner = caller(t.app, token, shop.tenantcode);
  schoolOwner = caller(t.app, token, school.tenantcode);
  const member = await makeUser(t.database, { name: 'Agnes Namata', memberOf: [{ tenantId: shop.id, roles: ['cashier'] }] });
  cashier = caller(t.app, await login(t.app, member.email), shop.tenantcode);
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: other.id, roles: [SUPERADMIN_ROLE] }] });
  otherOwner = caller(t.app, await login(t.app, otherUser.email), other.tenantcode);
  Object.assign(ids, await seedShop(shop.id, owner, user.id, '000'));
  expect([ids.creditNumber, ids.receiptNumber]).toEqual(['INV-000001', 'RCT-000001']);
  const theirs = await seedShop(other.id, otherOwner, otherUser.id, '900');
  ids.otherInvoice = theirs.invoice;
  ids.otherReceipt = theirs.receipt;
}, 90_000);
afterAll(() => t?.close());

describe('an invoice printed', () => {
  it('as an A4 PDF: the business and its TIN, the number, the buyer, the lines, totals per tax code, payment, FDN and the SIMULATED mark', async () => {
    const bytes = pdf(await owner.get(`/api/invoices/${ids.cashSale}/print`));
    const page = squeezed(await pdfText(bytes));
    expect(page).toContain('Mustard Stationers');
    expect(page).toContain('TIN: 1000123456');
    expect(page).toContain('CASH SALE - TAX INVOICE');
    expect(page).toContain('Number: INV-000101');
    expect(page).toContain('Sarah Nambi');
    // The long name wraps inside its column, beside its figures.
    expect(page).toMatch(/1 Exercise book 96 pages A4 ruled, 2 piece 5,900 VAT 11,800\n hard cover\n/);
    expect(page).toMatch(/10 piece 1,200 500 EXEMPT 11,500/);
    expect(page).toMatch(/Total UGX 48,300/);
    expect(page).toMatch(/VAT 1,800/);
    expect(page).toMatch(/Net amount 46,500/);
    expect(page).toMatch(/Balance due 0/);
    // The VAT summary: one row per code.
    expect(page).toMatch(/VAT 18% 10,000 1,800 11,800/);
    expect(page).toMatch(/EXEMPT exempt 11,500 0 11,500/);
    expect(page).toMatch(/ZERO zero 25,000 0 25,000/);
    expect(page).toContain('Paid by: MTN Mobile Money, ref. MP261127.0001');
    expect(page).toContain('Fiscal document number (FDN): 3250001112223');
    expect(page).toContain('Verification code: 8213-4471-0093-2214');
    expect(page).toContain(SIMULATED_MARK);
    expect(await pageSizes(bytes)).toEqual([{ width: 595.28, height: 841.89 }]);
  });

  it('as an 80 mm receipt in text: 48 characters a line at most, with the amounts right-aligned', async () => {
    const lines = text(await owner.get(`/api/invoices/${ids.cashSale}/print?format=80mm&output=text`));
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(48);
    expect(lines[0]?.trim()).toBe(SIMULATED_MARK);
    expect(lines).toContain(`No:${' '.repeat(35)}INV-000101`);
    expect(lines).toContain(`TOTAL UGX${' '.repeat(33)}48,300`);
    expect(lines.join('\n')).toContain('FDN: 3250001112223');
    expect(lines.join('\n')).toContain('Ref: MP261127.0001');
  });

  it('as a 58 mm receipt in text: 32 characters a line at most', async () => {
    const response = await owner.get(`/api/invoices/${ids.cashSale}/print?format=58mm&output=text`);
    expect(response.headers['content-disposition']).toBe('attachment; filename="INV-000101-58mm.txt"');
    const lines = text(response);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(32);
    expect(lines).toContain(`TOTAL UGX${' '.repeat(17)}48,300`);
    expect(lines.slice(0, 2).map((line) => line.trim())).toEqual(['SIMULATED - NOT A VALID TAX', 'INVOICE']);
  });

  it('as thermal PDFs 80 mm (226.77 pt) and 58 mm (164.41 pt) wide, holding the same lines', async () => {
    for (const [format, width] of [
      ['80mm', 226.77],
      ['58mm', 164.41],
    ] as const) {
      const bytes = pdf(await owner.get(`/api/invoices/${ids.cashSale}/print?format=${format}`));
      const sizes = await pageSizes(bytes);
      expect(sizes).toHaveLength(1);
      expect(sizes[0]?.width).toBe(width);
      const page = squeezed(await pdfText(bytes));
      expect(page).toContain('INV-000101');
      expect(page).toContain('TIN: 1000123456');
      expect(page).toContain('48,300');
      expect(page).toContain('FDN: 3250001112223');
      expect(page).toContain('SIMULATED - NOT A VALID');
    }
  });

  it('carries the QR code URA gave, readable module by module', async () => {
    const qrText = 'https://efris.ura.go.ug/site_mobile/#/invoiceValidation?invoiceNo=3250001112223';
    const expected = QRCode.create(qrText, { errorCorrectionLevel: 'M' }).modules;
    for (const format of ['80mm', '58mm'] as const) {
      const bytes = pdf(await owner.get(`/api/invoices/${ids.cashSale}/print?format=${format}`));
      const [size] = await pageSizes(bytes);
      const box = thermalQrBox(format, size?.height ?? 0);
      const scale = 6;
      const page = await rendered(bytes, scale);
      const cell = box.size / (expected.size + 8);
      // Each module's centre is dark exactly where the QR code of the text has a dark module.
      const read: boolean[] = [];
      const want: boolean[] = [];
      for (let row = -4; row < expected.size + 4; row++) {
        for (let column = -4; column < expected.size + 4; column++) {
          const x = (box.x + (column + 4.5) * cell) * scale;
          const y = (box.y + (row + 4.5) * cell) * scale;
          read.push(page.at(x, y) < 128);
          const inside = row >= 0 && column >= 0 && row < expected.size && column < expected.size;
          want.push(inside && Boolean(expected.get(row, column)));
        }
      }
      expect(read.filter(Boolean).length, format).toBeGreaterThan(100);
      expect(read, format).toEqual(want);
    }
  });

  it('on credit: the balance after a part payment, the buyer TIN, and no fiscal block before EFRIS', async () => {
    const page = squeezed(await pdfText(pdf(await owner.get(`/api/invoices/${ids.invoice}/print`))));
    expect(page).toContain('TAX INVOICE');
    expect(page).toContain(`Number: ${ids.creditNumber}`);
    expect(page).toContain('Due: 2026-11-30');
    expect(page).toContain('Kato Traders');
    expect(page).toContain('Buyer TIN: 1000555666');
    expect(page).toMatch(/Total UGX 295,000/);
    expect(page).toMatch(/Paid 150,000/);
    expect(page).toMatch(/Balance due 145,000/);
    expect(page).not.toContain('SIMULATED');
    expect(page).not.toContain('FDN');
  });

  it('as a draft, marked DRAFT without a number', async () => {
    const lines = text(await cashier.get(`/api/invoices/${ids.draft}/print?format=80mm&output=text`));
    expect(lines).toContain(`No:${' '.repeat(40)}DRAFT`);
    const page = squeezed(await pdfText(pdf(await cashier.get(`/api/invoices/${ids.draft}/print`))));
    expect(page).toContain('Number: DRAFT');
  });
});

describe('a receipt printed', () => {
  it('as an A4 PDF: the money, the method and reference, the tax withheld, the invoices paid and the advance', async () => {
    const page = squeezed(await pdfText(pdf(await owner.get(`/api/receipts/${ids.receipt}/print`))));
    expect(page).toContain('RECEIPT');
    expect(page).toContain(`Number: ${ids.receiptNumber}`);
    expect(page).toContain('Received from');
    expect(page).toContain('Kato Traders');
    expect(page).toMatch(/Received UGX 200,000/);
    expect(page).toContain('Paid by: Bank transfer, ref. EFT 99812');
    expect(page).toContain('Tax withheld: 6,000 (certificate WHT-77)');
    expect(page).toContain(`${ids.creditNumber} 150,000`);
    expect(page).toContain('Kept as an advance: 56,000');
  });

  it('on 58 mm paper, as text and as a PDF', async () => {
    const lines = text(await cashier.get(`/api/receipts/${ids.receipt}/print?format=58mm&output=text`));
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(32);
    expect(lines).toContain(`RECEIVED UGX${' '.repeat(13)}200,000`);
    expect(lines).toContain(`Kept as advance${' '.repeat(11)}56,000`);
    const bytes = pdf(await cashier.get(`/api/receipts/${ids.counterReceipt}/print?format=58mm`));
    expect((await pageSizes(bytes))[0]?.width).toBe(164.41);
    expect(squeezed(await pdfText(bytes))).toContain('RCT-000101');
  });
});

describe('the logo', () => {
  it('is drawn when the business has one', async () => {
    const before = pdf(await owner.get(`/api/invoices/${ids.invoice}/print`));
    expect(await imageCount(before)).toBe(0);
    const name = `${'ab'.repeat(16)}.jpg`;
    const folder = path.join(t.app.config.dataDir, 'photos', shop.id);
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, name),
      await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c8a000' } })
        .jpeg()
        .toBuffer(),
    );
    await t.database.db.updateTable('tenants').set({ logo_path: name }).where('id', '=', shop.id).execute();
    try {
      expect(await imageCount(pdf(await owner.get(`/api/invoices/${ids.invoice}/print`)))).toBe(1);
      expect(await imageCount(pdf(await owner.get(`/api/invoices/${ids.invoice}/print?format=80mm`)))).toBe(1);
    } finally {
      await t.database.db.updateTable('tenants').set({ logo_path: null }).where('id', '=', shop.id).execute();
    }
  });
});

describe('who may print what, and what is asked', () => {
  it('answers 404 for another business’s invoice or receipt, and for an id that is none', async () => {
    for (const url of [
      `/api/invoices/${ids.otherInvoice}/print`,
      `/api/invoices/${ids.otherInvoice}/print?format=80mm&output=text`,
      `/api/receipts/${ids.otherReceipt}/print`,
      `/api/receipts/${ids.otherReceipt}/print?format=58mm&output=text`,
      `/api/invoices/${newId()}/print`,
      // A receipt's id is no invoice's, and the reverse.
      `/api/invoices/${ids.receipt}/print`,
      `/api/receipts/${ids.invoice}/print`,
    ]) {
      const response = await owner.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe(ERROR_MESSAGES[404]);
    }
    // The other business prints its own.
    expect((await otherOwner.get(`/api/invoices/${ids.otherInvoice}/print?format=80mm&output=text`)).statusCode).toBe(200);
  });

  it('answers a school 404: prints are a business’s', async () => {
    const response = await schoolOwner.get(`/api/invoices/${ids.invoice}/print`);
    expect(response.statusCode).toBe(404);
    expect((await schoolOwner.get(`/api/receipts/${ids.receipt}/print?format=80mm&output=text`)).statusCode).toBe(404);
  });

  it('refuses a format or output it does not offer on its field, and an id that is no id', async () => {
    for (const [query, field, message] of [
      ['format=letter', 'format', INPUT_MESSAGES.valueInvalid],
      ['format=80MM', 'format', INPUT_MESSAGES.valueInvalid],
      ['output=html', 'output', INPUT_MESSAGES.valueInvalid],
      ['format=a4&output=text', 'output', INPUT_MESSAGES.valueInvalid],
      [`format=${'x'.repeat(5000)}`, 'format', INPUT_MESSAGES.valueInvalid],
      ['format=80mm%00', 'format', INPUT_MESSAGES.textInvalid],
    ] as const) {
      for (const path of [`/api/invoices/${ids.invoice}/print`, `/api/receipts/${ids.receipt}/print`]) {
        const response = await owner.get(`${path}?${query}`);
        expect(response.statusCode, query).toBe(422);
        expect(response.json().errors[field], query).toEqual([message]);
      }
    }
    const badId = await owner.get('/api/invoices/not-an-id/print');
    expect(badId.statusCode).toBe(422);
  });

  it('asks a signed-in member: none is 401', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/invoices/${ids.invoice}/print`,
      headers: { [TENANT_HEADER]: shop.tenantcode },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('a long document', () => {
  it('continues on further pages: an A4 invoice of 500 lines, and thermal receipts no page of which is too long for a PDF', async () => {
    const line = (n: number) => ({
      description: `Item ${n} with a long name that wraps on a narrow receipt line`,
      quantity: '1',
      unit: 'piece',
      unit_price: '1180',
      discount: '0',
      gross: '1180',
      tax: '180',
      net: '1000',
      tax_code: 'VAT',
      tax_rate: '18',
    });
    const doc: PrintDocument = {
      business: { name: 'Mustard Stationers', address: null, phone: null, tin: '1000123456', has_logo: false, vat_registered: true },
      kind: 'invoice',
      number: 'INV-000500',
      date: '2026-11-27',
      due_on: '2026-12-27',
      currency_code: 'UGX',
      decimals: 0,
      customer: { name: 'Kato Traders', tin: null, phone: null, address: null },
      reference_number: null,
      reason: null,
      lines: Array.from({ length: 500 }, (_, index) => line(index + 1)),
      totals: {
        discount_total: '0',
        net_total: '500000',
        tax_total: '90000',
        gross_total: '590000',
        by_tax: [{ tax_code: 'VAT', tax_kind: 'standard', tax_rate: '18', gross: '590000', tax: '90000', net: '500000' }],
      },
      paid: '0',
      balance: '590000',
      payment: null,
      allocations: [],
      advance: null,
      fiscal: { fdn: '1', verification_code: null, qr_text: 'https://efris.ura.go.ug/x', simulated: false },
      notes: null,
      served_by: null,
    };
    const a4 = Buffer.from(await drawSalesPrint({ doc, format: 'a4', logo: null }));
    const pages = await pageSizes(a4);
    expect(pages.length).toBeGreaterThan(5);
    const page = squeezed(await pdfText(a4));
    expect(page).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(page).toContain('500 Item 500 with a long name');
    expect(page).toContain('Balance due 590,000');
    for (const format of ['80mm', '58mm'] as const) {
      const thermal = Buffer.from(await drawSalesPrint({ doc, format, logo: null }));
      const sizes = await pageSizes(thermal);
      expect(sizes.length, format).toBeGreaterThanOrEqual(format === '58mm' ? 2 : 1);
      for (const size of sizes) expect(size.height, format).toBeLessThanOrEqual(14_400);
      expect(squeezed(await pdfText(thermal))).toContain('590,000');
    }
  }, 60_000);
});
