import {
  columnHead,
  nextTermItems,
  papersText,
  type ReportLayout,
  type ReportLearner,
  type ReportModel,
  type ReportSubject,
  reportNumber,
  showsMarkColumns,
  showsStreamPosition,
  tableColumns,
  REPORT_WORDS as W,
} from '@mustard/shared';
import type { DocumentDrawer, DocumentImages } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES, useDocumentFonts, yieldToOtherDocuments } from '../../../documents/pdf.js';

/*
 * A class's report cards drawn natively with pdfkit (issue 15 point 4): one learner a page where
 * the card fits (a longer card flows on to the next page, its table's header repeated), the
 * whole class in one file. Pure: the model, the layout and the images' bytes in, the PDF out;
 * no database, no clock beyond pdfkit's creation date. Runs in the document pool
 * (documents/pool.ts, kind 'report-cards'), never on the server's event loop.
 *
 * What a card shows follows the same rules as the HTML preview, section by section in
 * `layout.sections` order, with the words of REPORT_WORDS and numbers through `reportNumber`.
 * Text is real text in an embedded subset of DejaVu Sans (the one PDF set-up, documents/pdf.ts), so it can be searched and
 * extracted; an image is embedded once per file however many cards show it.
 */

/** Image bytes (JPEG or PNG) by the URL the model names them with (school logo, learner photos). */
export type ReportImages = ReadonlyMap<string, Uint8Array>;

/** Called after each learner's card: how many are drawn, of how many. */
export type LearnerDone = (done: number, total: number) => void;

/** A4 in points (the one page frame, documents/pdf.ts). */
const PAGE = PAGE_SIZES.portrait;
const MARGIN = 36;
/** Space after each section. */
const GAP = 9;
const SIZE = { school: 17, title: 11.5, text: 9.5, table: 9, tableSmall: 7.5, small: 8.5 };
const LOGO = 64;
const PHOTO = { width: 80, height: 96 };
const CELL = { x: 3, y: 3 };
const GRID = '#555555';
const HEADER_FILL = '#e6e6e6';
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;

/** pdfkit's opened image: `doc.openImage` (missing from @types/pdfkit) reads it once; `doc.image` embeds it once and reuses it. */
interface OpenedImage {
  width: number;
  height: number;
}
interface ImageMethods {
  openImage(src: Buffer): OpenedImage;
  image(src: OpenedImage, x: number, y: number, options?: PDFKit.Mixins.ImageOption): unknown;
}

const toBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Each URL's image opened at most once per file; bytes pdfkit cannot read (not JPEG or PNG) are left out, not fatal. */
class ImageBook {
  private readonly opened = new Map<string, OpenedImage | null>();
  constructor(
    private readonly doc: Doc,
    private readonly images: ReportImages,
  ) {}

  get(url: string | null | undefined): OpenedImage | undefined {
    if (!url) return undefined;
    let image = this.opened.get(url);
    if (image === undefined) {
      const bytes = this.images.get(url);
      image = null;
      if (bytes && bytes.byteLength > 0) {
        try {
          image = (this.doc as unknown as ImageMethods).openImage(toBuffer(bytes));
        } catch {
          image = null;
        }
      }
      this.opened.set(url, image);
    }
    return image ?? undefined;
  }

  /**
   * Draws the image fitted into the box whose top left is (x, y), against the box's left or right
   * side; where it went, or null when it could not be drawn.
   */
  draw(url: string, image: OpenedImage, x: number, y: number, box: { width: number; height: number }, side: 'left' | 'right' = 'left') {
    const scale = Math.min(box.width / image.width, box.height / image.height);
    const size = { width: image.width * scale, height: image.height * scale };
    const left = side === 'left' ? x : x + box.width - size.width;
    try {
      (this.doc as unknown as ImageMethods).image(image, left, y, size);
      return { x: left, ...size };
    } catch {
      this.opened.set(url, null);
      return null;
    }
  }
}

/** One column of the subject table as the card draws it. */
export interface CardColumn {
  kind: 'subject' | 'mark' | 'papers' | 'total' | 'grade' | 'points' | 'comment' | 'initials';
  header: string;
  cell: (subject: ReportSubject) => string;
}

const markText = (mark: number | 'ABS' | null | undefined) => (mark === 'ABS' ? 'ABS' : reportNumber(mark ?? null));

/**
 * The subject table's columns, by the preview's own rules (`tableColumns`, `showsMarkColumns`,
 * `papersText` of render-html in shared, so the two cannot drift): the subject, then the
 * layout's columns in its order for this level: at `marks` a column per mark type (Seperate mark
 * types, or several mark types, never at A level), or at A level one cell of the papers
 * ("I: 67 D2, II: 55 C6", headed REPORT_WORDS.paper); `points` at A level only, and on the
 * cumulative report, whose total column is headed by its Label (`columnHead`).
 */
export function subjectColumns(model: ReportModel, layout: ReportLayout): CardColumn[] {
  const columns: CardColumn[] = [{ kind: 'subject', header: W.subject, cell: (subject) => subject.subject }];
  const markTypes = showsMarkColumns(model, layout) ? model.markTypes : [];
  for (const column of tableColumns(model, layout)) {
    switch (column) {
      case 'marks':
        if (markTypes.length === 0) columns.push({ kind: 'papers', header: W.paper, cell: papersText });
        for (const { label, heading } of markTypes)
          columns.push({ kind: 'mark', header: heading, cell: (subject) => markText(subject.marks[label]) });
        break;
      case 'total':
        columns.push({ kind: 'total', header: columnHead(model, 'total'), cell: (subject) => reportNumber(subject.total) });
        break;
      case 'grade':
        columns.push({ kind: 'grade', header: W.grade, cell: (subject) => subject.grade ?? '-' });
        break;
      case 'points':
        columns.push({ kind: 'points', header: W.points, cell: (subject) => reportNumber(subject.points) });
        break;
      case 'comment':
        columns.push({ kind: 'comment', header: W.comment, cell: (subject) => subject.comment });
        break;
      case 'initials':
        columns.push({ kind: 'initials', header: W.initials, cell: (subject) => subject.initials ?? '' });
        break;
    }
  }
  return columns;
}

/**
 * Widths of the narrow columns, at least their header's longest word (at most MAX_FIXED: a longer
 * header wraps). The others (subject, papers, comment) start from a minimum and share what is
 * left: each up to its widest cell in the class while there is room (in proportion to what each
 * lacks when there is not), then what still remains by weight.
 */
const FIXED: Partial<Record<CardColumn['kind'], number>> = { mark: 34, total: 38, grade: 38, points: 38, initials: 44 };
const MAX_FIXED = 64;
const FLEX: Partial<Record<CardColumn['kind'], { min: number; weight: number }>> = {
  subject: { min: 80, weight: 2 },
  papers: { min: 110, weight: 1 },
  comment: { min: 70, weight: 4 },
};

interface TableColumn extends CardColumn {
  x: number;
  width: number;
  align: 'left' | 'center';
}

/**
 * The columns placed across `width` from `left`, and the font size that fits them; `measure`
 * gives a header word's width in the header's font, `widest` a flexible column's widest cell.
 */
function placeColumns(
  columns: CardColumn[],
  left: number,
  width: number,
  measure: (text: string) => number,
  widest: (column: CardColumn) => number,
): { columns: TableColumn[]; size: number } {
  const fixedOf = (column: CardColumn) => {
    const base = FIXED[column.kind];
    if (base === undefined) return 0;
    const longest = Math.max(...column.header.split(/\s+/).map(measure)) + 2 * CELL.x;
    return Math.min(MAX_FIXED, Math.max(base, Math.ceil(longest)));
  };
  const flexMin = columns.reduce((sum, column) => sum + (FLEX[column.kind]?.min ?? 0), 0);
  const otherFixed = columns.reduce((sum, column) => sum + (column.kind === 'mark' ? 0 : fixedOf(column)), 0);
  const markColumns = columns.filter((column) => column.kind === 'mark');
  // Many mark types: narrow their columns rather than push the table off the page.
  const wanted = markColumns.reduce((sum, column) => sum + fixedOf(column), 0);
  const room = width - flexMin - otherFixed;
  const squeeze = wanted > room ? room / wanted : 1;
  const widths = new Map(markColumns.map((column) => [column, Math.max(14, fixedOf(column) * squeeze)]));
  const markWidth = Math.min(...[...widths.values()], Number.POSITIVE_INFINITY);
  const fixed = otherFixed + [...widths.values()].reduce((sum, each) => sum + each, 0);
  const spare = Math.max(0, width - fixed - flexMin);
  const lacking = new Map(
    columns.flatMap((column) => {
      const flex = FLEX[column.kind];
      return flex ? [[column, Math.max(0, widest(column) + 2 * CELL.x - flex.min)] as const] : [];
    }),
  );
  const lacks = [...lacking.values()].reduce((sum, each) => sum + each, 0);
  const rest = Math.max(0, spare - lacks);
  const weights = columns.reduce((sum, column) => sum + (FLEX[column.kind]?.weight ?? 0), 0);
  const flexWidth = (column: CardColumn, flex: { min: number; weight: number }) => {
    const lack = lacking.get(column) ?? 0;
    const grown = lacks <= spare ? lack : lacks > 0 ? (spare * lack) / lacks : 0;
    return flex.min + grown + (weights ? (rest * flex.weight) / weights : 0);
  };
  let x = left;
  const placed = columns.map((column) => {
    const flex = FLEX[column.kind];
    const columnWidth = flex ? flexWidth(column, flex) : (widths.get(column) ?? fixedOf(column));
    const align: TableColumn['align'] = flex ? 'left' : 'center';
    const result = { ...column, x, width: columnWidth, align };
    x += columnWidth;
    return result;
  });
  const used = x - left;
  if (used > width) {
    // Still too wide (a score of mark types): every column narrowed alike to fit the page.
    let at = left;
    for (const column of placed) {
      column.width *= width / used;
      column.x = at;
      at += column.width;
    }
  } else {
    // Whatever rounding left over goes to the last flexible column (or the last one).
    const last = [...placed].reverse().find((column) => FLEX[column.kind]) ?? placed[placed.length - 1];
    if (last) last.width += width - used;
  }
  return { columns: placed, size: markWidth < 26 ? SIZE.tableSmall : SIZE.table };
}

const sexOf = (gender: ReportLearner['gender']) => (gender === 'F' ? W.female : gender === 'M' ? W.male : '-');

/** One card's drawing: where the pen is on the page, and the page's bounds. */
class Card {
  private y = MARGIN;
  private readonly left = MARGIN;
  private readonly right = PAGE.width - MARGIN;
  private readonly top = MARGIN;
  private readonly bottom = PAGE.height - MARGIN;
  private readonly width = PAGE.width - 2 * MARGIN;
  private readonly columns: TableColumn[];
  private readonly tableSize: number;
  /** Widths of texts by font and size (`font` picks the current one). */
  private readonly widthMemo = new Map<string, Map<string, number>>();
  private widths = new Map<string, number>();
  private fontNow: { name: typeof REGULAR | typeof BOLD; size: number } = { name: REGULAR, size: SIZE.text };

  constructor(
    private readonly doc: Doc,
    private readonly model: ReportModel,
    private readonly layout: ReportLayout,
    private readonly images: ImageBook,
  ) {
    const widest = (column: CardColumn) => {
      doc.font(BOLD).fontSize(SIZE.table);
      let most = doc.widthOfString(column.header);
      doc.font(REGULAR);
      for (const learner of model.learners)
        for (const subject of learner.subjects) most = Math.max(most, doc.widthOfString(column.cell(subject)));
      return most;
    };
    const measure = (text: string) => doc.font(BOLD).fontSize(SIZE.table).widthOfString(text);
    const placed = placeColumns(subjectColumns(model, layout), this.left, this.width, measure, widest);
    this.columns = placed.columns;
    this.tableSize = placed.size;
  }

  /** Draws one learner's card from a new page. */
  draw(learner: ReportLearner | null): void {
    this.newPage();
    for (const section of this.layout.sections) {
      const drawn = this.section(section, learner);
      if (drawn) this.y += GAP;
    }
  }

  private section(section: ReportLayout['sections'][number], learner: ReportLearner | null): boolean {
    if (section === 'header') return this.header();
    if (!learner) return false;
    switch (section) {
      case 'learner':
        return this.learner(learner);
      case 'subjects':
        return this.subjects(learner);
      case 'summary':
        return this.summary(learner);
      case 'attendance':
        return this.attendance(learner);
      case 'remarks':
        return this.remarks(learner);
      case 'gradeKey':
        return this.key();
      case 'nextTerm': {
        const items = nextTermItems(this.model, learner);
        if (items.length > 0) this.items([items]);
        return items.length > 0;
      }
      case 'footers':
        for (const footer of learner.footers) this.labelled(footer.title, footer.text, SIZE.small, 2);
        return learner.footers.length > 0;
      case 'signatures':
        return this.signatures();
    }
  }

  private newPage() {
    this.doc.addPage();
    this.y = this.top;
  }

  /** Room for `height` on this page, else a new page (a block taller than a page starts one and flows on). */
  private room(height: number) {
    if (this.y + height > this.bottom && this.y > this.top) this.newPage();
  }

  /** Sets the font and size; the height of a line in it. */
  private font(name: typeof REGULAR | typeof BOLD, size: number) {
    this.doc.font(name).fontSize(size);
    this.fontNow = { name, size };
    const key = `${name} ${size}`;
    let widths = this.widthMemo.get(key);
    if (!widths) {
      widths = new Map();
      this.widthMemo.set(key, widths);
    }
    this.widths = widths;
    return this.doc.currentLineHeight(true);
  }

  /** A text's width in the current font, worked out once per file (a class repeats marks, grades and words). */
  private widthOf(text: string): number {
    let width = this.widths.get(text);
    if (width === undefined) {
      width = this.doc.widthOfString(text);
      this.widths.set(text, width);
    }
    return width;
  }

  /** One line at (x, y), never wrapped; its width handed to pdfkit, which would measure it again. */
  private put(text: string, x: number, y: number) {
    this.doc.text(text, x, y, { lineBreak: false, textWidth: this.widthOf(text), wordCount: 1 } as PDFKit.Mixins.TextOptions);
  }

  /** Text centred between x and x + width, wrapped when it is wider; the y under it. */
  private centred(text: string, y: number, x: number, width: number): number {
    const lineHeight = this.doc.currentLineHeight(true);
    const textWidth = this.widthOf(text);
    if (textWidth <= width) {
      this.put(text, x + (width - textWidth) / 2, y);
      return y + lineHeight;
    }
    this.doc.text(text, x, y, { width, align: 'center' });
    return this.doc.y;
  }

  private header(): boolean {
    const { doc, model } = this;
    const { school, report } = model;
    const logoUrl = school.logo;
    const logo = this.images.get(logoUrl);
    const inset = logo ? LOGO + 10 : 0;
    const x = this.left + inset;
    const width = this.width - 2 * inset;
    const contact = [school.phone, school.email].filter((part): part is string => Boolean(part?.trim())).join(' · ');
    const lines = [...school.lines, school.address ?? '', contact].filter((line) => line.trim() !== '');
    const title = `${report.label} — ${W.term} ${report.term} ${report.year}`;

    this.font(BOLD, SIZE.school);
    const nameHeight = doc.heightOfString(school.name, { width });
    const linesHeight = lines.length * this.font(REGULAR, SIZE.text);
    const titleHeight = this.font(BOLD, SIZE.title) + 2;
    this.room(Math.max(nameHeight + linesHeight + titleHeight, logo ? LOGO : 0) + 6);

    const start = this.y;
    let logoHeight = 0;
    if (logo && logoUrl) logoHeight = this.images.draw(logoUrl, logo, this.left, start, { width: LOGO, height: LOGO })?.height ?? 0;
    this.font(BOLD, SIZE.school);
    let y = this.centred(school.name, start, x, width);
    this.font(REGULAR, SIZE.text);
    for (const line of lines) y = this.centred(line, y, x, width);
    this.font(BOLD, SIZE.title);
    y = this.centred(title, y + 2, x, width);
    this.y = Math.max(y, start + logoHeight) + 3;
    doc.moveTo(this.left, this.y).lineTo(this.right, this.y).lineWidth(1).strokeColor('#000000').stroke();
    this.y += 3;
    return true;
  }

  private learner(learner: ReportLearner): boolean {
    const { doc } = this;
    const photoUrl = this.layout.showPhoto ? learner.photo : null;
    const photo = this.images.get(photoUrl);
    const rows: Array<[string, string]> = [
      [W.name, learner.fullname],
      [W.studentId, learner.studentid],
      [W.class, [learner.form, learner.stream].filter(Boolean).join(' ')],
      [W.sex, sexOf(learner.gender)],
      [W.lin, learner.lin ?? '-'],
    ];
    const lineHeight = this.font(BOLD, SIZE.text) + 3;
    const labelWidth = Math.max(...rows.map(([label]) => this.widthOf(`${label}:`))) + 8;
    const height = Math.max(rows.length * lineHeight, photo ? PHOTO.height : 0);
    this.room(height);
    const start = this.y;
    const valueWidth = this.width - labelWidth - (photo ? PHOTO.width + 10 : 0);
    rows.forEach(([label, value], index) => {
      const y = start + index * lineHeight;
      this.font(BOLD, SIZE.text);
      this.put(`${label}:`, this.left, y);
      // A name too long for the line is set smaller rather than cut.
      const font = index === 0 ? BOLD : REGULAR;
      this.font(font, SIZE.text);
      const wide = this.widthOf(value);
      if (wide > valueWidth) this.font(font, Math.max(6, (SIZE.text * valueWidth) / wide));
      this.put(value, this.left + labelWidth, y);
    });
    if (photo && photoUrl) {
      const drawn = this.images.draw(photoUrl, photo, this.right - PHOTO.width, start, PHOTO, 'right');
      if (drawn) doc.rect(drawn.x, start, drawn.width, drawn.height).lineWidth(0.5).strokeColor(GRID).stroke();
    }
    this.y = start + height;
    return true;
  }

  /** Height of one table row of these texts (wrapping the cells wider than their column). */
  private rowHeight(texts: string[]): number {
    const { doc } = this;
    let height = doc.currentLineHeight(true);
    this.columns.forEach((column, index) => {
      const text = texts[index] ?? '';
      if (text && this.fit(column, text) === 'wrap')
        height = Math.max(height, doc.heightOfString(text, { width: column.width - 2 * CELL.x }));
    });
    return height + 2 * CELL.y;
  }

  /**
   * How a cell's text goes in its column: on one line; wrapped (a flexible column, or a header
   * whose every word fits); or, in a narrow column, on one line at the smaller size returned: a
   * mark is never broken across lines.
   */
  private fit(column: TableColumn, text: string): 'line' | 'wrap' | number {
    const inner = column.width - 2 * CELL.x;
    const width = this.widthOf(text);
    if (width <= inner) return 'line';
    if (FLEX[column.kind] || text.split(/\s+/).every((word) => this.widthOf(word) <= inner)) return 'wrap';
    return Math.max(4, (this.fontNow.size * inner) / width);
  }

  private drawRow(texts: string[], y: number) {
    const { doc } = this;
    this.columns.forEach((column, index) => {
      const text = texts[index] ?? '';
      if (!text) return;
      const fit = this.fit(column, text);
      if (fit === 'wrap') {
        doc.text(text, column.x + CELL.x, y + CELL.y, { width: column.width - 2 * CELL.x, align: column.align });
        return;
      }
      const { name, size } = this.fontNow;
      if (fit !== 'line') this.font(name, fit);
      const textWidth = this.widthOf(text);
      this.put(text, column.align === 'center' ? column.x + (column.width - textWidth) / 2 : column.x + CELL.x, y + CELL.y);
      if (fit !== 'line') this.font(name, size);
    });
  }

  /** The table's rules for the rows drawn on this page: one path, stroked once. */
  private grid(rows: number[]) {
    const { doc } = this;
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (first === undefined || last === undefined) return;
    const right = this.left + this.width;
    for (const y of rows) doc.moveTo(this.left, y).lineTo(right, y);
    for (const column of this.columns) doc.moveTo(column.x, first).lineTo(column.x, last);
    doc.moveTo(right, first).lineTo(right, last);
    doc.lineWidth(0.5).strokeColor(GRID).stroke();
  }

  private subjects(learner: ReportLearner): boolean {
    const { doc } = this;
    const headers = this.columns.map((column) => column.header);
    this.font(BOLD, this.tableSize);
    const headerHeight = this.rowHeight(headers);
    const drawHeader = () => {
      this.font(BOLD, this.tableSize);
      doc.rect(this.left, this.y, this.width, headerHeight).fillColor(HEADER_FILL).fill();
      doc.fillColor('#000000');
      this.drawRow(headers, this.y);
      this.y += headerHeight;
    };
    const rows = learner.subjects.map((subject) => this.columns.map((column) => column.cell(subject)));
    this.font(REGULAR, this.tableSize);
    const firstRow = rows[0] ? this.rowHeight(rows[0]) : 0;
    this.room(headerHeight + firstRow);
    let lines = [this.y];
    drawHeader();
    lines.push(this.y);
    for (const row of rows) {
      this.font(REGULAR, this.tableSize);
      const height = this.rowHeight(row);
      if (this.y + height > this.bottom) {
        this.grid(lines);
        this.newPage();
        lines = [this.y];
        drawHeader();
        lines.push(this.y);
        this.font(REGULAR, this.tableSize);
      }
      this.drawRow(row, this.y);
      this.y += height;
      lines.push(this.y);
    }
    this.grid(lines);
    return true;
  }

  /** "Label: value" items side by side, wrapping to the next line when the line is full. */
  private items(groups: Array<Array<[string, string]>>) {
    const lineHeight = this.font(BOLD, SIZE.text) + 2;
    const spacing = 18;
    const measured = groups.map((group) =>
      group.map(([label, value]) => {
        this.font(BOLD, SIZE.text);
        const labelWidth = this.widthOf(`${label}: `);
        this.font(REGULAR, SIZE.text);
        return { label: `${label}: `, value, labelWidth, width: labelWidth + this.widthOf(value) };
      }),
    );
    for (const group of measured) {
      if (group.length === 0) continue;
      this.room(lineHeight);
      let x = this.left;
      for (const item of group) {
        if (x > this.left && x + item.width > this.right) {
          this.y += lineHeight;
          this.room(lineHeight);
          x = this.left;
        }
        this.font(BOLD, SIZE.text);
        this.put(item.label, x, this.y);
        this.font(REGULAR, SIZE.text);
        this.put(item.value, x + item.labelWidth, this.y);
        x += item.width + spacing;
      }
      this.y += lineHeight;
    }
  }

  private summary(learner: ReportLearner): boolean {
    const { level } = this.model.report;
    const results: Array<[string, string]> = [
      [W.total, reportNumber(learner.total)],
      [W.average, reportNumber(learner.average)],
    ];
    if (level === 'primary' || level === 'olevel') {
      results.push([W.aggregate, reportNumber(learner.aggregate)], [W.division, learner.division ?? '-']);
    } else if (level === 'alevel') {
      results.push([W.totalPoints, reportNumber(learner.points)]);
    }
    const { position } = learner;
    const place = (rank: number | null, of: number) => (rank === null ? '-' : `${rank} ${W.outOf} ${of}`);
    const positions: Array<[string, string]> = [];
    if (showsStreamPosition(this.model, this.layout)) positions.push([W.positionStream, place(position.stream, position.streamOf)]);
    if (this.layout.showPositions) positions.push([W.positionClass, place(position.class, position.of)]);
    this.items([results, positions]);
    return true;
  }

  private attendance(learner: ReportLearner): boolean {
    const { attendance } = learner;
    if (!attendance) return false;
    this.items([[[W.attendance, `${attendance.days} ${W.outOf} ${attendance.total}`]]]);
    return true;
  }

  /** "Label: text" wrapped across the page, the label bold. */
  private labelled(label: string, text: string, size: number, after = 0): boolean {
    const { doc } = this;
    const lineHeight = this.font(BOLD, size);
    const labelWidth = this.widthOf(`${label}: `);
    this.font(REGULAR, size);
    // One line (most remarks and footers): drawn as two pieces, without pdfkit's line wrapper.
    if (labelWidth + this.widthOf(text) <= this.width) {
      this.room(lineHeight);
      this.font(BOLD, size);
      this.put(`${label}: `, this.left, this.y);
      this.font(REGULAR, size);
      this.put(text, this.left + labelWidth, this.y);
      this.y += lineHeight + after;
      return true;
    }
    const height = doc.heightOfString(`${label}: ${text}`, { width: this.width });
    this.room(height);
    this.font(BOLD, size);
    doc.text(`${label}: `, this.left, this.y, { width: this.width, continued: true });
    this.font(REGULAR, size);
    doc.text(text);
    this.y = doc.y + after;
    return true;
  }

  /** The school's grading key, then the key every card prints (grades, divisions, X, a missed test, the marks). */
  private key(): boolean {
    const { gradeKey, key } = this.model;
    if (gradeKey) this.labelled(W.gradeKey, gradeKey, SIZE.small, 1);
    const lineHeight = this.font(REGULAR, SIZE.small);
    for (const line of key) {
      if (this.widthOf(line) <= this.width) {
        this.room(lineHeight);
        this.put(line, this.left, this.y);
        this.y += lineHeight + 1;
      } else {
        this.room(this.doc.heightOfString(line, { width: this.width }));
        this.doc.text(line, this.left, this.y, { width: this.width });
        this.y = this.doc.y + 1;
      }
    }
    return Boolean(gradeKey) || key.length > 0;
  }

  /** A ruled line to sign on for each signer, side by side, the signer's name under it. */
  private signatures(): boolean {
    const { doc } = this;
    const { signatures } = this.model;
    if (signatures.length === 0) return false;
    const gap = 40;
    const width = (this.width - gap * (signatures.length - 1)) / signatures.length;
    const lineHeight = this.font(REGULAR, SIZE.text);
    this.room(28 + lineHeight);
    const base = this.y + 24;
    signatures.forEach((label, index) => {
      const x = this.left + index * (width + gap);
      doc
        .moveTo(x, base)
        .lineTo(x + width, base)
        .lineWidth(0.7)
        .strokeColor('#000000')
        .stroke();
      this.put(label, x, base + 3);
    });
    this.y = base + 3 + lineHeight;
    return true;
  }

  private remarks(learner: ReportLearner): boolean {
    const { doc } = this;
    const remarks = learner.remarks.map((remark): [string, string] => [remark.label, remark.text]);
    remarks.forEach(([label, text], index) => {
      if (index > 0) this.y += 6;
      if (text.trim()) {
        this.labelled(label, text.trim(), SIZE.text);
        return;
      }
      // Nothing written yet: a ruled line beside the label for the teacher's pen.
      const lineHeight = this.font(BOLD, SIZE.text);
      this.room(lineHeight + 8);
      this.y += 6;
      this.put(`${label}:`, this.left, this.y);
      const start = this.left + this.widthOf(`${label}:`) + 6;
      const base = this.y + lineHeight - 1;
      doc.moveTo(start, base).lineTo(this.right, base).lineWidth(0.5).strokeColor(GRID).stroke();
      this.y += lineHeight + 2;
    });
    return true;
  }
}

/** Registers the documents' fonts with a pdfkit document (the one PDF set-up, documents/pdf.ts); their names. */
export const useReportFonts = useDocumentFonts;

/** How long a class is drawn before the thread's other documents have a turn (documents/pool.ts). */
const TURN_MS = 10;

/**
 * A class's report cards as one PDF: every learner of the model in order, each from a new A4
 * page. `images` gives the bytes of the logo and photos the model names (those missing or not
 * JPEG/PNG are left out); `onLearnerDone` is called after each card. After TURN_MS of drawing
 * it lets the thread's other documents draw a while (another school's single card).
 */
export async function drawReportPdf(
  model: ReportModel,
  layout: ReportLayout,
  images: ReportImages,
  onLearnerDone?: LearnerDone,
): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'portrait',
    margin: MARGIN,
    title: [report.label, report.form, report.stream, `${W.term} ${report.term}`, String(report.year)].filter(Boolean).join(' '),
    school: model.school.name,
  });
  const card = new Card(doc, model, layout, new ImageBook(doc, images));
  const total = model.learners.length;
  // No learner still makes a valid file: one page with the school's header.
  if (total === 0) card.draw(null);
  let turn = performance.now();
  for (const [index, learner] of model.learners.entries()) {
    card.draw(learner);
    onLearnerDone?.(index + 1, total);
    if (performance.now() - turn >= TURN_MS && index + 1 < total) {
      await yieldToOtherDocuments();
      turn = performance.now();
    }
  }
  doc.end();
  return bytes;
}

/** What the report cards' drawer takes: the model, the layout, and the images the model names. */
export interface ReportCardsInput {
  model: ReportModel;
  layout: ReportLayout;
  /** The bytes (JPEG or PNG) of the logo and photos the model names, by URL: each embedded once. */
  images: DocumentImages;
}

/** The report cards' drawer in the document pool (document-drawers.ts). */
export const drawReportCards: DocumentDrawer<ReportCardsInput> = ({ model, layout, images }, progress) =>
  drawReportPdf(model, layout, images, progress);
