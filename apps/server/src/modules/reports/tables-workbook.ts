import ExcelJS from 'exceljs';

/*
 * A report's tables as a spreadsheet (issue 28: the analysis and the statistics answer
 * `excel=1`): heading lines (the school, what the report is of), then each table under its
 * title, its head in bold. Numbers stay numbers, so a head teacher can sort and sum them; the
 * report's decimals are a number format (display only, as the precision setting is). A school's
 * text that starts like a formula (=, +, -, @) is stored as text, never run by Excel.
 */

export type WorkbookCell = string | number | null;

export interface WorkbookTable {
  /** The line above the table (bold), if any. */
  title?: string;
  head: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<WorkbookCell>>;
  /** A column's number format by index ('0.00'); columns without one show numbers as they are. */
  formats?: ReadonlyArray<string | undefined>;
}

export interface WorkbookSheet {
  /** The tab's name (Excel allows 31 characters, no []:*?/\). */
  name: string;
  /** The lines above the tables: the school first (large), then what the report is of. */
  heading: ReadonlyArray<ReadonlyArray<WorkbookCell>>;
  tables: readonly WorkbookTable[];
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A number format showing `decimals` places (0 to 4). */
export const decimalsFormat = (decimals: number) => (decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0');

/** A tab's name Excel accepts: forbidden characters replaced, at most 31 characters. */
export const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet';

/** The workbook of the sheets, landscape and fitted to a page's width when printed. */
export async function tablesWorkbook(sheets: readonly WorkbookSheet[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  for (const each of sheets) {
    const sheet = workbook.addWorksheet(sheetName(each.name), {
      pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
    });
    let line = 1;
    const write = (values: ReadonlyArray<WorkbookCell>, formats?: ReadonlyArray<string | undefined>) => {
      const row = sheet.getRow(line++);
      values.forEach((value, column) => {
        const cell = row.getCell(column + 1);
        cell.value = value;
        if (typeof value === 'string' && FORMULA_START.test(value)) cell.numFmt = '@';
        const format = formats?.[column];
        if (typeof value === 'number' && format) cell.numFmt = format;
      });
      return row;
    };
    each.heading.forEach((values, index) => {
      const row = write(values);
      if (index === 0) row.font = { bold: true, size: 14 };
    });
    for (const table of each.tables) {
      line++;
      if (table.title) write([table.title]).font = { bold: true };
      write(table.head).font = { bold: true };
      for (const values of table.rows) write(values, table.formats);
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
