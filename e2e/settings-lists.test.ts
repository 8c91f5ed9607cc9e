import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * Four list screens of the one mechanism (class teachers, grade footers, report footers, mark
 * types), as the demo school's administrator uses them: add a record through the form, find it
 * in the list, change one field and see it kept after a reload, delete it. Each record carries a
 * name of this run's own, so no other test's records are touched.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

/** A mark of this run, for names no other test uses. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

const signedInAt = (path: string): Promise<Page> => h.signedIn(ADMIN, { school: 'demo-primary', path });

/** The screen's card, its Add entry opened from its Actions menu; answers the form. */
async function openAdd(page: Page, screen: Locator, entry: string): Promise<Locator> {
  await screen.getByRole('button', { name: 'Actions', exact: true }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
  const form = page.getByTestId('resource-form');
  await form.getByRole('button', { name: 'Save' }).waitFor();
  return form;
}

/**
 * A select's option chosen the way a person does: a click on the box once it stands still (the
 * side panel slides in), and again if its choices were still on their way and it stayed closed.
 */
async function choose(page: Page, form: Locator, field: string, option: string): Promise<void> {
  const box = form.getByRole('combobox', { name: field, exact: true });
  const wanted = page.getByRole('option', { name: option, exact: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    await box.click();
    if (
      await wanted.waitFor({ timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
  }
  await wanted.click();
  await expect.poll(() => box.inputValue()).toBe(option);
}

/** The screen's search form sent with the given text boxes filled. */
async function searchFor(screen: Locator, boxes: Record<string, string>): Promise<void> {
  const form = screen.locator('search');
  for (const [name, value] of Object.entries(boxes)) await form.getByRole('textbox', { name, exact: true }).fill(value);
  await form.getByRole('button', { name: 'Search', exact: true }).click();
}

/** The row's Edit entry: answers the form, filled once the record has been read afresh. */
async function openEdit(page: Page, row: Locator): Promise<Locator> {
  await row.getByRole('button', { name: 'Row actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  const form = page.getByTestId('resource-form');
  await form.getByRole('button', { name: 'Update' }).waitFor();
  return form;
}

/** The row deleted through its menu and the confirmation, and gone from the list. */
async function deleteRow(page: Page, row: Locator): Promise<void> {
  await row.getByRole('button', { name: 'Row actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this record?' });
  await confirm.getByText('This cannot be undone.').waitFor();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.locator('.mantine-Notification-root', { hasText: 'Successfully deleted' }).waitFor();
  await row.waitFor({ state: 'detached' });
}

/** A cell of the row, by its exact text. */
const cell = (row: Locator, text: string) => row.getByRole('cell', { name: text, exact: true });

describe('class teachers', () => {
  it('on /classteachers: adds a co-teacher for a stream in the side panel, finds it by stream, makes them the primary teacher, deletes it', async () => {
    const page = await signedInAt('/classteachers');
    const screen = page.getByTestId('screen-classteachers');
    const stream = `CT${unique()}`;

    const form = await openAdd(page, screen, 'Add teachers');
    await page.getByRole('dialog').getByText('Add: Class teachers').waitFor();
    // The teachers to choose from are the school's members, by name.
    const teacherBox = form.getByRole('combobox', { name: 'Teacher', exact: true });
    await teacherBox.click();
    const firstTeacher = page.getByRole('option').first();
    await firstTeacher.waitFor();
    const teacher = ((await firstTeacher.textContent()) ?? '').trim();
    await firstTeacher.click();
    await choose(page, form, 'Class', 'P5');
    await form.getByRole('textbox', { name: 'Stream', exact: true }).fill(stream);
    await choose(page, form, 'Term', 'III');
    await choose(page, form, 'Category', 'Co-teacher');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    // The screen has no search box: its stream filter finds the record.
    await searchFor(screen, { Stream: stream });
    const row = screen.locator('tbody tr[data-row]').filter({ hasText: stream });
    await row.waitFor();
    await expect(row.getAttribute('data-row')).resolves.toBe(teacher);
    await cell(row, 'P5').waitFor();
    await cell(row, 'III').waitFor();
    await cell(row, 'Co-teacher').waitFor();
    await expect.poll(() => screen.locator('tbody tr[data-row]').count()).toBe(1);

    const edit = await openEdit(page, row);
    await expect(edit.getByRole('textbox', { name: 'Stream', exact: true }).inputValue()).resolves.toBe(stream);
    await choose(page, edit, 'Category', 'Primary');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await cell(row, 'Primary').waitFor();

    // Kept: read again from the server after a reload.
    await page.reload();
    await searchFor(screen, { Stream: stream });
    await cell(row, 'Primary').waitFor();
    await expect(cell(row, 'Co-teacher').count()).resolves.toBe(0);

    await deleteRow(page, row);
    await screen.getByText('No records found').waitFor();
    await page.context().close();
  });
});

describe('grade footers', () => {
  it('on /school/gradefoots: refuses a footer without details and saves nothing, then adds it, finds it by search, edits the details, deletes it', async () => {
    const page = await signedInAt('/school/gradefoots');
    const screen = page.getByTestId('screen-gradefoots');
    const stream = `GF${unique()}`;

    const form = await openAdd(page, screen, 'New GradeFooter');
    // Nothing chosen: the class and the details are asked for.
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Please select a class').waitFor();
    await form.getByText('Please enter the details').waitFor();
    await choose(page, form, 'Class', 'P6');
    await form.getByRole('textbox', { name: 'Stream', exact: true }).fill(stream);
    await expect(form.getByText('Please select a class').count()).resolves.toBe(0);
    // The details still empty: the form says so again, stays open, and nothing is saved.
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Please enter the details').waitFor();
    await expect(form.isVisible()).resolves.toBe(true);
    const none = await callApi(page, 'GET', `/api/school/gradefoots?search=${stream}`);
    expect(none.status).toBe(200);
    expect(none.data).toEqual({ gradefoots: [], totalRecords: 0 });

    const details = `D1 to D2: distinction (${stream})`;
    await form.getByRole('textbox', { name: 'Details', exact: true }).fill(details);
    await expect(form.getByText('Please enter the details').count()).resolves.toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await searchFor(screen, { Search: stream });
    const row = screen.locator('tbody tr[data-row="P6"]').filter({ hasText: stream });
    await row.waitFor();
    await cell(row, details).waitFor();
    // The search's answer replaces the unfiltered list (which holds the new footer too) once it comes.
    await expect.poll(() => screen.locator('tbody tr[data-row]').count()).toBe(1);

    const edit = await openEdit(page, row);
    await expect(edit.getByRole('textbox', { name: 'Details', exact: true }).inputValue()).resolves.toBe(details);
    const changed = `C3 to C6: credit (${stream})`;
    await edit.getByRole('textbox', { name: 'Details', exact: true }).fill(changed);
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await cell(row, changed).waitFor();

    await page.reload();
    await searchFor(screen, { Search: stream });
    await cell(row, changed).waitFor();
    await expect(cell(row, details).count()).resolves.toBe(0);

    await deleteRow(page, row);
    await screen.getByText('No records found').waitFor();
    await page.context().close();
  });
});

describe('report footers', () => {
  it('on /school/reportfooters: adds a footer for a class in the current term, finds it by search, moves it, deletes it', async () => {
    const page = await signedInAt('/school/reportfooters');
    const screen = page.getByTestId('screen-reportfooters');
    const title = `Next term begins ${unique()}`;

    const form = await openAdd(page, screen, 'New Record');
    // The term and year start at the school's current term, as the list's filters do.
    const term = await form.getByRole('combobox', { name: 'Term', exact: true }).inputValue();
    const year = await form.getByRole('textbox', { name: 'Year', exact: true }).inputValue();
    expect(term).toMatch(/^(I|II|III)$/);
    expect(year).toMatch(/^20\d\d$/);
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await choose(page, form, 'Class', 'P4');
    await choose(page, form, 'Category', 'Exam');
    await form.getByRole('textbox', { name: 'Position', exact: true }).fill('3');
    await form.getByRole('textbox', { name: 'Remarks', exact: true }).fill('Bring the school fees receipt');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await searchFor(screen, { Search: title });
    const row = screen.locator(`tbody tr[data-row="${title}"]`);
    await row.waitFor();
    await cell(row, 'P4').waitFor();
    await cell(row, term).waitFor();
    await cell(row, year).waitFor();
    await cell(row, 'Exam').waitFor();
    await cell(row, '3').waitFor();
    await cell(row, 'Bring the school fees receipt').waitFor();

    const edit = await openEdit(page, row);
    await expect(edit.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).resolves.toBe(title);
    await edit.getByRole('textbox', { name: 'Position', exact: true }).fill('7');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await cell(row, '7').waitFor();

    await page.reload();
    await searchFor(screen, { Search: title });
    await cell(row, '7').waitFor();
    await expect(cell(row, '3').count()).resolves.toBe(0);

    await deleteRow(page, row);
    await screen.getByText('No records found').waitFor();
    await page.context().close();
  });
});

describe('mark types', () => {
  it('on /marks/categories: adds a mark type (active, out of 100 unless changed), finds it by search, sets it out of 50, deletes it', async () => {
    const page = await signedInAt('/marks/categories');
    const screen = page.getByTestId('screen-marktypes');
    const label = `Quiz ${unique()}`;

    const form = await openAdd(page, screen, 'Add');
    await expect(form.getByRole('combobox', { name: 'Status', exact: true }).inputValue()).resolves.toBe('Active');
    await expect(form.getByRole('textbox', { name: 'Out of', exact: true }).inputValue()).resolves.toBe('100');
    await form.getByRole('textbox', { name: 'Label', exact: true }).fill(label);
    await choose(page, form, 'Category', 'Test');
    await form.getByRole('textbox', { name: 'Position', exact: true }).fill('12');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await searchFor(screen, { Search: label });
    const row = screen.locator(`tbody tr[data-row="${label}"]`);
    await row.waitFor();
    await cell(row, 'Test').waitFor();
    await cell(row, '12').waitFor();
    await cell(row, 'Active').waitFor();
    await cell(row, '100').waitFor();

    const edit = await openEdit(page, row);
    await expect(edit.getByRole('textbox', { name: 'Label', exact: true }).inputValue()).resolves.toBe(label);
    await edit.getByRole('textbox', { name: 'Out of', exact: true }).fill('50');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await cell(row, '50').waitFor();

    await page.reload();
    await searchFor(screen, { Search: label });
    await cell(row, '50').waitFor();
    await expect(cell(row, '100').count()).resolves.toBe(0);

    await deleteRow(page, row);
    await screen.getByText('No records found').waitFor();
    await page.context().close();
  });
});
