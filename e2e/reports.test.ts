import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, pickOption, useHarness } from './harness.js';

/*
 * Report cards as a head teacher prints them (issue 15 point 6): the demo's P7 previewed in
 * the page's frame, a division clicked to see why, and the class's PDF downloaded and read back.
 */

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-reports-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

const filterOf = (page: Page) => page.getByRole('form', { name: 'Terminal report filter' });

/** Opens Terminal Reports in the primary school and picks P7 East (the demo's marks term is the page's default). */
async function openP7East(): Promise<Page> {
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/terminalreport' });
  await page.getByRole('heading', { name: 'Terminal Report' }).waitFor();
  await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Class' }), 'P7');
  await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'East');
  return page;
}

describe('Terminal Reports', () => {
  it('previews the class in the frame, and a click on a division shows how it was worked out', async () => {
    const page = await openP7East();
    await expect(filterOf(page).getByRole('checkbox', { name: 'Preview' }).isChecked()).resolves.toBe(true);
    await expect(filterOf(page).getByRole('textbox', { name: 'Label' }).inputValue()).resolves.toBe('END OF TERM');
    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    const frame = page.frameLocator('iframe[title="Report preview"]');
    const firstCard = frame.locator('section.card').first();
    await firstCard.waitFor();
    await expect(frame.locator('section.card').count()).resolves.toBeGreaterThan(20);
    await expect(firstCard.locator('h2').innerText()).resolves.toMatch(/^END OF TERM — TERM (I|II|III) \d{4}$/);
    const division = firstCard.locator('details[data-explain="division"]');
    const why = division.locator('.because');
    await expect(why.isVisible()).resolves.toBe(false);
    await division.locator('summary').click();
    await why.waitFor({ state: 'visible' });
    await expect(why.innerText()).resolves.toMatch(/Division (I|II|III|IV|U|X)/);
    // The frame runs no script of its own: sandboxed without allow-scripts.
    await expect(page.locator('iframe[title="Report preview"]').getAttribute('sandbox')).resolves.toBe('');
  });

  it('without Preview downloads report-P7-East-<year>-<term>.pdf, readable with every learner', async () => {
    const page = await openP7East();
    await filterOf(page).getByRole('checkbox', { name: 'Preview' }).uncheck();
    const [download] = await Promise.all([page.waitForEvent('download'), filterOf(page).getByRole('button', { name: 'Next' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^report-P7-East-\d{4}-(I|II|III)\.pdf$/);
    await page.locator('.mantine-Notification-root', { hasText: 'The report is ready' }).first().waitFor();
    const file = path.join(files, download.suggestedFilename());
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('END OF TERM');
    expect(text).toMatch(/Division:?\s+(I|II|III|IV|U|X)\b/);
    expect(text.split('\f').filter((page) => page.trim()).length).toBeGreaterThan(20);
  });

  it('Display raw marks shows itself ticked and fixed while the school’s layout prints raw marks, saying why', async () => {
    const page = await openP7East();
    const raw = filterOf(page).getByRole('checkbox', { name: 'Display raw marks' });
    await expect.poll(() => raw.isChecked()).toBe(true);
    await expect(raw.isDisabled()).resolves.toBe(true);
    await filterOf(page).getByText('report layout prints raw marks', { exact: false }).waitFor();
  });

  it('the preview’s Download PDF prints the class previewed, without going back to the filter', async () => {
    const page = await openP7East();
    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    await page.frameLocator('iframe[title="Report preview"]').locator('section.card').first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^report-P7-East-\d{4}-(I|II|III)\.pdf$/);
    const file = path.join(files, `preview-${download.suggestedFilename()}`);
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('END OF TERM');
    expect(text.split('\f').filter((page) => page.trim()).length).toBeGreaterThan(20);
  });

  it('a new-curriculum class (the secondary demo’s S2) is not printed: the page says where its card is, with a link there', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/terminalreport' });
    await page.getByRole('heading', { name: 'Terminal Report' }).waitFor();
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Class' }), 'S2');
    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    const words = 'This class follows the new curriculum this year';
    // Beside the class field, and under the filter with the way to the new curriculum's cards.
    await filterOf(page).getByText(words, { exact: false }).waitFor();
    const notice = page.getByTestId('new-curriculum-class');
    await notice.getByText(words, { exact: false }).waitFor();
    const link = notice.getByRole('link', { name: 'Open the new curriculum terminal reports' });
    await expect(link.getAttribute('href')).resolves.toBe('/school/ncterminalreport');
    await expect(page.locator('iframe[title="Report preview"]').count()).resolves.toBe(0);
    await link.click();
    await page.waitForURL('**/school/ncterminalreport');
    await page.context().close();
  });

  it('the Report layout screen redraws a real learner’s card as the layout changes, before it is saved', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/school/reportlayout' });
    const frame = page.getByTestId('layout-preview').frameLocator('iframe');
    const card = frame.locator('section.card');
    await card.waitFor();
    await expect(card.innerText()).resolves.toContain('Position in class');
    await page.getByRole('switch', { name: 'Show positions in class and stream' }).uncheck({ force: true });
    await expect.poll(() => card.innerText()).not.toContain('Position in class');
    await page.getByRole('textbox', { name: 'Report title' }).fill('MID TERM ONE');
    await expect.poll(() => card.locator('h2').innerText()).toMatch(/^MID TERM ONE — TERM/);
  });
});
