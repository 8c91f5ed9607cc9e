import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { reportFonts } from './fonts.js';

/*
 * The one PDF set-up every document drawer starts from (issue 25 point 5): the page frame (A4,
 * portrait or landscape, and its margins), the fonts (DejaVu Sans regular and bold, fonts.ts)
 * and the metadata (title, author "Mustard", the school as subject, creation date), and the
 * bytes collected into one Buffer when the drawer ends the document. A drawer only draws.
 *
 * The fonts are kept worked out for the thread's next files (each file still embeds its own
 * subset of glyphs):
 * - fontkit's parsed font: pdfkit takes an opened font in place of bytes (its font factory
 *   accepts anything with `layout`), so the files are parsed once per thread, not per file;
 * - the glyphs and advances of each word laid out (pdfkit's per-font `layoutCache`, keyed by the
 *   word; a function of the font alone), so a word is shaped once per thread, not once per file.
 *   Emptied past LAYOUT_CACHE_WORDS words, so a worker's memory stays bounded.
 * `_font`, `font` and `layoutCache` are pdfkit's own fields (not in @types/pdfkit); without them
 * it all still works, only slower.
 */

export type Doc = PDFKit.PDFDocument;

/** A4 in points, each way. */
export const PAGE_SIZES = {
  portrait: { width: 595.28, height: 841.89 },
  landscape: { width: 841.89, height: 595.28 },
} as const;

/** The fonts' names in every document. */
export const DOCUMENT_FONTS = { regular: 'mustard-regular', bold: 'mustard-bold' } as const;

/** Who the metadata names as the documents' author and maker. */
export const DOCUMENT_AUTHOR = 'Mustard';

export interface PdfSetUp {
  orientation: keyof typeof PAGE_SIZES;
  /** The page's margin on every side, in points. */
  margin: number;
  /** The document's title (metadata). */
  title: string;
  /** The school the document is of (metadata's subject). */
  school: string;
  /** Keep every page open until the end (to write "Page x of y" on each). */
  bufferPages?: boolean;
  /** The creation date (now unless given: the tests fix it). */
  created?: Date;
}

export interface OpenedPdf {
  doc: Doc;
  page: { width: number; height: number };
  /** The document's bytes once the drawer calls `doc.end()`; rejects with pdfkit's error. */
  bytes: Promise<Buffer>;
}

/*
 * Page content written faster (issue 25 point 5: a school's 1,040 cards in a few seconds).
 * pdfkit writes every drawing operator of a page's content into its own small byte array (a
 * loop over the string's characters), joins them at the page's end and compresses them at
 * zlib's default level: about a fifth of a card's time. Here, for every pdfkit document of
 * the thread, the operators are kept as text and turned into bytes once per page (Node's
 * latin1 encoding: the same bytes, the low byte of each character), and compressed at level 1
 * (the fastest; a class's file grows by a few per cent). `write`, `finalize`, `buffer`,
 * `compress` and `uncompressedLength` are pdfkit's own (PDFReference, not in @types/pdfkit);
 * images and fonts, written as bytes, go pdfkit's own way.
 */
interface ReferenceInternals {
  data: { Length?: number; Filter?: string };
  buffer: Uint8Array[];
  compress: boolean;
  uncompressedLength: number;
  write(chunk: string | Uint8Array): void;
  finalize(): void;
  pendingText?: string[];
}
export const CONTENT_DEFLATE_LEVEL = 1;
function fasterContentStreams() {
  const probe = new PDFDocument({ size: 'A4' }) as unknown as { page?: { content?: ReferenceInternals } };
  const reference = probe.page?.content ? (Object.getPrototypeOf(probe.page.content) as ReferenceInternals) : null;
  if (!reference || typeof reference.write !== 'function' || typeof reference.finalize !== 'function') return;
  const write = reference.write;
  const finalize = reference.finalize;
  const flushText = (ref: ReferenceInternals) => {
    if (!ref.pendingText?.length) return;
    ref.buffer.push(Buffer.from(ref.pendingText.join(''), 'latin1'));
    ref.pendingText = [];
  };
  reference.write = function (this: ReferenceInternals, chunk: string | Uint8Array) {
    if (chunk instanceof Uint8Array) {
      flushText(this);
      write.call(this, chunk);
      return;
    }
    const text = `${chunk}\n`;
    if (!this.pendingText) this.pendingText = [];
    this.pendingText.push(text);
    this.uncompressedLength += text.length;
    this.data.Length = (this.data.Length ?? 0) + text.length;
    if (this.compress) this.data.Filter = 'FlateDecode';
  };
  reference.finalize = function (this: ReferenceInternals) {
    flushText(this);
    if (this.compress && this.buffer.length > 0) {
      const bytes = this.buffer.length === 1 ? (this.buffer[0] as Uint8Array) : Buffer.concat(this.buffer);
      this.buffer = [deflateSync(bytes, { level: CONTENT_DEFLATE_LEVEL })];
      this.compress = false;
    }
    finalize.call(this);
  };
}
fasterContentStreams();

/** A new document with the page frame, fonts (current: regular) and metadata set; nothing drawn yet. */
export function openPdf(setUp: PdfSetUp): OpenedPdf {
  const page = PAGE_SIZES[setUp.orientation];
  const doc = new PDFDocument({
    size: [page.width, page.height],
    margin: setUp.margin,
    autoFirstPage: false,
    bufferPages: setUp.bufferPages ?? false,
    compress: true,
    info: {
      Title: setUp.title,
      Author: DOCUMENT_AUTHOR,
      Subject: setUp.school,
      Producer: DOCUMENT_AUTHOR,
      Creator: DOCUMENT_AUTHOR,
      CreationDate: setUp.created ?? new Date(),
    },
  });
  const bytes = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => {
      keepFontWords();
      resolve(Buffer.concat(chunks));
    });
    doc.on('error', reject);
  });
  useDocumentFonts(doc);
  return { doc, page, bytes };
}

const LAYOUT_CACHE_WORDS = 50_000;
interface FontInternals {
  _font?: { font?: { layout?: unknown }; layoutCache?: Record<string, unknown> };
}
const kept: Record<'regular' | 'bold', { font?: unknown; layouts: Record<string, unknown>; words: number }> = {
  regular: { layouts: Object.create(null), words: 0 },
  bold: { layouts: Object.create(null), words: 0 },
};

/** Registers the fonts with a pdfkit document (kept parsed and laid out per thread, above); their names. */
export function useDocumentFonts(doc: Doc): typeof DOCUMENT_FONTS {
  const bytes = reportFonts();
  for (const key of ['bold', 'regular'] as const) {
    const name = DOCUMENT_FONTS[key];
    const font = kept[key];
    doc.registerFont(name, (font.font ?? bytes[key]) as Buffer);
    doc.font(name);
    const current = (doc as unknown as FontInternals)._font;
    if (!font.font && typeof current?.font?.layout === 'function') font.font = current.font;
    if (!current || current.font !== font.font || !current.layoutCache) continue;
    if (font.words > LAYOUT_CACHE_WORDS) {
      font.layouts = Object.create(null);
      font.words = 0;
    }
    current.layoutCache = font.layouts;
  }
  return DOCUMENT_FONTS;
}

/** After a file: how many words the kept layouts hold (to empty them when they grow past the bound). */
function keepFontWords() {
  for (const font of Object.values(kept)) font.words = Object.keys(font.layouts).length;
}

/** Lets the thread's other documents draw a while (a long file yields every so many pages; see pool.ts). */
export const yieldToOtherDocuments = () => new Promise<void>((resolve) => setImmediate(resolve));
