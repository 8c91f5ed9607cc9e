import { STUDENT_MESSAGES } from '@mustard/shared';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { AppError } from '../errors.js';

/**
 * Limits on an uploaded workbook (security.md item 18), checked before exceljs parses it: the
 * file's size, its number of zip entries, and the bytes its entries really inflate to (counted
 * while inflating, so a zip that lies about sizes is caught too), then rows and columns.
 */
export const SPREADSHEET_LIMITS = {
  fileBytes: 5 * 1024 * 1024,
  entries: 200,
  uncompressedBytes: 40 * 1024 * 1024,
  rows: 5000,
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

const unsafe = () => new AppError(413, STUDENT_MESSAGES.fileUnsafe);
const notSpreadsheet = () => new AppError(422, STUDENT_MESSAGES.fileNotSpreadsheet);

/** Inflates every entry with a running count; refuses as soon as the total passes the limit. */
async function checkZip(buffer: Buffer, limits: SpreadsheetLimits): Promise<void> {
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
}

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

/**
 * The first worksheet of an uploaded .xlsx (saved by Excel or LibreOffice) as a header and rows
 * of plain cells. Empty rows are skipped; row numbers stay those of the sheet, so an error can
 * say "row 14".
 */
export async function readSpreadsheet(buffer: Buffer, limits: SpreadsheetLimits = SPREADSHEET_LIMITS): Promise<Sheet> {
  if (buffer.length > limits.fileBytes) throw unsafe();
  // An .xlsx is a zip: PK\x03\x04.
  if (buffer.length < 4 || buffer.readUInt32LE(0) !== 0x04034b50) throw notSpreadsheet();
  await checkZip(buffer, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw notSpreadsheet();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw notSpreadsheet();
  if (sheet.actualRowCount > limits.rows + 1) throw new AppError(422, STUDENT_MESSAGES.tooManyRows);
  if (sheet.actualColumnCount > limits.columns) throw unsafe();
  const header: string[] = [];
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      if (column <= limits.columns) cells[column - 1] = plain(cell.value);
    });
    for (let index = 0; index < cells.length; index++) if (cells[index] === undefined) cells[index] = null;
    if (number === 1) header.push(...cells.map((cell) => (cell === null ? '' : String(cell).trim())));
    else if (cells.some((cell) => cell !== null && String(cell).trim() !== '')) rows.push({ number, cells });
  });
  return { header, rows };
}

/** Text of a cell, trimmed; numbers as written (a student id typed as 1023 stays "1023"). */
export function cellText(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  // exceljs turns an absurd number in a date-formatted cell into an Invalid Date.
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.toISOString().slice(0, 10);
  const text = String(cell).trim();
  return text === '' ? null : text;
}
