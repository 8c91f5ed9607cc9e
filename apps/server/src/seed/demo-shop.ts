import { createHash } from 'node:crypto';
import { type StockMovementInput, StockMovementInputSchema } from '@mustard/shared';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import { bindTenant, type Trx } from '../db/tenant.js';
import { recordStockMovement } from '../modules/stock/stock.service.js';
import { seededRandom } from './demo-people.js';

/*
 * The demo shop's stock (issue 31 point 8): Mustard Stationers on Nasser Road, Kampala, with
 * about 150 stationery products in groups, its suppliers and two customers, opening stock a
 * month ago and the month's deliveries, transfers from the store to the shop and a few
 * adjustments, so the stock screens, the low-stock list and the valuation have something to
 * show. Sales come from invoices (part 2), so nothing is sold here.
 *
 * Safe to run again: groups, products and partners are added only when missing (by name and
 * code), and the month's movements are recorded only while the shop has none; each carries a
 * request id derived from its place in the month (never its date), so even a run on a later day
 * racing another records each movement once.
 */

type Unit = 'piece' | 'ream' | 'box' | 'pack' | 'dozen' | 'page' | 'sheet' | 'job';
/** [name, price in UGX, unit when not the group's]. */
type Item = [name: string, price: number, unit?: Unit];

interface GroupSeed {
  name: string;
  prefix: string;
  tax: 'VAT' | 'EXEMPT';
  unit: Unit;
  /** Printing and copying: services, no stock kept. */
  service?: boolean;
  /** The supplier who delivers this group (index into SUPPLIERS). */
  supplier: number;
  items: Item[];
}

export const DEMO_SHOP_SUPPLIERS = [
  {
    name: 'Kampala Paper Distributors Ltd',
    tin: '1000234561',
    contact_person: 'Grace Nakato',
    phone: '+256 414 231 001',
    address: 'Plot 4, Namirembe Road, Kampala',
  },
  {
    name: 'Nile Office Supplies Ltd',
    tin: '1000345672',
    contact_person: 'Peter Okello',
    phone: '+256 414 231 002',
    address: 'Plot 19, Luwum Street, Kampala',
  },
  {
    name: 'Pearl School Wholesalers',
    tin: '1000456783',
    contact_person: 'Sarah Achieng',
    phone: '+256 772 231 003',
    address: 'Kikuubo Lane, Kampala',
  },
  {
    name: 'Equator Bags & Crafts Ltd',
    tin: '1000567894',
    contact_person: 'John Mugisha',
    phone: '+256 701 231 004',
    address: 'Industrial Area, 5th Street, Kampala',
  },
] as const;

export const DEMO_SHOP_CUSTOMERS = [
  { name: 'Walk-in customer', tin: null, buyer_type: 'b2c' as const, contact_person: null, phone: null, address: null },
  {
    name: 'Kololo Primary School',
    tin: '1000678905',
    buyer_type: 'government' as const,
    contact_person: 'The Bursar',
    phone: '+256 414 231 010',
    address: 'Kololo Hill Drive, Kampala',
  },
];

export const DEMO_SHOP_GROUPS: GroupSeed[] = [
  {
    name: 'Exercise books',
    prefix: 'EXB',
    // Exercise books are exempt from VAT in Uganda (VAT Act, second schedule).
    tax: 'EXEMPT',
    unit: 'piece',
    supplier: 2,
    items: [
      ['Exercise book 32 pages ruled', 500],
      ['Exercise book 48 pages ruled', 700],
      ['Exercise book 64 pages ruled', 900],
      ['Exercise book 96 pages ruled', 1200],
      ['Exercise book 120 pages ruled', 1500],
      ['Exercise book 200 pages ruled', 2500],
      ['Exercise book 48 pages squared', 800],
      ['Exercise book 96 pages squared', 1300],
      ['Exercise book 96 pages hard cover', 3500],
      ['Exercise book 48 pages (dozen)', 8000, 'dozen'],
      ['Exercise book 96 pages (dozen)', 13500, 'dozen'],
      ['Graph book A4 40 pages', 2000],
      ['Drawing book A4', 2500],
      ['Drawing book A3', 4500],
      ['Music book', 3000],
      ['Counter book 2 quire', 6000],
      ['Counter book 3 quire', 8000],
      ['Counter book 4 quire', 10000],
    ],
  },
  {
    name: 'Pens and pencils',
    prefix: 'PEN',
    tax: 'VAT',
    unit: 'piece',
    supplier: 1,
    items: [
      ['Ballpoint pen blue', 500],
      ['Ballpoint pen black', 500],
      ['Ballpoint pen red', 500],
      ['Ballpoint pen blue (box of 50)', 20000, 'box'],
      ['Gel pen assorted', 1500],
      ['Fountain pen', 8000],
      ['Ink cartridges (pack of 6)', 3000, 'pack'],
      ['HB pencil', 300],
      ['HB pencils (dozen)', 3000, 'dozen'],
      ['2B pencil', 500],
      ['Mechanical pencil 0.5 mm', 2500],
      ['Pencil leads 0.5 mm', 1000, 'pack'],
      ['Colour pencils 12', 4000, 'pack'],
      ['Colour pencils 24', 7500, 'pack'],
      ['Permanent marker black', 2500],
      ['Whiteboard marker (pack of 4)', 9000, 'pack'],
      ['Highlighter yellow', 2000],
      ['Highlighters assorted (pack of 4)', 7000, 'pack'],
    ],
  },
  {
    name: 'Paper and card',
    prefix: 'PAP',
    tax: 'VAT',
    unit: 'ream',
    supplier: 0,
    items: [
      ['Photocopy paper A4 80 gsm', 26000],
      ['Photocopy paper A3 80 gsm', 52000],
      ['Photocopy paper A4 70 gsm', 22000],
      ['Coloured paper A4 assorted', 35000],
      ['Manila card A4 white', 30000],
      ['Manila card A4 coloured', 32000],
      ['Manila paper sheet', 1000, 'sheet'],
      ['Flip chart paper pad', 25000, 'pack'],
      ['Sugar paper sheet', 700, 'sheet'],
      ['Carbon paper (pack of 100)', 15000, 'pack'],
      ['Tracing paper A4 (pack of 50)', 12000, 'pack'],
      ['Foolscap ruled (pack of 100)', 9000, 'pack'],
      ['Envelopes A4 brown (pack of 50)', 15000, 'pack'],
      ['Envelopes DL white (pack of 50)', 10000, 'pack'],
      ['Sticky notes 3x3', 2500, 'pack'],
      ['Receipt book duplicate', 4000, 'piece'],
      ['Invoice book triplicate', 6000, 'piece'],
      ['Photo paper A4 glossy (pack of 20)', 18000, 'pack'],
    ],
  },
  {
    name: 'Files and folders',
    prefix: 'FIL',
    tax: 'VAT',
    unit: 'piece',
    supplier: 1,
    items: [
      ['Box file', 8000],
      ['Lever arch file', 10000],
      ['Spring file', 3000],
      ['Manila folder (pack of 10)', 6000, 'pack'],
      ['Clear bag A4', 1000],
      ['Clear bag F4', 1200],
      ['Clip board A4', 5000],
      ['Display book 20 pockets', 7000],
      ['Display book 40 pockets', 11000],
      ['Ring binder A4', 6500],
      ['Expanding file 13 pockets', 15000],
      ['Document wallet', 2500],
      ['Suspension files (box of 25)', 45000, 'box'],
      ['Arch file dividers', 4000, 'pack'],
      ['Plastic sleeves (pack of 100)', 12000, 'pack'],
      ['Certificate holder', 4500],
      ['Report cover', 1500],
      ['Conference folder', 9000],
    ],
  },
  {
    name: 'Art and craft',
    prefix: 'ART',
    tax: 'VAT',
    unit: 'piece',
    supplier: 3,
    items: [
      ['Crayons 12 colours', 2500, 'pack'],
      ['Crayons 24 colours', 4500, 'pack'],
      ['Oil pastels 12', 6000, 'pack'],
      ['Poster colours 6', 8000, 'pack'],
      ['Watercolour set 12', 9000, 'pack'],
      ['Paint brush set', 5000, 'pack'],
      ['Plasticine 10 sticks', 4000, 'pack'],
      ['Glue stick 21 g', 2000],
      ['White glue 250 ml', 5000],
      ['Scissors 7 inch', 3500],
      ['Safety scissors (children)', 2000],
      ['Glitter tubes (pack of 6)', 3500, 'pack'],
      ['Felt tip pens 12', 5500, 'pack'],
      ['Chalk white (box of 100)', 5000, 'box'],
      ['Chalk coloured (box of 100)', 7000, 'box'],
      ['Craft paper roll', 12000],
      ['Sketch pad A4', 8500],
      ['Easel canvas 40x50 cm', 25000],
    ],
  },
  {
    name: 'School bags',
    prefix: 'BAG',
    tax: 'VAT',
    unit: 'piece',
    supplier: 3,
    items: [
      ['School backpack small', 35000],
      ['School backpack medium', 45000],
      ['School backpack large', 55000],
      ['Trolley school bag', 85000],
      ['Lunch box', 12000],
      ['Water bottle 500 ml', 8000],
      ['Pencil case zip', 4000],
      ['Pencil case tin', 5000],
      ['Pencil case 3 compartments', 9000],
      ['Laptop bag 15 inch', 75000],
      ['Document bag A4', 15000],
      ['Sling bag', 25000],
      ['Kids backpack printed', 30000],
      ['Drawstring bag', 7000],
      ['Book bag', 10000],
      ['Canvas tote bag', 12000],
      ['Rain cover for backpack', 6000],
      ['Name tags (pack of 10)', 3000, 'pack'],
    ],
  },
  {
    name: 'Calculators and geometry sets',
    prefix: 'CAL',
    tax: 'VAT',
    unit: 'piece',
    supplier: 1,
    items: [
      ['Scientific calculator fx-82', 45000],
      ['Scientific calculator fx-991', 75000],
      ['Basic calculator 8 digit', 12000],
      ['Desk calculator 12 digit', 35000],
      ['Printing calculator', 180000],
      ['Graphing calculator', 450000],
      ['Mathematical set Oxford', 9000],
      ['Mathematical set basic', 5000],
      ['Ruler 30 cm plastic', 1000],
      ['Ruler 30 cm steel', 3500],
      ['Ruler 1 m wooden', 8000],
      ['Protractor 180', 1000],
      ['Compass with pencil', 2500],
      ['Set square pair', 2000],
      ['Eraser white', 300],
      ['Pencil sharpener single', 500],
      ['Pencil sharpener with box', 1500],
      ['Board geometry set', 45000],
    ],
  },
  {
    name: 'Office supplies',
    prefix: 'OFF',
    tax: 'VAT',
    unit: 'piece',
    supplier: 0,
    items: [
      ['Stapler standard', 12000],
      ['Stapler heavy duty', 45000],
      ['Staples 24/6 (box of 1000)', 2000, 'box'],
      ['Staples 23/13 (box of 1000)', 6000, 'box'],
      ['Staple remover', 2500],
      ['Paper punch 2 hole', 15000],
      ['Paper clips 33 mm', 1500, 'box'],
      ['Binder clips 32 mm (box of 12)', 5000, 'box'],
      ['Drawing pins', 1500, 'box'],
      ['Rubber bands 100 g', 3000, 'pack'],
      ['Cello tape 24 mm', 2000],
      ['Masking tape 48 mm', 5000],
      ['Packing tape brown', 6000],
      ['Correction fluid', 3500],
      ['Correction tape', 4000],
      ['Stamp pad blue', 6000],
      ['Desk organiser', 18000],
      ['Cash box small', 40000],
    ],
  },
  {
    name: 'Printing, photocopy and lamination',
    prefix: 'SRV',
    tax: 'VAT',
    unit: 'page',
    service: true,
    supplier: 0,
    items: [
      ['Photocopy A4 black and white', 100],
      ['Photocopy A3 black and white', 300],
      ['Colour print A4', 1000],
      ['Black and white print A4', 200],
      ['Scanning per page', 500],
      ['Lamination A4', 3000, 'sheet'],
      ['Lamination A3', 5000, 'sheet'],
      ['Spiral binding up to 100 pages', 5000, 'job'],
      ['Typesetting per page', 3000],
    ],
  },
];

/** The two stock locations seedShopSettings makes: the store goods arrive at, the shop they are sold from. */
const STORE_CODE = 'MS';
const SHOP_CODE = 'SF';

/**
 * Products that end the month at or below their reorder level: the low-stock list's demo. By
 * code: opened short and never restocked (one more loses a few to damage).
 */
export const DEMO_SHOP_LOW = ['EXB-014', 'PEN-006', 'PAP-002', 'FIL-013', 'ART-018', 'BAG-004', 'CAL-001', 'OFF-018'];

/**
 * The barcode of the demo's nth product: 20 (the GS1 range for in-store numbering, so it can never
 * be a real product's), then 10 digits, then the EAN-13 check digit.
 */
export function demoBarcode(serial: number): string {
  const body = `20${String(serial).padStart(10, '0')}`;
  return body + ean13CheckDigit(body);
}

/** The EAN-13 check digit of 12 digits: weights 1, 3, 1, 3, … from the left. */
export function ean13CheckDigit(twelve: string): string {
  const sum = [...twelve].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return String((10 - (sum % 10)) % 10);
}

/** A fixed namespace for the demo shop's request ids (uuid v5, RFC 9562). */
const REQUEST_NAMESPACE = Buffer.from('6d757374-6172-4464-856d-6f73686f7031'.replaceAll('-', ''), 'hex');

/** The request id of the demo month's nth movement: a uuid v5 of the namespace and the ordinal. */
export function demoMovementRequestId(tenantId: string, ordinal: number): string {
  const bytes = createHash('sha1').update(REQUEST_NAMESPACE).update(`demo-shop:${tenantId}:${ordinal}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface DemoProduct {
  code: string;
  name: string;
  kind: 'goods' | 'service';
  unit: Unit;
  barcode: string | null;
  group: string;
  price: number;
  cost: number;
  tax: 'VAT' | 'EXEMPT';
  reorder: number;
  supplier: number;
}

/** The catalogue, the same on every run. */
export function demoShopProducts(): DemoProduct[] {
  const random = seededRandom(31_008);
  let serial = 0;
  return DEMO_SHOP_GROUPS.flatMap((group) =>
    group.items.map(([name, price, unit], index) => {
      serial += 1;
      // A stationer's margin of 20 to 40 per cent, costs rounded to 50 shillings (10 for the cheapest).
      const step = price < 1000 ? 10 : 50;
      const cost = Math.min(price - step, Math.max(step, Math.round((price * (0.6 + random() * 0.2)) / step) * step));
      const reorder = price <= 1000 ? 40 : price <= 5000 ? 15 : price <= 20000 ? 8 : price <= 60000 ? 4 : 2;
      return {
        code: `${group.prefix}-${String(index + 1).padStart(3, '0')}`,
        name,
        kind: group.service ? 'service' : 'goods',
        unit: unit ?? group.unit,
        barcode: group.service ? null : demoBarcode(serial),
        group: group.name,
        price,
        cost,
        tax: group.tax,
        reorder: group.service ? 0 : reorder,
        supplier: group.supplier,
      };
    }),
  );
}

type Line = { product_id: string; quantity: string; unit_cost?: string };
type Movement = Omit<StockMovementInput, 'request_id' | 'lines' | 'occurred_on' | 'reference' | 'note'> & {
  day: number;
  reference?: string;
  note?: string;
  lines: Line[];
};

/** A day `offset` days after the seed day (negative: before), as YYYY-MM-DD. */
function dayFrom(today: Date, offset: number): string {
  return new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The month's movements in order, each possible when it is recorded (no level goes below zero):
 * opening stock 30 days ago into the store and the shop, a delivery a week from each supplier
 * into the store, a transfer a week from the store to the shop, goods found damaged or expired,
 * and a count that found more. Sales would bring the rest down; the low products opened short.
 */
export function demoShopMonth(
  products: ReadonlyArray<DemoProduct & { id: string }>,
  where: { store: string; shop: string; suppliers: string[] },
): Movement[] {
  const random = seededRandom(31_080);
  const stocked = products.filter((product) => product.kind === 'goods');
  const low = new Set(DEMO_SHOP_LOW);
  const between = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  const store = new Map<string, number>();
  const line = (product: DemoProduct & { id: string }, quantity: number, cost = false): Line => ({
    product_id: product.id,
    quantity: String(quantity),
    ...(cost ? { unit_cost: String(product.cost) } : {}),
  });

  const openingStore: Line[] = [];
  const openingShop: Line[] = [];
  for (const product of stocked) {
    // The low ones: a few at the shop, none in the store, below the reorder level from the start.
    const atStore = low.has(product.code) ? 0 : product.reorder * between(2, 4);
    const atShop = low.has(product.code) ? Math.max(1, Math.floor(product.reorder / 2)) : product.reorder + between(1, product.reorder);
    store.set(product.id, atStore);
    if (atStore > 0) openingStore.push(line(product, atStore, true));
    openingShop.push(line(product, atShop, true));
  }
  const movements: Movement[] = [
    { kind: 'opening', day: -30, location_id: where.store, reference: 'OPENING', lines: openingStore },
    { kind: 'opening', day: -30, location_id: where.shop, reference: 'OPENING', lines: openingShop },
  ];

  const byCode = new Map(stocked.map((product) => [product.code, product]));
  /** Lines taking goods out of the store: at most what it holds then (a product it has none of is left out). */
  const outOfStore = (wanted: Array<[code: string, quantity: number]>) =>
    wanted.flatMap(([code, quantity]) => {
      const product = byCode.get(code);
      const taken = product ? Math.min(quantity, store.get(product.id) ?? 0) : 0;
      if (!product || taken === 0) return [];
      store.set(product.id, (store.get(product.id) ?? 0) - taken);
      return [line(product, taken)];
    });
  const atShop = (code: string, quantity: number) => line(byCode.get(code) as DemoProduct & { id: string }, quantity);

  const restocked = stocked.filter((product) => !low.has(product.code));
  for (let week = 0; week < 4; week++) {
    // A delivery from each supplier in turn: its groups' products, two reorder levels' worth.
    for (const [supplier, partnerId] of where.suppliers.entries()) {
      const delivered = restocked.filter(
        (product) => product.supplier === supplier && (week + product.code.length + between(0, 1)) % 2 === 0,
      );
      if (delivered.length === 0) continue;
      for (const product of delivered) store.set(product.id, (store.get(product.id) ?? 0) + product.reorder * 2);
      movements.push({
        kind: 'purchase',
        day: -28 + week * 7 + supplier,
        location_id: where.store,
        partner_id: partnerId,
        reference: `DN-${2400 + week * 10 + supplier}`,
        lines: delivered.map((product) => line(product, product.reorder * 2, true)),
      });
    }
    // Saturday's transfer to the shop: about a third of the products, half what the store holds.
    const moved = restocked.filter((product) => (store.get(product.id) ?? 0) >= 2 && random() < 0.35);
    movements.push({
      kind: 'transfer',
      day: -24 + week * 7,
      location_id: where.store,
      to_location_id: where.shop,
      reference: `TR-${week + 1}`,
      lines: moved.map((product) => {
        const quantity = Math.floor((store.get(product.id) ?? 0) / 2);
        store.set(product.id, (store.get(product.id) ?? 0) - quantity);
        return line(product, quantity);
      }),
    });
    // Between the third and the last week, the store's losses (in the order of their days).
    if (week === 2)
      movements.push(
        {
          kind: 'adjustment',
          direction: 'out',
          reason: 'damaged',
          day: -9,
          location_id: where.store,
          note: 'Roof leak in the store: wet cartons',
          lines: outOfStore([
            ['PAP-001', 2],
            ['PAP-004', 1],
            ['EXB-004', 20],
            ['EXB-010', 1],
          ]),
        },
        {
          kind: 'adjustment',
          direction: 'out',
          reason: 'expired',
          day: -8,
          location_id: where.store,
          note: 'Dried out',
          lines: outOfStore([
            ['ART-008', 5],
            ['ART-009', 3],
            ['OFF-014', 4],
          ]),
        },
      );
  }
  movements.push(
    {
      kind: 'adjustment',
      direction: 'out',
      reason: 'damaged',
      day: -2,
      location_id: where.shop,
      note: 'Torn on the display',
      // A low product losing one more: the shop opened with at least 2 of it.
      lines: [atShop('EXB-014', 1), atShop('BAG-013', 1)],
    },
    {
      kind: 'adjustment',
      direction: 'in',
      reason: 'count',
      day: -1,
      location_id: where.shop,
      note: 'Month-end count',
      lines: [atShop('PEN-001', 12), atShop('PEN-008', 24)],
    },
  );

  return movements;
}

/**
 * The demo shop's catalogue, partners and month of stock. Runs in the shop's transaction (the
 * demo's `withTenant`) after its locations exist; `userId` (the demo administrator) is who the
 * movements show as recorded by.
 */
export async function seedDemoShop(trx: Trx, tenantId: string, userId: string, today = new Date()): Promise<void> {
  const tx = await bindTenant(trx, tenantId, userId);
  const taxes = new Map(
    (await trx.selectFrom('taxes').select(['id', 'code']).where('tenant_id', '=', tenantId).execute()).map((t) => [t.code, t.id]),
  );

  await trx
    .insertInto('product_groups')
    .values(DEMO_SHOP_GROUPS.map((group) => ({ tenant_id: tenantId, id: newId(), name: group.name, tax_id: taxes.get(group.tax) ?? null })))
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .execute();
  const groups = new Map(
    (await trx.selectFrom('product_groups').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((g) => [g.name, g.id]),
  );

  const catalogue = demoShopProducts();
  await inBatches(
    catalogue.map((product) => ({
      tenant_id: tenantId,
      id: newId(),
      code: product.code,
      name: product.name,
      kind: product.kind,
      unit: product.unit,
      barcode: product.barcode,
      group_id: groups.get(product.group) ?? null,
      price: String(product.price),
      cost: String(product.cost),
      tax_id: taxes.get(product.tax) ?? null,
      track_stock: product.kind === 'goods',
      reorder_level: String(product.reorder),
    })),
    (batch) =>
      trx
        .insertInto('products')
        // Kysely cannot insert into a Generated<Numeric> column by type (as the products upload): the values are decimal text.
        .values(batch as never)
        // Any key: its code, or a barcode a visitor has since given another product.
        .onConflict((oc) => oc.doNothing())
        .execute(),
  );

  await trx
    .insertInto('companies')
    .values([
      ...DEMO_SHOP_SUPPLIERS.map((supplier) => ({
        tenant_id: tenantId,
        id: newId(),
        ...supplier,
        role: 'supplier' as const,
        buyer_type: 'b2b' as const,
        terms_days: 30,
      })),
      ...DEMO_SHOP_CUSTOMERS.map((customer) => ({ tenant_id: tenantId, id: newId(), ...customer, role: 'customer' as const })),
    ])
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
    .execute();

  // The month once: a shop with any movement (this seed's, or a visitor's) keeps its own history.
  const moved = await trx.selectFrom('stock_movements').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
  if (moved) return;

  const locations = await trx.selectFrom('locations').select(['id', 'code']).where('tenant_id', '=', tenantId).execute();
  const store = locations.find((location) => location.code === STORE_CODE);
  const shop = locations.find((location) => location.code === SHOP_CODE);
  if (!store || !shop) return;
  const ids = new Map(
    (
      await trx
        .selectFrom('products')
        .select(['id', 'code'])
        .where('tenant_id', '=', tenantId)
        .where(
          'code',
          'in',
          catalogue.map((product) => product.code),
        )
        .execute()
    ).map((row) => [row.code, row.id]),
  );
  const partners = new Map(
    (await trx.selectFrom('companies').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((c) => [c.name, c.id]),
  );
  const products = catalogue.flatMap((product) => {
    const id = ids.get(product.code);
    return id ? [{ ...product, id }] : [];
  });
  const suppliers = DEMO_SHOP_SUPPLIERS.map((supplier) => partners.get(supplier.name) ?? '');
  const month = demoShopMonth(products, { store: store.id, shop: shop.id, suppliers });
  for (const [ordinal, { day, lines, ...movement }] of month.entries()) {
    if (lines.length === 0) continue;
    const input = StockMovementInputSchema.parse({
      ...movement,
      request_id: demoMovementRequestId(tenantId, ordinal),
      occurred_on: dayFrom(today, day),
      lines,
    });
    await recordStockMovement({ tx }, input);
  }
}
