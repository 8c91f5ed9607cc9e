import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { INPUT_MESSAGES, STUDENT_MESSAGES } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { AppError } from '../errors.js';

/** Rows of learners or fee lines one workbook may hold. */
const MAX_ROWS = 5000;
/** The longest text a cell may hold: an address or a fee's particulars are far shorter. */
const MAX_CELL_CHARACTERS = 2000;
/** The widest row read at all (a fee journal's receipt column may be column 200); cells past `columns` are passed by. */
const MAX_SHEET_COLUMNS = 256;

/**
 * Limits on an uploaded workbook (security.md item 18), checked before exceljs reads it: the
 * file's size, its number of zip entries, and the bytes its entries really inflate to (counted
 * while inflating, so a zip that lies about sizes is caught too); then, while the rows stream
 * in, rows and columns.
 *
 * The unpacked limit is what the row limit needs: a school's real file of 5,000 learners with
 * every column filled unpacks to about 4 MB (sheet and shared strings); 4 KB a row leaves room
 * for wide fee journals and for the styles and empty cells LibreOffice writes, and 4 MB more
 * for everything that is not rows.
 */
export const SPREADSHEET_LIMITS = {
  fileBytes: 5 * 1024 * 1024,
  entries: 200,
  uncompressedBytes: MAX_ROWS * 4 * 1024 + 4 * 1024 * 1024,
  rows: MAX_ROWS,
  columns: 100,
};
export type SpreadsheetLimits = typeof SPREADSHEET_LIMITS;

export type Cell = string | number | boolean | Date | null;

export interface SheetRow {
  /** The row's number as the spreadsheet program shows it (the header is row 1). */
  number: number;
  /** Cells by column, 0-based (column A is 0). */
  cells: Cell[];
}

export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

/*
 * exceljs reads XML with saxes and, on a malformed part, lets saxes run to the end of each chunk
 * it was given, building an Error (stack and all) for every bad character, before it looks:
 * a megabyte of garbage costs ten seconds of a core, five megabytes minutes. Reading ends at the
 * first error whatever happens, so saxes is made to throw at that first error: the same answer,
 * for the cost of one error. (saxes has no option for it; exceljs is its only user here.)
 */
(SaxesParser.prototype as unknown as { fail(this: SaxesParser, message: string): never }).fail = function fail(message) {
  throw this.makeError(message);
};

const unsafe = () => new AppError(413, STUDENT_MESSAGES.fileUnsafe);
const notSpreadsheet = () => new AppError(422, STUDENT_MESSAGES.fileNotSpreadsheet);

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

/** An entry as the zip's central directory describes it, once checkZip has inflated it. */
interface CheckedEntry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/**
 * Inflates every entry named by the zip's central directory with a running count; refuses as
 * soon as the total passes the limit. Answers the entries as the directory describes them.
 */
async function checkZip(buffer: Buffer, limits: SpreadsheetLimits): Promise<CheckedEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw notSpreadsheet();
  }
  if (zip.entryCount > limits.entries) {
    zip.close();
    throw unsafe();
  }
  const entries: CheckedEntry[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      zip.close();
      reject(error);
    };
    zip.on('error', () => fail(notSpreadsheet()));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      if (total + entry.uncompressedSize > limits.uncompressedBytes) return fail(unsafe());
      entries.push({
        name: entry.fileName,
        method: entry.compressionMethod,
        crc32: entry.crc32,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        localHeaderOffset: entry.relativeOffsetOfLocalHeader,
      });
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return fail(notSpreadsheet());
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limits.uncompressedBytes) {
            stream.destroy();
            fail(unsafe());
          }
        });
        stream.on('error', () => fail(notSpreadsheet()));
        stream.on('end', () => zip.readEntry());
      });
    });
    zip.readEntry();
  });
  return entries;
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
/** The parts the streaming reader uses from the file, in the order it needs them (sheets after). */
const PARTS_BEFORE_SHEETS = ['xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml'];
/**
 * Written in place of the file's own: the workbook's relationships only name the sheets, which
 * the upload does not use, and the reader sets every sheet aside in a temporary file unless it
 * has relationships and shared strings that parsed. Ours always parse.
 */
const RELATIONSHIPS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
);
const EMPTY_SHARED_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);
const stored = (name: string, data: Buffer) => ({ name, method: 0, crc32: zlib.crc32(data), uncompressedSize: data.length, data });

/**
 * The workbook rewritten for the streaming reader: only the parts it reads, each entry's
 * compressed bytes copied as they are, behind a local header written from what checkZip
 * checked, the worksheets last.
 *
 * Why: the streaming reader (exceljs through unzipper) walks a zip by its local headers, while
 * checkZip inflated and counted what the central directory names. A file whose two disagree (an
 * entry the directory calls stored and the local header deflated, a size, an entry the directory
 * does not list) would have the reader inflate what nobody counted: a bomb hidden from the
 * check. Rewritten, the reader can only see the checked entries. And a worksheet that comes
 * before the shared strings (as Excel and LibreOffice write them) would be copied to a
 * temporary file by the reader; in this order it never is.
 */
function repack(buffer: Buffer, entries: CheckedEntry[]): Buffer {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const sheets = entries
    .filter((entry) => WORKSHEET.test(entry.name))
    .sort((a, b) => Number(WORKSHEET.exec(a.name)?.[1]) - Number(WORKSHEET.exec(b.name)?.[1]));
  if (sheets.length === 0 || !byName.has('xl/workbook.xml')) throw notSpreadsheet();

  const parts: Array<{ name: string; method: number; crc32: number; uncompressedSize: number; data: Buffer }> = [
    stored('xl/_rels/workbook.xml.rels', RELATIONSHIPS),
  ];
  for (const name of PARTS_BEFORE_SHEETS) {
    const entry = byName.get(name);
    if (entry) parts.push({ ...entry, data: compressedData(buffer, entry) });
    // Without shared strings, too, the reader would set every sheet aside in a temporary file.
    else if (name === 'xl/sharedStrings.xml') parts.push(stored(name, EMPTY_SHARED_STRINGS));
  }
  for (const entry of sheets) parts.push({ ...entry, data: compressedData(buffer, entry) });

  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names; sizes in this header (no data descriptor)
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc32, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(part.method, 10);
    central.writeUInt32LE(part.crc32, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.uncompressedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, part.data);
    directory.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, directoryBytes, end]);
}

/** An entry's compressed bytes: after its local header, as many as the central directory says. */
function compressedData(buffer: Buffer, entry: CheckedEntry): Buffer {
  // Only the methods the reader knows: stored and deflated.
  if (entry.method !== 0 && entry.method !== 8) throw notSpreadsheet();
  const at = entry.localHeaderOffset;
  if (at + 30 > buffer.length || buffer.readUInt32LE(at) !== LOCAL_HEADER) throw notSpreadsheet();
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  if (start + entry.compressedSize > buffer.length) throw notSpreadsheet();
  return buffer.subarray(start, start + entry.compressedSize);
}

/**
 * Workbooks are read a few at a time: reading one takes a core and memory for a few seconds,
 * and a dozen sent at once by impatient clicks (or on purpose) must not stall every school's
 * requests. The rest wait their turn, a bounded queue for a bounded time; beyond that they are
 * told to try again (503).
 */
export class WorkGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    readonly maxWaitMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await this.turn();
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line, or is freed.
      if (next) next();
      else this.running -= 1;
    }
  }

  private turn(): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(go);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(busy());
      }, this.maxWaitMs);
      this.waiting.push(go);
    });
  }
}

const busy = () => new AppError(503, INPUT_MESSAGES.uploadsBusy);

/** Two workbooks read at once (the machines have two cores); eight more may wait up to 30 s. */
const workbooks = new WorkGate(2, 8, 30_000);

/** A cell's value as text, number, flag or date: formulas give their result, rich text its text. */
function plain(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('result' in value) return plain((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String((value as { text: unknown }).text);
    if ('error' in value) return null;
  }
  return String(value);
}

/** How far down a sheet a header row below title rows is looked for. */
export const HEADER_SEARCH_ROWS = 20;

/**
 * Where a sheet's header row is (issue 24 point 2):
 * - `'first'` (the default): row 1, when the sheet has one; every row below is data;
 * - `'none'`: no header is set apart: `rows` holds every row, the first row too, for the caller to
 *   find its header (the learners' upload, which knows the school's remembered headings); at most
 *   HEADER_SEARCH_ROWS rows more than the limit are read, the caller counts the rows below its header;
 * - a function: given the first HEADER_SEARCH_ROWS rows (empty ones left out), the index of the
 *   header row among them, or -1 for `'first'`. The rows above it (a school's name, "CLASS LIST
 *   P.5 2026") are title rows and left out.
 */
export type HeaderRow = 'first' | 'none' | ((rows: ReadonlyArray<SheetRow>) => number);

/**
 * The first worksheet of an uploaded .xlsx (saved by Excel or LibreOffice) as a header and rows
 * of plain cells. Empty rows are skipped; row numbers stay those of the sheet, so an error can
 * say "row 14".
 *
 * Rows stream in through exceljs's streaming reader and reading stops at the first row past the
 * limit: memory follows the rows kept, not the file (the whole-workbook reader held about 100
 * times a file's size before it could count its rows).
 */
export async function readSpreadsheet(
  buffer: Buffer,
  limits: SpreadsheetLimits = SPREADSHEET_LIMITS,
  headerRow: HeaderRow = 'first',
): Promise<Sheet> {
  if (buffer.length > limits.fileBytes) throw unsafe();
  // An .xlsx is a zip: PK\x03\x04.
  if (buffer.length < 4 || buffer.readUInt32LE(0) !== LOCAL_HEADER) throw notSpreadsheet();
  return workbooks.run(async () => readFirstSheet(repack(buffer, await checkZip(buffer, limits)), limits, headerRow));
}

/** A header row's cells as text. */
function headerTexts(cells: ReadonlyArray<Cell>): string[] {
  return cells.map((cell) => (cell === null ? '' : String(cell).trim()));
}

async function readFirstSheet(buffer: Buffer, limits: SpreadsheetLimits, headerRow: HeaderRow): Promise<Sheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  /** Row 1 (even empty), then every row with a value; the header is picked from them at the end. */
  const rows: SheetRow[] = [];
  // Title rows above a header found lower down are read beyond the limit, and left out after.
  const mostRows = limits.rows + (headerRow === 'first' ? 1 : HEADER_SEARCH_ROWS);
  let sheets = 0;
  let rowsSeen = 0;
  try {
    for await (const worksheet of reader) {
      // Only the first sheet is read; the others (instructions, a school's notes) are passed by.
      if (sheets++ > 0) continue;
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
        // Bounds before any work on a row: every row counts, empty or not (a file of blank rows
        // once cost a core for minutes); no row wider than any sheet a school keeps (one cell in
        // column XFD makes a row 16,384 cells long); no text longer than any cell of one.
        if (++rowsSeen > limits.rows * 2 + 100) throw new AppError(422, STUDENT_MESSAGES.tooManyRows);
        if (row.cellCount > MAX_SHEET_COLUMNS) throw unsafe();
        const cells: Cell[] = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          if (column > limits.columns) return;
          const value = plain(cell.value);
          if (typeof value === 'string' && value.length > MAX_CELL_CHARACTERS) throw unsafe();
          cells[column - 1] = value;
        });
        for (let index = 0; index < cells.length; index++) if (cells[index] === undefined) cells[index] = null;
        const firstRow = rows.length === 0 && row.number === 1;
        if (firstRow || cells.some((cell) => cell !== null && String(cell).trim() !== '')) {
          if (rows.length >= mostRows) throw new AppError(422, STUDENT_MESSAGES.tooManyRows);
          rows.push({ number: row.number, cells });
        }
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw notSpreadsheet();
  }
  if (sheets === 0) throw notSpreadsheet();
  if (headerRow === 'none')
    return { header: [], rows: rows.filter((row) => row.cells.some((cell) => cell !== null && String(cell).trim() !== '')) };
  let at = rows[0]?.number === 1 ? 0 : -1;
  if (typeof headerRow === 'function') {
    const candidates = rows
      .filter((row) => row.cells.some((cell) => cell !== null && String(cell).trim() !== ''))
      .slice(0, HEADER_SEARCH_ROWS);
    const found = headerRow(candidates);
    const chosen = found >= 0 ? candidates[found] : undefined;
    if (chosen) at = rows.indexOf(chosen);
  }
  const header = at >= 0 ? headerTexts((rows[at] as SheetRow).cells) : [];
  // Row 1 is left out when empty (it was the header's place); rows above the header are titles.
  const data = rows.slice(at + 1).filter((row) => row.cells.some((cell) => cell !== null && String(cell).trim() !== ''));
  if (data.length > limits.rows) throw new AppError(422, STUDENT_MESSAGES.tooManyRows);
  return { header, rows: data };
}

const filled = (cell: Cell) => cell !== null && String(cell).trim() !== '';

/**
 * A header row below title rows, for a sheet whose headings are not read by name (a fee
 * journal): the first row of at least three cells, all text, when every row above it has one or
 * two (a school's name, "FEES JOURNAL TERM I 2026"); otherwise row 1 (-1).
 */
export function headerBelowTitles(rows: ReadonlyArray<SheetRow>): number {
  for (const [index, row] of rows.entries()) {
    const cells = row.cells.filter(filled);
    if (cells.length >= 3) return cells.every((cell) => typeof cell === 'string') ? index : -1;
  }
  return -1;
}

/** Text of a cell, trimmed; numbers as written (a student id typed as 1023 stays "1023"). */
export function cellText(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  // exceljs turns an absurd number in a date-formatted cell into an Invalid Date.
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.toISOString().slice(0, 10);
  const text = String(cell).trim();
  return text === '' ? null : text;
}
