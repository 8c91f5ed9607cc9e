import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * The average mark sheet in the browser (issue 28 point 5): the demo's head of school opens it
 * for P7 of demo-primary in the year of the demo's marks, previews it in its frame and downloads
 * the workbook under the server's name. Nothing is written.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).first().waitFor();

/** The year the demo's marks are of (the seed's rule, from the school's own term dates). */
async function demoMarksYear(page: Page) {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const calendars = new Map<number, TermDates[]>();
  for (const each of [year - 1, year]) {
    const answer = await callApi(page, 'GET', `/api/school/termdates?year=${each}`);
    expect(answer.status).toBe(200);
    calendars.set(each, (answer.data as { terms: TermDates[] }).terms);
  }
  return marksTerm(today, (each) => calendars.get(each) ?? []).year;
}

describe('the average mark sheet', () => {
  it('previews P7 of the marks year in a frame, then downloads its workbook named by class, stream and year', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/marks/avgmarksheet' });
    const year = await demoMarksYear(page);
    const filter = page.getByRole('form', { name: 'Average mark sheet filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(year));
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The average mark sheet is ready.');

    const frame = page.frameLocator('iframe[title="Average mark sheet preview"]');
    await frame.getByText('AVERAGE MARK SHEET').waitFor();
    await frame.getByText('Pos').first().waitFor();

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Excel' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`avgmarksheet-P7-all-${year}.xlsx`);
  });
});
