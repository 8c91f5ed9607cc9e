import {
  BUSINESS_MESSAGES,
  Decimal,
  type LineTax,
  type Memo,
  type MemoAnswer,
  type MemoInput,
  type MemosQuerySchema,
  memoPostings,
  PAYMENT_MESSAGES,
  type SaleLineFigures,
  SETTINGS_MESSAGES,
  STOCK_MESSAGES,
  saleLineFigures,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { type FieldErrors, invalid, notFound } from '../../errors.js';
import { rowsToWorkbook, timestampedFileName } from '../../resources/excel.js';
import { nextDocumentNumber } from '../accounts/numbering.js';
import { postEntry } from '../accounts/postings.js';
import { queueFiscalDocument } from '../efris/outbox.js';
import { invoiceSettlements, lockInvoices } from '../sales/balances.js';
import { recordStockMovement } from '../stock/stock.service.js';
import {
  type EarlierMemoLine,
  earlierMemoLines,
  type InvoiceLineForMemo,
  insertMemo,
  invoiceForMemo,
  invoiceLinesForMemo,
  locationExists,
  type MemoRecord,
  memoLinesOf,
  memoOfRequest,
  memoRecords,
  type NewMemoLine,
} from './memos.repository.js';
import type { PaymentContext } from './receipts.service.js';

/*
 * Credit and debit memos (issue 32 point 3): the one way to correct an issued invoice. A memo is
 * one transaction that reads what earlier memos took under the invoice's lock (so two credits
 * of one invoice take turns and the second sees the first), refuses a credit beyond what
 * remains, numbers it (CN-/DN-000001), puts returned goods back in stock at the invoice's cost,
 * posts it (the reverse of the invoice for a credit) and queues a credit note for EFRIS.
 */

/** A numeric as its shortest exact text. */
const exact = (value: string | number) => new Decimal(value).toFixed();
const sum = (values: Iterable<Decimal>) => [...values].reduce((total, value) => total.plus(value), new Decimal(0));
const zero = new Decimal(0);

/** What earlier memos did to each invoice line: units returned at the invoice's price, gross credited and debited. */
interface LineHistory {
  returned: Decimal;
  returnedGross: Decimal;
  credited: Decimal;
  debited: Decimal;
}

function historyOf(lines: ReadonlyArray<InvoiceLineForMemo>, earlier: ReadonlyArray<EarlierMemoLine>): Map<number, LineHistory> {
  const history = new Map<number, LineHistory>(
    lines.map((line) => [line.line, { returned: zero, returnedGross: zero, credited: zero, debited: zero }]),
  );
  const priceOf = new Map(lines.map((line) => [line.line, new Decimal(line.unit_price)]));
  for (const memoLine of earlier) {
    const kept = history.get(memoLine.invoice_line);
    if (!kept) continue;
    if (memoLine.kind === 'debit') {
      kept.debited = kept.debited.plus(memoLine.gross);
      continue;
    }
    kept.credited = kept.credited.plus(memoLine.gross);
    // A credit at the invoice's own price takes the units back (a return); a lower one corrects a price.
    if (new Decimal(memoLine.unit_price).eq(priceOf.get(memoLine.invoice_line) ?? -1)) {
      kept.returned = kept.returned.plus(memoLine.quantity);
      kept.returnedGross = kept.returnedGross.plus(memoLine.gross);
    }
  }
  return history;
}

const taxOf = (line: InvoiceLineForMemo): LineTax | null =>
  line.tax_kind === null ? null : { code: line.tax_code ?? '', kind: line.tax_kind, rate: exact(line.tax_rate) };

/**
 * A memo line's figures. Units taken back at the invoice's price carry their share of the line's
 * discount; the last of the line's units take what remains of its gross, so returning a line in
 * parts credits exactly its gross in all, whatever the rounding of each part.
 */
function figuresOf(
  line: InvoiceLineForMemo,
  kept: LineHistory,
  quantity: Decimal,
  unitPrice: string | undefined,
  options: { decimals: number; vatRegistered: boolean },
): SaleLineFigures {
  const tax = taxOf(line);
  if (unitPrice !== undefined) return saleLineFigures({ quantity: quantity.toFixed(), unit_price: unitPrice, tax }, options);
  const invoiced = new Decimal(line.quantity);
  const amount = quantity.times(line.unit_price).toDecimalPlaces(options.decimals);
  const lastUnits = kept.returned.plus(quantity).eq(invoiced);
  const discount = lastUnits
    ? amount.minus(new Decimal(line.gross).minus(kept.returnedGross))
    : new Decimal(line.discount).times(quantity).dividedBy(invoiced).toDecimalPlaces(options.decimals);
  return saleLineFigures(
    {
      quantity: quantity.toFixed(),
      unit_price: exact(line.unit_price),
      discount: Decimal.max(discount, 0).toFixed(),
      tax,
    },
    options,
  );
}

function toMemo(row: MemoRecord, lines: Memo['lines']): Memo {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    invoice: { id: row.invoice_id, number: row.invoice_number },
    customer: { id: row.customer_id, name: row.customer_name },
    reason_code: row.reason_code,
    reason: row.reason,
    restock: row.restock,
    issued_on: row.issued_on,
    currency_code: row.currency_code,
    net_total: exact(row.net_total),
    tax_total: exact(row.tax_total),
    gross_total: exact(row.gross_total),
    fiscal_status: row.fiscal_status,
    created_at: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at),
    location: row.location_id && row.location_name !== null ? { id: row.location_id, name: row.location_name } : null,
    fiscal_fdn: row.fiscal_fdn,
    fiscal_verification_code: row.fiscal_verification_code,
    fiscal_simulated: row.fiscal_simulated,
    created_by: row.created_by_name === null ? null : { name: row.created_by_name },
    lines,
  };
}

async function loadMemo(tx: TenantTx, id: string): Promise<Memo | undefined> {
  const [row] = await memoRecords(tx, { id, page: 1, per_page: 1 });
  if (!row) return undefined;
  const lines = await memoLinesOf(tx, id);
  return toMemo(
    row,
    lines.map((line) => ({
      line: line.line,
      invoice_line: line.invoice_line,
      product: { id: line.product_id, code: line.product_code, name: line.product_name },
      description: line.description,
      quantity: exact(line.quantity),
      unit_price: exact(line.unit_price),
      tax_code: line.tax_code,
      tax_kind: line.tax_kind,
      tax_rate: exact(line.tax_rate),
      gross: exact(line.gross),
      tax: exact(line.tax),
      net: exact(line.net),
      unit_cost: exact(line.unit_cost),
    })),
  );
}

/** GET /api/memos/:id */
export async function memoById({ tx }: { tx: TenantTx }, id: string): Promise<Memo> {
  const memo = await loadMemo(tx, id);
  if (!memo) throw notFound();
  return memo;
}

async function answerOf(tx: TenantTx, id: string, created: boolean): Promise<MemoAnswer> {
  const memo = await loadMemo(tx, id);
  if (!memo) throw notFound();
  return { message: created ? PAYMENT_MESSAGES.memoRecorded : PAYMENT_MESSAGES.memoAlreadyRecorded, created, memo };
}

/**
 * Records one credit or debit memo against an issued invoice, in the caller's transaction. The
 * same `request_id` again records nothing and answers the first memo. 404 for an invoice not the
 * business's; 422 naming the field for an invoice not issued, a line the invoice does not have,
 * more units than remain of a line, a price correction above the invoice's price, a credit
 * beyond what remains of a line or of the invoice (gross + debits - credits so far), a fraction
 * of a product counted whole, a location not the business's.
 */
export async function recordMemo(context: PaymentContext, input: MemoInput): Promise<MemoAnswer> {
  const { tx } = context;
  await lockInTenant(tx, `memo-request:${input.request_id}`);
  const earlier = await memoOfRequest(tx, input.request_id);
  if (earlier) return answerOf(tx, earlier, false);

  const invoice = await invoiceForMemo(tx, input.invoice_id);
  if (!invoice) throw notFound();
  if (invoice.status !== 'issued') throw invalid({ invoice_id: [PAYMENT_MESSAGES.invoiceNotIssued] });
  if (input.restock && input.location_id && !(await locationExists(tx, input.location_id)))
    throw invalid({ location_id: [SETTINGS_MESSAGES.referenceMissing] });
  if (input.issued_on < invoice.issued_on) throw invalid({ issued_on: [STOCK_MESSAGES.dateInvalid] });

  // Memos and receipts of this invoice take turns from here: what earlier memos took is final.
  await lockInvoices(tx, [invoice.id]);
  const settlement = (await invoiceSettlements(tx, [invoice.id])).get(invoice.id);
  if (!settlement) throw notFound();
  const invoiceLines = await invoiceLinesForMemo(tx, invoice.id);
  const byLine = new Map(invoiceLines.map((line) => [line.line, line]));
  const history = historyOf(invoiceLines, await earlierMemoLines(tx, invoice.id));
  const options = { decimals: invoice.currency_decimals, vatRegistered: invoice.vat_registered };
  const credit = input.kind === 'credit';

  const errors: FieldErrors = {};
  const figures: Array<{ source: InvoiceLineForMemo; quantity: Decimal; unitPrice: string; figures: SaleLineFigures }> = [];
  input.lines.forEach((memoLine, index) => {
    const at = (field: string) => `lines.${index}.${field}`;
    const source = byLine.get(memoLine.invoice_line);
    const kept = history.get(memoLine.invoice_line);
    if (!source || !kept) {
      errors[at('invoice_line')] = [PAYMENT_MESSAGES.invoiceLineMissing];
      return;
    }
    const quantity = new Decimal(memoLine.quantity);
    if (!source.fractional && !quantity.isInteger()) {
      errors[at('quantity')] = [BUSINESS_MESSAGES.quantityWhole];
      return;
    }
    if (memoLine.unit_price !== undefined && new Decimal(memoLine.unit_price).decimalPlaces() > options.decimals) {
      errors[at('unit_price')] = [BUSINESS_MESSAGES.amountTooPrecise];
      return;
    }
    if (credit) {
      // Units returned, or whose price is corrected, come from those not returned yet.
      if (quantity.gt(new Decimal(source.quantity).minus(kept.returned))) {
        errors[at('quantity')] = [PAYMENT_MESSAGES.quantityAboveRemaining];
        return;
      }
      if (memoLine.unit_price !== undefined && new Decimal(memoLine.unit_price).gt(source.unit_price)) {
        errors[at('unit_price')] = [PAYMENT_MESSAGES.priceAboveInvoice];
        return;
      }
    }
    let lineFigures: SaleLineFigures;
    try {
      lineFigures = figuresOf(source, kept, quantity, memoLine.unit_price, options);
    } catch {
      errors[at('quantity')] = [PAYMENT_MESSAGES.creditAboveLine];
      return;
    }
    if (credit && new Decimal(lineFigures.gross).gt(new Decimal(source.gross).plus(kept.debited).minus(kept.credited))) {
      errors[at(memoLine.unit_price === undefined ? 'quantity' : 'unit_price')] = [PAYMENT_MESSAGES.creditAboveLine];
      return;
    }
    figures.push({ source, quantity, unitPrice: memoLine.unit_price ?? exact(source.unit_price), figures: lineFigures });
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const gross = sum(figures.map((line) => new Decimal(line.figures.gross)));
  const tax = sum(figures.map((line) => new Decimal(line.figures.tax)));
  const net = sum(figures.map((line) => new Decimal(line.figures.net)));
  if (!gross.gt(0)) throw invalid({ lines: [PAYMENT_MESSAGES.memoAmountZero] });
  if (gross.gte('1e16')) throw invalid({ lines: [PAYMENT_MESSAGES.amountTooLarge] });
  if (credit && gross.gt(new Decimal(settlement.gross_total).plus(settlement.debited).minus(settlement.credited)))
    throw invalid({ lines: [PAYMENT_MESSAGES.creditAboveInvoice] });

  // Goods back on the shelf at what they cost when sold: their value returns to the stock and leaves cost of sales.
  const restocked = input.restock && credit ? figures.filter((line) => line.source.track_stock) : [];
  const cost = sum(restocked.map((line) => line.quantity.times(line.source.unit_cost).toDecimalPlaces(4)));

  const id = newId();
  const createdBy = context.member?.userId ?? tx.userId ?? null;
  const number = await nextDocumentNumber(tx, credit ? 'credit_memo' : 'debit_memo');
  let movementId: string | null = null;
  if (restocked.length > 0 && input.location_id) {
    const movement = await recordStockMovement(context, {
      request_id: newId(),
      kind: 'sale_return',
      occurred_on: input.issued_on,
      location_id: input.location_id,
      partner_id: invoice.customer_id,
      reference: number,
      note: null,
      lines: restocked.map((line) => ({
        product_id: line.source.product_id,
        quantity: line.quantity.toFixed(),
        unit_cost: exact(line.source.unit_cost),
      })),
    });
    movementId = movement.movement_id;
  }
  await insertMemo(
    tx,
    {
      id,
      request_id: input.request_id,
      number,
      kind: input.kind,
      invoice_id: invoice.id,
      reason_code: input.reason_code,
      reason: input.reason,
      restock: input.restock && credit,
      location_id: input.restock && credit ? (input.location_id ?? null) : null,
      issued_on: input.issued_on,
      currency_code: invoice.currency_code,
      net_total: net.toFixed(),
      tax_total: tax.toFixed(),
      gross_total: gross.toFixed(),
      stock_movement_id: movementId,
      created_by: createdBy,
    },
    figures.map<NewMemoLine>((line, index) => ({
      memo_id: id,
      line: index,
      invoice_line: line.source.line,
      invoice_id: invoice.id,
      product_id: line.source.product_id,
      description: line.source.description,
      quantity: line.quantity.toFixed(),
      unit_price: line.unitPrice,
      tax_id: line.source.tax_id,
      tax_code: line.source.tax_code,
      tax_kind: line.source.tax_kind,
      tax_rate: exact(line.source.tax_rate),
      gross: line.figures.gross,
      tax: line.figures.tax,
      net: line.figures.net,
      unit_cost: exact(line.source.unit_cost),
    })),
  );
  await postEntry(tx, {
    source_kind: 'memo',
    source_id: id,
    occurred_on: input.issued_on,
    description: `${credit ? 'Credit' : 'Debit'} memo ${number} on ${invoice.number ?? ''}`.slice(0, 300),
    lines: memoPostings({
      kind: input.kind,
      gross_total: gross.toFixed(),
      tax_total: tax.toFixed(),
      cost_total: cost.toFixed(),
      customer_id: invoice.customer_id,
    }),
    created_by: createdBy,
  });
  if (credit) await queueFiscalDocument(tx, { kind: 'credit_memo', id });
  await recordAudit(tx, { action: 'create', entity: 'memo', entityId: id, after: { ...input, number } });
  return answerOf(tx, id, true);
}

/** GET /api/memos: newest first; `excel=1` every memo of the filter as a workbook. */
export async function listMemos({ tx }: { tx: TenantTx }, query: z.output<typeof MemosQuerySchema>) {
  if (query.to && !(/^\d{4}-\d{2}-\d{2}$/.test(query.to) && !Number.isNaN(Date.parse(query.to))))
    throw invalid({ to: [STOCK_MESSAGES.dateInvalid] });
  const rows = await memoRecords(tx, { ...query, per_page: query.excel ? null : query.per_page });
  const memos = rows.map((row) => {
    const {
      lines: _none,
      location: _at,
      fiscal_fdn: _fdn,
      fiscal_verification_code: _code,
      fiscal_simulated: _simulated,
      created_by: _by,
      ...listed
    } = toMemo(row, []);
    return listed;
  });
  if (query.excel)
    return {
      file: {
        fileName: timestampedFileName('mustard'),
        workbook: await rowsToWorkbook(
          'Memos',
          [
            { header: 'Number', value: (r) => r.number },
            { header: 'Kind', value: (r) => r.kind },
            { header: 'Date', value: (r) => r.issued_on },
            { header: 'Invoice', value: (r) => (r.invoice as { number: string | null }).number ?? '' },
            { header: 'Customer', value: (r) => (r.customer as { name: string }).name },
            { header: 'Reason', value: (r) => r.reason },
            { header: 'Currency', value: (r) => r.currency_code },
            { header: 'Net', value: (r) => Number(r.net_total) },
            { header: 'Tax', value: (r) => Number(r.tax_total) },
            { header: 'Gross', value: (r) => Number(r.gross_total) },
            { header: 'Fiscal', value: (r) => r.fiscal_status },
          ],
          memos,
        ),
      },
    };
  return { answer: { memos, totalRecords: Number(rows[0]?.total ?? 0) } };
}

/** What remains of an invoice to credit, per line and in all (the new memo form). */
export async function memoRemains({ tx }: { tx: TenantTx }, invoiceId: string) {
  const invoice = await invoiceForMemo(tx, invoiceId);
  if (!invoice) throw notFound();
  const settlement = (await invoiceSettlements(tx, [invoice.id])).get(invoice.id);
  if (!settlement) throw notFound();
  const lines = await invoiceLinesForMemo(tx, invoice.id);
  const history = historyOf(lines, await earlierMemoLines(tx, invoice.id));
  return {
    invoice: {
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      customer: { id: invoice.customer_id, name: invoice.customer_name },
      issued_on: invoice.issued_on,
      currency_code: invoice.currency_code,
      currency_decimals: invoice.currency_decimals,
      location_id: invoice.location_id,
      gross_total: exact(settlement.gross_total),
      credited: exact(settlement.credited),
      debited: exact(settlement.debited),
      paid: exact(settlement.paid),
      balance: exact(settlement.balance),
      creditable: new Decimal(settlement.gross_total).plus(settlement.debited).minus(settlement.credited).toFixed(),
    },
    lines: lines.map((line) => {
      const kept = history.get(line.line) ?? { returned: zero, returnedGross: zero, credited: zero, debited: zero };
      return {
        line: line.line,
        product: { id: line.product_id, code: line.product_code, name: line.product_name },
        description: line.description,
        track_stock: line.track_stock,
        fractional: line.fractional,
        quantity: exact(line.quantity),
        unit_price: exact(line.unit_price),
        discount: exact(line.discount),
        tax_code: line.tax_code,
        tax_rate: exact(line.tax_rate),
        gross: exact(line.gross),
        returned: kept.returned.toFixed(),
        remaining_quantity: new Decimal(line.quantity).minus(kept.returned).toFixed(),
        remaining_gross: new Decimal(line.gross).plus(kept.debited).minus(kept.credited).toFixed(),
      };
    }),
  };
}
