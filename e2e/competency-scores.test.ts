import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * A competency's activity-of-integration scores in the browser (issue 26 point 3), as the
 * secondary demo's administrator enters them: a competency added on its page, Record Marks
 * opens the marks grid already set to its class, term and subject, a column copied from a
 * spreadsheet is pasted, a score off the 1-to-3 scale is refused in its cell, the grid is
 * saved, and the scores are there when the page is opened again. The test's own mark type
 * keeps its grid empty whatever the demo holds.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const cell = (page: Page, row: number, column: number) => page.locator(`[data-cell="${row}:${column}"]`);

/** Pastes text at the focused cell as a spreadsheet's copy arrives (a paste event with text/plain). */
async function paste(page: Page, text: string) {
  await page.evaluate((content) => {
    const data = new DataTransfer();
    data.setData('text/plain', content);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe("a competency's scores", () => {
  it('opens the grid from the competency, takes a pasted column on the 1-to-3 scale, saves it and shows it again', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/topics/new' });
    const aoi = `AOI ${unique()}`;
    expect((await callApi(page, 'POST', '/api/school/marktypes', { label: aoi, category: 'assesment', outof: 3 })).status).toBe(200);
    const title = `Personal life and family ${unique()}`;
    const form = page.getByTestId('resource-form');
    for (const [field, option] of [
      ['Class', 'S2'],
      ['Term', 'I'],
      ['Subject', 'English Language'],
    ] as const) {
      await form.getByRole('combobox', { name: field, exact: true }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/competency-detail/'));
    const detail = page.getByTestId('record-detail');
    await detail.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Record Marks', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/marks/create');
    const gridAddress = page.url();

    // The competency names itself and fills the filter: its class and subject stay.
    const banner = page.getByTestId('competency-banner');
    await banner.getByText(`Competency: ${title}`, { exact: false }).waitFor();
    await banner.getByText('Scores run from 1 to 3', { exact: false }).waitFor();
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await expect.poll(() => filter.getByRole('combobox', { name: 'Class' }).inputValue()).toBe('S2');
    await expect.poll(() => filter.getByRole('combobox', { name: 'Subject' }).inputValue()).toBe('English Language');
    await expect(filter.getByRole('combobox', { name: 'Class' }).isDisabled()).resolves.toBe(true);
    await expect.poll(() => filter.getByRole('combobox', { name: 'Term' }).inputValue()).toBe('I');
    await filter.getByRole('checkbox', { name: aoi }).check();
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();

    // A column copied from a spreadsheet: scores with a decimal and an absence.
    await cell(page, 0, 0).focus();
    await paste(page, '2.5\n3\nABS\n1.5\n');
    await expect(cell(page, 0, 0).inputValue()).resolves.toBe('2.5');
    await expect(cell(page, 2, 0).inputValue()).resolves.toBe('ABS');
    await expect(cell(page, 3, 0).inputValue()).resolves.toBe('1.5');
    // A 4 is off the scale: refused in its cell, with its reason, before anything is sent.
    await cell(page, 4, 0).click();
    await page.keyboard.type('4');
    await expect(cell(page, 4, 0).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByTestId('save-marks').click();
    await page.getByTestId('wrong-cells').waitFor();
    await cell(page, 4, 0).fill('2');
    await page.getByTestId('save-marks').click();
    await page
      .locator('.mantine-Notification-root', { hasText: /^Marks saved: 5; unchanged: \d+\.$/ })
      .first()
      .waitFor();

    // Opened again from its address: the competency's scores are there.
    await page.goto(gridAddress);
    await page.getByTestId('competency-banner').getByText(`Competency: ${title}`, { exact: false }).waitFor();
    const again = page.getByRole('form', { name: 'Marks filter' });
    await expect.poll(() => again.getByRole('combobox', { name: 'Class' }).inputValue()).toBe('S2');
    await again.getByRole('checkbox', { name: aoi }).check();
    await again.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();
    await expect.poll(() => cell(page, 0, 0).inputValue()).toBe('2.5');
    await expect(cell(page, 1, 0).inputValue()).resolves.toBe('3');
    await expect(cell(page, 2, 0).inputValue()).resolves.toBe('ABS');
    await expect(cell(page, 4, 0).inputValue()).resolves.toBe('2');
    await page.context().close();
  });
});
