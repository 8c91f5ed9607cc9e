import { Decimal } from '@mustard/shared';
import type { FiscalInvoice, FiscalMemo } from './efris.repository.js';

/*
 * Mustard's documents as URA's JSON (issue 32 point 7): the invoice of T109 and the credit note
 * application of T110, the goods of T130 and the stock-in of T131. Amounts are exact decimal
 * text, as everywhere (never a float). A line's discount is folded into its unit price (URA's
 * discountFlag 2, "no discount line"): URA wants total = qty x unitPrice, and the gross after
 * discount is what was charged and taxed.
 */

const text = (value: string | number) => new Decimal(value).toFixed();

/** URA's tax categories: 01 standard, 02 zero-rated, 03 exempt, 04 deemed. */
const TAX_CATEGORY: Record<string, string> = { standard: '01', zero: '02', exempt: '03', deemed: '04' };

/** URA's payment modes (T115 payWay). */
const PAY_MODE: Record<string, string> = {
  cash: '102',
  cheque: '103',
  mtn_momo: '105',
  airtel_money: '105',
  card: '106',
  bank: '107',
};
const CREDIT_MODE = '101';

/** URA's buyer types: 0 business (TIN required), 1 consumer, 2 foreigner, 3 government (TIN required). */
const BUYER_TYPE: Record<string, string> = { b2b: '0', b2c: '1', foreigner: '2', government: '3' };

/** Credit note reasons: 101 returned (expiry, damage), 102 cancelled, 103 wrongly stated, 104 waived, 105 other. */
const CREDIT_REASON: Record<string, string> = { return: '101', cancel: '102', price: '103', discount: '104', other: '105' };

/** URA's units of measure for the units Mustard's products are kept in; a piece otherwise. */
export function measureUnit(unit: string): string {
  const known: Record<string, string> = {
    kg: 'KGM',
    g: 'GRM',
    l: 'LTR',
    ltr: 'LTR',
    litre: 'LTR',
    m: 'MTR',
    box: 'BX',
    carton: 'CT',
    ream: 'RM',
    pack: 'PA',
    dozen: 'DZN',
    hour: 'HUR',
  };
  return known[unit.trim().toLowerCase()] ?? 'PP';
}

/**
 * The commodity category URA classes goods under (UNSPSC, 8 digits). Mustard's products carry
 * none yet: every product is registered under one default (general office and shop supplies).
 */
export const DEFAULT_COMMODITY_CODE = '44120000';

export function uraDateTime(value: Date | string | null): string {
  const date = value ? new Date(value) : new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

function taxRate(kind: string | null, rate: string): string {
  if (kind === 'exempt') return '-';
  if (kind === 'zero' || kind === null) return '0';
  return new Decimal(rate).div(100).toFixed();
}

export interface Seller {
  name: string;
  tin: string;
  email: string | null;
  phone: string | null;
  address: string | null;
}

interface TaxRow {
  taxCategoryCode: string;
  netAmount: string;
  taxRate: string;
  taxAmount: string;
  grossAmount: string;
  taxRateName: string;
}

function taxDetails(rows: ReadonlyArray<{ category: string; rate: string; gross: Decimal; tax: Decimal }>, sign: 1 | -1): TaxRow[] {
  const groups = new Map<string, { category: string; rate: string; gross: Decimal; tax: Decimal }>();
  for (const row of rows) {
    const key = `${row.category}|${row.rate}`;
    const group = groups.get(key) ?? { category: row.category, rate: row.rate, gross: new Decimal(0), tax: new Decimal(0) };
    group.gross = group.gross.plus(row.gross);
    group.tax = group.tax.plus(row.tax);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.category.localeCompare(b.category))
    .map((group) => ({
      taxCategoryCode: group.category,
      netAmount: group.gross.minus(group.tax).times(sign).toFixed(),
      taxRate: group.rate,
      taxAmount: group.tax.times(sign).toFixed(),
      grossAmount: group.gross.times(sign).toFixed(),
      taxRateName: '',
    }));
}

function goodsLine(
  line: {
    quantity: string;
    gross: string;
    tax: string;
    tax_kind: string | null;
    tax_rate: string;
    code: string;
    name: string;
    unit: string;
  },
  order: number,
  sign: 1 | -1,
) {
  const quantity = new Decimal(line.quantity);
  const gross = new Decimal(line.gross);
  // The unit price after discount, exact enough that qty x price is the gross to well under a shilling.
  const unitPrice = quantity.gt(0) ? gross.div(quantity).toDecimalPlaces(8) : gross;
  return {
    item: line.name.slice(0, 200),
    itemCode: line.code,
    qty: quantity.times(sign).toFixed(),
    unitOfMeasure: measureUnit(line.unit),
    unitPrice: unitPrice.toFixed(),
    total: gross.times(sign).toFixed(),
    taxRate: taxRate(line.tax_kind, line.tax_rate),
    tax: new Decimal(line.tax).times(sign).toFixed(),
    discountTotal: '',
    discountTaxRate: '',
    orderNumber: String(order),
    discountFlag: '2',
    deemedFlag: line.tax_kind === 'deemed' ? '1' : '2',
    exciseFlag: '2',
    categoryId: '',
    categoryName: '',
    goodsCategoryId: DEFAULT_COMMODITY_CODE,
    goodsCategoryName: '',
    vatApplicableFlag: '1',
  };
}

function buyer(invoice: FiscalInvoice['invoice']) {
  const type = BUYER_TYPE[invoice.buyer_type] ?? '1';
  const name = invoice.kind === 'cash_sale' && invoice.buyer_name ? invoice.buyer_name : invoice.customer_name;
  return {
    buyerTin: invoice.customer_tin ?? '',
    buyerNinBrn: '',
    buyerPassportNum: '',
    buyerLegalName: name.slice(0, 256),
    buyerBusinessName: name.slice(0, 256),
    buyerAddress: (invoice.customer_address ?? '').slice(0, 500),
    buyerEmail: invoice.customer_email ?? '',
    buyerMobilePhone: invoice.buyer_phone ?? invoice.customer_phone ?? '',
    buyerLinePhone: '',
    buyerPlaceOfBusi: '',
    buyerType: type,
    buyerCitizenship: '',
    buyerSector: '',
    buyerReferenceNo: '',
  };
}

function sellerDetails(seller: Seller, referenceNo: string) {
  return {
    tin: seller.tin,
    ninBrn: '',
    legalName: seller.name,
    businessName: seller.name,
    address: seller.address ?? '',
    mobilePhone: seller.phone ?? '',
    linePhone: '',
    emailAddress: seller.email ?? '',
    placeOfBusiness: seller.address ?? '',
    referenceNo,
    branchId: '',
    isCheckReferenceNo: '1',
  };
}

/** T109: the invoice upload. */
export function invoiceContent(document: FiscalInvoice, seller: Seller, deviceNo: string, operator: string) {
  const { invoice, lines, payments } = document;
  const goods = lines.map((line, index) => goodsLine(line, index, 1));
  const gross = lines.reduce((sum, line) => sum.plus(line.gross), new Decimal(0));
  const tax = lines.reduce((sum, line) => sum.plus(line.tax), new Decimal(0));
  // What was paid by each means, the rest on credit: together exactly the gross, as URA checks.
  const paid = new Map<string, Decimal>();
  let left = gross;
  for (const payment of payments) {
    const amount = Decimal.min(new Decimal(payment.amount), left);
    if (amount.lte(0)) break;
    const mode = PAY_MODE[payment.method] ?? CREDIT_MODE;
    paid.set(mode, (paid.get(mode) ?? new Decimal(0)).plus(amount));
    left = left.minus(amount);
  }
  if (left.gt(0)) paid.set(CREDIT_MODE, (paid.get(CREDIT_MODE) ?? new Decimal(0)).plus(left));
  return {
    sellerDetails: sellerDetails(seller, invoice.number ?? ''),
    basicInformation: {
      invoiceNo: '',
      antifakeCode: '',
      deviceNo,
      issuedDate: uraDateTime(invoice.issued_at),
      operator: operator.slice(0, 100),
      currency: invoice.currency_code,
      oriInvoiceId: '',
      invoiceType: '1',
      invoiceKind: '1',
      dataSource: '103',
      invoiceIndustryCode: '101',
      isBatch: '0',
    },
    buyerDetails: buyer(invoice),
    goodsDetails: goods,
    taxDetails: taxDetails(
      lines.map((line) => ({
        category: TAX_CATEGORY[line.tax_kind ?? 'exempt'] ?? '03',
        rate: taxRate(line.tax_kind, line.tax_rate),
        gross: new Decimal(line.gross),
        tax: new Decimal(line.tax),
      })),
      1,
    ),
    summary: {
      netAmount: gross.minus(tax).toFixed(),
      taxAmount: tax.toFixed(),
      grossAmount: gross.toFixed(),
      itemCount: String(lines.length),
      modeCode: '1',
      remarks: '',
      qrCode: '',
    },
    payWay: [...paid.entries()].map(([paymentMode, amount], index) => ({
      paymentMode,
      paymentAmount: amount.toFixed(),
      orderNumber: String.fromCharCode(97 + index),
    })),
    extend: {},
  };
}

/** T110: the credit note application against the fiscalised invoice; URA wants its amounts negative. */
export function creditNoteContent(document: FiscalMemo, operator: string) {
  const { memo, lines } = document;
  const gross = lines.reduce((sum, line) => sum.plus(line.gross), new Decimal(0));
  const tax = lines.reduce((sum, line) => sum.plus(line.tax), new Decimal(0));
  return {
    oriInvoiceId: memo.invoice_fiscal_id ?? '',
    oriInvoiceNo: memo.invoice_fdn ?? '',
    reasonCode: CREDIT_REASON[memo.reason_code] ?? '105',
    reason: memo.reason.slice(0, 1024),
    applicationTime: uraDateTime(memo.created_at),
    invoiceApplyCategoryCode: '101',
    currency: memo.currency_code,
    contactName: '',
    contactMobileNum: '',
    contactEmail: '',
    source: '103',
    remarks: '',
    sellersReferenceNo: memo.number,
    basicInformation: { operator: operator.slice(0, 100), invoiceKind: '1', invoiceIndustryCode: '101', branchId: '' },
    goodsDetails: lines.map((line, index) => ({
      ...goodsLine({ ...line, gross: text(line.gross), tax: text(line.tax) }, index, -1),
      // A price-only credit (no goods back) moves no quantity.
      ...(new Decimal(line.quantity).isZero() ? { qty: '0', unitPrice: text(line.gross) } : {}),
    })),
    taxDetails: taxDetails(
      lines.map((line) => ({
        category: TAX_CATEGORY[line.tax_kind ?? 'exempt'] ?? '03',
        rate: taxRate(line.tax_kind, line.tax_rate),
        gross: new Decimal(line.gross),
        tax: new Decimal(line.tax),
      })),
      -1,
    ),
    summary: {
      netAmount: gross.minus(tax).negated().toFixed(),
      taxAmount: tax.negated().toFixed(),
      grossAmount: gross.negated().toFixed(),
      itemCount: String(lines.length),
      modeCode: '1',
      qrCode: '',
    },
    payWay: [{ paymentMode: CREDIT_MODE, paymentAmount: gross.negated().toFixed(), orderNumber: 'a' }],
  };
}

/** T130: goods to register. The product's code is the goods code URA knows it by. */
export function goodsContent(products: ReadonlyArray<{ code: string; name: string; unit: string; price: string; kind?: string }>) {
  return products.map((product) => ({
    operationType: '101',
    goodsName: product.name.slice(0, 200),
    goodsCode: product.code,
    measureUnit: measureUnit(product.unit),
    unitPrice: text(product.price),
    currency: '101',
    commodityCategoryId: DEFAULT_COMMODITY_CODE,
    haveExciseTax: '102',
    description: '',
    stockPrewarning: '0',
    havePieceUnit: '102',
    // A service is sold without stock: URA checks goods' stock only (serviceMark 101 yes, 102 no).
    serviceMark: product.kind === 'service' ? '101' : '102',
    goodsOtherUnits: [],
  }));
}

/** T131: stock in (an increase) of registered goods. */
export function stockInContent(items: ReadonlyArray<{ goodsCode: string; quantity: string; unitPrice: string }>, seller: Seller) {
  return {
    goodsStockIn: {
      operationType: '101',
      supplierTin: '',
      supplierName: seller.name,
      adjustType: '',
      remarks: 'Stock on hand in Mustard',
      stockInDate: uraDateTime(new Date()).slice(0, 10),
      stockInType: '102',
      productionBatchNo: '',
      productionDate: '',
      branchId: '',
      invoiceNo: '',
      isCheckBatchNo: '0',
      rollBackIfError: '0',
      goodsTypeCode: '101',
    },
    goodsStockInItem: items.map((item) => ({
      commodityGoodsId: '',
      goodsCode: item.goodsCode,
      measureUnit: '',
      quantity: item.quantity,
      unitPrice: text(item.unitPrice),
      remarks: '',
      fuelTankId: '',
      lossQuantity: '',
      originalQuantity: '',
    })),
  };
}
