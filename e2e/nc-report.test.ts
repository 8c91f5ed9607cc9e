import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * The new-curriculum report card in the browser (issue 27 point 2): the demo's head of school
 * opens /school/ncterminalreport for S2 of demo-secondary in the term the demo's marks are of,
 * EOT as the summative exam, and previews the cards with Show Topics and Summary ticked (a row
 * per competency under each subject, the summary block of /20, /80, /100, grade and descriptor),
 * and downloads their PDF; then with both unticked (neither is drawn). Nothing is written.
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

describe('the new-curriculum report card', () => {
  it('previews S2 with Show Topics and Summary, then without them', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/ncterminalreport' });
    await page.getByRole('heading', { name: 'New curriculum terminal report' }).waitFor();
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'New curriculum terminal report filter' });
    // The label starts as END OF TERM (the Email option beside the outputs: report-email.test.ts).
    expect(await filter.getByRole('textbox', { name: 'Label' }).inputValue()).toBe('END OF TERM');
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S2', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByLabel('Mark type (the summative exam)').click();
    await page.getByRole('option', { name: 'EOT', exact: true }).click();
    await filter.getByRole('checkbox', { name: 'Show Topics' }).check();
    await filter.getByRole('checkbox', { name: 'Summary' }).check();

    // The preview (ticked at the start): a row per competency under its subject, the summary block.
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The report is ready');
    const frame = page.frameLocator('iframe[title="New curriculum report preview"]');
    const firstCard = frame.locator('section.card').first();
    await firstCard.waitFor();
    await firstCard.locator('tr.topic').first().waitFor();
    expect(await firstCard.locator('tr.topic').count()).toBeGreaterThan(3);
    await firstCard.locator('[data-section="ncSummary"]').waitFor();
    await firstCard.locator('h3', { hasText: 'Overall achievement' }).waitFor();
    await firstCard.getByText('Not valid without the school stamp').waitFor();
    expect(await firstCard.getByText(/Outstanding|Moderate|Basic/).count()).toBeGreaterThan(0);

    // The preview's Download PDF: the class's cards, followed as they are drawn, named by class, year and term.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`ncreport-S2-all-${at.year}-${at.term}.pdf`);

    // Both unticked: the competency rows and the summary block are gone, the subjects stay.
    await filter.getByRole('checkbox', { name: 'Show Topics' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Summary' }).uncheck();
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The report is ready');
    await expect.poll(() => frame.locator('section.card').first().locator('tr.topic').count()).toBe(0);
    expect(await frame.locator('[data-section="ncSummary"]').count()).toBe(0);
    expect(await frame.locator('section.card').first().locator('tr.subject').count()).toBeGreaterThan(3);
    await page.context().close();
  });
});
