import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The cumulative report in the browser (issue 28 point 3): the demo's head of school opens it for
 * P7 of demo-primary in the term the demo's marks are of; Next without a mark type ticked is
 * refused on the mark types' field before anything is sent; with BOT, MOT and EOT ticked and the
 * Label FINAL the cards preview in their frame, the three mark types side by side and FINAL over
 * the combined column, then the PDF downloads under the server's name. Nothing is written.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).first().waitFor();

/** The term the demo's marks are of (the seed's rule, from the school's own term dates). */
async function demoMarksTerm(page: Page) {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const calendars = new Map<number, TermDates[]>();
  for (const each of [year - 1, year]) {
    const answer = await callApi(page, 'GET', `/api/school/termdates?year=${each}`);
    expect(answer.status).toBe(200);
    calendars.set(each, (answer.data as { terms: TermDates[] }).terms);
  }
  return marksTerm(today, (each) => calendars.get(each) ?? []);
}

describe('the cumulative report', () => {
  it('asks for the mark types, then previews P7’s cards with the ticked mark types and the Label’s column, then downloads the PDF', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/cummulativereport' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Cumulative report filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await expect(filter.getByRole('textbox', { name: 'Label (title of the combined column)' }).inputValue()).resolves.toBe('TOTAL');
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);

    // No mark type ticked: the field says so, and no report is asked for.
    await filter.getByRole('button', { name: 'Next' }).click();
    await filter.getByText('Tick the mark types the cumulative report puts side by side').waitFor();
    await expect(page.locator('iframe[title="Cumulative report preview"]').count()).resolves.toBe(0);

    const markTypes = filter.getByRole('combobox', { name: 'Mark types' });
    for (const label of ['BOT', 'MOT', 'EOT']) await pickOption(page, markTypes, label);
    await page.keyboard.press('Escape');
    await filter.getByRole('textbox', { name: 'Label (title of the combined column)' }).fill('FINAL');
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The cumulative report is ready.');

    const frame = page.frameLocator('iframe[title="Cumulative report preview"]');
    await frame.getByText('CUMULATIVE REPORT').first().waitFor();
    const heads = await frame.locator('table.subjects').first().locator('thead th').allInnerTexts();
    expect(heads.slice(0, 7)).toEqual(['Subject', 'BOT', 'MOT', 'EOT', 'FINAL', 'Grade', 'Points']);
    await frame.getByText('Aggregate').first().waitFor();

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'PDF' }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      filter.getByRole('button', { name: 'Next' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`report-P7-all-${at.year}-${at.term}.pdf`);
  });
});
