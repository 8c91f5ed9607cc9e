import ExcelJS from 'exceljs';
import type { ReportDocument } from './document.js';

/*
 * A shop report as a workbook (issue 32 point 8): the business and what the report is of, then
 * each table under its bold title, its head in bold. Amounts stay numbers with the currency's
 * decimals as their format, so an owner can sum and sort them; text that starts like a formula
 * (a customer named "=1+1") is stored as text, never run (security.md, spreadsheet injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const amountFormat = (decimals: number) => (decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0');

export async function reportWorkbook(report: ReportDocument): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet(report.title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), {
    pageSetup: { orientation: report.orientation, paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  let line = 1;
  const widths: number[] = [];
  const write = (values: ReadonlyArray<unknown>, bold = false) => {
    const row = sheet.getRow(line++);
    values.forEach((value, column) => {
      const cell = row.getCell(column + 1);
      if (value !== null && typeof value === 'object' && 'amount' in value) {
        const money = value as { amount: string; decimals: number };
        cell.value = Number(money.amount);
        cell.numFmt = amountFormat(money.decimals);
      } else {
        cell.value = (value ?? null) as string | number | null;
        if (typeof value === 'string' && FORMULA_START.test(value)) cell.numFmt = '@';
      }
      const shown = typeof value === 'object' && value !== null && 'amount' in value ? String(value.amount) : String(value ?? '');
      widths[column] = Math.max(widths[column] ?? 10, Math.min(40, shown.length + 2));
    });
    if (bold) row.font = { bold: true };
    return row;
  };
  write([report.business]).font = { bold: true, size: 14 };
  write([report.subtitle]);
  for (const table of report.tables) {
    line++;
    write([table.title], true);
    write(table.head, true);
    const bold = new Set(table.bold ?? []);
    for (const [index, values] of table.rows.entries()) write(values, bold.has(index));
  }
  widths.forEach((width, index) => {
    sheet.getColumn(index + 1).width = width;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
