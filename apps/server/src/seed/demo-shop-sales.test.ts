import { Decimal } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../db/tenant.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';
import { DEMO_TEST_PASSWORD } from '../test/test-database.js';
import { DEMO_ADMIN_EMAIL, DEMO_CASHIER_EMAIL } from './demo.js';
import { DEMO_SHOP_LOW } from './demo-shop.js';
import {
  DEMO_SHOP_EFRIS_DEVICE,
  DEMO_SHOP_FIRM,
  DEMO_SHOP_WHT_CERTIFICATES,
  demoSalesRequestId,
  demoShopSalesPlan,
  sealDemoShopDeviceKey,
  seedDemoShopSales,
} from './demo-shop-sales.js';

/*
 * The demo shop's month of selling and paying (issue 32 point 10), read from the run's seeded
 * demo on both databases: counter sales and credit invoices in every payment state, receipts by
 * cash and mobile money (one with withholding tax), a restocked credit memo, vouchers in each
 * state prepared by the cashier and approved by the manager, books that balance and agree with
 * the stock ledger, everything queued for EFRIS, the low-stock list unchanged, and a second
 * seeding on a later day that adds nothing.
 */

let t: TestApp;
let shop: Caller;
let tenantId: string;
let managerId: string;
let cashierId: string;

beforeAll(async () => {
  // The local fake of URA on, its worker polling only when a test asks (drain).
  t = await buildTestApp(
    { efrisFake: true, efrisTiming: { pollMs: 3_600_000, retryBaseMs: 0, timeoutMs: 10_000, approvalPollMs: 0 } },
    { demo: true },
  );
  shop = caller(t.app, await login(t.app, DEMO_ADMIN_EMAIL, DEMO_TEST_PASSWORD), 'demo-shop');
  const db = t.database.db;
  tenantId = (await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-shop').executeTakeFirstOrThrow()).id;
  managerId = (await db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow()).id;
  cashierId = (await db.selectFrom('users').select('id').where('email', '=', DEMO_CASHIER_EMAIL).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const read = <T>(work: Parameters<typeof withTenant<T>>[2]) => withTenant(t.database.db, { tenantId }, work);

/** What a seeding could add: the shop's documents, books, stock and EFRIS rows counted. */
const counts = () =>
  read(async (trx) => {
    const tables = [
      'invoices',
      'invoice_lines',
      'receipts',
      'receipt_allocations',
      'memos',
      'vouchers',
      'journal_entries',
      'journal_lines',
      'stock_movements',
      'stock_records',
      'efris_outbox',
      'efris_devices',
      'companies',
      'document_numbers',
    ] as const;
    const result: Record<string, number> = {};
    for (const table of tables)
      result[table] = (
        await trx.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()
      ).n;
    return result;
  });

describe('the demo shop’s month of sales', () => {
  it('sells at the counter most days and invoices two customers, in every payment state', async () => {
    const invoices = await read((trx) =>
      trx
        .selectFrom('invoices')
        .select(['kind', 'status', 'number', sql<string>`issued_on::text`.as('issued_on'), 'created_by', 'customer_id', 'fiscal_status'])
        .where('tenant_id', '=', tenantId)
        .execute(),
    );
    const counter = invoices.filter((invoice) => invoice.kind === 'cash_sale');
    expect(counter.length).toBeGreaterThanOrEqual(30);
    expect(counter.every((invoice) => invoice.status === 'issued' && invoice.created_by === cashierId)).toBe(true);
    // Most days of the month have counter sales.
    expect(new Set(counter.map((invoice) => String(invoice.issued_on))).size).toBeGreaterThanOrEqual(20);
    const credit = invoices.filter((invoice) => invoice.kind === 'invoice');
    expect(credit.filter((invoice) => invoice.status === 'issued').length).toBeGreaterThanOrEqual(5);
    expect(credit.filter((invoice) => invoice.status === 'draft')).toHaveLength(1);
    // Numbered without gaps, in the order of their dates.
    const numbered = invoices.filter((invoice) => invoice.number !== null).sort((a, b) => String(a.number).localeCompare(String(b.number)));
    expect(numbered.map((invoice) => invoice.number)).toEqual(numbered.map((_, index) => `INV-${String(index + 1).padStart(6, '0')}`));
    const days = numbered.map((invoice) => String(invoice.issued_on));
    expect(days).toEqual([...days].sort());

    const listed = await shop.get('/api/invoices?kind=invoice&per_page=100');
    expect(listed.statusCode, listed.body).toBe(200);
    const statuses = (listed.json().invoices as Array<{ payment_status: string; customer: { name: string } }>).map(
      (invoice) => `${invoice.customer.name}: ${invoice.payment_status}`,
    );
    expect(statuses).toEqual(
      expect.arrayContaining([
        'Kololo Primary School: paid',
        'Kololo Primary School: part_paid',
        `${DEMO_SHOP_FIRM.name}: paid`,
        `${DEMO_SHOP_FIRM.name}: overdue`,
        `${DEMO_SHOP_FIRM.name}: unpaid`,
        `${DEMO_SHOP_FIRM.name}: draft`,
      ]),
    );
    expect(statuses.filter((status) => status.endsWith('overdue'))).toHaveLength(1);
  });

  it('takes money by cash, MTN MoMo and Airtel Money with their references, one receipt with 6% withholding tax', async () => {
    const receipts = await read((trx) =>
      trx
        .selectFrom('receipts')
        .select(['method', 'reference', 'wht_certificate', sql<string>`wht_amount::text`.as('wht'), sql<string>`amount::text`.as('amount')])
        .where('tenant_id', '=', tenantId)
        .execute(),
    );
    const methods = new Set(receipts.map((receipt) => receipt.method));
    expect([...methods]).toEqual(expect.arrayContaining(['cash', 'mtn_momo', 'airtel_money']));
    const momo = receipts.filter((receipt) => receipt.method === 'mtn_momo');
    expect(momo.length).toBeGreaterThanOrEqual(5);
    expect(momo.every((receipt) => /^\d{11}$/.test(receipt.reference ?? ''))).toBe(true);
    expect(receipts.filter((receipt) => receipt.method === 'airtel_money').every((receipt) => /^MP/.test(receipt.reference ?? ''))).toBe(
      true,
    );
    const withheld = receipts.filter((receipt) => new Decimal(receipt.wht).gt(0));
    expect(withheld).toHaveLength(1);
    expect(withheld[0]?.wht_certificate).toBe(DEMO_SHOP_WHT_CERTIFICATES.fromSchool);
    // 6% of the invoice before VAT, on an invoice of more than UGX 1,000,000 before VAT (the duty's threshold).
    const school = await shop.get('/api/invoices?kind=invoice&per_page=100');
    const paidInFull = (
      school.json().invoices as Array<{ customer: { name: string }; payment_status: string; gross_total: string; tax_total: string }>
    ).find(
      (invoice) =>
        invoice.customer.name === 'Kololo Primary School' &&
        invoice.payment_status === 'paid' &&
        new Decimal(invoice.gross_total).gt(1_000_000),
    );
    expect(paidInFull).toBeDefined();
    const base = new Decimal(paidInFull?.gross_total ?? 0).minus(paidInFull?.tax_total ?? 0);
    expect(base.gt(1_000_000)).toBe(true);
    expect(withheld[0]?.wht && new Decimal(withheld[0].wht).toFixed()).toBe(
      base.times('0.06').toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(),
    );
    const listed = await shop.get('/api/receipts?method=mtn_momo&per_page=5');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().totalRecords).toBe(momo.length);
  });

  it('takes back returned goods on a credit memo and puts them back in the store', async () => {
    const memos = await read((trx) =>
      trx
        .selectFrom('memos')
        .select(['kind', 'reason_code', 'restock', 'number', 'stock_movement_id', 'fiscal_status'])
        .where('tenant_id', '=', tenantId)
        .execute(),
    );
    expect(memos).toHaveLength(1);
    expect(memos[0]).toMatchObject({ kind: 'credit', reason_code: 'return', restock: true, number: 'CN-000001', fiscal_status: 'pending' });
    const movement = await read((trx) =>
      trx
        .selectFrom('stock_movements')
        .select(['kind', 'reference'])
        .where('id', '=', memos[0]?.stock_movement_id ?? '')
        .executeTakeFirst(),
    );
    expect(movement).toEqual({ kind: 'sale_return', reference: 'CN-000001' });
  });

  it('pays out on vouchers the cashier prepares and the manager approves and pays, with withholding from a supplier', async () => {
    const vouchers = await read((trx) =>
      trx
        .selectFrom('vouchers')
        .select(['status', 'prepared_by', 'approved_by', 'paid_by', 'payee_id', 'wht_certificate', sql<string>`wht_amount::text`.as('wht')])
        .where('tenant_id', '=', tenantId)
        .execute(),
    );
    const by = (status: string) => vouchers.filter((voucher) => voucher.status === status);
    expect(by('paid').length).toBeGreaterThanOrEqual(4);
    expect(by('approved')).toHaveLength(1);
    expect(by('draft')).toHaveLength(1);
    expect(vouchers.some((voucher) => voucher.prepared_by === cashierId && voucher.approved_by === managerId)).toBe(true);
    expect(vouchers.filter((voucher) => voucher.status !== 'draft').every((voucher) => voucher.approved_by === managerId)).toBe(true);
    const supplier = vouchers.find((voucher) => new Decimal(voucher.wht).gt(0));
    expect(supplier).toMatchObject({ status: 'paid', wht_certificate: DEMO_SHOP_WHT_CERTIFICATES.toSupplier });
    // 6% of UGX 2,000,000 paid to a supplier (over the duty's threshold).
    expect(new Decimal(supplier?.wht ?? 0).toFixed()).toBe('120000');
    expect(supplier?.payee_id).not.toBeNull();
  });

  it('keeps books whose trial balance is zero and whose inventory is the stock ledger’s value', async () => {
    const [totals, unbalanced, inventory, valuation] = await read(async (trx) => [
      await trx
        .selectFrom('journal_lines')
        .select([sql<string>`coalesce(sum(debit), 0)::text`.as('debit'), sql<string>`coalesce(sum(credit), 0)::text`.as('credit')])
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow(),
      await trx
        .selectFrom('journal_lines')
        .select('entry_id')
        .where('tenant_id', '=', tenantId)
        .groupBy('entry_id')
        .having(sql`sum(debit) - sum(credit)`, '<>', 0)
        .execute(),
      await trx
        .selectFrom('journal_lines as l')
        .innerJoin('accounts as a', (join) => join.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'))
        .select(sql<string>`coalesce(sum(l.debit - l.credit), 0)::text`.as('balance'))
        .where('l.tenant_id', '=', tenantId)
        .where('a.system_key', '=', 'inventory')
        .executeTakeFirstOrThrow(),
      await trx
        .selectFrom('stock_valuations')
        .select(sql<string>`coalesce(sum(value), 0)::text`.as('value'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow(),
    ]);
    expect(new Decimal(totals.debit).gt(0)).toBe(true);
    expect(new Decimal(totals.debit).minus(totals.credit).toFixed()).toBe('0');
    expect(unbalanced).toEqual([]);
    // Moving-average costs are kept to 4 decimals: the books and the ledger agree to the shilling.
    expect(new Decimal(inventory.balance).minus(valuation.value).abs().lt(1)).toBe(true);
    const trial = await shop.get('/api/accounts/trialbalance');
    expect(trial.statusCode, trial.body).toBe(200);
  });

  it('queues every issued invoice and the credit memo for EFRIS, with a device against the local fake', async () => {
    const [issued, outbox, device] = await read(async (trx) => [
      await trx.selectFrom('invoices').select(['fiscal_status']).where('tenant_id', '=', tenantId).where('status', '=', 'issued').execute(),
      await trx.selectFrom('efris_outbox').select(['document_kind']).where('tenant_id', '=', tenantId).execute(),
      await trx
        .selectFrom('efris_devices')
        .select(['device_no', 'mode', 'url', 'enabled', 'tin'])
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst(),
    ]);
    // Pending until a server with the fake fiscalises them (this test's has no device key to sign with).
    expect(issued.every((invoice) => invoice.fiscal_status !== 'none')).toBe(true);
    expect(outbox.filter((row) => row.document_kind === 'invoice')).toHaveLength(issued.length);
    expect(outbox.filter((row) => row.document_kind === 'credit_memo')).toHaveLength(1);
    expect(device).toEqual({ device_no: DEMO_SHOP_EFRIS_DEVICE, mode: 'fake', url: null, enabled: true, tin: '1000123456' });
  });

  it('leaves stock at zero or more, and the low-stock list as the README names it', async () => {
    const negative = await read((trx) =>
      trx.selectFrom('stock_levels').select('product_id').where('tenant_id', '=', tenantId).where(sql<boolean>`on_hand < 0`).execute(),
    );
    expect(negative).toEqual([]);
    const low = await shop.get('/api/stockrecords/onhand?low=1&per_page=100');
    expect((low.json().products as Array<{ code: string }>).map((p) => p.code).sort()).toEqual([...DEMO_SHOP_LOW].sort());
    const sold = await read((trx) =>
      trx.selectFrom('stock_records').select('id').where('tenant_id', '=', tenantId).where('kind', '=', 'sale').limit(1).execute(),
    );
    expect(sold).toHaveLength(1);
  });

  it('plans never more than a location holds, never below the reorder level, and nothing of a low product', () => {
    const products = [
      { id: 'a', code: 'PEN-001', stocked: true, reorder: 40 },
      { id: 'b', code: 'EXB-002', stocked: true, reorder: 40 },
      { id: 'c', code: 'SRV-001', stocked: false, reorder: 0 },
      { id: 'd', code: 'CAL-001', stocked: true, reorder: 4 },
    ];
    const plan = demoShopSalesPlan(products, {
      shop: new Map([
        ['a', 45],
        ['b', 100],
        ['d', 50],
      ]),
      store: new Map([['b', 10]]),
    });
    const sold = new Map<string, number>();
    for (const line of [...plan.counter.flatMap((sale) => sale.lines), ...plan.invoices.filter((i) => !i.draft).flatMap((i) => i.lines)])
      sold.set(line.code, (sold.get(line.code) ?? 0) + line.quantity);
    expect(sold.get('PEN-001') ?? 0).toBeLessThanOrEqual(45 - 41);
    expect(sold.get('EXB-002') ?? 0).toBeLessThanOrEqual(110 - 41);
    expect(sold.get('SRV-001') ?? 0).toBeGreaterThan(0);
    expect(sold.has('CAL-001')).toBe(false);
  });

  it('adds nothing when seeded again, even on a later day, and its request ids are places in the month', async () => {
    const before = await counts();
    expect(before.invoices).toBeGreaterThan(0);
    const later = new Date(Date.now() + 9 * 86_400_000);
    await withTenant(t.database.db, { tenantId }, (trx) => seedDemoShopSales(trx, tenantId, { managerId, cashierId }, later));
    expect(await counts()).toEqual(before);
    const first = await read((trx) =>
      trx.selectFrom('invoices').select(['kind', 'number']).where('request_id', '=', demoSalesRequestId(tenantId, 'counter:0')).execute(),
    );
    // The month's first sale, at the counter on its first day.
    expect(first).toEqual([{ kind: 'cash_sale', number: 'INV-000001' }]);
  });

  it('is fiscalised by a server with the local fake once its device has a key: FDN, verification code, QR, SIMULATED', async () => {
    // As the server's seed does with its secrets key (this test's template was seeded without one).
    await withTenant(t.database.db, { tenantId }, (trx) => sealDemoShopDeviceKey(trx, tenantId, t.app.config.secretsKey));
    const sealed = await read((trx) => trx.selectFrom('efris_devices').select('credentials_sealed').executeTakeFirstOrThrow());
    expect(sealed.credentials_sealed).toMatch(/\./);
    // A key once made is kept.
    await withTenant(t.database.db, { tenantId }, (trx) => sealDemoShopDeviceKey(trx, tenantId, t.app.config.secretsKey));
    expect(await read((trx) => trx.selectFrom('efris_devices').select('credentials_sealed').executeTakeFirstOrThrow())).toEqual(sealed);

    // One round of the worker: a batch of the oldest documents goes to URA (the fake), products registered and stocked in first.
    await t.app.efris.worker.drain();
    const fiscalised = await read((trx) =>
      trx
        .selectFrom('invoices')
        .select(['number', 'fiscal_fdn', 'fiscal_verification_code', 'fiscal_qr_code', 'fiscal_simulated'])
        .where('fiscal_status', '=', 'fiscalised')
        .execute(),
    );
    expect(fiscalised.length).toBeGreaterThan(0);
    for (const invoice of fiscalised) {
      expect(invoice.fiscal_fdn, invoice.number ?? '').toBeTruthy();
      expect(invoice.fiscal_verification_code).toBeTruthy();
      expect(invoice.fiscal_qr_code).toBeTruthy();
      expect(invoice.fiscal_simulated).toBe(true);
    }
    // The rest of the month, round after round (ten documents a round): URA refuses none of them.
    for (let round = 0; round < 12; round++) {
      const waiting = await read((trx) =>
        trx
          .selectFrom('efris_outbox')
          .select('id')
          .where('status', 'in', ['pending', 'sending'])
          .where('interface_code', '<>', 'T111')
          .execute(),
      );
      if (waiting.length === 0) break;
      await t.app.efris.worker.drain();
    }
    const states = await read((trx) => trx.selectFrom('invoices').select('fiscal_status').where('status', '=', 'issued').execute());
    expect(new Set(states.map((state) => state.fiscal_status))).toEqual(new Set(['fiscalised']));
    // The credit memo: applied for (T110), then approved by URA later (the fake's approval, then T111).
    t.app.efris.fake?.approveCreditNotes();
    await t.app.efris.worker.drain();
    const memo = await read((trx) => trx.selectFrom('memos').select(['fiscal_status', 'fiscal_fdn']).executeTakeFirstOrThrow());
    expect(memo.fiscal_status).toBe('approved');
    expect(memo.fiscal_fdn).toBeTruthy();
    const failed = await read((trx) =>
      trx.selectFrom('efris_outbox').select(['reference', 'last_error']).where('status', '=', 'failed').execute(),
    );
    expect(failed).toEqual([]);
  });
});
