import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * Mark statistics in the browser (issue 28 point 2): the demo's head of school opens
 * /otherstats for P7 of demo-primary in the term the demo's marks are of, chooses the
 * performance index by subject with the D/C/P/F weights, previews it in its frame, then
 * downloads the workbook under the server's name. A primary school is offered its seven
 * categories only. Nothing is written.
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

describe('mark statistics', () => {
  it('previews P7’s performance index by subject with the D/C/P/F weights, then downloads the workbook', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/otherstats' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Mark statistics filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByRole('combobox', { name: 'Category' }).click();
    // A primary school's seven categories (spec §9), no secondary one.
    await expect(page.getByRole('option').count()).resolves.toBe(7);
    await expect(page.getByRole('option', { name: 'PLE analysis sheet' }).count()).resolves.toBe(0);
    await page.getByRole('option', { name: 'Performance index by subject', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Weight' }).click();
    await page.getByRole('option', { name: 'Distinction, credit, pass, fail (3, 2, 1, 0)', exact: true }).click();
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The statistics are ready.');

    const frame = page.frameLocator('iframe[title="Mark statistics preview"]');
    await frame.getByText('MARK STATISTICS').waitFor();
    await frame.getByRole('heading', { name: 'Performance index per subject' }).waitFor();
    // Its chart beside it, drawn from the table.
    await frame.locator('figure.chart svg').first().waitFor();
    await frame.getByText('Weight set: dcpf').waitFor();
    await frame.getByText('Mathematics').first().waitFor();
    // Two decimals by default: the index column.
    expect(await frame.locator('table').first().innerText()).toMatch(/\b\d+\.\d{2}\b/);

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Excel' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`otherstats-P7-all-${at.year}-${at.term}.xlsx`);
  });
  it('previews the divisions of all classes of the school, one class after another', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/otherstats' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Mark statistics filter' });
    await expect(filter.getByRole('combobox', { name: 'Class' }).getAttribute('placeholder')).resolves.toBe('All classes');
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Divisions', exact: true }).click();
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The statistics are ready.');
    const frame = page.frameLocator('iframe[title="Mark statistics preview"]');
    await frame.getByText('MARK STATISTICS · All classes').waitFor();
    await expect(frame.locator('article').count()).resolves.toBe(7);
    await frame
      .locator('article')
      .last()
      .getByText(/^P7 · All streams/)
      .waitFor();
  });
});
