import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/*
 * The new curriculum's competencies and projects (issue 26 points 2 and 4), as the secondary
 * demo school's administrator uses them: a record added through its own page opens its detail
 * page, is found in the list by its filters, is opened from the list and changed through Edit,
 * and the change is kept after a reload. Each title carries a mark of this run's own.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

const signedInAt = (path: string): Promise<Page> => h.signedIn(ADMIN, { school: 'demo-secondary', path });

/** A select's option chosen the way a person does, again if its choices were still on their way. */
async function choose(page: Page, within: Locator, field: string, option: string): Promise<void> {
  const box = within.getByRole('combobox', { name: field, exact: true });
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

/** The page's Actions menu entry. */
async function menuEntry(page: Page, within: Locator, entry: string): Promise<void> {
  await within.getByRole('button', { name: 'Actions', exact: true }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

/** Waits for the page at an address starting with `prefix`; answers the address's last part (a record's id). */
async function onPage(page: Page, prefix: string): Promise<string> {
  await page.waitForURL((url) => url.pathname.startsWith(prefix));
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

/** A fact of the detail page, by its field's test id. */
const fact = (page: Page, field: string) => page.getByTestId(`fact-${field}`);

describe('competencies', () => {
  it('adds one on its page, finds it by class, term and subject, opens it, edits it, and keeps the change', async () => {
    const page = await signedInAt('/school/topics');
    const title = `Number bases ${unique()}`;
    const screen = page.getByTestId('screen-topics');
    await menuEntry(page, screen, 'New Competency');
    await onPage(page, '/school/topics/new');
    const form = page.getByTestId('resource-form');
    await choose(page, form, 'Class', 'S2');
    await choose(page, form, 'Term', 'II');
    await choose(page, form, 'Subject', 'Mathematics');
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await form.getByRole('textbox', { name: 'Remarks', exact: true }).fill('Bases two to ten');
    await form.getByRole('button', { name: 'Save' }).click();

    // Saving opens the competency's page.
    const id = await onPage(page, '/competency-detail/');
    const detail = page.getByTestId('record-detail');
    await detail.getByRole('heading', { name: title }).waitFor();
    await expect(fact(page, 'form').innerText()).resolves.toContain('S2');
    await expect(fact(page, 'term').innerText()).resolves.toContain('II');
    await expect(fact(page, 'subject_id').innerText()).resolves.toContain('Mathematics');
    await expect(fact(page, 'remarks').innerText()).resolves.toContain('Bases two to ten');

    // Found in the list by class, term and subject, and opened through Details.
    await page.goto('/school/topics');
    const search = page.getByTestId('screen-topics').locator('search');
    await choose(page, search, 'Class', 'S2');
    await choose(page, search, 'Term', 'II');
    await choose(page, search, 'Subject', 'Mathematics');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByTestId('screen-topics').locator('tbody tr[data-row]').filter({ hasText: title });
    await row.waitFor();
    await row.getByRole('cell', { name: 'S2', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Row actions' }).click();
    await expect(page.getByRole('menuitem', { name: 'Record Marks', exact: true }).getAttribute('href')).resolves.toMatch(
      /\/marks\/create\?topic_id=[0-9a-f-]{36}$/,
    );
    await expect(page.getByRole('menuitem', { name: 'Delete Marks', exact: true }).getAttribute('href')).resolves.toMatch(
      /\/marks\/delete\?topic_id=[0-9a-f-]{36}$/,
    );
    await page.getByRole('menuitem', { name: 'Details', exact: true }).click();
    await onPage(page, '/competency-detail/');
    await detail.getByRole('heading', { name: title }).waitFor();

    // Edited through the page's menu; the change is kept after a reload.
    await menuEntry(page, detail, 'Edit Competency');
    await onPage(page, '/school/topics/new');
    const edit = page.getByTestId('resource-form');
    const titleBox = edit.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => titleBox.inputValue()).toBe(title);
    await titleBox.fill(`${title} (revised)`);
    await edit.getByRole('button', { name: 'Update' }).click();
    await onPage(page, '/competency-detail/');
    await detail.getByRole('heading', { name: `${title} (revised)` }).waitFor();
    // Opened afresh by its address: the change was kept.
    await page.goto(`/competency-detail/${id}`);
    await page
      .getByTestId('record-detail')
      .getByRole('heading', { name: `${title} (revised)` })
      .waitFor();
    await page.getByTestId('record-detail').getByRole('button', { name: 'Actions', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: 'View Marks', exact: true }).getAttribute('href')).resolves.toMatch(
      /\/school\/marks\?topic_id=[0-9a-f-]{36}$/,
    );
  });
});

describe('projects', () => {
  it('adds one with a maximum of 10, finds it by class and year, opens it by its row, edits it, and keeps the change', async () => {
    const page = await signedInAt('/school/projects');
    const title = `School garden ${unique()}`;
    const screen = page.getByTestId('screen-projects');
    await menuEntry(page, screen, 'New Project');
    await onPage(page, '/school/projects/new');
    const form = page.getByTestId('resource-form');
    await expect.poll(() => form.getByRole('textbox', { name: 'Maximum score', exact: true }).inputValue()).toBe('10');
    await choose(page, form, 'Class', 'S3');
    await choose(page, form, 'Subject', 'Mathematics');
    await choose(page, form, 'Term', 'I');
    await form.getByRole('textbox', { name: 'Year', exact: true }).fill('2026');
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await form.getByRole('button', { name: 'Save' }).click();

    const id = await onPage(page, '/project-detail/');
    const detail = page.getByTestId('record-detail');
    await detail.getByRole('heading', { name: title }).waitFor();
    await expect(fact(page, 'year').innerText()).resolves.toContain('2026');
    await expect(fact(page, 'max_score').innerText()).resolves.toContain('10');

    await page.goto('/school/projects');
    const search = page.getByTestId('screen-projects').locator('search');
    await choose(page, search, 'Class', 'S3');
    await choose(page, search, 'Term', 'I');
    await search.getByRole('textbox', { name: 'Year', exact: true }).fill('2026');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByTestId('screen-projects').locator('tbody tr[data-row]').filter({ hasText: title });
    await row.waitFor();
    await row.getByRole('cell', { name: 'Mathematics', exact: true }).waitFor();
    await row.getByRole('cell', { name: title, exact: true }).click();
    await onPage(page, '/project-detail/');
    await detail.getByRole('heading', { name: title }).waitFor();

    await detail.getByRole('button', { name: 'Actions', exact: true }).click();
    await expect(page.getByRole('menuitem', { name: 'Record Scores', exact: true }).getAttribute('href')).resolves.toMatch(
      /\/school\/projectscores\/new\?project_id=[0-9a-f-]{36}$/,
    );
    await page.getByRole('menuitem', { name: 'Edit Project', exact: true }).click();
    await onPage(page, '/school/projects/new');
    const edit = page.getByTestId('resource-form');
    const titleBox = edit.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => titleBox.inputValue()).toBe(title);
    await titleBox.fill(`${title} plan`);
    await edit.getByRole('textbox', { name: 'Maximum score', exact: true }).fill('20');
    await edit.getByRole('button', { name: 'Update' }).click();
    await onPage(page, '/project-detail/');
    await detail.getByRole('heading', { name: `${title} plan` }).waitFor();
    await page.goto(`/project-detail/${id}`);
    await page
      .getByTestId('record-detail')
      .getByRole('heading', { name: `${title} plan` })
      .waitFor();
    await expect(fact(page, 'max_score').innerText()).resolves.toContain('20');
  });
});
