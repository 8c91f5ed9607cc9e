import {
  BUSINESS_MESSAGES,
  Decimal,
  documentTotals,
  type Invoice,
  type InvoiceInput,
  type InvoiceLine,
  type InvoiceSummary,
  invoiceBalance,
  invoicePostings,
  type LineTax,
  PAYMENT_METHODS,
  paymentStatus,
  SALES_MESSAGES,
  SETTINGS_MESSAGES,
  saleLineFigures,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, conflict, type FieldErrors, invalid, notFound } from '../../errors.js';
import { nextDocumentNumber } from '../accounts/numbering.js';
import { postEntry } from '../accounts/postings.js';
import { queueFiscalDocument } from '../efris/outbox.js';
import { recordStockMovement } from '../stock/stock.service.js';
import {
  customerById,
  deleteInvoiceRow,
  type InvoiceRow,
  insertInvoice,
  invoiceLines,
  invoiceOfRequest,
  invoiceRow,
  type LineRow,
  locationExists,
  lockInvoice,
  replaceLines,
  type SaleProduct,
  type StoredLine,
  saleCurrencies,
  saleLocations,
  saleProducts,
  saleSettings,
  saleTaxes,
  updateInvoice,
  walkInCustomer,
} from './sales.repository.js';

/*
 * Sales invoices (issue 32 point 1; guide business.md "Documents", "Postings"): one user action,
 * one transaction. A draft is saved with its figures worked out from today's prices and taxes so
 * the screen can show them, and has no other effect. Issuing recomputes every line from the
 * current taxes and rules under the invoice's row lock, takes stock out through the stock ledger
 * (at the moving-average cost, which becomes the lines' unit cost), takes the next number in
 * the same transaction, posts the entry and queues it for EFRIS: all of it commits or none.
 */

/** Who acts: a route hands its ActionContext; the counter and the demo seed hand theirs. */
export interface SaleContext {
  readonly tx: TenantTx;
  readonly member?: { readonly userId: string } | null;
}

/** Today in Kampala (UTC+3): the shop's day, whatever the server's clock zone. */
export function kampalaToday(now = Date.now()): string {
  return new Date(now + 3 * 3600 * 1000).toISOString().slice(0, 10);
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
const iso = (value: Date | string | null) => (value === null ? null : value instanceof Date ? value.toISOString() : String(value));
const exact = (value: string | number) => new Decimal(value).toFixed();

/** An invoice row and its lines as the contract shows them, with the settlement and payment status. */
function summaryOf(row: InvoiceRow, today: string): InvoiceSummary {
  const settlement = { gross_total: row.gross_total, paid: row.paid, credited: row.credited, debited: row.debited };
  return {
    id: row.id,
    request_id: row.request_id,
    kind: row.kind,
    status: row.status,
    number: row.number,
    customer_id: row.customer_id,
    customer: { name: row.customer_name, tin: row.customer_tin, phone: row.customer_phone },
    buyer_name: row.buyer_name,
    buyer_phone: row.buyer_phone,
    location_id: row.location_id,
    location: row.location_name === null ? null : { name: row.location_name },
    currency_code: row.currency_code,
    currency_decimals: Number(row.currency_decimals),
    issued_on: row.issued_on,
    due_on: row.due_on,
    reference: row.reference,
    notes: row.notes,
    vat_registered: row.vat_registered,
    discount_total: exact(row.discount_total),
    net_total: exact(row.net_total),
    tax_total: exact(row.tax_total),
    gross_total: exact(row.gross_total),
    paid: exact(row.paid),
    credited: exact(row.credited),
    debited: exact(row.debited),
    balance: invoiceBalance(settlement),
    payment_status: paymentStatus({ ...settlement, status: row.status, due_on: row.due_on, today }),
    fiscal_status: row.fiscal_status,
    fiscal_fdn: row.fiscal_fdn,
    fiscal_verification_code: row.fiscal_verification_code,
    fiscal_qr_code: row.fiscal_qr_code,
    fiscal_simulated: row.fiscal_simulated,
    created_at: iso(row.created_at) ?? '',
    issued_at: iso(row.issued_at),
  };
}

function lineOf(row: LineRow): InvoiceLine {
  return {
    line: row.line,
    product_id: row.product_id,
    product: { code: row.product_code, name: row.product_name, unit: row.product_unit, barcode: row.product_barcode },
    description: row.description,
    quantity: exact(row.quantity),
    unit_price: exact(row.unit_price),
    discount: exact(row.discount),
    tax_id: row.tax_id,
    tax_code: row.tax_code,
    tax_kind: row.tax_kind,
    tax_rate: exact(row.tax_rate),
    gross: exact(row.gross),
    tax: exact(row.tax),
    net: exact(row.net),
  };
}

/** The whole invoice as the contract shows it (404 when the business has no such invoice). */
export async function invoiceOf(tx: TenantTx, id: string): Promise<Invoice> {
  const row = await invoiceRow(tx, id);
  if (!row) throw notFound();
  const lines = await invoiceLines(tx, id);
  const totals = documentTotals(
    lines.map((line) => ({
      gross: line.gross,
      tax: line.tax,
      net: line.net,
      discount: line.discount,
      tax_code: line.tax_code,
      tax_kind: line.tax_kind,
      tax_rate: line.tax_rate,
    })),
  );
  return { ...summaryOf(row, kampalaToday()), lines: lines.map(lineOf), by_tax: totals.by_tax };
}

export { summaryOf as invoiceSummaryOf };

/** What a document's header resolves to: the customer, location and currency it names or the business's defaults. */
interface Header {
  customer_id: string;
  terms_days: number;
  location_id: string;
  currency_code: string;
  currency_decimals: number;
  rate: string;
  issued_on: string;
  due_on: string;
}

async function resolveHeader(
  tx: TenantTx,
  input: Pick<InvoiceInput, 'customer_id' | 'location_id' | 'currency_code' | 'issued_on' | 'due_on'>,
  errors: FieldErrors,
): Promise<Header> {
  let customer = input.customer_id ? await customerById(tx, input.customer_id) : await walkInCustomer(tx);
  if (!customer) errors.customer_id = [SETTINGS_MESSAGES.referenceMissing];
  else if (customer.role === 'supplier') {
    errors.customer_id = [SALES_MESSAGES.notACustomer];
    customer = undefined;
  }
  let locationId = input.location_id ?? null;
  if (locationId && !(await locationExists(tx, locationId))) {
    errors.location_id = [SETTINGS_MESSAGES.referenceMissing];
    locationId = null;
  }
  if (!input.location_id) {
    locationId = (await saleLocations(tx))[0]?.id ?? null;
    if (!locationId) errors.location_id = [SALES_MESSAGES.locationRequired];
  }
  const currencies = await saleCurrencies(tx);
  const currency = input.currency_code ? currencies.find((row) => row.code === input.currency_code) : currencies[0];
  if (!currency) errors.currency_code = [SALES_MESSAGES.currencyUnknown];
  const issuedOn = input.issued_on ?? kampalaToday();
  const dueOn = input.due_on ?? addDays(issuedOn, customer?.terms_days ?? 0);
  if (dueOn < issuedOn) errors.due_on = [SALES_MESSAGES.dueBeforeIssue];
  return {
    customer_id: customer?.id ?? '',
    terms_days: customer?.terms_days ?? 0,
    location_id: locationId ?? '',
    currency_code: currency?.code ?? '',
    currency_decimals: currency?.decimals ?? 0,
    rate: currency?.rate ?? '1',
    issued_on: issuedOn,
    due_on: dueOn,
  };
}

/** A line as given: product, quantity, unit price (none: the product's), discount, description. */
interface GivenLine {
  product_id: string;
  quantity: string;
  unit_price?: string | undefined;
  discount?: string | undefined;
  description?: string | null;
}

/** One line worked out, or the field at fault and why. */
function figureLine(
  line: GivenLine,
  index: number,
  product: SaleProduct | undefined,
  options: { decimals: number; vatRegistered: boolean },
): StoredLine | { field: string; message: string } {
  const fault = (field: string, message: string) => ({ field, message });
  if (!product) return fault('product_id', SETTINGS_MESSAGES.referenceMissing);
  if (!product.active) return fault('product_id', SALES_MESSAGES.productInactive);
  const quantity = new Decimal(line.quantity);
  if (!product.fractional && !quantity.isInteger()) return fault('quantity', BUSINESS_MESSAGES.quantityWhole);
  const unitPrice = line.unit_price ?? new Decimal(product.price).toFixed();
  const discount = line.discount ?? '0';
  if (new Decimal(unitPrice).decimalPlaces() > options.decimals) return fault('unit_price', BUSINESS_MESSAGES.amountTooPrecise);
  if (new Decimal(discount).decimalPlaces() > options.decimals) return fault('discount', BUSINESS_MESSAGES.amountTooPrecise);
  const tax: LineTax | null =
    product.tax_kind === null ? null : { code: product.tax_code ?? '', kind: product.tax_kind, rate: product.tax_rate ?? '0' };
  let figures: ReturnType<typeof saleLineFigures>;
  try {
    figures = saleLineFigures({ quantity: line.quantity, unit_price: unitPrice, discount, tax }, options);
  } catch (error) {
    if (error instanceof RangeError) return fault('discount', SALES_MESSAGES.discountAboveLine);
    throw error;
  }
  if (new Decimal(figures.gross).gte('1e15')) return fault('quantity', BUSINESS_MESSAGES.amountInvalid);
  return {
    line: index,
    product_id: product.id,
    description: line.description ?? null,
    quantity: quantity.toFixed(),
    unit_price: new Decimal(unitPrice).toFixed(),
    discount: new Decimal(figures.discount).toFixed(),
    tax_id: tax ? product.tax_id : null,
    tax_code: tax ? tax.code : null,
    tax_kind: tax ? tax.kind : null,
    tax_rate: tax && options.vatRegistered ? tax.rate : '0',
    gross: figures.gross,
    tax: figures.tax,
    net: figures.net,
    unit_cost: '0',
  };
}

/**
 * Works out each line from its product's current price and tax (shared saleLineFigures: gross
 * rounded to the currency, VAT = gross × rate / (100 + rate) rounded per line), naming each line
 * at fault: another business's or unknown product, an inactive one, a fraction of a whole-unit
 * product, a price or discount finer than the currency, a discount above the line.
 */
function figureLines(
  lines: ReadonlyArray<GivenLine>,
  products: Map<string, SaleProduct>,
  options: { decimals: number; vatRegistered: boolean },
  errors: FieldErrors,
): StoredLine[] {
  const stored: StoredLine[] = [];
  lines.forEach((line, index) => {
    const figured = figureLine(line, index, products.get(line.product_id), options);
    if ('field' in figured) errors[`lines.${index}.${figured.field}`] = [figured.message];
    else stored.push(figured);
  });
  return stored;
}

function totalsOf(lines: ReadonlyArray<StoredLine>) {
  return documentTotals(
    lines.map((line) => ({
      gross: line.gross,
      tax: line.tax,
      net: line.net,
      discount: line.discount,
      tax_code: line.tax_code,
      tax_kind: line.tax_kind,
      tax_rate: line.tax_rate,
    })),
  );
}

/** A draft's header and lines checked and worked out (422 naming every field at fault). */
async function draftOf(tx: TenantTx, input: InvoiceInput) {
  const errors: FieldErrors = {};
  const header = await resolveHeader(tx, input, errors);
  const products = await saleProducts(
    tx,
    input.lines.map((line) => line.product_id),
  );
  const { vat_registered } = await saleSettings(tx);
  const lines = figureLines(input.lines, products, { decimals: header.currency_decimals, vatRegistered: vat_registered }, errors);
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const totals = totalsOf(lines);
  return {
    header,
    lines,
    fields: {
      customer_id: header.customer_id,
      buyer_name: input.buyer_name ?? null,
      buyer_phone: input.buyer_phone ?? null,
      location_id: header.location_id,
      currency_code: header.currency_code,
      currency_decimals: header.currency_decimals,
      rate: header.rate,
      issued_on: header.issued_on,
      due_on: header.due_on,
      reference: input.reference ?? null,
      notes: input.notes ?? null,
      vat_registered,
      discount_total: totals.discount_total,
      net_total: totals.net_total,
      tax_total: totals.tax_total,
      gross_total: totals.gross_total,
    },
  };
}

/**
 * Saves a new draft. The same request id again (a retry, even at the same moment) saves nothing
 * and answers the first (`created: false`); a request id of another kind of document is a 409.
 */
export async function createDraft(
  context: SaleContext,
  input: InvoiceInput,
  kind: 'invoice' | 'cash_sale' = 'invoice',
): Promise<{ message: string; created: boolean; invoice: Invoice }> {
  const { tx } = context;
  const earlier = await invoiceOfRequest(tx, input.request_id);
  if (earlier) return answerEarlier(tx, earlier, kind);
  const draft = await draftOf(tx, input);
  const id = newId();
  const inserted = await insertInvoice(tx, {
    id,
    request_id: input.request_id,
    kind,
    status: 'draft',
    number: null,
    ...draft.fields,
    created_by: context.member?.userId ?? tx.userId ?? null,
  });
  if (!inserted) {
    const first = await invoiceOfRequest(tx, input.request_id);
    if (!first) throw new AppError(409);
    return answerEarlier(tx, first, kind);
  }
  await replaceLines(tx, id, draft.lines);
  await recordAudit(tx, { action: 'create', entity: 'invoice', entityId: id, after: { request_id: input.request_id, kind } });
  return { message: SALES_MESSAGES.invoiceSaved, created: true, invoice: await invoiceOf(tx, id) };
}

async function answerEarlier(tx: TenantTx, earlier: { id: string; kind: string }, kind: string) {
  if (earlier.kind !== kind) throw conflict(SALES_MESSAGES.requestReused);
  return { message: SALES_MESSAGES.invoiceSaved, created: false, invoice: await invoiceOf(tx, earlier.id) };
}

/** Changes a draft: header and lines replaced, figures worked out again (409 once issued). */
export async function updateDraft(context: SaleContext, id: string, input: InvoiceInput) {
  const { tx } = context;
  const locked = await lockInvoice(tx, id);
  if (!locked) throw notFound();
  if (locked.status !== 'draft') throw conflict(SALES_MESSAGES.documentIssued);
  const draft = await draftOf(tx, input);
  await updateInvoice(tx, id, draft.fields);
  await replaceLines(tx, id, draft.lines);
  await recordAudit(tx, { action: 'update', entity: 'invoice', entityId: id });
  return { message: SALES_MESSAGES.invoiceSaved, created: false, invoice: await invoiceOf(tx, id) };
}

/** Deletes a draft (409 once issued: an issued invoice is corrected by a memo). */
export async function deleteDraft(context: SaleContext, id: string) {
  const { tx } = context;
  const locked = await lockInvoice(tx, id);
  if (!locked) throw notFound();
  if (locked.status !== 'draft') throw conflict(SALES_MESSAGES.documentIssued);
  await deleteInvoiceRow(tx, id);
  await recordAudit(tx, { action: 'delete', entity: 'invoice', entityId: id });
  return { message: SALES_MESSAGES.invoiceDeleted };
}

/** Goods that keep stock: what a sale takes out of the ledger. */
const stocked = (product: SaleProduct | undefined) => product !== undefined && product.kind === 'goods' && product.track_stock;

/**
 * Issues a draft in the caller's transaction. The invoice's row lock is taken first: a second
 * issue of the same draft at the same moment waits, then finds it issued and answers it as it
 * is (one number). Every line is worked out again from the current taxes and rules (422 naming
 * `lines.<i>.<field>`); stock goes out at the invoice's location (422 on the line that would go
 * below zero unless the business allows it) at the moving-average cost; the number is taken last
 * (a refused issue rolls back with it, so numbers have no gaps); the entry is posted and the
 * invoice queued for EFRIS.
 */
export async function issueInvoice(context: SaleContext, id: string) {
  const { tx } = context;
  const locked = await lockInvoice(tx, id);
  if (!locked) throw notFound();
  if (locked.status !== 'draft') return { message: SALES_MESSAGES.invoiceIssued, created: false, invoice: await invoiceOf(tx, id) };

  const row = await invoiceRow(tx, id);
  if (!row) throw notFound();
  const kept = await invoiceLines(tx, id);
  const errors: FieldErrors = {};
  const products = await saleProducts(
    tx,
    kept.map((line) => line.product_id),
  );
  const { vat_registered } = await saleSettings(tx);
  if (kept.length === 0) errors.lines = [SALES_MESSAGES.linesRequired];
  const lines = figureLines(
    kept.map((line) => ({
      product_id: line.product_id,
      quantity: line.quantity,
      unit_price: line.unit_price,
      discount: line.discount,
      description: line.description,
    })),
    products,
    { decimals: Number(row.currency_decimals), vatRegistered: vat_registered },
    errors,
  );
  if (Object.keys(errors).length > 0) throw invalid(errors);

  // Stock out: one 'sale' movement of the stocked lines, its request id the invoice's id (a retry records it once).
  const stockLines = lines.filter((line) => stocked(products.get(line.product_id)));
  let costTotal = new Decimal(0);
  let movementId: string | null = null;
  if (stockLines.length > 0) {
    let moved: Awaited<ReturnType<typeof recordStockMovement>>;
    try {
      moved = await recordStockMovement(context, {
        request_id: id,
        kind: 'sale',
        occurred_on: row.issued_on,
        location_id: row.location_id,
        reference: null,
        note: null,
        lines: stockLines.map((line) => ({ product_id: line.product_id, quantity: line.quantity })),
      });
    } catch (error) {
      // The movement names its own lines: name the invoice's.
      if (error instanceof AppError && error.statusCode === 422 && error.errors) {
        const named: FieldErrors = {};
        for (const [field, messages] of Object.entries(error.errors)) {
          const match = /^lines\.(\d+)\.(.+)$/.exec(field);
          const line = match ? stockLines[Number(match[1])] : undefined;
          named[line ? `lines.${line.line}.${match?.[2]}` : field] = messages;
        }
        throw invalid(named);
      }
      throw error;
    }
    movementId = moved.movement_id;
    // One ledger row per stocked line, in order: its unit cost is the line's cost of sales.
    stockLines.forEach((line, at) => {
      const record = moved.records[at];
      line.unit_cost = record ? new Decimal(record.unit_cost).toFixed() : '0';
      costTotal = costTotal.plus(new Decimal(line.quantity).times(line.unit_cost).toDecimalPlaces(4, Decimal.ROUND_HALF_UP));
    });
  }

  const totals = totalsOf(lines);
  await replaceLines(tx, id, lines);
  const number = await nextDocumentNumber(tx, 'invoice');
  const userId = context.member?.userId ?? tx.userId ?? null;
  await updateInvoice(tx, id, {
    status: 'issued',
    number,
    vat_registered,
    discount_total: totals.discount_total,
    net_total: totals.net_total,
    tax_total: totals.tax_total,
    gross_total: totals.gross_total,
    stock_movement_id: movementId,
    issued_by: userId,
    issued_at: new Date(),
  });
  await postEntry(tx, {
    source_kind: 'invoice',
    source_id: id,
    occurred_on: row.issued_on,
    description: `Invoice ${number} to ${row.customer_name}`.slice(0, 300),
    lines: invoicePostings({
      gross_total: totals.gross_total,
      tax_total: totals.tax_total,
      cost_total: costTotal.toFixed(),
      customer_id: row.customer_id,
    }),
    created_by: userId,
  });
  await queueFiscalDocument(tx, { kind: 'invoice', id });
  await recordAudit(tx, { action: 'update', entity: 'invoice', entityId: id, after: { status: 'issued', number } });
  return { message: SALES_MESSAGES.invoiceIssued, created: true, invoice: await invoiceOf(tx, id) };
}

/** What a new invoice or counter sale starts from. */
export async function invoiceDefaults(context: SaleContext) {
  const { tx } = context;
  const customer = await walkInCustomer(tx);
  const locations = await saleLocations(tx);
  const currencies = await saleCurrencies(tx);
  const settings = await saleSettings(tx);
  const taxes = await saleTaxes(tx);
  const currency = currencies[0];
  const money = (row: { code: string; decimals: number; symbol: string | null }) => ({
    code: row.code,
    decimals: Number(row.decimals),
    symbol: row.symbol,
  });
  return {
    customer: { id: customer.id, name: customer.name },
    location: locations[0] ?? null,
    locations,
    currency: currency ? money(currency) : { code: 'UGX', decimals: 0, symbol: 'USh' },
    currencies: currencies.map(money),
    today: kampalaToday(),
    vat_registered: settings.vat_registered,
    allow_negative_stock: settings.allow_negative_stock,
    payment_methods: [...PAYMENT_METHODS],
    taxes: taxes.map((tax) => ({ ...tax, rate: exact(tax.rate) })),
  };
}
