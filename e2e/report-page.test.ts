import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The report page shell (issue 25 point 6), as a head teacher meets it on Terminal Reports: a
 * PDF says "Please wait.." in a toast while it is drawn and then that the report is ready; on a
 * phone the filter folds away once the preview is on screen, as the class sheets' do.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const PHONE = { width: 360, height: 740 };
const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text }).first();

/** Terminal Reports in the demo's primary school with P7 East chosen. */
async function openP7East(size?: { width: number; height: number }) {
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/terminalreport', ...size });
  const filter = page.getByRole('form', { name: 'Terminal report filter' });
  await pickOption(page, filter.getByRole('combobox', { name: 'Class' }), 'P7');
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
  return { page, filter };
}

describe('the report page shell', () => {
  it('says "Please wait.." while a class’s PDF is drawn, then "The report is ready", and the file comes', async () => {
    const { page, filter } = await openP7East();
    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    // A slow connection, as the school's: the PDF's answer comes a second late, so the wait is seen
    // however fast the server draws (on a quick machine the toast turned before it could be read).
    await page.route('**/api/school/terminalreport?**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    const waiting = toast(page, 'Please wait..').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click(), waiting]);
    expect(download.suggestedFilename()).toMatch(/^report-P7-East-\d{4}-(I|II|III)\.pdf$/);
    await toast(page, 'The report is ready').waitFor();
    // The same toast turned: no "Please wait.." is left once the report is ready.
    await expect(toast(page, 'Please wait..').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('folds the Terminal Report filter after Next at 360 px, with the preview in sight, and opens it again', async () => {
    const { page, filter } = await openP7East(PHONE);
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.frameLocator('iframe[title="Report preview"]').locator('section.card').first().waitFor();
    await filter.waitFor({ state: 'hidden' });
    const unfold = page.getByRole('button', { name: 'Show the filter' });
    await unfold.click();
    await filter.waitFor();
    await expect(unfold.count()).resolves.toBe(0);
    await page.context().close();
  });

  it('does not fold it on a laptop', async () => {
    const { page, filter } = await openP7East({ width: 1366, height: 768 });
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.frameLocator('iframe[title="Report preview"]').locator('section.card').first().waitFor();
    await expect(filter.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Show the filter' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});
