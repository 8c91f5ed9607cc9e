import AxeBuilder from '@axe-core/playwright';
import { currentTerm, defaultTermDates } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../apps/server/src/test/factories.js';
import { ADMIN, callApi, type Harness, TEACHER, useHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const signedInAt = (school: string, path?: string): Promise<Page> => h.signedIn(ADMIN, { school, path });

const rowsOf = (page: Page, screen: string) => page.getByTestId(`screen-${screen}`).locator('tbody tr[data-row]');

describe('subjects', () => {
  it('searches, pages, creates and edits', async () => {
    const page = await signedInAt('demo-secondary');
    // 15 demo subjects and 15 more: two pages of 25.
    for (let index = 1; index <= 15; index += 1) {
      const created = await callApi(page, 'POST', '/api/school/subjects', {
        name: `Elective ${String(index).padStart(2, '0')}`,
        category: 'general',
      });
      expect(created.status).toBe(200);
    }
    await page.goto('/subjects/list');
    const rows = rowsOf(page, 'subjects');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(25);
    // Sorted by name: Agriculture first.
    await expect(rows.first().getAttribute('data-row')).resolves.toBe('Agriculture');
    await page.getByText('1–25 of 30').waitFor();
    await page.getByRole('button', { name: '2', exact: true }).click();
    await page.getByText('26–30 of 30').waitFor();
    await expect(rows.count()).resolves.toBe(5);

    await page.getByLabel('Search', { exact: true }).fill('chem');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    await expect(rows.first().getAttribute('data-row')).resolves.toBe('Chemistry');

    // Create: the required fields say so first.
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Please enter the name').waitFor();
    await form.getByText('Please select a category').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill('Fine Art');
    await form.getByRole('combobox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'General' }).click();
    await form.getByRole('textbox', { name: 'Abbreviation' }).fill('ART');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByLabel('Search', { exact: true }).fill('art');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const art = page.locator('tbody tr[data-row="Fine Art"]');
    await art.waitFor();

    // Edit: the row is replaced by the saved record.
    await art.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(form.getByRole('textbox', { name: 'Abbreviation' }).inputValue()).resolves.toBe('ART');
    await form.getByRole('textbox', { name: 'Abbreviation' }).fill('FA');
    await form.getByRole('button', { name: 'Update' }).click();
    await form.waitFor({ state: 'detached' });
    await art.getByRole('cell', { name: 'FA', exact: true }).waitFor();
    await page.context().close();
  });

  it('downloads the list as a spreadsheet: "Please wait.." while it runs, then "The excel file is ready."', async () => {
    const page = await signedInAt('demo-secondary', '/subjects/list');
    await rowsOf(page, 'subjects').first().waitFor();
    // A slow connection: the answer comes only once the pending toast has been seen.
    let release!: () => void;
    const seen = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/school/subjects?*excel=1*', async (route) => {
      await seen;
      await route.continue();
    });
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Download Excel' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Please wait..' }).waitFor();
    release();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^mustard-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.xlsx$/);
    await page.locator('.mantine-Notification-root', { hasText: 'The excel file is ready.' }).waitFor();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()) as string);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('Name');
    expect(sheet?.getRow(2).getCell(1).value).toBe('Agriculture');
    await page.context().close();
  });

  it('has no serious or critical accessibility violation', async () => {
    const page = await signedInAt('demo-secondary', '/subjects/list');
    await rowsOf(page, 'subjects').first().waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.context().close();
  });
});

describe('grades', () => {
  it('a new grade set: a bound edited, a gap named before saving, then saved and listed on /grades', async () => {
    const page = await signedInAt('demo-primary', '/grades');
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add Grade' }).click();
    await page.waitForURL('**/grades/new');
    const set = page.getByTestId('grade-set');
    // Prefilled with the default bands.
    await expect(set.getByLabel('Lower bound of D1').inputValue()).resolves.toBe('80');
    await expect(set.getByLabel('Upper bound of F9').inputValue()).resolves.toBe('34');

    await set.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P4', exact: true }).click();
    await set.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: 'II', exact: true }).click();
    await set.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Luganda' }).click();
    await set.getByRole('textbox', { name: 'Year' }).fill('2031');

    // D1 from 85: marks 80 to 84 have no grade, and saving waits until that is fixed.
    await set.getByLabel('Lower bound of D1').fill('85');
    await page.getByTestId('grade-problems').getByText('Marks from 80 to 84 have no grade').waitFor();
    await expect(set.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await set.getByLabel('Upper bound of D2').fill('84');
    await page.getByTestId('grade-problems').waitFor({ state: 'detached' });
    await set.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL('**/grades');
    await page.getByTestId('screen-grades').locator('tbody tr[data-row]').first().waitFor();
    await page.getByRole('textbox', { name: 'Year' }).fill('2031');
    // The filter starts at the current term; this set is for Term II.
    await page.getByTestId('screen-grades').locator('search').getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: 'II', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // Only the new set is in 2031: nine grades.
    await page.getByText('1–9 of 9').waitFor();
    const d1 = page.locator('tbody tr', { hasText: 'Luganda' }).filter({ has: page.getByRole('cell', { name: 'D1', exact: true }) });
    await d1.waitFor();
    await expect(d1.locator('td').nth(5).textContent()).resolves.toBe('85');
    // The row opens its set.
    await d1.click();
    await page.waitForURL('**/grades-detail/*');
    await expect(page.getByTestId('grade-set').getByLabel('Lower bound of D1').inputValue()).resolves.toBe('85');
    await page.context().close();
  });
});

describe('a grade set where one exists (issue 10 points 3 and 12)', () => {
  it('offers to open the existing set or replace it; fixed errors clear; an emptied bound is no 0', async () => {
    const page = await signedInAt('demo-primary', '/grades/new');
    const set = page.getByTestId('grade-set');
    await set.getByLabel('Lower bound of D1').waitFor();
    // Saved with nothing chosen: each field says so, and says no more once chosen.
    await set.getByRole('button', { name: 'Save' }).click();
    await set.getByText('Please select a class').waitFor();
    await set.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P4', exact: true }).click();
    await expect(set.getByText('Please select a class').count()).resolves.toBe(0);
    // Choosing the chosen class again keeps it.
    await set.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P4', exact: true }).click();
    await expect(set.getByRole('combobox', { name: 'Class' }).inputValue()).resolves.toBe('P4');
    await set.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: 'I', exact: true }).click();
    await set.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Luganda' }).click();

    // An emptied bound is said, not saved as 0.
    await set.getByLabel('Lower bound of F9').fill('');
    await page.getByTestId('grade-problems').getByText('Enter both bounds of F9').waitFor();
    await expect(set.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await set.getByLabel('Lower bound of F9').fill('0');
    await page.getByTestId('grade-problems').waitFor({ state: 'detached' });

    // The demo has this year's set for P4, term I, Luganda.
    await set.getByRole('button', { name: 'Save' }).click();
    const offer = page.getByTestId('grade-set-exists');
    await offer.getByText('This class, subject, term and year already have a grade set').waitFor();
    await offer.getByRole('button', { name: 'Open the existing set' }).click();
    await page.waitForURL('**/grades-detail/*');
    await expect(page.getByTestId('grade-set').getByRole('combobox', { name: 'Class' }).inputValue()).resolves.toBe('P4');

    // Or replace it, on purpose.
    await page.goto('/grades/new');
    await set.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P4', exact: true }).click();
    await set.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: 'I', exact: true }).click();
    await set.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Luganda' }).click();
    await set.getByRole('button', { name: 'Save' }).click();
    await offer.getByRole('button', { name: 'Replace it' }).click();
    await page.getByText('Successfully updated').waitFor();
    await page.waitForURL('**/grades');
    await page.context().close();
  });
});

describe('the school’s calendar (issue 10 point 13)', () => {
  it('starts every term and year filter at the current term, and follows the school’s own dates', async () => {
    // A fixed day in Term II, so the test means the same thing on every day of the year.
    const today = '2026-07-15';
    const page = await signedInAt('demo-secondary');
    await page.clock.setFixedTime(new Date(`${today}T10:00:00`));
    const expected = currentTerm(today, defaultTermDates(2026));
    expect(expected).toEqual({ term: 'II', year: 2026 });
    const termFilter = (screen: string) => page.getByTestId(`screen-${screen}`).locator('search').getByRole('combobox', { name: 'Term' });
    const yearFilter = (screen: string) => page.getByTestId(`screen-${screen}`).locator('search').getByRole('textbox', { name: 'Year' });
    await page.goto('/grades');
    await expect.poll(() => termFilter('grades').inputValue()).toBe('II');
    await expect(yearFilter('grades').inputValue()).resolves.toBe('2026');

    // The school's Term II ended yesterday: today is in the holiday before Term III.
    await page.goto('/school/termdates');
    const dates = page.getByTestId('term-dates');
    await dates.getByTestId('term-dates-source').getByText('Ugandan defaults').waitFor();
    await dates.getByLabel('Last day of Term II', { exact: true }).fill('2026-07-14');
    await dates.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Successfully updated').waitFor();
    await dates.getByTestId('term-dates-source').getByText('The school’s own dates').waitFor();

    await page.goto('/proportions');
    await expect.poll(() => termFilter('proportions').inputValue()).toBe('III');
    await expect(yearFilter('proportions').inputValue()).resolves.toBe('2026');
    // A new record's form starts there too.
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await expect(form.getByRole('combobox', { name: 'Term' }).inputValue()).resolves.toBe('III');
    await expect(form.getByRole('textbox', { name: 'Year' }).inputValue()).resolves.toBe('2026');
    await page.context().close();
  });
});

describe('remark types', () => {
  it('adds a sub category under a parent, shown indented below it', async () => {
    const page = await signedInAt('demo-primary', '/comments/categories');
    const parent = page.locator('tbody tr[data-row="Head teacher\'s comment"]');
    await parent.waitFor();
    await parent.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Add Sub category' }).click();
    const form = page.getByTestId('resource-form');
    // Starts under the chosen parent, active, in the parent's category.
    // (the parent's name shows once the list of remark types has arrived)
    await expect.poll(() => form.getByRole('combobox', { name: 'Parent' }).inputValue()).toBe("Head teacher's comment");
    await expect(form.getByRole('combobox', { name: 'Category', exact: true }).inputValue()).resolves.toBe('Exam');
    await expect(form.getByRole('switch', { name: 'Active' }).isChecked()).resolves.toBe(true);
    await form.getByRole('textbox', { name: 'Label' }).fill('Leadership');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const child = page.locator('tbody tr[data-row="Leadership"]');
    await child.waitFor();
    await expect(child.locator('[data-depth="1"]').count()).resolves.toBe(1);
    // Right below its parent (and its older siblings).
    const order = await page.locator('tbody tr[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')));
    expect(order.indexOf('Leadership')).toBe(order.indexOf("Head teacher's comment") + 1);
    await page.context().close();
  });
});

describe('a member who may only read (issue 10 point 5)', () => {
  it('sees grade sets and remark types without the controls the server would refuse', async () => {
    const page = await h.signedIn(TEACHER, { school: 'demo-primary', path: '/grades' });
    const first = rowsOf(page, 'grades').first();
    await first.waitFor();
    await first.click();
    await page.waitForURL('**/grades-detail/*');
    const set = page.getByTestId('grade-set');
    await set.getByLabel('Lower bound of D1').waitFor();
    await expect(set.getByLabel('Lower bound of D1').isDisabled()).resolves.toBe(true);
    await expect(set.getByRole('combobox', { name: 'Class' }).isDisabled()).resolves.toBe(true);
    await expect(set.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await expect(set.getByRole('button', { name: 'Add a grade' }).count()).resolves.toBe(0);
    await expect(set.getByRole('button', { name: /Remove/ }).count()).resolves.toBe(0);
    await set.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL('**/grades');

    await page.goto('/comments/categories');
    const parent = page.locator('tbody tr[data-row="Head teacher\'s comment"]');
    await parent.waitFor();
    // The teacher records comments (their right) but may neither edit, delete nor add a sub category.
    await parent.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Record Comments' }).waitFor();
    await expect(page.getByRole('menuitem').allTextContents()).resolves.toEqual(['Record Comments']);
    await page.context().close();
  });
});

describe('businesses', () => {
  it('refuses a too-short name with "The name is too short", then creates the business', async () => {
    // An administrator of one demo school of their own: the demo administrator's schools stay as seeded.
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const founder = await makeUser(h.database, { name: 'Founder', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(founder.email, { password: founder.password, path: '/businesses' });
    await rowsOf(page, 'tenants').first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name' }).fill('Ab');
    await form.getByRole('textbox', { name: 'Tenant code' }).fill('kisubi');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('The name is too short').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill('Kisubi Primary');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('tbody tr[data-row="Kisubi Primary"]').waitFor();
    // The creator runs it at once: it is in the school switcher without signing in again.
    await page.getByTestId('school-switcher').click();
    await page.locator('[data-tenant="kisubi"]').click();
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').tenantcode === 'kisubi');
    await page.getByTestId('school-switcher').getByText('Kisubi Primary').waitFor();
    await page.context().close();
  });

  it('downloads the list as the .xlsx every list gives, holding the person’s schools', async () => {
    const page = await h.signedIn(ADMIN, { path: '/businesses' });
    await rowsOf(page, 'tenants').first().waitFor();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Download Excel' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^mustard-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()) as string);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Name', 'Code', 'Category']);
    const codes = (sheet?.getColumn(2).values ?? []).slice(2);
    expect(codes).toEqual(expect.arrayContaining(['demo-primary', 'demo-secondary', 'demo-shop']));
    await page.context().close();
  });
});

describe('stock locations', () => {
  it('lists the shop’s locations with row checkboxes and a rows-a-page choice, and adds one', async () => {
    const page = await signedInAt('demo-shop', '/inventory/stock/locations');
    const rows = rowsOf(page, 'locations');
    await rows.first().waitFor();
    await expect(rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-row')))).resolves.toEqual(['Main store', 'Shop front']);
    await rows.first().getByRole('checkbox').check();
    await expect(rows.first().getByRole('checkbox').isChecked()).resolves.toBe(true);
    await page.getByText('Rows a page').waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name' }).fill('Back office');
    await form.getByRole('textbox', { name: 'Code' }).fill('BO');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('tbody tr[data-row="Back office"]').waitFor();
    await page.context().close();
  });
});
