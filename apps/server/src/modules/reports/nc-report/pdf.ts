import {
  descriptorName,
  NC_REPORT_WORDS as N,
  NC_COLUMN_HEADS,
  type NcLearnerCard,
  type NcReportModel,
  type NcSubjectRow,
  ncKeyLines,
  ncNextTermItems,
  ncPartText,
  ncScoreText,
  ncShowsSummary,
  ncShowsTopics,
  ncSubjectColumns,
  ncUnscoredText,
  type ReportLayout,
  REPORT_WORDS as W,
} from '@mustard/shared';
import type { DocumentDrawer, DocumentImages } from '../../../documents/drawers.js';
import { DOCUMENT_FONTS, type Doc, openPdf, PAGE_SIZES, yieldToOtherDocuments } from '../../../documents/pdf.js';

/*
 * A new-curriculum class's report cards drawn with pdfkit (issue 27 point 2): one learner from
 * a new A4 page (a long card flows on, its table's header repeated), the whole class in one
 * file, the sections of the school's report layout in its order as the preview draws them
 * (nc-render-html.ts in shared, with the same words and numbers). Real text in the embedded
 * DejaVu subset (the one PDF set-up, documents/pdf.ts), so the cards can be searched; each
 * picture embedded once. Pure: the model, layout and pictures in, the bytes out; runs in the
 * document pool.
 */

const PAGE = PAGE_SIZES.portrait;
const MARGIN = 34;
const GAP = 8;
const SIZE = { school: 16, title: 11, text: 9, table: 8.5, small: 7.5 };
const LOGO = 58;
const PHOTO = { width: 66, height: 80 };
const CELL = { x: 3, y: 2.5 };
const GRID = '#555555';
const HEADER_FILL = '#e6e6e6';
const TOPIC_FILL = '#f7f7f7';
/** How far a competency's title is set in under its subject. */
const INDENT = 10;
const REGULAR = DOCUMENT_FONTS.regular;
const BOLD = DOCUMENT_FONTS.bold;
type FontName = typeof REGULAR | typeof BOLD;

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

/** A table column: its heading, width and alignment. */
interface Column {
  header: string;
  width: number;
  align: 'left' | 'right' | 'center';
  /** Its cells wrap (text columns); the others stay on one line, set smaller when too wide. */
  wraps: boolean;
}

/** A table row: its cells, and how it is drawn. */
interface Row {
  cells: string[];
  /** How many of its first cells are bold (a header's every one, a subject's name, score and identifier). */
  bold?: number;
  fill?: string;
  /** The first cell indented (a competency under its subject). */
  indent?: boolean;
}

/** One class's cards: the pen's place, the fonts' measures kept for the file. */
class NcCards {
  private y = MARGIN;
  private readonly left = MARGIN;
  private readonly right = PAGE.width - MARGIN;
  private readonly bottom = PAGE.height - MARGIN;
  private readonly width = PAGE.width - 2 * MARGIN;
  private readonly widthMemo = new Map<string, Map<string, number>>();
  private widths = new Map<string, number>();
  private fontNow: { name: FontName; size: number } = { name: REGULAR, size: SIZE.text };
  private readonly opened = new Map<string, OpenedImage | null>();
  private readonly lineMemo = new Map<Map<string, number>, Map<string, string[]>>();
  private readonly subjectColumns: Column[];
  private readonly columnKinds: ReturnType<typeof ncSubjectColumns>;

  constructor(
    private readonly doc: Doc,
    private readonly model: NcReportModel,
    private readonly layout: ReportLayout,
    private readonly images: DocumentImages,
  ) {
    this.columnKinds = ncSubjectColumns(model.report, layout);
    const fixed: Record<string, number> = { score: 46, identifier: 66, exam: 54, grade: 38, descriptor: 84, initials: 40 };
    const texts = this.columnKinds.filter((kind) => fixed[kind] === undefined);
    const used = this.columnKinds.reduce((sum, kind) => sum + (fixed[kind] ?? 0), 0);
    const subjectWidth = texts.length > 0 ? 150 : this.width - used;
    const textWidth = texts.length > 0 ? (this.width - used - subjectWidth) / texts.length : 0;
    this.subjectColumns = [
      { header: W.subject, width: subjectWidth, align: 'left', wraps: true },
      ...this.columnKinds.map(
        (kind): Column => ({
          header: NC_COLUMN_HEADS[kind],
          width: fixed[kind] ?? textWidth,
          align: kind === 'score' || kind === 'exam' ? 'right' : kind === 'grade' ? 'center' : 'left',
          wraps: fixed[kind] === undefined || kind === 'identifier',
        }),
      ),
    ];
  }

  /** Draws one learner's card from a new page (a class without learners: the header alone). */
  draw(learner: NcLearnerCard | null): void {
    this.doc.addPage();
    this.y = MARGIN;
    for (const section of this.layout.sections) {
      if (section === 'header') {
        this.header();
        this.y += GAP;
        continue;
      }
      if (learner && this.section(section, learner)) this.y += GAP;
    }
    if (learner) {
      this.font(REGULAR, SIZE.small);
      this.room(12);
      this.centred(N.stamp, this.y, this.left, this.width);
    }
  }

  private section(section: ReportLayout['sections'][number], learner: NcLearnerCard): boolean {
    const { report } = this.model;
    switch (section) {
      case 'learner':
        return this.learner(learner);
      case 'subjects':
        this.subjects(learner);
        if (ncShowsSummary(report)) {
          this.y += GAP;
          this.summaryBlock(learner);
        }
        if (learner.project.length > 0) {
          this.y += GAP;
          this.projects(learner);
        }
        return true;
      case 'summary':
        return this.overall(learner);
      case 'attendance':
        if (!learner.attendance) return false;
        this.pairs([[W.attendance, `${learner.attendance.days} ${W.outOf} ${learner.attendance.total}`]]);
        return true;
      case 'remarks':
        return this.remarks(learner);
      case 'gradeKey':
        return this.keys();
      case 'nextTerm': {
        const items = ncNextTermItems(this.model, learner);
        if (items.length > 0) this.pairs(items);
        return items.length > 0;
      }
      case 'footers':
        return false;
      case 'signatures':
        return this.signatures();
      default:
        return false;
    }
  }

  private newPage() {
    this.doc.addPage();
    this.y = MARGIN;
  }

  /** Room for `height` on this page, else a new page. */
  private room(height: number) {
    if (this.y + height > this.bottom && this.y > MARGIN) this.newPage();
  }

  private font(name: FontName, size: number): number {
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

  private widthOf(text: string): number {
    let width = this.widths.get(text);
    if (width === undefined) {
      width = this.doc.widthOfString(text);
      this.widths.set(text, width);
    }
    return width;
  }

  /**
   * A text broken into lines of at most `width` in the current font (greedy, at spaces; a word
   * wider than the line goes on one of its own), worked out once per file: a class repeats its
   * remarks, keys and titles, so each is measured once and drawn as plain lines.
   */
  private linesOf(text: string, width: number): string[] {
    const key = `${width.toFixed(2)}|${text}`;
    const memo = this.lineMemo.get(this.widths) ?? new Map<string, string[]>();
    this.lineMemo.set(this.widths, memo);
    let lines = memo.get(key);
    if (lines) return lines;
    lines = [];
    if (this.widthOf(text) <= width) lines.push(text);
    else {
      const space = this.widthOf(' ');
      let line = '';
      let lineWidth = 0;
      for (const word of text.split(/\s+/).filter(Boolean)) {
        const wordWidth = this.widthOf(word);
        if (line && lineWidth + space + wordWidth > width) {
          lines.push(line);
          line = word;
          lineWidth = wordWidth;
        } else {
          lineWidth = line ? lineWidth + space + wordWidth : wordWidth;
          line = line ? `${line} ${word}` : word;
        }
      }
      if (line) lines.push(line);
    }
    memo.set(key, lines);
    return lines;
  }

  /** One line at (x, y), never wrapped. */
  private put(text: string, x: number, y: number) {
    this.doc.text(text, x, y, { lineBreak: false, textWidth: this.widthOf(text), wordCount: 1 } as PDFKit.Mixins.TextOptions);
  }

  /** Text centred between x and x + width, wrapped when wider; the y under it. */
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

  /** Text from x, wrapped at `width`; the y under it. */
  private wrapped(text: string, x: number, y: number, width: number): number {
    const lineHeight = this.doc.currentLineHeight(true);
    for (const line of this.linesOf(text, width)) {
      this.put(line, x, y);
      y += lineHeight;
    }
    return y;
  }

  private image(url: string | null): OpenedImage | undefined {
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

  /** Draws a picture fitted into the box at (x, y) against its left or right side; its size, or null. */
  private picture(url: string, image: OpenedImage, x: number, y: number, box: { width: number; height: number }, side: 'left' | 'right') {
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

  private header() {
    const { doc, model } = this;
    const { school, report } = model;
    const logo = this.image(school.logo);
    const inset = logo ? LOGO + 8 : 0;
    const x = this.left + inset;
    const width = this.width - 2 * inset;
    const contact = [school.phone, school.email].filter((part): part is string => Boolean(part?.trim())).join(' · ');
    const lines = [...school.lines, school.address ?? '', contact].filter((line) => line.trim() !== '');
    const start = this.y;
    let logoHeight = 0;
    if (logo && school.logo)
      logoHeight = this.picture(school.logo, logo, this.left, start, { width: LOGO, height: LOGO }, 'left')?.height ?? 0;
    this.font(BOLD, SIZE.school);
    let y = this.centred(school.name, start, x, width);
    this.font(REGULAR, SIZE.text);
    for (const line of lines) y = this.centred(line, y, x, width);
    this.font(BOLD, SIZE.title);
    y = this.centred(`${report.label} — ${W.term} ${report.term} ${report.year}`, y + 2, x, width);
    this.y = Math.max(y, start + logoHeight) + 3;
    doc.moveTo(this.left, this.y).lineTo(this.right, this.y).lineWidth(1).strokeColor('#000000').stroke();
    this.y += 3;
  }

  private learner(learner: NcLearnerCard): boolean {
    const { doc } = this;
    const photo = this.layout.showPhoto ? this.image(learner.photo) : undefined;
    const rows: Array<[string, string]> = [
      [W.name, learner.fullname],
      [W.studentId, learner.studentid],
      [W.class, learner.form],
      [N.stream, learner.stream ?? '-'],
      [W.lin, learner.lin ?? '-'],
    ];
    const lineHeight = this.font(BOLD, SIZE.text) + 2;
    const labelWidth = Math.max(...rows.map(([label]) => this.widthOf(`${label}:`))) + 8;
    const height = Math.max(rows.length * lineHeight, photo ? PHOTO.height : 0);
    this.room(height);
    const start = this.y;
    const valueWidth = this.width - labelWidth - (photo ? PHOTO.width + 10 : 0);
    rows.forEach(([label, value], index) => {
      const y = start + index * lineHeight;
      this.font(BOLD, SIZE.text);
      this.put(`${label}:`, this.left, y);
      const font = index === 0 ? BOLD : REGULAR;
      this.font(font, SIZE.text);
      const wide = this.widthOf(value);
      if (wide > valueWidth) this.font(font, Math.max(6, (SIZE.text * valueWidth) / wide));
      this.put(value, this.left + labelWidth, y);
    });
    if (photo && learner.photo) {
      const drawn = this.picture(learner.photo, photo, this.right - PHOTO.width, start, PHOTO, 'right');
      if (drawn) doc.rect(drawn.x, start, drawn.width, drawn.height).lineWidth(0.5).strokeColor(GRID).stroke();
    }
    this.y = start + height;
    return true;
  }

  /** A row's height: one line, or its wrapped cells' tallest. */
  private rowHeight(columns: Column[], row: Row): number {
    const lineHeight = this.doc.currentLineHeight(true);
    let lines = 1;
    columns.forEach((column, index) => {
      const text = row.cells[index] ?? '';
      if (!text || !column.wraps) return;
      this.cellFont(row, index);
      const inner = column.width - 2 * CELL.x - (index === 0 && row.indent ? INDENT : 0);
      if (this.widthOf(text) > inner) lines = Math.max(lines, this.linesOf(text, inner).length);
    });
    return lines * lineHeight + 2 * CELL.y;
  }

  /** The font of a row's cell: bold where the row says (its first `bold` cells), else regular. */
  private cellFont(row: Row, index: number) {
    const name = row.bold !== undefined && index < row.bold ? BOLD : REGULAR;
    if (this.fontNow.name !== name || this.fontNow.size !== SIZE.table) this.font(name, SIZE.table);
  }

  private drawRow(columns: Column[], row: Row, y: number) {
    let x = this.left;
    columns.forEach((column, index) => {
      const text = row.cells[index] ?? '';
      const indent = index === 0 && row.indent ? INDENT : 0;
      const inner = column.width - 2 * CELL.x - indent;
      if (text) {
        this.cellFont(row, index);
        const width = this.widthOf(text);
        if (width > inner && column.wraps) this.wrapped(text, x + CELL.x + indent, y + CELL.y, inner);
        else {
          const { name, size } = this.fontNow;
          if (width > inner) this.font(name, Math.max(4, (size * inner) / width));
          const shown = Math.min(width, inner);
          const at =
            column.align === 'right'
              ? x + column.width - CELL.x - shown
              : column.align === 'center'
                ? x + (column.width - shown) / 2
                : x + CELL.x + indent;
          this.put(text, at, y + CELL.y);
          if (width > inner) this.font(name, size);
        }
      }
      x += column.width;
    });
  }

  /** The rules of the rows drawn on this page, stroked once. */
  private grid(columns: Column[], lines: number[]) {
    const { doc } = this;
    const first = lines[0];
    const last = lines[lines.length - 1];
    if (first === undefined || last === undefined || lines.length < 2) return;
    for (const y of lines) doc.moveTo(this.left, y).lineTo(this.right, y);
    let x = this.left;
    for (const column of columns) {
      doc.moveTo(x, first).lineTo(x, last);
      x += column.width;
    }
    doc.moveTo(this.right, first).lineTo(this.right, last);
    doc.lineWidth(0.5).strokeColor(GRID).stroke();
  }

  /** A table with its header repeated on each page it flows on to. */
  private table(columns: Column[], rows: Row[], title?: string) {
    const { doc } = this;
    const headers: Row = { cells: columns.map((column) => column.header), bold: columns.length, fill: HEADER_FILL };
    this.font(BOLD, SIZE.table);
    const headerHeight = this.rowHeight(columns, headers);
    const titleHeight = title ? this.font(BOLD, SIZE.text) + 2 : 0;
    this.font(REGULAR, SIZE.table);
    const first = rows[0] ? this.rowHeight(columns, rows[0]) : 0;
    this.room(titleHeight + headerHeight + first);
    if (title) {
      this.font(BOLD, SIZE.text);
      this.put(title, this.left, this.y);
      this.y += titleHeight;
    }
    let lines: number[] = [];
    const drawHeader = () => {
      lines = [this.y];
      this.font(BOLD, SIZE.table);
      doc.rect(this.left, this.y, this.width, headerHeight).fillColor(HEADER_FILL).fill();
      doc.fillColor('#000000');
      this.drawRow(columns, headers, this.y);
      this.y += headerHeight;
      lines.push(this.y);
    };
    drawHeader();
    for (const row of rows) {
      this.font(REGULAR, SIZE.table);
      const height = this.rowHeight(columns, row);
      if (this.y + height > this.bottom) {
        this.grid(columns, lines);
        this.newPage();
        drawHeader();
      }
      if (row.fill) {
        doc.rect(this.left, this.y, this.width, height).fillColor(row.fill).fill();
        doc.fillColor('#000000');
      }
      this.drawRow(columns, row, this.y);
      this.y += height;
      lines.push(this.y);
    }
    this.grid(columns, lines);
  }

  private subjectCell(kind: ReturnType<typeof ncSubjectColumns>[number], subject: NcSubjectRow): string {
    switch (kind) {
      case 'score':
        return ncScoreText(subject.score);
      case 'identifier':
        return subject.identifier ?? '-';
      case 'exam':
        return ncPartText(subject.total);
      case 'grade':
        return subject.grade ?? '-';
      case 'descriptor':
        return descriptorName(subject.descriptor);
      case 'comment':
        return subject.comment;
      case 'skills':
        return subject.skills;
      case 'initials':
        return subject.initials ?? '';
    }
  }

  private subjects(learner: NcLearnerCard) {
    if (learner.subjects.length === 0) {
      this.font(REGULAR, SIZE.text);
      this.room(14);
      this.y = this.wrapped(N.noSubjects, this.left, this.y, this.width);
    } else this.subjectTable(learner);
    const unscored = ncUnscoredText(learner);
    if (unscored) {
      this.font(REGULAR, SIZE.small);
      this.room(12);
      this.y = this.wrapped(unscored, this.left, this.y + 2, this.width);
    }
  }

  private subjectTable(learner: NcLearnerCard) {
    const topics = ncShowsTopics(this.model.report);
    const columns = topics
      ? [{ ...this.subjectColumns[0], header: `${W.subject} / ${N.competency}` } as Column, ...this.subjectColumns.slice(1)]
      : this.subjectColumns;
    const rows: Row[] = [];
    for (const subject of learner.subjects) {
      rows.push({ cells: [subject.subject, ...this.columnKinds.map((kind) => this.subjectCell(kind, subject))], bold: topics ? 3 : 0 });
      if (topics)
        for (const topic of subject.topics)
          rows.push({ cells: [topic.title, ncScoreText(topic.score), topic.identifier ?? '-'], indent: true, fill: TOPIC_FILL });
    }
    this.table(columns, rows);
  }

  private summaryBlock(learner: NcLearnerCard) {
    const columns: Column[] = [
      { header: W.subject, width: 150, align: 'left', wraps: true },
      { header: N.formative, width: 52, align: 'right', wraps: false },
      { header: N.summative, width: 52, align: 'right', wraps: false },
      { header: N.total, width: 58, align: 'right', wraps: false },
      { header: N.grade, width: 40, align: 'center', wraps: false },
      { header: N.descriptor, width: this.width - 352, align: 'left', wraps: true },
    ];
    this.table(
      columns,
      learner.subjects.map((subject) => ({
        cells: [
          subject.subject,
          ncPartText(subject.formative),
          ncPartText(subject.summative),
          ncPartText(subject.total),
          subject.grade ?? '-',
          descriptorName(subject.descriptor),
        ],
      })),
      N.summaryTitle,
    );
  }

  private projects(learner: NcLearnerCard) {
    const columns: Column[] = [
      { header: N.project, width: 150, align: 'left', wraps: true },
      { header: W.subject, width: 110, align: 'left', wraps: true },
      { header: N.score, width: 60, align: 'right', wraps: false },
      { header: W.comment, width: this.width - 320, align: 'left', wraps: true },
    ];
    this.table(
      columns,
      learner.project.map((project) => ({
        cells: [
          project.title,
          project.subject,
          project.score === null ? '-' : `${ncPartText(project.score)} / ${ncPartText(project.max)}`,
          project.comment,
        ],
      })),
      N.projects,
    );
  }

  /** Label: value pairs on one line, wrapped to the next where the line is full. */
  private pairs(items: Array<[string, string]>) {
    const lineHeight = this.font(REGULAR, SIZE.text) + 2;
    this.room(lineHeight);
    let x = this.left;
    for (const [label, value] of items) {
      this.font(BOLD, SIZE.text);
      const head = `${label}:`;
      const headWidth = this.widthOf(head);
      this.font(REGULAR, SIZE.text);
      const valueWidth = this.widthOf(value);
      if (x > this.left && x + headWidth + 4 + valueWidth > this.right) {
        x = this.left;
        this.y += lineHeight;
        this.room(lineHeight);
      }
      this.font(BOLD, SIZE.text);
      this.put(head, x, this.y);
      this.font(REGULAR, SIZE.text);
      this.put(value, x + headWidth + 4, this.y);
      x += headWidth + 4 + valueWidth + 18;
    }
    this.y += lineHeight;
  }

  private overall(learner: NcLearnerCard): boolean {
    const { report } = this.model;
    const { overall } = learner;
    const items: Array<[string, string]> = report.noformative
      ? []
      : [
          [N.avScore, ncScoreText(overall.score)],
          [N.identifier, overall.identifier ?? '-'],
        ];
    items.push([report.noformative ? N.examOnly : N.total, ncPartText(overall.total)], [N.grade, overall.grade ?? '-']);
    if (learner.position) items.push([N.position, `${learner.position.rank} ${W.outOf} ${learner.position.outOf}`]);
    if (learner.certificate) items.push([N.certificate, learner.certificate.result]);
    this.font(BOLD, SIZE.text);
    this.room(26);
    this.put(N.overall, this.left, this.y);
    this.y += this.doc.currentLineHeight(true) + 1;
    this.pairs(items);
    return true;
  }

  private remarks(learner: NcLearnerCard): boolean {
    if (learner.remarks.length === 0) return false;
    for (const remark of learner.remarks) {
      const lineHeight = this.font(BOLD, SIZE.text);
      this.room(lineHeight * 2 + 6);
      this.put(`${remark.label}:`, this.left, this.y);
      this.y += lineHeight + 1;
      this.font(REGULAR, SIZE.text);
      if (remark.text) this.y = this.wrapped(remark.text, this.left, this.y, this.width);
      else this.y += lineHeight;
      this.doc
        .moveTo(this.left, this.y)
        .lineTo(this.right, this.y)
        .lineWidth(0.4)
        .dash(1, { space: 2 })
        .strokeColor(GRID)
        .stroke()
        .undash();
      this.y += 4;
    }
    return true;
  }

  private keys(): boolean {
    const lines = ncKeyLines(this.model);
    const list = (title: string, items: string[]) => {
      const lineHeight = this.font(BOLD, SIZE.small);
      this.room(lineHeight * 2);
      this.put(title, this.left, this.y);
      this.y += lineHeight;
      this.font(REGULAR, SIZE.small);
      for (const line of items) {
        this.room(lineHeight);
        this.y = this.wrapped(line, this.left, this.y, this.width);
      }
    };
    if (!this.model.report.noformative) list(N.identifierKey, lines.identifiers);
    list(N.gradeKey, lines.grades);
    return true;
  }

  private signatures(): boolean {
    const { signatures } = this.model;
    if (signatures.length === 0) return false;
    this.font(REGULAR, SIZE.small);
    this.room(34);
    const gap = 30;
    const width = (this.width - gap * (signatures.length - 1)) / signatures.length;
    const line = this.y + 20;
    signatures.forEach((label, index) => {
      const x = this.left + index * (width + gap);
      this.doc.moveTo(x, line).lineTo(x + width, line);
      this.put(label, x, line + 3);
    });
    this.doc.lineWidth(0.6).strokeColor('#000000').stroke();
    this.y = line + 14;
    return true;
  }
}

/** pdfkit's font of a document (`_font`, `encode`: pdfkit's own, not in @types/pdfkit). */
interface EncodingFont {
  encode(text: string, features?: unknown): [string[], unknown[]];
}

/**
 * Each text's glyphs worked out once per file and font: a class's cards repeat their words
 * (titles, identifiers, scores, remarks), and pdfkit encodes every piece of text anew. The
 * fonts are this document's own (its glyph subset), so the memo lives and dies with the file;
 * the cards never justify text, the one use that would change an encoding after it is made.
 */
function encodeOnce(doc: Doc) {
  for (const name of [BOLD, REGULAR]) {
    doc.font(name);
    const font = (doc as unknown as { _font?: EncodingFont })._font;
    if (!font || typeof font.encode !== 'function') continue;
    const encode = font.encode.bind(font);
    const memo = new Map<string, [string[], unknown[]]>();
    font.encode = (text, features) => {
      if (features) return encode(text, features);
      let encoded = memo.get(text);
      if (!encoded) {
        encoded = encode(text);
        memo.set(text, encoded);
      }
      return encoded;
    };
  }
}

/** How long a class is drawn before the thread's other documents have a turn. */
const TURN_MS = 10;

/** A class's new-curriculum cards as one PDF: each learner from a new page; `progress` after each. */
export async function drawNcReportPdf(
  model: NcReportModel,
  layout: ReportLayout,
  images: DocumentImages,
  progress?: (done: number, total: number) => void,
): Promise<Buffer> {
  const { report } = model;
  const { doc, bytes } = openPdf({
    orientation: 'portrait',
    margin: MARGIN,
    title: [report.label, report.form, report.stream, `${W.term} ${report.term}`, String(report.year)].filter(Boolean).join(' '),
    school: model.school.name,
  });
  encodeOnce(doc);
  const cards = new NcCards(doc, model, layout, images);
  const total = model.learners.length;
  if (total === 0) cards.draw(null);
  let turn = performance.now();
  for (const [index, learner] of model.learners.entries()) {
    cards.draw(learner);
    progress?.(index + 1, total);
    if (performance.now() - turn >= TURN_MS && index + 1 < total) {
      await yieldToOtherDocuments();
      turn = performance.now();
    }
  }
  doc.end();
  return bytes;
}

/** What the new-curriculum cards' drawer takes: the model, the layout, and the pictures the model names. */
export interface NcReportCardsInput {
  model: NcReportModel;
  layout: ReportLayout;
  images: DocumentImages;
}

/** The new-curriculum cards' drawer in the document pool (document-drawers.ts). */
export const drawNcReportCards: DocumentDrawer<NcReportCardsInput> = ({ model, layout, images }, progress) =>
  drawNcReportPdf(model, layout, images, progress);
