import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/*
 * A shop's spreadsheet uploads in a browser (issue 31 point 6): the product list's template
 * downloaded, filled with two products of codes of this run and uploaded (2 created), the same
 * file again (2 unchanged), and a sheet with a bad price answered by its row in the table with
 * nothing saved. The codes are the run's own, so the demo shop's products stay as they are.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

/** The template's header with rows filled in by header name (the rest left empty). */
async function sheetFrom(template: string, rows: Array<Record<string, string>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(template) as unknown as ExcelJS.Buffer);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  for (const row of rows) sheet.addRow(header.map((heading) => row[heading] ?? null));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(page: Page, buffer: Buffer): Promise<void> {
  const form = page.getByTestId('business-upload-form');
  await form.locator('input[type="file"]').setInputFiles({
    name: 'products.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await page.getByTestId('upload-submit').click();
}

describe('a shop’s product list upload', () => {
  it('downloads the template, creates two products, counts the same file unchanged, shows a bad row in the table', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-shop', path: '/inventory/uploads' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('upload-template').click()]);
    const template = await download.path();
    expect(template).toBeTruthy();

    const run = Date.now().toString().slice(-8);
    const product = (code: string, price: string) => ({
      Code: code,
      Name: `Upload test ${code}`,
      Kind: 'goods',
      Unit: 'pcs',
      Price: price,
    });
    const good = await sheetFrom(template as string, [product(`E2E-UP-${run}-1`, '1500'), product(`E2E-UP-${run}-2`, '2500')]);

    await upload(page, good);
    const result = page.getByTestId('upload-result');
    await expect.poll(() => result.textContent({ timeout: 15_000 })).toContain('2 created');
    await upload(page, good);
    await expect.poll(() => result.textContent({ timeout: 15_000 })).toContain('2 unchanged');

    await upload(page, await sheetFrom(template as string, [product(`E2E-UP-${run}-3`, '900'), product(`E2E-UP-${run}-4`, 'cheap')]));
    const bad = page.getByTestId('row-error-3-price');
    await bad.waitFor();
    await expect(bad.textContent()).resolves.toContain('Price');
    await expect(page.getByTestId('upload-row-errors').textContent()).resolves.toContain('Nothing was saved');
    await expect(page.getByTestId('upload-result').count()).resolves.toBe(0);
  });
});
