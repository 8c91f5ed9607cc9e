import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  Decimal,
  type Invoice,
  InvoiceInputSchema,
  MemoInputSchema,
  type PaymentMethod,
  type PostingLine,
  ReceiptInputSchema,
  VoucherInputSchema,
  VoucherPaySchema,
} from '@mustard/shared';
import { sql } from 'kysely';
import { newId } from '../db/ids.js';
import { bindTenant, lockInTenant, type TenantTx, type Trx } from '../db/tenant.js';
import { seedChartOfAccounts } from '../modules/accounts/chart.js';
import { postEntry } from '../modules/accounts/postings.js';
import { sealSecret } from '../modules/auth/secret-box.js';
import { devicePurpose } from '../modules/efris/worker.js';
import { recordMemo } from '../modules/payments/memos.service.js';
import { recordReceipt } from '../modules/payments/receipts.service.js';
import { createDraft, issueInvoice } from '../modules/sales/sales.service.js';
import { BUSINESS_ROLES } from '../modules/tenants/default-roles.js';
import { insertRole } from '../modules/tenants/tenants.repository.js';
import { approveVoucher, createVoucher, payVoucher } from '../modules/vouchers/vouchers.service.js';
import { seededRandom } from './demo-people.js';
import { DEMO_SHOP_CUSTOMERS, DEMO_SHOP_LOW, DEMO_SHOP_SUPPLIERS } from './demo-shop.js';

/*
 * The demo shop's month of selling and paying (issue 32 point 10), after its month of stock
 * (demo-shop.ts): Mustard Stationers sells at the counter most days (a few sales a day to the
 * walk-in customer, paid in cash, MTN MoMo or Airtel Money with the transaction's reference),
 * invoices Kololo Primary School and a firm of advocates on credit (paid in full, part-paid by
 * mobile money, one overdue and unpaid, one still a draft), takes their money (one receipt with
 * 6% withholding tax and its certificate), takes back returned goods on a credit memo (restocked),
 * and pays its rent, power, transport, airtime and a supplier (with withholding) on vouchers that
 * a cashier prepares and the manager approves and pays; some are left approved or in draft.
 *
 * Every document goes through the real services (sales, payments, vouchers) in the seed's
 * transaction, as a screen's request would, so the books, the stock ledger and the EFRIS outbox
 * are what they would be. The shop's Efris flag is on: each issued invoice and the credit memo
 * are queued for EFRIS, and its device is set against the local fake (credentials are made by
 * the server that runs it, whose secrets key seals them), so the running server fiscalises them.
 *
 * Before the first document, the books are opened: the opening stock, the money in the till and
 * the bank, the month's deliveries owed to the suppliers and the stock written off, so the trial
 * balance shows an inventory and creditors that agree with the stock ledger.
 *
 * Safe to run again: the month is recorded only while the shop has no invoice (under a lock, so
 * two seedings at once take turns), and every document's request id derives from its place in
 * the month (never from the clock), so a retry answers the first document and records nothing.
 * Quantities are planned against what the stock ledger holds: no level goes below zero, and a
 * product keeps more than its reorder level (the low-stock list stays DEMO_SHOP_LOW) .
 */

/** The demo's second credit customer: a firm that buys office supplies on 14 days' terms. */
export const DEMO_SHOP_FIRM = {
  name: 'Bwire & Partners Advocates',
  tin: '1000789016',
  buyer_type: 'b2b' as const,
  contact_person: 'Ruth Bwire',
  phone: '+256 414 231 020',
  address: 'Plot 7, Kampala Road, Kampala',
  terms_days: 14,
};

/** The shop's EFRIS device, against the local fake of URA (a SIMULATED device, its key made by the running server). */
export const DEMO_SHOP_EFRIS_DEVICE = 'TCS-DEMO-0001';

/** The withholding-tax certificate the school gave with its payment, and the one the shop gave its supplier. */
export const DEMO_SHOP_WHT_CERTIFICATES = { fromSchool: 'WHT/KPS/2026/0187', toSupplier: 'WHT/MS/2026/0004' };

/** A fixed namespace for the demo month's documents (uuid v5, RFC 9562), apart from its stock movements'. */
const SALES_NAMESPACE = Buffer.from('6d757374-6172-4464-856d-73616c657331'.replaceAll('-', ''), 'hex');

/** The request id of one of the demo month's documents, from its place in the month ("counter:12", "invoice:school-1"). */
export function demoSalesRequestId(tenantId: string, place: string): string {
  const bytes = createHash('sha1').update(SALES_NAMESPACE).update(`demo-shop-sales:${tenantId}:${place}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The first day of the month of sales, relative to the seed day (the stock opened on day -30). */
const FIRST_DAY = -29;

/**
 * What sells at the counter, with how often (weight) and how many at most: exercise books, pens,
 * pencils, rulers, photocopies and prints, a pack of something now and then.
 */
const COUNTER_ITEMS: ReadonlyArray<[code: string, weight: number, most: number]> = [
  ['EXB-001', 4, 6],
  ['EXB-002', 5, 6],
  ['EXB-003', 3, 4],
  ['EXB-004', 3, 4],
  ['EXB-007', 2, 4],
  ['PEN-001', 6, 5],
  ['PEN-002', 4, 4],
  ['PEN-003', 2, 3],
  ['PEN-005', 2, 3],
  ['PEN-008', 5, 6],
  ['PEN-010', 2, 4],
  ['PEN-013', 1, 1],
  ['PEN-015', 1, 2],
  ['PEN-017', 1, 2],
  ['PAP-007', 2, 5],
  ['PAP-009', 2, 5],
  ['PAP-015', 1, 2],
  ['FIL-005', 3, 4],
  ['FIL-003', 1, 2],
  ['FIL-017', 1, 2],
  ['ART-001', 1, 2],
  ['ART-008', 2, 2],
  ['ART-010', 1, 1],
  ['CAL-009', 3, 3],
  ['CAL-012', 1, 2],
  ['CAL-015', 3, 4],
  ['CAL-016', 3, 3],
  ['CAL-008', 1, 1],
  ['OFF-011', 2, 2],
  ['OFF-007', 1, 2],
  ['BAG-007', 1, 1],
  ['SRV-001', 6, 60],
  ['SRV-004', 3, 20],
  ['SRV-003', 2, 6],
  ['SRV-005', 1, 5],
  ['SRV-006', 2, 3],
  ['SRV-008', 1, 1],
];

/** A credit invoice of the month: to whom, when, from which location, what (codes and quantities wanted). */
interface InvoicePlan {
  place: string;
  customer: 'school' | 'firm';
  day: number;
  /** Days to pay. */
  terms: number;
  location: 'store' | 'shop';
  lines: Array<[code: string, quantity: number]>;
  /** Left a draft: the firm's order still being put together. */
  draft?: boolean;
}

const CREDIT_INVOICES: ReadonlyArray<InvoicePlan> = [
  {
    // The start of term: the school's big order, paid in full less 6% withholding tax.
    place: 'school-1',
    customer: 'school',
    day: -27,
    terms: 30,
    location: 'store',
    lines: [
      ['PAP-001', 12],
      ['EXB-002', 150],
      ['EXB-004', 80],
      ['PEN-001', 100],
      ['PEN-008', 100],
      ['ART-014', 10],
      ['ART-015', 6],
      ['PEN-016', 8],
      ['FIL-001', 12],
      ['CAL-018', 2],
      ['OFF-001', 4],
      ['CAL-009', 40],
      ['PAP-005', 6],
      ['PAP-004', 4],
      ['OFF-002', 2],
      ['CAL-004', 2],
    ],
  },
  {
    // Paid later by Airtel Money.
    place: 'firm-1',
    customer: 'firm',
    day: -25,
    terms: 14,
    location: 'shop',
    lines: [
      ['PAP-003', 4],
      ['FIL-002', 8],
      ['OFF-007', 4],
      ['PEN-002', 20],
      ['OFF-003', 4],
    ],
  },
  {
    // Overdue and unpaid: due twelve days ago.
    place: 'firm-2',
    customer: 'firm',
    day: -26,
    terms: 14,
    location: 'shop',
    lines: [
      ['FIL-008', 6],
      ['OFF-014', 4],
      ['PAP-012', 3],
      ['FIL-010', 4],
    ],
  },
  {
    // Part-paid by MTN MoMo; five maths sets came back broken (the credit memo).
    place: 'school-2',
    customer: 'school',
    day: -19,
    terms: 30,
    location: 'store',
    lines: [
      ['CAL-008', 20],
      ['EXB-003', 80],
      ['EXB-007', 50],
      ['ART-001', 20],
      ['PEN-013', 12],
    ],
  },
  {
    // Collected by the bursar and paid in cash.
    place: 'school-3',
    customer: 'school',
    day: -14,
    terms: 30,
    location: 'shop',
    lines: [
      ['PAP-007', 40],
      ['PAP-009', 40],
      ['OFF-011', 8],
      ['SRV-006', 20],
    ],
  },
  {
    // Not due yet, unpaid.
    place: 'firm-3',
    customer: 'firm',
    day: -5,
    terms: 14,
    location: 'shop',
    lines: [
      ['PAP-001', 3],
      ['PEN-017', 10],
      ['SRV-008', 2],
    ],
  },
  {
    place: 'firm-draft',
    customer: 'firm',
    day: -1,
    terms: 14,
    location: 'shop',
    draft: true,
    lines: [
      ['BAG-010', 2],
      ['FIL-011', 2],
    ],
  },
];

export interface PlannedLine {
  product_id: string;
  code: string;
  quantity: number;
}

export interface PlannedCounterSale {
  place: string;
  day: number;
  lines: PlannedLine[];
  method: Extract<PaymentMethod, 'cash' | 'mtn_momo' | 'airtel_money'>;
  reference: string | null;
}

export interface PlannedInvoice extends Omit<InvoicePlan, 'lines'> {
  lines: PlannedLine[];
}

export interface SalesPlanProduct {
  id: string;
  code: string;
  /** Goods that keep stock; a service sells without limit. */
  stocked: boolean;
  reorder: number;
}

/**
 * The month's sales, planned against the stock on hand: credit invoices first (the school's
 * orders come from the store), then the counter's sales from the shop. A line takes at most what
 * its location holds and leaves the product above its reorder level; a product on the low list
 * is never sold (it stays low); a line that cannot be had is left out.
 */
export function demoShopSalesPlan(
  products: ReadonlyArray<SalesPlanProduct>,
  onHand: { shop: ReadonlyMap<string, number>; store: ReadonlyMap<string, number> },
): { invoices: PlannedInvoice[]; counter: PlannedCounterSale[] } {
  const random = seededRandom(32_010);
  const byCode = new Map(products.map((product) => [product.code, product]));
  const low = new Set(DEMO_SHOP_LOW);
  const left = { shop: new Map(onHand.shop), store: new Map(onHand.store) };
  const take = (code: string, wanted: number, location: 'store' | 'shop'): PlannedLine | null => {
    const product = byCode.get(code);
    if (!product || low.has(code) || wanted <= 0) return null;
    if (!product.stocked) return { product_id: product.id, code, quantity: wanted };
    const here = left[location].get(product.id) ?? 0;
    const total = here + (left[location === 'shop' ? 'store' : 'shop'].get(product.id) ?? 0);
    const quantity = Math.min(wanted, here, total - product.reorder - 1);
    if (quantity <= 0) return null;
    left[location].set(product.id, here - quantity);
    return { product_id: product.id, code, quantity };
  };

  const invoices = CREDIT_INVOICES.map((plan) => ({
    ...plan,
    // A draft takes nothing from the shelf: its lines are what was asked.
    lines: plan.lines.flatMap(([code, quantity]) => {
      if (plan.draft) {
        const product = byCode.get(code);
        return product ? [{ product_id: product.id, code, quantity }] : [];
      }
      return take(code, quantity, plan.location) ?? [];
    }),
  })).filter((plan) => plan.lines.length > 0);

  const weighted = COUNTER_ITEMS.flatMap(([code, weight, most]) => Array.from({ length: weight }, () => ({ code, most })));
  const counter: PlannedCounterSale[] = [];
  let ordinal = 0;
  for (let day = FIRST_DAY; day <= 0; day++) {
    // Closed one day in seven (the Sundays of a month that starts on a Monday).
    if ((day - FIRST_DAY) % 7 === 6) continue;
    // One to three sales a day: enough for the cash-up and the lists, few enough that seeding stays quick.
    const sales = 1 + Math.floor(random() * 2.4);
    for (let sale = 0; sale < sales; sale++) {
      const place = `counter:${ordinal}`;
      ordinal += 1;
      const count = 1 + Math.floor(random() * 3);
      const lines: PlannedLine[] = [];
      for (let at = 0; at < count; at++) {
        const item = weighted[Math.floor(random() * weighted.length)];
        if (!item || lines.some((line) => line.code === item.code)) continue;
        const line = take(item.code, 1 + Math.floor(random() * item.most), 'shop');
        if (line) lines.push(line);
      }
      const pay = random();
      const method = pay < 0.6 ? 'cash' : pay < 0.85 ? 'mtn_momo' : 'airtel_money';
      const digits = String(Math.floor(random() * 1e10)).padStart(10, '0');
      // MTN MoMo's transaction ids are 11 digits; Airtel Money's look like MP<yymmdd>.<hhmm>.<letter><5 digits>.
      const reference =
        method === 'mtn_momo'
          ? `1${digits}`
          : method === 'airtel_money'
            ? `MP${digits.slice(0, 6)}.${digits.slice(6)}.A${digits.slice(0, 5)}`
            : null;
      if (lines.length > 0) counter.push({ place, day, lines, method, reference });
    }
  }
  return { invoices, counter };
}

/** A day `offset` days after the seed day (negative: before), as YYYY-MM-DD. */
function dayFrom(today: Date, offset: number): string {
  return new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Rounded to whole shillings, half up. */
const shillings = (value: Decimal) => value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);

/** Who does what in the demo: the manager (the demo administrator) and the cashier. */
export interface DemoShopPeople {
  managerId: string;
  cashierId: string;
}

/**
 * The cashier's role where the shop was made before it existed (the demo of an older database),
 * as a new business gets it (tenants/default-roles.ts).
 */
export async function ensureCashierRole(trx: Trx, tenantId: string): Promise<void> {
  const existing = await trx
    .selectFrom('roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(name)`, '=', 'cashier')
    .executeTakeFirst();
  const cashier = BUSINESS_ROLES.find((role) => role.name === 'cashier');
  if (existing || !cashier) return;
  await insertRole(await bindTenant(trx, tenantId), newId(), cashier.name, cashier.permissions);
}

/**
 * Opens the books before the month's first document: the stock the ledger received (opening
 * stock against the owner's capital, each delivery owed to its supplier, goods written off or
 * found at a count), and the money the shop started with in the till and at the bank.
 */
async function openBooks(tx: TenantTx, today: Date, managerId: string): Promise<void> {
  const movements = await tx.trx
    .selectFrom('stock_movements as m')
    .innerJoin('stock_records as r', (join) => join.onRef('r.tenant_id', '=', 'm.tenant_id').onRef('r.movement_id', '=', 'm.id'))
    .select([
      'm.id',
      'm.kind',
      'm.partner_id',
      'm.reference',
      sql<string>`m.occurred_on::text`.as('occurred_on'),
      sql<string>`sum(r.quantity * r.unit_cost)::text`.as('value'),
    ])
    .where('m.tenant_id', '=', tx.tenantId)
    .where('m.kind', 'in', ['opening', 'purchase', 'adjustment'])
    .groupBy(['m.id', 'm.kind', 'm.partner_id', 'm.reference', 'm.occurred_on', 'm.created_at'])
    .orderBy('m.occurred_on')
    .orderBy('m.created_at')
    .execute();
  const value = (row: { value: string }) => new Decimal(row.value).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  const line = (key: PostingLine['account'], debit: Decimal, partner_id: string | null = null): PostingLine =>
    debit.gte(0)
      ? { account: key, debit: debit.toFixed(), credit: '0', partner_id }
      : { account: key, debit: '0', credit: debit.neg().toFixed(), partner_id };

  const opening = movements.filter((row) => row.kind === 'opening').reduce((sum, row) => sum.plus(value(row)), new Decimal(0));
  const till = new Decimal(300_000);
  const bank = new Decimal(8_000_000);
  await postEntry(tx, {
    source_kind: 'opening',
    source_id: null,
    occurred_on: movements[0]?.occurred_on ?? dayFrom(today, -30),
    description: 'Opening balances: stock, cash in the till and the bank account',
    lines: [
      line({ key: 'inventory' }, opening),
      line({ key: 'cash' }, till),
      line({ key: 'bank' }, bank),
      line({ key: 'equity' }, opening.plus(till).plus(bank).neg()),
    ],
    created_by: managerId,
  });
  for (const row of movements) {
    const amount = value(row);
    if (row.kind === 'opening' || amount.isZero()) continue;
    await postEntry(tx, {
      source_kind: 'manual',
      source_id: null,
      occurred_on: row.occurred_on,
      description:
        row.kind === 'purchase'
          ? `Goods received on ${row.reference ?? 'a delivery note'}, on credit`
          : 'Stock written off or found at a count',
      lines:
        row.kind === 'purchase'
          ? [line({ key: 'inventory' }, amount), line({ key: 'creditors' }, amount.neg(), row.partner_id)]
          : [line({ key: 'inventory' }, amount), line({ key: 'other_expenses' }, amount.neg())],
      created_by: managerId,
    });
  }
}

/**
 * Gives the demo shop's EFRIS device its key, sealed with the server's secrets key, as the device
 * screen does for a new fake device: the seed of a server (which has the key) calls it; a test's
 * template has none and leaves the device without one. The worker enrols the device with this
 * server's fake on first use (URA's portal step). A device that has a key keeps it.
 */
export async function sealDemoShopDeviceKey(trx: Trx, tenantId: string, secretsKey: Uint8Array): Promise<void> {
  const device = await trx.selectFrom('efris_devices').select('credentials_sealed').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!device || device.credentials_sealed) return;
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await trx
    .updateTable('efris_devices')
    .set({
      credentials_sealed: sealSecret(secretsKey, devicePurpose(tenantId), JSON.stringify({ private_key: privateKey })),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('credentials_sealed', 'is', null)
    .execute();
}

/** The account ids of the chart's expense accounts the vouchers use, by system key. */
async function accountsByKey(tx: TenantTx): Promise<Map<string, string>> {
  const rows = await tx.trx.selectFrom('accounts').select(['id', 'system_key']).where('tenant_id', '=', tx.tenantId).execute();
  return new Map(rows.flatMap((row) => (row.system_key ? [[row.system_key, row.id] as const] : [])));
}

/**
 * The shop's month of sales, receipts, a credit memo and vouchers, and its EFRIS device. Runs in
 * the shop's transaction (the demo's `withTenant`) after seedDemoShop; `people` are the demo's
 * manager (the administrator) and cashier, both members of the shop.
 */
export async function seedDemoShopSales(trx: Trx, tenantId: string, people: DemoShopPeople, today = new Date()): Promise<void> {
  const tx = await bindTenant(trx, tenantId, people.managerId);
  const tenant = await trx.selectFrom('tenants').select(['tin']).where('id', '=', tenantId).executeTakeFirstOrThrow();
  // The device against the local fake: its key is made and sealed by the server that runs it.
  if (tenant.tin)
    await trx
      .insertInto('efris_devices')
      .values({
        tenant_id: tenantId,
        device_no: DEMO_SHOP_EFRIS_DEVICE,
        tin: tenant.tin,
        mode: 'fake',
        url: null,
        credentials_sealed: null,
        enabled: true,
        updated_by: people.managerId,
        created_at: sql`now()`,
        updated_at: sql`now()`,
      } as never)
      .onConflict((oc) => oc.column('tenant_id').doNothing())
      .execute();
  await trx
    .insertInto('companies')
    .values({ tenant_id: tenantId, id: newId(), ...DEMO_SHOP_FIRM, role: 'customer' })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .execute();

  // The month once, and one seeding at a time: a shop with any invoice (this seed's, or a visitor's) keeps its own.
  await lockInTenant(tx, 'demo-shop-sales');
  const sold = await trx.selectFrom('invoices').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
  if (sold) return;

  const locations = await trx.selectFrom('locations').select(['id', 'code']).where('tenant_id', '=', tenantId).execute();
  const store = locations.find((location) => location.code === 'MS');
  const shop = locations.find((location) => location.code === 'SF');
  if (!store || !shop) return;
  const partners = new Map(
    (await trx.selectFrom('companies').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((c) => [c.name, c.id]),
  );
  const school = partners.get(DEMO_SHOP_CUSTOMERS[1]?.name ?? '');
  const firm = partners.get(DEMO_SHOP_FIRM.name);
  const supplier = partners.get(DEMO_SHOP_SUPPLIERS[0].name);
  if (!school || !firm) return;

  const products = await trx
    .selectFrom('products')
    .select(['id', 'code', 'kind', 'track_stock', sql<string>`reorder_level::text`.as('reorder')])
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .execute();
  const levels = await trx
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', sql<string>`on_hand::text`.as('on_hand')])
    .where('tenant_id', '=', tenantId)
    .execute();
  const at = (locationId: string) =>
    new Map(
      levels.filter((level) => level.location_id === locationId).map((level) => [level.product_id, Math.floor(Number(level.on_hand))]),
    );
  const plan = demoShopSalesPlan(
    products.map((product) => ({
      id: product.id,
      code: product.code,
      stocked: product.kind === 'goods' && product.track_stock,
      reorder: Number(product.reorder),
    })),
    { shop: at(shop.id), store: at(store.id) },
  );

  await seedChartOfAccounts(tx);
  await openBooks(tx, today, people.managerId);

  const manager = { tx, member: { userId: people.managerId } };
  const cashier = { tx, member: { userId: people.cashierId } };
  const requestId = (place: string) => demoSalesRequestId(tenantId, place);
  const day = (offset: number) => dayFrom(today, offset);
  const issued = new Map<string, Invoice>();

  /** A credit invoice: drafted and (unless it stays a draft) issued, by the manager. */
  const invoice = async (planned: PlannedInvoice) => {
    const input = InvoiceInputSchema.parse({
      request_id: requestId(`invoice:${planned.place}`),
      customer_id: planned.customer === 'school' ? school : firm,
      location_id: planned.location === 'store' ? store.id : shop.id,
      issued_on: day(planned.day),
      due_on: day(planned.day + planned.terms),
      reference: planned.customer === 'school' ? `LPO ${2100 + planned.day + 30}` : null,
      lines: planned.lines.map((line) => ({ product_id: line.product_id, quantity: String(line.quantity) })),
    });
    const { invoice: draft } = await createDraft(manager, input);
    if (planned.draft) return;
    issued.set(planned.place, (await issueInvoice(manager, draft.id)).invoice);
  };

  /** A counter sale: a cash sale to the walk-in customer, issued and paid at once by the cashier (as POST /api/invoices/counter does, on its day). */
  const counterSale = async (sale: PlannedCounterSale) => {
    const { invoice: draft } = await createDraft(
      cashier,
      InvoiceInputSchema.parse({
        request_id: requestId(sale.place),
        location_id: shop.id,
        issued_on: day(sale.day),
        due_on: day(sale.day),
        lines: sale.lines.map((line) => ({ product_id: line.product_id, quantity: String(line.quantity) })),
      }),
      'cash_sale',
    );
    const { invoice: sold } = await issueInvoice(cashier, draft.id);
    if (!new Decimal(sold.gross_total).gt(0)) return;
    await recordReceipt(
      cashier,
      ReceiptInputSchema.parse({
        request_id: requestId(`${sale.place}:receipt`),
        customer_id: sold.customer_id,
        received_on: sold.issued_on,
        method: sale.method,
        reference: sale.reference,
        amount: sold.gross_total,
        invoice_id: sold.id,
        allocations: [{ invoice_id: sold.id, amount: sold.gross_total }],
      }),
    );
  };

  const whduties = new Map(
    (await trx.selectFrom('whduties').select(['id', 'code']).where('tenant_id', '=', tenantId).execute()).map((w) => [w.code, w.id]),
  );
  /** Money from a credit customer against an issued invoice. */
  const receipt = async (
    place: string,
    offset: number,
    how: { method: PaymentMethod; reference: string | null; amount?: Decimal; wht?: boolean; notes?: string },
  ) => {
    const paid = issued.get(place);
    if (!paid) return;
    const balance = new Decimal(paid.gross_total);
    // 6% of the amount before VAT, withheld by the school (a withholding agent) and paid to URA for the shop.
    const wht = how.wht ? shillings(balance.minus(paid.tax_total).times('0.06')) : new Decimal(0);
    const amount = how.amount ?? balance.minus(wht);
    await recordReceipt(
      manager,
      ReceiptInputSchema.parse({
        request_id: requestId(`receipt:${place}`),
        customer_id: paid.customer_id,
        received_on: day(offset),
        method: how.method,
        reference: how.reference,
        amount: amount.toFixed(),
        ...(wht.gt(0)
          ? { wht_amount: wht.toFixed(), whduty_id: whduties.get('WHT6'), wht_certificate: DEMO_SHOP_WHT_CERTIFICATES.fromSchool }
          : {}),
        notes: how.notes ?? null,
        allocations: [{ invoice_id: paid.id, amount: amount.plus(wht).toFixed() }],
      }),
    );
  };

  const accounts = await accountsByKey(tx);
  /** A payment voucher: prepared, then approved and paid by the manager as far as `until` says. */
  const voucher = async (
    place: string,
    spec: {
      offset: number;
      preparer: 'manager' | 'cashier';
      until: 'draft' | 'approved' | 'paid';
      payee: { id?: string | undefined; name?: string };
      method: PaymentMethod;
      reference?: string;
      lines: Array<{ account: string; description: string; amount: number; vat?: boolean }>;
      wht?: string;
      paymentReference?: string;
    },
  ) => {
    const input = VoucherInputSchema.parse({
      request_id: requestId(`voucher:${place}`),
      payee_id: spec.payee.id,
      payee_name: spec.payee.name ?? null,
      method: spec.method,
      reference: spec.reference ?? null,
      voucher_on: day(spec.offset),
      ...(spec.wht ? { whduty_id: whduties.get('WHT6'), wht_certificate: spec.wht } : {}),
      lines: spec.lines.map((line) => ({
        account_id: accounts.get(line.account),
        description: line.description,
        amount: String(line.amount),
        // Input VAT within a tax-inclusive bill: 18/118 of it.
        tax: line.vat ? shillings(new Decimal(line.amount).times(18).dividedBy(118)).toFixed() : '0',
      })),
    });
    const { voucher: draft } = await createVoucher(spec.preparer === 'cashier' ? cashier : manager, input);
    if (spec.until === 'draft') return;
    await approveVoucher(manager, draft.id);
    if (spec.until === 'approved') return;
    await payVoucher(
      manager,
      draft.id,
      VoucherPaySchema.parse({ paid_on: day(spec.offset), payment_reference: spec.paymentReference ?? null }),
    );
  };

  /** Everything after the invoices of its day, in the order of the month, so numbers follow the dates. */
  const later: Array<{ day: number; run: () => Promise<void> }> = [
    {
      day: -29,
      run: () =>
        voucher('rent', {
          offset: -29,
          preparer: 'manager',
          until: 'paid',
          payee: { name: 'Nasser Road Properties Ltd' },
          method: 'bank',
          reference: 'Rent for the month',
          lines: [{ account: 'rent', description: 'Shop and store rent, Nasser Road', amount: 1_200_000 }],
          paymentReference: 'EFT 118204',
        }),
    },
    {
      day: -20,
      run: () =>
        voucher('transport-1', {
          offset: -20,
          preparer: 'cashier',
          until: 'paid',
          payee: { name: 'Musa Sseguya (boda boda)' },
          method: 'cash',
          lines: [{ account: 'transport', description: 'Deliveries to Kololo Primary School', amount: 30_000 }],
        }),
    },
    { day: -16, run: () => receipt('firm-1', -16, { method: 'airtel_money', reference: 'MP250916.1432.A41873' }) },
    {
      day: -16,
      run: () =>
        voucher('power', {
          offset: -16,
          preparer: 'manager',
          until: 'paid',
          payee: { name: 'Umeme Ltd' },
          method: 'mtn_momo',
          reference: 'Yaka meter 0412 5531 990',
          lines: [{ account: 'utilities', description: 'Yaka electricity units', amount: 150_000, vat: true }],
          paymentReference: '13209874561',
        }),
    },
    { day: -14, run: () => receipt('school-3', -14, { method: 'cash', reference: null, notes: 'Paid by the bursar on collection' }) },
    { day: -12, run: () => receipt('school-1', -12, { method: 'bank', reference: 'EFT Stanbic 0042381', wht: true }) },
    { day: -9, run: () => receipt('school-2', -9, { method: 'mtn_momo', reference: '12874419035', amount: new Decimal(150_000) }) },
    {
      day: -7,
      run: async () => {
        const returned = issued.get('school-2');
        const line = returned?.lines.find((l) => l.product.code === 'CAL-008') ?? returned?.lines[0];
        if (!returned || !line) return;
        await recordMemo(
          manager,
          MemoInputSchema.parse({
            request_id: requestId('memo:school-2'),
            kind: 'credit',
            invoice_id: returned.id,
            reason_code: 'return',
            reason: 'Maths sets returned: compasses broken in the box',
            issued_on: day(-7),
            restock: true,
            location_id: store.id,
            lines: [{ invoice_line: line.line, quantity: String(Math.min(5, Number(line.quantity))) }],
          }),
        );
      },
    },
    ...(supplier
      ? [
          {
            day: -4,
            run: () =>
              voucher('supplier', {
                offset: -4,
                preparer: 'manager',
                until: 'paid',
                payee: { id: supplier },
                method: 'bank',
                reference: 'Deliveries DN-2400 and DN-2410',
                lines: [{ account: 'creditors', description: 'Payment on account for paper deliveries', amount: 2_000_000 }],
                wht: DEMO_SHOP_WHT_CERTIFICATES.toSupplier,
                paymentReference: 'EFT 118377',
              }),
          },
        ]
      : []),
    {
      day: -2,
      run: () =>
        voucher('airtime', {
          offset: -2,
          preparer: 'cashier',
          until: 'approved',
          payee: { name: 'MTN Uganda' },
          method: 'mtn_momo',
          lines: [{ account: 'airtime', description: 'Airtime and data for the shop phones', amount: 50_000, vat: true }],
        }),
    },
    {
      day: -1,
      run: () =>
        voucher('transport-2', {
          offset: -1,
          preparer: 'cashier',
          until: 'draft',
          payee: { name: 'Taxi to Kikuubo' },
          method: 'cash',
          lines: [{ account: 'transport', description: 'Fetching stock from Kikuubo', amount: 25_000 }],
        }),
    },
  ];

  for (let offset = FIRST_DAY - 1; offset <= 0; offset++) {
    for (const planned of plan.invoices) if (planned.day === offset) await invoice(planned);
    for (const sale of plan.counter) if (sale.day === offset) await counterSale(sale);
    for (const step of later) if (step.day === offset) await step.run();
  }
}
