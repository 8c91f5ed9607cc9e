import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/*
 * The shop owner's daily reports in a browser at 360 px (issue 32 point 8): each page draws its
 * tables inside the phone's width (the tables scroll sideways, the page does not), the Excel and
 * PDF buttons save the report under its name, and a period longer than a year is refused beside
 * the field it is about. The demo shop's figures are whatever its seeding holds: this test reads.
 */
let h: Harness;
const PHONE = { width: 360, height: 740 };

beforeAll(async () => {
  h = await useHarness();
});

describe('the shop’s daily reports', () => {
  it('shows the cash-up, debtors, VAT and profit within a phone’s width, with Excel and PDF', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-shop', path: '/business/reports/cashup', ...PHONE });
    await page.getByTestId('cashup-days').waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
    const [excel] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-excel').click()]);
    expect(excel.suggestedFilename()).toMatch(/^cashup-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.xlsx$/);
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
    expect(pdf.suggestedFilename()).toMatch(/^cashup-.*\.pdf$/);

    // A year and a day: refused beside the end date, in the reader's words.
    await page.getByTestId('report-from').fill('2025-01-01');
    await page.getByTestId('report-to').fill('2026-01-01');
    await page.getByText('Choose a period of at most one year').waitFor();

    for (const [path, table] of [
      ['/business/reports/debtors', 'debtors-table'],
      ['/business/reports/vat', 'vat-output'],
      ['/business/reports/profit', 'profit-table'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(table).waitFor();
      await expect(
        page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).resolves.toBeLessThanOrEqual(PHONE.width);
    }
    await expect(page.getByTestId('profit-net').textContent()).resolves.toContain('Net profit');
    await page.context().close();
  });
});
