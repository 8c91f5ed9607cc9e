import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentTerm, defaultTermDates, localDay, type TermDates } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { ADMIN, callApi, type Harness, pickOption, TEACHER, useHarness } from './harness.js';

/*
 * A class's one value per learner for a term (issue 14 points 6 and 7), as a head teacher uses
 * the pages: attendance typed in and from a filled sheet, mark targets typed in, downloaded and
 * uploaded, the targets list, and who may open which page. Each part works on small classes of
 * its own in demo-primary (P3 streams no demo learner is in), so the demo's attendance and
 * targets, or another file's learners, do not get in the way.
 */

let h: Harness;
let files: string;

/** The classes of this file: P3 in streams of their own, learners by name (sorted as the pages list them). */
const CLASSES = {
  typed: { stream: 'Zeta', names: ['Abeja', 'Bwire', 'Chandiru', 'Dembe'] },
  sheet: { stream: 'Eta', names: ['Ekwaro', 'Fiona', 'Gift'] },
} as const;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-class-values-'));
  const db = h.database.db;
  const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
  const learners = Object.values(CLASSES).flatMap(({ stream, names }) =>
    names.map((firstname, index) => ({
      tenant_id: school.id,
      id: newId(),
      studentid: `MPS/CV/${stream}/${index + 1}`,
      firstname,
      lastname: 'Kizito',
      form: 'P3',
      stream,
      status: 'active' as const,
    })),
  );
  await withTenant(db, { tenantId: school.id }, (trx) => trx.insertInto('students').values(learners).execute());
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

const toast = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root', { hasText: text }).first().waitFor();
const filterOf = (page: Page, name = 'Class filter') => page.getByRole('form', { name });

/** The filter's term and year as the page set them: the school's current ones. */
async function termOf(page: Page, form?: string) {
  const filter = filterOf(page, form);
  return {
    term: await filter.getByRole('combobox', { name: 'Term' }).inputValue(),
    year: Number(await filter.getByRole('textbox', { name: 'Year' }).inputValue()),
  };
}

/** Fills the filter with P3, the stream and (targets) the subject. */
async function chooseClass(page: Page, stream: string, subject?: string) {
  const filter = filterOf(page);
  await filter.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: 'P3', exact: true }).click();
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), stream);
  if (subject) {
    await filter.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: subject, exact: true }).click();
  }
}

const next = (page: Page) => filterOf(page).getByRole('button', { name: 'Next' }).click();
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

/** Ticks Download Excel, presses Next and saves the file the browser receives. */
async function downloadSheet(page: Page): Promise<{ download: Download; file: string }> {
  await filterOf(page).getByRole('checkbox', { name: 'Download Excel' }).check();
  const [download] = await Promise.all([page.waitForEvent('download'), next(page)]);
  const file = path.join(files, download.suggestedFilename());
  await download.saveAs(file);
  await filterOf(page).getByRole('checkbox', { name: 'Download Excel' }).uncheck();
  return { download, file };
}

/** Rows of a sheet as plain values (exceljs's rows are 1-based with an empty first cell). */
const valuesOf = (sheet: ExcelJS.Worksheet, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => (sheet.getRow(from + index).values as unknown[]).slice(1));

/* ---- Attendance ---- */

type AttendanceRows = { students: Array<{ student: { fullname: string }; daysattended: number | null }>; totaldays: number | null };

/** A class's attendance as the API has it: days by first name, and the total. */
async function attendanceOf(page: Page, stream: string) {
  const answer = await callApi(page, 'POST', '/api/school/attendances', { form: 'P3', stream, ...(await termOf(page)) });
  expect(answer.status).toBe(200);
  const rows = answer.data as AttendanceRows;
  return {
    days: Object.fromEntries(rows.students.map((row) => [row.student.fullname.split(' ')[0], row.daysattended])),
    total: rows.totaldays,
  };
}

const daysCell = (page: Page, name: string) => page.getByRole('textbox', { name: `Days attended: ${name} Kizito` });

describe('recording attendance', () => {
  it('types the total and the days down the column, refuses a day above the total, then saves, reloads and updates', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/attendance/create' });
    await page.getByRole('heading', { name: 'Class attendance' }).waitFor();
    await chooseClass(page, 'Zeta');
    await next(page);
    const table = page.getByRole('table', { name: 'Days attended' });
    await table.waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(4);
    await page.getByTestId('sheet-heading').getByText('P3 Zeta · Term', { exact: false }).waitFor();

    // A total above a year is named, not changed behind the teacher's back.
    await page.getByRole('textbox', { name: 'Total Days' }).fill('400');
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.getByText('Enter the total days of the term: a whole number from 1 to 366').waitFor();
    await expect(page.getByRole('textbox', { name: 'Total Days' }).inputValue()).resolves.toBe('400');
    await page.getByRole('textbox', { name: 'Total Days' }).fill('60');
    await daysCell(page, 'Abeja').click();
    await page.keyboard.type('58');
    await page.keyboard.press('Enter');
    await expect(focused(page)).resolves.toBe('Days attended: Bwire Kizito');
    await page.keyboard.type('61');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('55');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('60');
    await page.keyboard.press('ArrowUp');
    await expect(focused(page)).resolves.toBe('Days attended: Chandiru Kizito');
    await page.getByText('4 unsaved').waitFor();

    // Days above the total: the cell says why, and SAVE counts the wrong cells instead of sending.
    await expect(daysCell(page, 'Bwire').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('Days attended cannot be more than the total days').waitFor();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/school/attendances')) sent.push(request.postData() ?? '');
    });
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.getByRole('alert').getByText('Values that are not valid: 1.', { exact: false }).waitFor();
    expect(sent).toHaveLength(0);
    await expect(attendanceOf(page, 'Zeta')).resolves.toEqual({
      days: { Abeja: null, Bwire: null, Chandiru: null, Dembe: null },
      total: null,
    });

    // Corrected, the cell and the count no longer say it is wrong.
    await daysCell(page, 'Bwire').fill('59');
    await expect(daysCell(page, 'Bwire').getAttribute('aria-invalid')).resolves.not.toBe('true');
    await expect(page.getByText('Values that are not valid', { exact: false }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'SAVE' }).click();
    await toast(page, 'Successfully created');
    await expect(attendanceOf(page, 'Zeta')).resolves.toEqual({
      days: { Abeja: 58, Bwire: 59, Chandiru: 55, Dembe: 60 },
      total: 60,
    });

    // After a reload the class opens with what was saved.
    await page.reload();
    await chooseClass(page, 'Zeta');
    await next(page);
    await table.waitFor();
    await expect(page.getByRole('textbox', { name: 'Total Days' }).inputValue()).resolves.toBe('60');
    await expect(daysCell(page, 'Abeja').inputValue()).resolves.toBe('58');
    await expect(daysCell(page, 'Dembe').inputValue()).resolves.toBe('60');

    await daysCell(page, 'Chandiru').fill('57');
    await page.getByRole('button', { name: 'SAVE' }).click();
    await toast(page, 'Successfully updated');
    await expect(attendanceOf(page, 'Zeta')).resolves.toEqual({
      days: { Abeja: 58, Bwire: 59, Chandiru: 57, Dembe: 60 },
      total: 60,
    });
    await page.context().close();
  });

  it('downloads the class’s sheet, and a filled one uploaded saves the total and the days', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/attendance/create' });
    await chooseClass(page, 'Eta');
    const { term, year } = await termOf(page);
    const { download, file } = await downloadSheet(page);
    expect(download.suggestedFilename()).toBe(`Attendance-P3-Eta-Term${term}-${year}.xlsx`);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Attendance');
    if (!sheet) throw new Error('no Attendance sheet');
    expect(valuesOf(sheet, 1, 5)).toEqual([['Class', 'P3'], ['Stream', 'Eta'], ['Term', term], ['Year', year], ['Total days']]);
    expect(valuesOf(sheet, 7, 10)).toEqual([
      ['Student ID', 'Name', 'Days attended'],
      ['MPS/CV/Eta/1', 'Ekwaro Kizito'],
      ['MPS/CV/Eta/2', 'Fiona Kizito'],
      ['MPS/CV/Eta/3', 'Gift Kizito'],
    ]);
    sheet.getCell('B5').value = 45;
    sheet.getCell('C8').value = 40;
    sheet.getCell('C9').value = 45;
    sheet.getCell('C10').value = 0;
    const filled = path.join(files, 'attendance-filled.xlsx');
    await workbook.xlsx.writeFile(filled);

    // Uploaded with another stream chosen, the sheet is refused by name and stays chosen.
    await filterOf(page).locator('input[type="file"]').setInputFiles(filled);
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'Zeta');
    await next(page);
    await filterOf(page).getByText('This sheet belongs to another class, subject, term or year').waitFor();
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'Eta');
    await next(page);
    await toast(page, 'Successfully created');
    await page.getByRole('table', { name: 'Days attended' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Total Days' }).inputValue()).resolves.toBe('45');
    await expect(daysCell(page, 'Ekwaro').inputValue()).resolves.toBe('40');
    await expect(daysCell(page, 'Fiona').inputValue()).resolves.toBe('45');
    await expect(daysCell(page, 'Gift').inputValue()).resolves.toBe('0');
    await expect(attendanceOf(page, 'Eta')).resolves.toEqual({ days: { Ekwaro: 40, Fiona: 45, Gift: 0 }, total: 45 });
    await page.context().close();
  });
});

/**
 * Term dates of this year under which today falls in another term than the Ugandan defaults
 * give, with that term; none on the one day (1 January) every such calendar agrees with them.
 */
function anotherCalendar(): { terms: TermDates[]; term: string; year: number } | null {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const usual = currentTerm(today, defaultTermDates(year));
  for (const open of [0, 1, 2]) {
    // Every term before `open` is over on 1 January; `open` runs to the end of the year.
    const terms = (['I', 'II', 'III'] as const).map((term, index) => ({
      term,
      starts: `${year}-01-01`,
      ends: index < open ? `${year}-01-01` : `${year}-12-31`,
    }));
    const theirs = currentTerm(today, terms);
    if (theirs.term !== usual.term || theirs.year !== usual.year) return { terms, ...theirs };
  }
  return null;
}

describe('the school’s own calendar', () => {
  it('starts the filter of attendance, targets, create marks and delete marks in the school’s current term once its dates come, not in the defaults’', async () => {
    const calendar = anotherCalendar();
    if (!calendar) return;
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    // The school's dates come late: held until the first page has drawn its filter with the defaults.
    let datesCome!: () => void;
    const late = new Promise<void>((resolve) => {
      datesCome = resolve;
    });
    await page.route('**/api/school/termdates?*', async (route) => {
      await late;
      await route.fulfill({ json: { year: Number(calendar.terms[0]?.starts.slice(0, 4)), custom: true, terms: calendar.terms } });
    });
    const pages = [
      ['/attendance/create', 'Class filter'],
      ['/school/marktargets/create', 'Class filter'],
      ['/marks/create', 'Marks filter'],
      ['/marks/delete', 'Marks filter'],
    ] as const;
    for (const [path, form] of pages) {
      await page.goto(path);
      await filterOf(page, form).waitFor();
      datesCome();
      await expect.poll(() => termOf(page, form), { timeout: 5_000 }).toEqual({ term: calendar.term, year: calendar.year });
    }
    await page.context().close();
  });
});

/* ---- Mark targets ---- */

const targetCell = (page: Page, name: string) => page.getByRole('textbox', { name: `Target: ${name} Kizito` });

/** The targets of P3 Zeta in Mathematics as the API has them, by first name. */
async function targetsOf(page: Page, subject_id: string) {
  const answer = await callApi(page, 'POST', '/api/school/marktargets', {
    form: 'P3',
    stream: 'Zeta',
    subject_id,
    ...(await termOf(page)),
  });
  expect(answer.status).toBe(200);
  const rows = answer.data as Array<{ student: { fullname: string }; targets: { target: number } | null }>;
  return Object.fromEntries(rows.map((row) => [row.student.fullname.split(' ')[0], row.targets?.target ?? null]));
}

describe('mark targets', () => {
  it('loads a class’s learners, refuses a target above 100, saves, downloads and uploads a filled sheet', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/school/marktargets/create' });
    const subjects = (await callApi(page, 'GET', '/api/school/subjects?per_page=1000')).data as {
      subjects: Array<{ id: string; name: string }>;
    };
    const maths = subjects.subjects.find((subject) => subject.name === 'Mathematics')?.id as string;
    await chooseClass(page, 'Zeta', 'Mathematics');

    // A slow connection: the page says it is loading until the learners come.
    let learnersCome!: () => void;
    const held = new Promise<void>((resolve) => {
      learnersCome = resolve;
    });
    await page.route('**/api/school/marktargets', async (route) => {
      await held;
      await route.continue();
    });
    await next(page);
    await page.getByRole('status').getByText('Loading mark targets. Please wait.').waitFor();
    learnersCome();
    const table = page.getByRole('table', { name: 'Target' });
    await table.waitFor();
    await page.unroute('**/api/school/marktargets');
    await expect(page.getByText('Loading mark targets. Please wait.').count()).resolves.toBe(0);
    await expect(table.locator('tbody tr').count()).resolves.toBe(4);

    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/school/marktargets')) sent.push(request.postData() ?? '');
    });
    await targetCell(page, 'Abeja').click();
    await page.keyboard.type('75');
    await page.keyboard.press('Enter');
    await page.keyboard.type('101');
    await page.keyboard.press('Enter');
    await page.keyboard.type('82.5');
    await expect(targetCell(page, 'Bwire').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('A target is a number from 0 to 100 with at most one decimal').waitFor();
    await page.getByRole('button', { name: 'Create MarkTarget' }).click();
    await page.getByRole('alert').getByText('Values that are not valid: 1.', { exact: false }).waitFor();
    expect(sent).toHaveLength(0);
    await expect(targetsOf(page, maths)).resolves.toEqual({ Abeja: null, Bwire: null, Chandiru: null, Dembe: null });

    await targetCell(page, 'Bwire').fill('90');
    await page.getByRole('button', { name: 'Create MarkTarget' }).click();
    await toast(page, 'Successfully created');
    await expect(targetsOf(page, maths)).resolves.toEqual({ Abeja: 75, Bwire: 90, Chandiru: 82.5, Dembe: null });

    // The class's sheet, Mark_Targets-<timestamp>.xlsx, with what is set.
    const { download, file } = await downloadSheet(page);
    expect(download.suggestedFilename()).toMatch(/^Mark_Targets-.*\.xlsx$/);
    await toast(page, 'The excel file is ready.');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Targets');
    if (!sheet) throw new Error('no Targets sheet');
    expect(valuesOf(sheet, 1, 3)).toEqual([
      ['Class', 'P3'],
      ['Stream', 'Zeta'],
      ['Subject', 'Mathematics'],
    ]);
    expect(valuesOf(sheet, 8, 12)).toEqual([
      ['Student ID', 'Name', 'Target'],
      ['MPS/CV/Zeta/1', 'Abeja Kizito', 75],
      ['MPS/CV/Zeta/2', 'Bwire Kizito', 90],
      ['MPS/CV/Zeta/3', 'Chandiru Kizito', 82.5],
      ['MPS/CV/Zeta/4', 'Dembe Kizito'],
    ]);
    sheet.getCell('C11').value = 85;
    sheet.getCell('C12').value = 68;
    const filled = path.join(files, 'targets-filled.xlsx');
    await workbook.xlsx.writeFile(filled);

    // The save's toast may still be up: the upload's own answer says what it did.
    await filterOf(page).locator('input[type="file"]').setInputFiles(filled);
    const [uploaded] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/school/marktargets') && response.request().method() === 'POST'),
      next(page),
    ]);
    await expect(uploaded.json()).resolves.toEqual({ message: 'Successfully created', saved: 2, unchanged: 2 });
    await toast(page, 'Successfully created');
    await expect.poll(() => targetCell(page, 'Dembe').inputValue()).toBe('68');
    await expect(targetCell(page, 'Chandiru').inputValue()).resolves.toBe('85');
    await expect(targetsOf(page, maths)).resolves.toEqual({ Abeja: 75, Bwire: 90, Chandiru: 85, Dembe: 68 });
    await page.context().close();
  });

  it('lists the targets of a class in a subject, with Upload Marks to the page that sets them', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/school/marktargets' });
    const screen = page.getByTestId('screen-marktargets');
    const search = screen.getByRole('form', { name: 'Search and filters' });
    await search.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P3', exact: true }).click();
    await search.getByRole('textbox', { name: 'Stream' }).fill('Zeta');
    await search.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Mathematics', exact: true }).click();
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await screen.getByText('1–4 of 4').waitFor();
    const rows = await screen
      .locator('tbody tr')
      .evaluateAll((all) => all.map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent?.trim())));
    expect(rows.map((row) => [row[0], row[1], row[4], row[5]])).toEqual([
      ['Abeja Kizito', 'P3', 'Mathematics', '75'],
      ['Bwire Kizito', 'P3', 'Mathematics', '90'],
      ['Chandiru Kizito', 'P3', 'Mathematics', '85'],
      ['Dembe Kizito', 'P3', 'Mathematics', '68'],
    ]);

    await screen.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Upload Marks' }).click();
    await page.waitForURL('**/school/marktargets/create');
    await page.getByRole('heading', { name: 'Upload mark targets' }).waitFor();
    await page.context().close();
  });
});

describe('who may set them', () => {
  it('keeps the demo teacher out of attendance (manage on remark, spec §7) and the mark targets (issue 23 item 8)', async () => {
    const page = await h.signedIn(TEACHER, { school: 'demo-primary', path: '/dashboard' });
    const sidebar = page.getByTestId('sidebar');
    // Beside the reports he may print, no Record attendance.
    await sidebar.getByText('Terminal Report', { exact: true }).waitFor();
    await expect(sidebar.getByText('Record attendance').count()).resolves.toBe(0);
    for (const path of ['/attendance/create', '/school/marktargets', '/school/marktargets/create']) {
      await page.goto(path);
      await page.waitForURL('**/error-403-basic');
      await page.getByRole('heading', { name: 'Oooops, access denied' }).waitFor();
    }
    await page.context().close();
  });
});
