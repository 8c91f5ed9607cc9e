import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localDay, type TermDates } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * The new-curriculum mark sheet in the browser (issue 27 point 4): the demo's head of school opens
 * it for S2 of demo-secondary in the term the demo's marks are of, with EOT as the summative exam,
 * and downloads the workbook: "The marksheet is ready.", the file named by class, year and term,
 * its learners by subject with score, identifier, /20, /80, /100 and grade. Nothing is written.
 */

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-ncmarksheet-'));
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

describe('the new-curriculum mark sheet', () => {
  it('previews S2 with EOT as the summative exam, then downloads its workbook named by class, year and term', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/ncmarksheet' });
    await page.getByRole('heading', { name: 'New curriculum mark sheet' }).waitFor();
    const at = await demoMarksTerm(page);
    const filter = page.getByRole('form', { name: 'New curriculum mark sheet filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S2', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: at.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(at.year));
    await filter.getByLabel('Mark type (the summative exam)').click();
    await page.getByRole('option', { name: 'EOT', exact: true }).click();
    await page.keyboard.press('Escape');

    // The preview first (ticked at the start): the learners by subject in the sandboxed frame.
    await filter.getByRole('button', { name: 'Next' }).click();
    await toast(page, 'The marksheet is ready.');
    const frame = page.frameLocator('iframe[title="New curriculum mark sheet preview"]');
    await frame.locator('table.sheet').waitFor();
    await frame.getByText(`Class S2 · All streams · Term ${at.term} · ${at.year}`).waitFor();
    await frame.getByText('Learners per identifier').waitFor();

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filter.getByRole('checkbox', { name: 'Excel' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    await toast(page, 'The marksheet is ready.');
    expect(download.suggestedFilename()).toBe(`ncmarksheet-S2-all-${at.year}-${at.term}.xlsx`);
    const file = path.join(files, download.suggestedFilename());
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('NC Marksheet') as ExcelJS.Worksheet;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    const heads = rows.find((row) => row.includes('Identifier'));
    expect(heads?.filter((value) => value === '/100').length).toBeGreaterThan(3);
    const learners = rows.filter((row) => typeof row[0] === 'number' && typeof row[1] === 'string');
    expect(learners.length).toBeGreaterThan(10);
    // Learners have competency scores and identifiers from the demo's activities of integration.
    expect(learners.some((row) => row.includes('Outstanding') || row.includes('Moderate'))).toBe(true);
    expect(rows.some((row) => row.includes('Learners per identifier'))).toBe(true);
    expect(rows.some((row) => row.includes('Learners per grade'))).toBe(true);
    await page.context().close();
  });
});
