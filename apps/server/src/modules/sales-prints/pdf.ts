import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  formatAmount,
  formatQuantity,
  PAYMENT_METHOD_LABELS,
  type PrintDocument,
  type PrintFormat,
  printTitle,
  SIMULATED_MARK,
  THERMAL_WIDTHS,
  thermalLines,
} from '@mustard/shared';
import QRCode from 'qrcode';
import type { DocumentDrawer } from '../../documents/drawers.js';
import { fontsFolder } from '../../documents/fonts.js';
import { DOCUMENT_FONTS, type Doc, openPdf } from '../../documents/pdf.js';

/*
 * The PDFs of a sales document (issue 32 point 6), drawn by the document workers from the one
 * print model (shared business/print.ts): an A4 page (invoice, cash sale or receipt) and the
 * thermal receipt on a page as wide as the paper (80 mm = 226.77 pt, 58 mm = 164.41 pt) set in
 * DejaVu Sans Mono from the same lines as the text print, so the PDF and the printer agree. The
 * business's logo, TIN and, once fiscalised, URA's FDN, verification code and QR code (drawn as
 * vector squares with npm qrcode, sharp at any zoom); "SIMULATED - NOT A VALID TAX INVOICE" in
 * words wherever the local EFRIS fake produced the fiscal data. Pure: the model in, the bytes out.
 */

export interface PrintDrawing {
  doc: PrintDocument;
  format: PrintFormat;
  /** The logo's bytes (JPEG or PNG), when the business has one that could be read. */
  logo: Uint8Array | null;
  /** The creation date written in the metadata (ISO; now unless given). */
  created?: string;
}

const INK = '#111111';
const GREY = '#555555';
const RULE = '#999999';
const WARNING = '#b00020';

/** Paper widths in points (1 mm = 72 / 25.4 pt). */
export const THERMAL_PAGE_WIDTHS = { '80mm': 226.77, '58mm': 164.41 } as const;
const MONO = 'mustard-mono';
const MONO_FILE = 'DejaVuSansMono.ttf';
/** DejaVu Sans Mono's advance: 1233 of 2048 units an em. */
const MONO_ADVANCE = 1233 / 2048;
let monoBytes: Buffer | undefined;

function useMono(doc: Doc) {
  monoBytes ??= readFileSync(path.join(fontsFolder(), MONO_FILE));
  doc.registerFont(MONO, monoBytes);
}

/** The QR code of `text`, as dark squares of `size` points a side at (x, y), quiet zone included. */
export function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  // Four modules of white all round, as scanners expect.
  const cell = size / (count + 8);
  doc.save();
  doc.rect(x, y, size, size).fill('#ffffff');
  for (let row = 0; row < count; row++) {
    for (let column = 0; column < count; column++) {
      if (qr.modules.get(row, column)) doc.rect(x + (column + 4) * cell, y + (row + 4) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
  doc.restore();
}

function imageOrNothing(doc: Doc, logo: Uint8Array | null, x: number, y: number, fit: [number, number]): boolean {
  if (!logo) return false;
  try {
    doc.image(Buffer.from(logo), x, y, { fit, align: 'center', valign: 'center' });
    return true;
  } catch {
    // Bytes pdfkit cannot read (not a JPEG or PNG): the print goes without the logo.
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Thermal receipt.

const THERMAL_MARGIN = 8;
/** A PDF page is at most 14,400 pt long; a long receipt continues on another page. */
const MAX_PAGE_HEIGHT = 14_000;

/** The QR code's side on a thermal receipt: 120 pt (42 mm), or the paper's width less its margins. */
const thermalQrSize = (format: '80mm' | '58mm') => Math.min(120, THERMAL_PAGE_WIDTHS[format] - 2 * THERMAL_MARGIN);

/** Where the QR code sits on a thermal receipt's last page: centred, its foot 4 pt above the bottom margin. */
export function thermalQrBox(format: '80mm' | '58mm', pageHeight: number): { x: number; y: number; size: number } {
  const size = thermalQrSize(format);
  return { x: (THERMAL_PAGE_WIDTHS[format] - size) / 2, y: pageHeight - THERMAL_MARGIN - 4 - size, size };
}

function drawThermal(drawing: PrintDrawing, format: '80mm' | '58mm'): Promise<Buffer> {
  const { doc: model, logo } = drawing;
  const chars = THERMAL_WIDTHS[format];
  const width = THERMAL_PAGE_WIDTHS[format];
  const fontSize = (width - 2 * THERMAL_MARGIN) / (chars * MONO_ADVANCE);
  const lineHeight = fontSize * 1.3;
  const lines = thermalLines(model, chars);
  const logoHeight = logo ? 48 : 0;
  const qrText = model.fiscal?.qr_text ?? null;
  const qrSize = qrText ? thermalQrSize(format) : 0;
  const perPage = Math.floor((MAX_PAGE_HEIGHT - 2 * THERMAL_MARGIN - logoHeight - qrSize - 8) / lineHeight);
  const { doc, bytes } = openPdf({
    orientation: 'portrait',
    margin: THERMAL_MARGIN,
    title: `${printTitle(model.kind, model.business.vat_registered)} ${model.number ?? 'DRAFT'}`,
    school: model.business.name,
    ...(drawing.created ? { created: new Date(drawing.created) } : {}),
  });
  useMono(doc);
  for (let start = 0; start < lines.length || start === 0; start += perPage) {
    const chunk = lines.slice(start, start + perPage);
    const first = start === 0;
    const last = start + perPage >= lines.length;
    const height = 2 * THERMAL_MARGIN + (first ? logoHeight + 4 : 0) + chunk.length * lineHeight + (last && qrText ? qrSize + 8 : 0);
    const pageHeight = Math.max(height, 72);
    doc.addPage({ size: [width, pageHeight], margin: THERMAL_MARGIN });
    let y = THERMAL_MARGIN;
    if (first && logo) {
      imageOrNothing(doc, logo, THERMAL_MARGIN, y, [width - 2 * THERMAL_MARGIN, logoHeight]);
      y += logoHeight + 4;
    }
    doc.font(MONO).fontSize(fontSize).fillColor(INK);
    for (const line of chunk) {
      doc.text(line, THERMAL_MARGIN, y, { lineBreak: false });
      y += lineHeight;
    }
    if (last && qrText) {
      const box = thermalQrBox(format, pageHeight);
      drawQr(doc, qrText, box.x, box.y, box.size);
    }
  }
  doc.end();
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// A4.

const MARGIN = 40;
const A4 = { width: 595.28, height: 841.89 };
const BODY = 9;
const CONTENT = A4.width - 2 * MARGIN;
const BOTTOM = A4.height - MARGIN - 16;

interface Column {
  head: string;
  width: number;
  align: 'left' | 'right';
}

class A4Page {
  y = MARGIN;
  constructor(
    readonly doc: Doc,
    readonly model: PrintDocument,
  ) {}

  amount(value: string): string {
    return formatAmount(value, this.model.decimals);
  }

  /** Starts a new page when fewer than `needed` points are left. */
  room(needed: number, again?: () => void) {
    if (this.y + needed <= BOTTOM) return;
    this.doc.addPage();
    this.y = MARGIN;
    again?.();
  }

  text(
    value: string,
    x: number,
    width: number,
    options: { bold?: boolean; size?: number; align?: 'left' | 'right' | 'center'; color?: string } = {},
  ) {
    this.doc
      .font(options.bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
      .fontSize(options.size ?? BODY)
      .fillColor(options.color ?? INK);
    const height = this.doc.heightOfString(value, { width });
    this.doc.text(value, x, this.y, { width, align: options.align ?? 'left' });
    return height;
  }

  line(value: string, options: Parameters<A4Page['text']>[3] = {}) {
    this.y += this.text(value, MARGIN, CONTENT, options) + 2;
  }

  rule() {
    this.doc
      .moveTo(MARGIN, this.y)
      .lineTo(MARGIN + CONTENT, this.y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.y += 6;
  }

  /** A row of cells; its height is its tallest (wrapped) cell. */
  row(columns: Column[], cells: string[], bold = false) {
    this.doc.font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular).fontSize(BODY);
    const height = Math.max(
      ...cells.map((cell, index) => this.doc.heightOfString(cell || ' ', { width: (columns[index]?.width ?? 40) - 6 })),
    );
    this.room(height + 4, () => this.head(columns));
    let x = MARGIN;
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (!column) return;
      this.doc
        .font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
        .fontSize(BODY)
        .fillColor(INK)
        .text(cell, x + 3, this.y + 2, { width: column.width - 6, align: column.align });
      x += column.width;
    });
    this.y += height + 4;
    this.doc
      .moveTo(MARGIN, this.y)
      .lineTo(MARGIN + columns.reduce((sum, column) => sum + column.width, 0), this.y)
      .lineWidth(0.3)
      .strokeColor(RULE)
      .stroke();
  }

  head(columns: Column[]) {
    const total = columns.reduce((sum, column) => sum + column.width, 0);
    this.doc.rect(MARGIN, this.y, total, BODY + 8).fill('#e6e6e6');
    let x = MARGIN;
    for (const column of columns) {
      this.doc
        .font(DOCUMENT_FONTS.bold)
        .fontSize(BODY)
        .fillColor(INK)
        .text(column.head, x + 3, this.y + 4, { width: column.width - 6, align: column.align, lineBreak: false });
      x += column.width;
    }
    this.y += BODY + 8;
  }

  /** Label and amount pairs at the right, as totals are printed. */
  totals(rows: ReadonlyArray<[string, string, boolean?]>) {
    const labelWidth = 140;
    const valueWidth = 110;
    const x = MARGIN + CONTENT - labelWidth - valueWidth;
    for (const [label, value, bold] of rows) {
      this.room(BODY + 6);
      this.doc
        .font(bold ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
        .fontSize(bold ? BODY + 2 : BODY)
        .fillColor(INK);
      this.doc.text(label, x, this.y, { width: labelWidth, lineBreak: false });
      this.doc.text(value, x + labelWidth, this.y, { width: valueWidth, align: 'right', lineBreak: false });
      this.y += (bold ? BODY + 2 : BODY) + 5;
    }
  }
}

function drawA4(drawing: PrintDrawing): Promise<Buffer> {
  const { doc: model, logo } = drawing;
  const { doc, bytes } = openPdf({
    orientation: 'portrait',
    margin: MARGIN,
    title: `${printTitle(model.kind, model.business.vat_registered)} ${model.number ?? 'DRAFT'}`,
    school: model.business.name,
    bufferPages: true,
    ...(drawing.created ? { created: new Date(drawing.created) } : {}),
  });
  doc.addPage();
  const page = new A4Page(doc, model);
  const simulated = model.fiscal?.simulated === true;
  if (simulated) {
    page.line(SIMULATED_MARK, { bold: true, size: 12, align: 'center', color: WARNING });
    page.y += 4;
  }

  // The seller at the left (logo, name, address, TIN), the document at the right.
  const top = page.y;
  const logoDrawn = imageOrNothing(doc, logo, MARGIN, top, [64, 64]);
  const sellerX = MARGIN + (logoDrawn ? 74 : 0);
  const sellerWidth = CONTENT * 0.55 - (logoDrawn ? 74 : 0);
  page.y = top;
  page.y += page.text(model.business.name, sellerX, sellerWidth, { bold: true, size: 14 }) + 2;
  for (const detail of [
    model.business.address,
    model.business.phone ? `Tel: ${model.business.phone}` : null,
    model.business.tin ? `TIN: ${model.business.tin}` : null,
  ]) {
    if (detail) page.y += page.text(detail, sellerX, sellerWidth) + 1;
  }
  const leftBottom = Math.max(page.y, logoDrawn ? top + 64 : 0);
  page.y = top;
  const rightX = MARGIN + CONTENT * 0.55;
  const rightWidth = CONTENT * 0.45;
  page.y +=
    page.text(printTitle(model.kind, model.business.vat_registered), rightX, rightWidth, { bold: true, size: 16, align: 'right' }) + 4;
  const facts: Array<[string, string]> = [
    ['Number', model.number ?? 'DRAFT'],
    ['Date', model.date],
    ...(model.kind === 'invoice' && model.due_on ? ([['Due', model.due_on]] as Array<[string, string]>) : []),
    ...(model.reference_number ? ([['Against', model.reference_number]] as Array<[string, string]>) : []),
  ];
  for (const [label, value] of facts) page.y += page.text(`${label}: ${value}`, rightX, rightWidth, { align: 'right' }) + 1;
  page.y = Math.max(leftBottom, page.y) + 12;
  page.rule();

  // The customer.
  page.line(model.kind === 'receipt' ? 'Received from' : 'Bill to', { bold: true, color: GREY });
  page.line(model.customer.name, { bold: true, size: 11 });
  if (model.customer.tin) page.line(`Buyer TIN: ${model.customer.tin}`);
  if (model.customer.phone) page.line(`Tel: ${model.customer.phone}`);
  if (model.customer.address) page.line(model.customer.address);
  if (model.reason) page.line(`Reason: ${model.reason}`);
  page.y += 8;

  if (model.lines.length > 0) {
    const columns: Column[] = [
      { head: '#', width: 28, align: 'right' },
      { head: 'Description', width: 169, align: 'left' },
      { head: 'Qty', width: 50, align: 'right' },
      { head: 'Unit price', width: 70, align: 'right' },
      { head: 'Discount', width: 60, align: 'right' },
      { head: 'Tax', width: 56, align: 'left' },
      { head: 'Amount', width: CONTENT - 433, align: 'right' },
    ];
    page.head(columns);
    model.lines.forEach((line, index) => {
      const quantity = `${formatQuantity(line.quantity)}${line.unit ? ` ${line.unit}` : ''}`;
      page.row(columns, [
        String(index + 1),
        line.description,
        quantity,
        page.amount(line.unit_price),
        line.discount === '0' ? '' : page.amount(line.discount),
        line.tax_code,
        page.amount(line.gross),
      ]);
    });
    page.y += 8;
  }

  if (model.totals) {
    const vat = model.business.vat_registered;
    page.totals([
      ...(model.totals.discount_total !== '0'
        ? ([['Discount', `-${page.amount(model.totals.discount_total)}`]] as Array<[string, string]>)
        : []),
      ...(vat
        ? ([
            ['Net amount', page.amount(model.totals.net_total)],
            ['VAT', page.amount(model.totals.tax_total)],
          ] as Array<[string, string]>)
        : []),
      [`Total ${model.currency_code}`, page.amount(model.totals.gross_total), true],
      ...(model.paid !== null ? ([['Paid', page.amount(model.paid)]] as Array<[string, string]>) : []),
      ...(model.balance !== null ? ([['Balance due', page.amount(model.balance), true]] as Array<[string, string, boolean]>) : []),
    ]);
    if (vat && model.totals.by_tax.length > 0) {
      page.y += 8;
      page.room(60);
      page.line('VAT summary', { bold: true });
      const columns: Column[] = [
        { head: 'Tax code', width: 120, align: 'left' },
        { head: 'Rate', width: 80, align: 'right' },
        { head: 'Net', width: 100, align: 'right' },
        { head: 'VAT', width: 100, align: 'right' },
        { head: 'Gross', width: 100, align: 'right' },
      ];
      page.head(columns);
      for (const row of model.totals.by_tax) {
        const rate = row.tax_kind === 'standard' || row.tax_kind === 'deemed' ? `${row.tax_rate}%` : row.tax_kind;
        page.row(columns, [row.tax_code || '-', rate, page.amount(row.net), page.amount(row.tax), page.amount(row.gross)]);
      }
    }
    page.y += 10;
  }

  if (model.payment) {
    page.room(60);
    if (model.kind === 'receipt') {
      page.totals([[`Received ${model.currency_code}`, page.amount(model.payment.amount), true]]);
    }
    page.line(
      `Paid by: ${PAYMENT_METHOD_LABELS[model.payment.method]}${model.payment.reference ? `, ref. ${model.payment.reference}` : ''}`,
    );
    if (model.payment.wht_amount !== '0') {
      page.line(
        `Tax withheld: ${page.amount(model.payment.wht_amount)}${model.payment.wht_certificate ? ` (certificate ${model.payment.wht_certificate})` : ''}`,
      );
    }
    page.y += 6;
  }
  if (model.allocations.length > 0) {
    page.line('Paid against', { bold: true });
    const columns: Column[] = [
      { head: 'Invoice', width: 200, align: 'left' },
      { head: 'Amount', width: 120, align: 'right' },
    ];
    page.head(columns);
    for (const allocation of model.allocations) page.row(columns, [allocation.invoice_number, page.amount(allocation.amount)]);
    page.y += 6;
  }
  if (model.advance !== null && model.advance !== '0') page.line(`Kept as an advance: ${page.amount(model.advance)}`);
  if (model.notes) {
    page.y += 4;
    page.line(model.notes, { color: GREY });
  }

  // URA's fiscal block: FDN and verification code at the left, the QR code at the right.
  if (model.fiscal && (model.fiscal.fdn || model.fiscal.verification_code || model.fiscal.qr_text)) {
    page.room(120);
    page.y += 8;
    page.rule();
    const blockTop = page.y;
    page.line('EFRIS (URA)', { bold: true });
    if (model.fiscal.fdn) page.line(`Fiscal document number (FDN): ${model.fiscal.fdn}`);
    if (model.fiscal.verification_code) page.line(`Verification code: ${model.fiscal.verification_code}`);
    if (model.fiscal.qr_text) drawQr(doc, model.fiscal.qr_text, MARGIN + CONTENT - 100, blockTop, 100);
    page.y = Math.max(page.y, blockTop + (model.fiscal.qr_text ? 104 : 0));
  }
  if (model.served_by) page.line(`Served by: ${model.served_by}`, { color: GREY });

  const pages = doc.bufferedPageRange();
  for (let index = 0; index < pages.count; index++) {
    doc.switchToPage(pages.start + index);
    const foot = `${model.business.name} · ${model.number ?? 'DRAFT'} · Page ${index + 1} of ${pages.count}`;
    doc
      .font(simulated ? DOCUMENT_FONTS.bold : DOCUMENT_FONTS.regular)
      .fontSize(7)
      .fillColor(simulated ? WARNING : GREY)
      .text(simulated ? `${SIMULATED_MARK} · ${foot}` : foot, MARGIN, BOTTOM + 4, { width: CONTENT, align: 'center', lineBreak: false });
  }
  doc.end();
  return bytes;
}

/** The print's PDF in the format asked. */
export const drawSalesPrint: DocumentDrawer<PrintDrawing> = async (drawing) =>
  drawing.format === 'a4' ? drawA4(drawing) : drawThermal(drawing, drawing.format);
