import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The result analysis in the browser (issue 28 point 1): the demo's head of school opens it for
 * P7 of demo-primary in the term the demo's marks are of, previews it in its frame and downloads
 * the PDF under the server's name; S2 of demo-secondary, a class on the new curriculum, previews
 * its own analysis (grades A..E and identifiers, no divisions) with EOT as the summative exam.
 * Nothing is written.
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

describe('the result analysis', () => {
  it('previews P7 of the marks term in a frame with three decimals, then downloads its PDF named by class, stream, year and term', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/resultanalysis' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Result analysis filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByRole('combobox', { name: 'Precision (decimals shown)' }).click();
    await page.getByRole('option', { name: '3', exact: true }).click();
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The result analysis is ready.');

    const frame = page.frameLocator('iframe[title="Result analysis preview"]');
    await frame.getByText('RESULT ANALYSIS').waitFor();
    await frame.getByText('Division summary').first().waitFor();
    await frame.getByText('Mathematics').first().waitFor();
    // The charts a head teacher reads first, drawn in the frame as SVG, each with its table beside it (issue 28 point 6).
    const chart = frame.getByRole('img', { name: 'Mean grade point per subject, weakest first' });
    await chart.waitFor();
    expect((await chart.boundingBox())?.width).toBeGreaterThan(300);
    // Four charts of the term, and the class across the year's terms once the year has an earlier term (the demo seeds the one before).
    await expect(frame.locator('figure.chart svg').count()).resolves.toBe(at.term === 'I' ? 4 : 5);
    if (at.term !== 'I') await frame.getByRole('img', { name: 'The class across this year’s terms' }).waitFor();
    const beside = await frame.locator('figure.chart', { has: chart }).locator('table').innerText();
    expect(beside).toContain('Mathematics');
    expect(beside).toMatch(/\b\d+\.\d{3}\b/);
    // Three decimals shown, as chosen.
    const table = await frame.locator('table').first().innerText();
    expect(table).toMatch(/\b\d+\.\d{3}\b/);
    expect(table).not.toMatch(/\b\d+\.\d{2}\b(?!\d)/);

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'PDF' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`analysis-P7-all-${at.year}-${at.term}.pdf`);
  });

  it('previews S2 of demo-secondary, a new-curriculum class, with grades A..E and identifiers instead of divisions', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/resultanalysis' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Result analysis filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S2', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await pickOption(page, filter.getByRole('combobox', { name: 'Mark types' }), 'EOT');
    await page.keyboard.press('Escape');
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The result analysis is ready.');

    const frame = page.frameLocator('iframe[title="Result analysis preview"]');
    await frame.getByText('RESULT ANALYSIS').waitFor();
    const heads = await frame.locator('table').first().locator('thead th').allInnerTexts();
    expect(heads).toEqual(expect.arrayContaining(['A', 'B', 'C', 'D', 'E', '3 Outstanding', '2 Moderate', '1 Basic', '% C+']));
    await frame.getByText('English Language').first().waitFor();
    await frame
      .getByText(/Overall achievement/)
      .first()
      .waitFor();
    await expect(frame.getByText('Division summary').count()).resolves.toBe(0);
    // Real numbers: learners graded (the second column) in the demo's subjects.
    const graded = await frame.locator('table').first().locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(graded.map(Number).some((count) => count > 0)).toBe(true);
  });
  it('analyses all classes of demo-primary in one job, the PDF followed class by class, then previews the school', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/resultanalysis' });
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Result analysis filter' });
    // No class chosen: the field says what that means.
    await expect(filter.getByRole('combobox', { name: 'Class' }).getAttribute('placeholder')).resolves.toBe('All classes');
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'PDF' }).check();
    // The school's connection is slow: the finished PDF is held in the browser until the page has
    // shown how far the job went, so the progress is read however fast the server draws.
    await page.route('**/api/school/analysis?**', async (route) => {
      const response = await route.fetch();
      await page
        .getByTestId('report-progress')
        .getByText(/Classes analysed: (\d+) of \1$/)
        .waitFor();
      await route.fulfill({ response });
    });
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`analysis-all-${at.year}-${at.term}.pdf`);
    await page.unroute('**/api/school/analysis?**');

    await filter.getByRole('checkbox', { name: 'PDF' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Preview' }).check();
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The result analysis is ready.');
    const frame = page.frameLocator('iframe[title="Result analysis preview"]');
    await frame.getByText('RESULT ANALYSIS · All classes').waitFor();
    // A summary line per class of the demo, P1 to P7, then each class's own analysis.
    const summary = await frame.locator('table').first().locator('tbody tr td:first-child').allInnerTexts();
    expect(summary).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7']);
    await expect(frame.locator('section').count()).resolves.toBe(8);
  });
});
