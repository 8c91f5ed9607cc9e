import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportDocument } from './document.js';
import { drawBusinessReport } from './pdf.js';
import { reportWorkbook } from './workbook.js';

/*
 * The shop reports' printed forms without a database: a table longer than a page continues on
 * the next with its head again and "Page x of y" at each foot; amounts print with thousands
 * commas and the currency's decimals; in the workbook they stay numbers, and a name that starts
 * like a formula stays text.
 */

const run = promisify(execFile);

async function pdfText(bytes: Uint8Array): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'business-report-doc-'));
  try {
    const file = path.join(folder, 'report.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'])).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const report: ReportDocument = {
  title: 'Debtors',
  business: 'Kikuubo Stationers',
  subtitle: 'Debtors on 2026-11-30',
  orientation: 'portrait',
  tables: [
    {
      title: 'Open invoices',
      head: ['Customer', 'Invoice', 'Balance'],
      rows: [
        ...Array.from({ length: 120 }, (_, index) => [
          `Customer ${index + 1}`,
          `INV-${String(index + 1).padStart(6, '0')}`,
          { amount: '1234567.5', decimals: 2 },
        ]),
        ['=HYPERLINK("http://x")', 'INV-999999', { amount: '-50', decimals: 0 }],
      ],
      bold: [120],
    },
  ],
};

describe('a shop report’s PDF and workbook', () => {
  it('continues a long table on the next page with its head, numbering the pages', async () => {
    const text = await pdfText(await drawBusinessReport(report));
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages.length).toBe(3);
    for (const [index, page] of pages.entries()) {
      expect(page).toMatch(/Customer\s+Invoice\s+Balance/);
      expect(page).toContain(`Page ${index + 1} of 3`);
    }
    expect(text).toMatch(/Customer 1\s+INV-000001\s+1,234,567\.50/);
    expect(text).toMatch(/Customer 120\s+INV-000120\s+1,234,567\.50/);
    expect(text).toMatch(/=HYPERLINK\("http:\/\/x"\)\s+INV-999999\s+-50/);
  });

  it('keeps amounts as numbers with the currency’s format, and formula-like text as text', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await reportWorkbook(report)) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(1).value).toBe('Kikuubo Stationers');
    const first = sheet.getRow(6);
    expect([first.getCell(1).value, first.getCell(2).value, first.getCell(3).value]).toEqual(['Customer 1', 'INV-000001', 1234567.5]);
    expect(first.getCell(3).numFmt).toBe('#,##0.00');
    const last = sheet.getRow(126);
    expect(last.getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(last.getCell(1).numFmt).toBe('@');
    expect(last.getCell(3).value).toBe(-50);
    expect(last.getCell(3).numFmt).toBe('#,##0');
  });
});
