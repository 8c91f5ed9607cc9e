import { localDay, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm, termBefore } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * The progressive report in the browser (issue 28 point 4): the demo's head of school opens it
 * for a learner of P7 East in demo-primary (the demo has last term's results as well as this
 * term's), is asked for the learner first, previews the learner's two terms with the trend line
 * in the frame, and downloads the PDF under the server's name. Nothing is written.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).first().waitFor();

/** The demo's marks term and the term before it (the seed's rule, from the school's own term dates). */
async function demoTerms(page: Page) {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const calendars = new Map<number, TermDates[]>();
  for (const each of [year - 1, year]) {
    const answer = await callApi(page, 'GET', `/api/school/termdates?year=${each}`);
    expect(answer.status).toBe(200);
    calendars.set(each, (answer.data as { terms: TermDates[] }).terms);
  }
  const now = marksTerm(today, (each) => calendars.get(each) ?? []);
  return { now, last: termBefore(now) };
}

describe('the progressive report', () => {
  it('asks for the learner, previews a P7 learner’s two terms with the trend line, then downloads the PDF', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/progressreport' });
    const { now, last } = await demoTerms(page);
    const filter = page.getByRole('form', { name: 'Progressive report filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Stream' }).click();
    await page.getByRole('option', { name: 'East', exact: true }).click();
    // Without a learner the report cannot be made: the field says so, nothing is asked of the server.
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await filter.getByRole('button', { name: 'Next' }).click();
    await filter.getByText('Please select a learner').waitFor();

    await filter.getByRole('combobox', { name: 'Student' }).click();
    const first = page.getByRole('option').first();
    const label = (await first.textContent()) ?? '';
    const studentid = /\(([^)]+)\)$/.exec(label)?.[1] ?? '';
    expect(studentid).toMatch(/^MPS\//);
    await first.click();
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The progressive report is ready.');

    const frame = page.frameLocator('iframe[title="Progressive report preview"]');
    await frame.getByText('PROGRESSIVE REPORT').waitFor();
    await frame.getByText(studentid, { exact: false }).first().waitFor();
    await frame.getByRole('columnheader', { name: `P7 Term ${last.term} ${last.year}` }).waitFor();
    await frame.getByRole('columnheader', { name: `P7 Term ${now.term} ${now.year}` }).waitFor();
    await frame.locator('figure[data-chart="Trend of the average mark"] svg polyline').first().waitFor();

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'PDF' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`progressreport-P7-East-${studentid.replace(/[^A-Za-z0-9_-]+/g, '_')}.pdf`);
  });
});
