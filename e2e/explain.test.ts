import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/**
 * Screens that explain themselves (issue 24 point 6): an empty school's Create marks and comment
 * screens say what is missing and link to where it is added; the automatic comment forms say what
 * Score, From and To are and how {name}, {he} and {his} are used.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

async function newSchoolHead() {
  const school = await makeTenant(h.database, { name: 'Empty Explained Primary' });
  const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  return head;
}

describe('empty states', () => {
  it('Create marks of a school with no subjects or mark types says so, with links to add them', async () => {
    const head = await newSchoolHead();
    const page = await h.signedIn(head.email, { password: head.password, path: '/marks/create' });
    const subjects = page.getByTestId('no-subjects');
    await subjects.getByText('This school has no subjects yet').waitFor();
    await page.getByTestId('no-mark-types').getByText('This school has no mark types yet').waitFor();
    await subjects.getByRole('link', { name: 'Add the subjects' }).click();
    await page.waitForURL('**/subjects/list');
    await page.goto('/comments/subject');
    await page.getByTestId('no-subjects').getByRole('link', { name: 'Add the subjects' }).waitFor();
    await page.goto('/comments/report');
    const remarks = page.getByTestId('no-remark-types');
    await remarks.getByText('This school has no remark types yet').waitFor();
    await remarks.getByRole('link', { name: 'Open Remark types' }).click();
    await page.waitForURL('**/comments/categories');
    await page.context().close();
  });

  it('says nothing is missing where nothing is (the demo school)', async () => {
    const page = await h.signedIn('admin@mustard.demo', { school: 'demo-primary', path: '/marks/create' });
    await page.getByRole('checkbox', { name: 'BOT' }).waitFor();
    expect(await page.getByTestId('no-subjects').count()).toBe(0);
    expect(await page.getByTestId('no-mark-types').count()).toBe(0);
    await page.goto('/comments/report');
    await page.getByRole('form', { name: 'Report comments filter' }).waitFor();
    await page.getByRole('combobox', { name: 'Remark type' }).waitFor();
    expect(await page.getByTestId('no-remark-types').count()).toBe(0);
    await page.context().close();
  });
});

describe('the automatic comment forms', () => {
  it('explain Score, From and To and the {name}, {he}, {his} placeholders, with examples', async () => {
    const head = await newSchoolHead();
    const page = await h.signedIn(head.email, { password: head.password, path: '/comments/automarkcomments' });
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByText('a grade label such as D1 or C3, or a mark band').waitFor();
    await form.getByText('{name} is the learner’s first name'.replace('’', "'")).waitFor();
    await form.getByText('{he} should keep up {his} effort').waitFor();
    await page.goto('/comments/autoreportcomments');
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    await form.getByText('the aggregate in primary and O level (e.g. 4), the points in A level, the average mark otherwise').waitFor();
    await form.getByText('aggregates 4 to 12 get this comment').waitFor();
    await page.context().close();
  });
});

describe('a marks sheet upload', () => {
  it('says nothing changed when the sheet holds nothing new, and how many marks it saved when it does', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/marks/create' });
    const label = `Sheet ${Date.now() % 100000}`;
    expect((await callApi(page, 'POST', '/api/school/marktypes', { label, category: 'test', outof: 100 })).status).toBe(200);
    await page.reload();
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P5', exact: true }).click();
    await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'West');
    await filter.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Mathematics', exact: true }).click();
    await filter.getByRole('checkbox', { name: label }).check();
    await filter.getByRole('checkbox', { name: 'Download Excel' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    const folder = mkdtempSync(path.join(tmpdir(), 'mustard-sheet-'));
    const blank = path.join(folder, 'blank.xlsx');
    await download.saveAs(blank);
    await filter.getByRole('checkbox', { name: 'Download Excel' }).uncheck();

    await filter.locator('input[type="file"]').setInputFiles(blank);
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Nothing changed: every mark in the sheet is already saved' }).waitFor();

    // One mark typed into the sheet, under the new mark type, for the first learner.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(blank);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    let heading: { row: number; column: number } | undefined;
    sheet.eachRow((row, rowNumber) =>
      row.eachCell((cell, column) => {
        if (!heading && String(cell.value).trim() === label) heading = { row: rowNumber, column };
      }),
    );
    expect(heading).toBeDefined();
    sheet.getCell((heading?.row ?? 0) + 1, heading?.column ?? 0).value = 55;
    const filled = path.join(folder, 'filled.xlsx');
    await workbook.xlsx.writeFile(filled);
    await filter.locator('input[type="file"]').setInputFiles(filled);
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.locator('.mantine-Notification-root', { hasText: /Marks saved from the sheet: 1; unchanged: \d+\./ }).waitFor();
    await page.context().close();
  });
});
