import ExcelJS from 'exceljs';

/** Characters that make a spreadsheet program read a typed-in cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

export interface SheetColumn {
  header: string;
  /** Reads the cell's value from a row. */
  value(row: Record<string, unknown>): unknown;
}

/**
 * One worksheet of rows as an .xlsx file. Text that starts like a formula (= + - @) is kept as
 * text in a text-formatted cell: a learner named "=HYPERLINK(...)" stays a name in Excel and
 * LibreOffice, never a formula (security.md, spreadsheet injection).
 */
export async function rowsToWorkbook(
  sheetName: string,
  columns: ReadonlyArray<SheetColumn>,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.addRow(columns.map((column) => column.header)).font = { bold: true };
  for (const row of rows) {
    const added = sheet.addRow(columns.map((column) => cellValue(column.value(row))));
    added.eachCell((cell) => {
      if (typeof cell.value === 'string' && FORMULA_START.test(cell.value)) cell.numFmt = '@';
    });
  }
  columns.forEach((column, index) => {
    sheet.getColumn(index + 1).width = Math.min(50, Math.max(10, column.header.length + 2));
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function cellValue(value: unknown): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string' || value instanceof Date) return value;
  return String(value);
}

/** `mustard-2026-11-21T18-55-12.xlsx` (spec §9: prefix mustard plus a timestamp). */
export function timestampedFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.xlsx`;
}
