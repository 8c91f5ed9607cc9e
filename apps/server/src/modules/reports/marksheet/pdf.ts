import {
  MARKSHEET_TYPE_WORDS,
  type MarksheetCounts,
  type MarksheetTable,
  marksheetCellText,
  marksheetCountTables,
  marksheetTitle,
  REPORT_WORDS,
  type ReportModel,
  MARKSHEET_WORDS as W,
} from '@mustard/shared';
import type { DocumentDrawer } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES } from '../../../documents/pdf.js';

/*
 * The mark sheet as a PDF (issue 15 point 7): A4 landscape, the school's header on the first
 * page and a one-line heading on the others, the table paginated with its two header rows
 * repeated on every page, then the counts, and "Page x of y" at the foot. Text is real text in
 * the report cards' embedded DejaVu Sans (pdf/fonts.ts), so it can be searched and extracted.
 *
 * Fitting a class on the page: each column is as wide as its widest text, at the largest font
 * size (7 pt down to 4.5 pt) at which the whole table fits the page's width, subjects headed by
 * their codes. A name wider than its column is set smaller in its cell rather than cut. A class
 * of 120 learners in 12 subjects prints on three pages at 6 pt or more.
 *
 * Pure: the model, table and counts in, the bytes out; widths are measured once at 10 pt and
 * scaled, so the drawing is a few tens of milliseconds for such a class.
 */

/** A4 landscape in points (the one page frame, documents/pdf.ts). */
const PAGE = PAGE_SIZES.landscape;
const MARGIN = 24;
const SIZES = [7, 6.5, 6, 5.5, 5, 4.5];
const PAD = { x: 2, y: 1.5 };
const GRID = '#777777';
const HEADER_FILL = '#e6e6e6';
const STRIPE_FILL = '#f4f4f4';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;
/** Sizes texts are measured at, then scaled. */
const MEASURE = 10;

type Align = 'left' | 'center';

/** A table to draw: its columns' widths (at `size`), its header rows, its rows of texts. */
interface PdfTable {
  size: number;
  widths: number[];
  aligns: Align[];
  /** One header row of texts, or the mark sheet's two (a heading over one or several columns). */
  header: { kind: 'one'; texts: string[] } | { kind: 'two'; headings: MarksheetTable['headings']; second: string[] };
  rows: string[][];
  /** Every other row shaded (the learners' table). */
  stripes: boolean;
}

/** Text widths at MEASURE points, cached per font and text. */
class Measure {
  private readonly cache = new Map<string, number>();
  constructor(private readonly doc: Doc) {}

  width(text: string, bold: boolean, size: number): number {
    if (!text) return 0;
    const key = `${bold ? 'b' : 'r'}${text}`;
    let width = this.cache.get(key);
    if (width === undefined) {
      this.doc.font(bold ? BOLD : REGULAR).fontSize(MEASURE);
      width = this.doc.widthOfString(text);
      this.cache.set(key, width);
    }
    return (width * size) / MEASURE;
  }
}

/** The rows' line height at `size` (DejaVu's line gap included). */
const lineHeight = (size: number) => size * 1.17;
const rowHeight = (size: number) => lineHeight(size) + 2 * PAD.y;

/**
 * The sheet's table fitted to `width`: natural column widths at the largest size that fits, the
 * name column giving way (to at least a third of its natural width) before the size drops.
 */
function fitSheet(table: MarksheetTable, measure: Measure, width: number): PdfTable {
  const texts = table.rows.map((row) => row.cells.map(marksheetCellText));
  const nameIndex = table.columns.findIndex((column) => column.kind === 'name');
  const natural = (size: number) => {
    const widths = table.columns.map((column, index) => {
      let widest = measure.width(column.header, true, size);
      for (const row of texts) widest = Math.max(widest, measure.width(row[index] ?? '', false, size));
      return widest + 2 * PAD.x;
    });
    // A subject's code must fit over its columns.
    for (const heading of table.headings) {
      if (!heading.grouped) continue;
      const over = widths.slice(heading.from, heading.from + heading.span).reduce((sum, each) => sum + each, 0);
      const need = measure.width(heading.label, true, size) + 2 * PAD.x;
      if (need > over)
        for (let index = heading.from; index < heading.from + heading.span; index++)
          widths[index] = (widths[index] ?? 0) + (need - over) / heading.span;
    }
    return widths;
  };
  const sum = (widths: number[]) => widths.reduce((total, each) => total + each, 0);
  let chosen: { size: number; widths: number[] } | null = null;
  for (const size of SIZES) {
    const widths = natural(size);
    const total = sum(widths);
    if (total <= width) {
      chosen = { size, widths };
      break;
    }
    const name = widths[nameIndex];
    if (nameIndex >= 0 && name !== undefined) {
      const shrunk = name - (total - width);
      if (shrunk >= name / 3 && shrunk >= 40) {
        widths[nameIndex] = shrunk;
        chosen = { size, widths };
        break;
      }
    }
  }
  if (!chosen) {
    // Wider than the page even at the smallest size (dozens of subjects): every column scaled down.
    const size = SIZES[SIZES.length - 1] as number;
    const widths = natural(size);
    const scale = width / sum(widths);
    chosen = { size, widths: widths.map((each) => each * scale) };
  }
  return {
    size: chosen.size,
    widths: chosen.widths,
    aligns: table.columns.map((column) => column.align),
    header: { kind: 'two', headings: table.headings, second: table.columns.map((column) => (column.subject_id ? column.header : '')) },
    rows: texts,
    stripes: true,
  };
}

/** A counts table at the sheet's size: its first column as wide as its texts, the counts alike. */
function fitCounts(head: string[], rows: string[][], measure: Measure, size: number, width: number): PdfTable {
  const widths = head.map((text, index) => {
    let widest = measure.width(text, true, size);
    for (const row of rows) widest = Math.max(widest, measure.width(row[index] ?? '', false, size));
    return widest + 2 * PAD.x + (index === 0 ? 0 : 4);
  });
  const total = widths.reduce((sum, each) => sum + each, 0);
  const scale = total > width ? width / total : 1;
  return {
    size,
    widths: widths.map((each) => each * scale),
    aligns: head.map((_, index) => (index === 0 ? 'left' : 'center')),
    header: { kind: 'one', texts: head },
    rows,
    stripes: false,
  };
}

/** The pen on the current page and the pages' furniture. */
class Sheet {
  y = MARGIN;
  readonly left = MARGIN;
  readonly width = PAGE.width - 2 * MARGIN;
  readonly bottom = PAGE.height - MARGIN - 10;

  constructor(
    readonly doc: Doc,
    readonly model: ReportModel,
  ) {}

  private font(bold: boolean, size: number) {
    this.doc.font(bold ? BOLD : REGULAR).fontSize(size);
  }

  /** One line at (x, y), never wrapped (pdfkit adds no page for it). */
  put(text: string, x: number, y: number) {
    this.doc.text(text, x, y, { lineBreak: false });
  }

  /** The first page: the school, the title, what the sheet is of. */
  firstPage() {
    const { doc, model } = this;
    doc.addPage();
    this.y = MARGIN;
    const lines: Array<[string, boolean, number]> = [
      [model.school.name, true, 13],
      [`${W.title} — ${MARKSHEET_TYPE_WORDS[model.report.category]}`, true, 10],
      [marksheetTitle(model), false, 8.5],
    ];
    const types = model.markTypes.map((type) => type.label).join(', ');
    if (types) lines.push([`${W.markTypes}: ${types}`, false, 8]);
    for (const [text, bold, size] of lines) {
      this.font(bold, size);
      doc.text(text, this.left, this.y, { width: this.width, lineBreak: false, ellipsis: true });
      this.y += lineHeight(size) + 1;
    }
    this.y += 4;
  }

  /** A later page: one line saying whose sheet it is. */
  nextPage() {
    const { doc, model } = this;
    doc.addPage();
    this.y = MARGIN;
    this.font(false, 7);
    doc.text(`${model.school.name} · ${W.title} · ${marksheetTitle(model)}`, this.left, this.y, {
      width: this.width,
      lineBreak: false,
      ellipsis: true,
    });
    this.y += lineHeight(7) + 4;
  }

  /** A cell's text in its column: centred or left, set smaller when wider than the column. */
  private cell(text: string, x: number, width: number, align: Align, y: number, size: number, bold: boolean, measure: Measure) {
    if (!text) return;
    const inner = width - 2 * PAD.x;
    let textWidth = measure.width(text, bold, size);
    let used = size;
    if (textWidth > inner && inner > 0) {
      used = Math.max(3, (size * inner) / textWidth);
      textWidth = measure.width(text, bold, used);
    }
    this.font(bold, used);
    const left = align === 'center' ? x + (width - textWidth) / 2 : x + PAD.x;
    // A smaller size sits on the same baseline band.
    this.put(text, left, y + PAD.y + (size - used) * 0.8);
  }

  /** The rules of the rows drawn on this page, one path stroked once. */
  private grid(table: PdfTable, lines: number[], headerSplit: number | null) {
    const { doc } = this;
    const first = lines[0];
    const last = lines[lines.length - 1];
    if (first === undefined || last === undefined) return;
    const right = this.left + table.widths.reduce((sum, each) => sum + each, 0);
    for (const y of lines) doc.moveTo(this.left, y).lineTo(right, y);
    // A rule between two columns of one subject starts under the subject's code.
    const inside = new Set<number>();
    if (table.header.kind === 'two' && headerSplit !== null)
      for (const heading of table.header.headings)
        if (heading.grouped) for (let index = 1; index < heading.span; index++) inside.add(heading.from + index);
    let x = this.left;
    table.widths.forEach((width, index) => {
      doc.moveTo(x, inside.has(index) && headerSplit !== null ? headerSplit : first).lineTo(x, last);
      x += width;
    });
    doc.moveTo(right, first).lineTo(right, last);
    // The two header rows: a line under each subject's code, across its own columns only.
    if (table.header.kind === 'two' && headerSplit !== null) {
      for (const heading of table.header.headings) {
        if (!heading.grouped) continue;
        const from = this.left + table.widths.slice(0, heading.from).reduce((sum, each) => sum + each, 0);
        const to = from + table.widths.slice(heading.from, heading.from + heading.span).reduce((sum, each) => sum + each, 0);
        doc.moveTo(from, headerSplit).lineTo(to, headerSplit);
      }
    }
    doc.lineWidth(0.4).strokeColor(GRID).stroke();
  }

  /** Draws the header rows at the pen; answers where the line between two header rows is (or null). */
  private header(table: PdfTable, measure: Measure): number | null {
    const { doc } = this;
    const height = rowHeight(table.size);
    const right = table.widths.reduce((sum, each) => sum + each, 0);
    const rows = table.header.kind === 'two' ? 2 : 1;
    doc
      .rect(this.left, this.y, right, height * rows)
      .fillColor(HEADER_FILL)
      .fill();
    doc.fillColor('#000000');
    const xOf = (index: number) => this.left + table.widths.slice(0, index).reduce((sum, each) => sum + each, 0);
    if (table.header.kind === 'one') {
      table.header.texts.forEach((text, index) => {
        this.cell(text, xOf(index), table.widths[index] ?? 0, table.aligns[index] ?? 'center', this.y, table.size, true, measure);
      });
      this.y += height;
      return null;
    }
    const top = this.y;
    for (const heading of table.header.headings) {
      const width = table.widths.slice(heading.from, heading.from + heading.span).reduce((sum, each) => sum + each, 0);
      // A learner column's heading stands in the middle of both rows.
      const y = heading.grouped ? top : top + height / 2;
      this.cell(
        heading.label,
        xOf(heading.from),
        width,
        heading.grouped ? 'center' : (table.aligns[heading.from] ?? 'center'),
        y,
        table.size,
        true,
        measure,
      );
    }
    table.header.second.forEach((text, index) => {
      if (text) this.cell(text, xOf(index), table.widths[index] ?? 0, 'center', top + height, table.size, true, measure);
    });
    this.y = top + 2 * height;
    return top + height;
  }

  /**
   * A table from the pen, across pages: the header first on each page, the rows after it; a new
   * page when not even the header and one row fit.
   */
  table(table: PdfTable, measure: Measure, title?: string) {
    const { doc } = this;
    const height = rowHeight(table.size);
    const headerRows = table.header.kind === 'two' ? 2 : 1;
    const titleHeight = title ? lineHeight(8.5) + 2 : 0;
    const whole = titleHeight + height * (headerRows + table.rows.length);
    const fresh = this.bottom - (MARGIN + lineHeight(7) + 4);
    // A count table that fits a page whole starts on the next one rather than break; the learners' table (and a longer
    // one) needs room for its header and two rows.
    const needed = title && whole <= fresh ? whole : titleHeight + height * (headerRows + Math.min(2, table.rows.length));
    if (this.y + needed > this.bottom) this.nextPage();
    if (title) {
      this.font(true, 8.5);
      this.put(title, this.left, this.y);
      this.y += titleHeight;
    }
    const xOf = (index: number) => this.left + table.widths.slice(0, index).reduce((sum, each) => sum + each, 0);
    const start = () => {
      const top = this.y;
      const split = this.header(table, measure);
      return { lines: [top, this.y], split };
    };
    let page = start();
    table.rows.forEach((row, rowIndex) => {
      if (this.y + height > this.bottom) {
        this.grid(table, page.lines, page.split);
        this.nextPage();
        page = start();
      }
      if (table.stripes && rowIndex % 2 === 1) {
        doc
          .rect(
            this.left,
            this.y,
            table.widths.reduce((sum, each) => sum + each, 0),
            height,
          )
          .fillColor(STRIPE_FILL)
          .fill();
        doc.fillColor('#000000');
      }
      row.forEach((text, index) => {
        this.cell(text, xOf(index), table.widths[index] ?? 0, table.aligns[index] ?? 'center', this.y, table.size, false, measure);
      });
      this.y += height;
      page.lines.push(this.y);
    });
    this.grid(table, page.lines, page.split);
    this.y += 8;
  }

  /** A paragraph across the page, on a new page when it does not fit. */
  paragraph(text: string, size: number) {
    const { doc } = this;
    this.font(false, size);
    const height = doc.heightOfString(text, { width: this.width });
    if (this.y + height > this.bottom) this.nextPage();
    this.font(false, size);
    doc.text(text, this.left, this.y, { width: this.width });
    this.y = doc.y + 3;
  }

  /** "Page x of y" at the foot of every page, once all are drawn. */
  footers() {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index++) {
      doc.switchToPage(index);
      const margins = doc.page.margins;
      const bottom = margins.bottom;
      // Writing below the bottom margin would otherwise start a page.
      margins.bottom = 0;
      this.font(false, 6.5);
      const text = `Page ${index - range.start + 1} of ${range.count}`;
      const width = doc.widthOfString(text);
      this.put(text, PAGE.width - MARGIN - width, PAGE.height - MARGIN - 6);
      margins.bottom = bottom;
    }
  }
}

/** The mark sheet's PDF: the model's table and counts, as the preview and the workbook show them. */
export function drawMarksheetPdf(model: ReportModel, table: MarksheetTable, counted: MarksheetCounts): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    title: [W.title, report.form, report.stream ?? W.allStreams, `${W.term} ${report.term}`, String(report.year)].join(' '),
    school: model.school.name,
  });
  const measure = new Measure(doc);
  const sheet = new Sheet(doc, model);
  sheet.firstPage();
  const fitted = fitSheet(table, measure, sheet.width);
  sheet.table(fitted, measure);
  for (const counts of marksheetCountTables(counted)) {
    const rows = counts.rows.map((row) => row.map(marksheetCellText));
    sheet.table(fitCounts(counts.head, rows, measure, Math.max(fitted.size, 6.5), sheet.width), measure, counts.title);
  }
  const key = counted.subjects.map((row) => `${row.subject.code} ${row.subject.name}`).join(' · ');
  if (key) sheet.paragraph(`${W.subjectsKey}: ${key}`, 7);
  if (model.gradeKey) sheet.paragraph(`${REPORT_WORDS.gradeKey}: ${model.gradeKey}`, 7);
  sheet.footers();
  doc.end();
  return bytes;
}

/** What the mark sheet's drawer takes: the model, its table and its counts. */
export interface MarksheetInput {
  model: ReportModel;
  table: MarksheetTable;
  counts: MarksheetCounts;
}

/** The mark sheet's drawer in the document pool (document-drawers.ts). */
export const drawMarksheet: DocumentDrawer<MarksheetInput> = ({ model, table, counts }) => drawMarksheetPdf(model, table, counts);
