import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localDay, type TermDates } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, TEACHER, useHarness } from './harness.js';

/*
 * The mark sheet in the browser (issue 15 point 7): the demo's head of school opens it for P7 of
 * demo-primary in the term the demo's marks are of, previews it in its frame and downloads the
 * workbook. Nothing is written, so the demo stays as other files find it.
 */

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-marksheet-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

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

describe('the mark sheet', () => {
  it('previews P7 of the marks term in a frame, then downloads its workbook named by class, year and term', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/marks/marksheet' });
    await page.getByRole('heading', { name: 'Marksheet' }).waitFor();
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'Mark sheet filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await expect(filter.getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The marksheet is ready.');

    const frame = page.frameLocator('iframe[title="Mark sheet preview"]');
    await frame.locator('table.sheet').waitFor();
    const learners = await frame.locator('tr[data-learner]').count();
    expect(learners).toBeGreaterThan(10);
    await frame.getByText('Learners per division').waitFor();
    await frame.getByText(`Class P7 · All streams · Term ${at.term} · ${at.year}`).waitFor();
    // Sandboxed without scripts, 800 px high.
    const iframe = page.locator('iframe[title="Mark sheet preview"]');
    await expect(iframe.getAttribute('sandbox')).resolves.toBe('');
    await expect(iframe.evaluate((element) => element.getBoundingClientRect().height)).resolves.toBe(800);

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Excel' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toBe(`marksheet-P7-all-${at.year}-${at.term}.xlsx`);
    const file = path.join(files, download.suggestedFilename());
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Marksheet') as ExcelJS.Worksheet;
    let rows = 0;
    sheet.eachRow((row) => {
      if (typeof row.getCell(1).value === 'number' && typeof row.getCell(2).value === 'string') rows++;
    });
    expect(rows).toBe(learners);
    await page.context().close();
  });

  it('a new-curriculum class (the secondary demo’s S3) has no sheet here: the page links to the new curriculum’s', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/marks/marksheet' });
    const filter = page.getByRole('form', { name: 'Mark sheet filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S3', exact: true }).click();
    await filter.getByRole('button', { name: 'Next' }).click();
    const notice = page.getByTestId('new-curriculum-class');
    await notice.getByText('This class follows the new curriculum this year', { exact: false }).waitFor();
    const link = notice.getByRole('link', { name: 'Open the new curriculum mark sheet' });
    await expect(link.getAttribute('href')).resolves.toBe('/school/ncmarksheet');
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('names a missing class beside the filter, and is not the demo teacher’s to open', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/marks/marksheet' });
    const filter = page.getByRole('form', { name: 'Mark sheet filter' });
    await filter.getByRole('button', { name: 'Next' }).click();
    await filter.getByText('Please select a class').waitFor();
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    await page.context().close();

    const teacher = await h.signedIn(TEACHER, { school: 'demo-primary', path: '/marks/marksheet' });
    await teacher.waitForURL('**/error-403-basic');
    await teacher.getByRole('heading', { name: 'Oooops, access denied' }).waitFor();
    await teacher.context().close();
  });
});
