import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, startHarness, TEACHER } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const signedIn = (email: string, size?: { width: number; height: number }): Promise<Page> => h.signedIn(email, size);

describe('the signed-in shell', () => {
  it('sends the demo teacher from /marks/delete to the 403 page', async () => {
    const page = await signedIn(TEACHER);
    await page.goto('/marks/delete');
    await page.waitForURL('**/error-403-basic');
    await page.getByRole('heading', { name: 'Oooops, access denied' }).waitFor();
    await page.context().close();
  });

  it('hides Record attendance... only from those without manage on remark; shows New Curriculum only in secondary schools', async () => {
    const page = await signedIn(ADMIN);
    const sidebar = page.getByTestId('sidebar');
    const tenant = await page.evaluate(() => JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').schooltype);
    await expect(sidebar.getByText('New Curriculum').count()).resolves.toBe(tenant === 'secondary' ? 1 : 0);
    await expect(sidebar.getByText('Record attendance').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('logs out in one tab and the other tab follows to /login', async () => {
    const page = await signedIn(ADMIN);
    const other = await page.context().newPage();
    await other.goto('/grades');
    await other.getByRole('heading', { name: 'Grades' }).waitFor();
    await page.goto('/logout');
    await page.getByRole('heading', { name: 'You are Logged Out' }).waitFor();
    await other.waitForURL('**/login');
    await page.context().close();
  });

  it('keeps the chosen language across a reload, and the page really is in that language', async () => {
    const page = await signedIn(ADMIN);
    await page.getByTestId('language-menu').click();
    await page.locator('[data-language="gr"]').click();
    await page.reload();
    await page.getByTestId('school-widget').waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await page.getByTestId('sidebar').getByText('Schüler').first().waitFor();
    await page.context().close();
  });

  it('switches school: the dashboard shows the other school’s figures', async () => {
    const page = await signedIn(TEACHER);
    const before = await page.getByTestId('learner-count').textContent();
    const current = await page.evaluate(() => JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').tenantcode);
    const target = current === 'demo-primary' ? 'demo-secondary' : 'demo-primary';
    await page.getByTestId('school-switcher').click();
    await page.locator(`[data-tenant="${target}"]`).click();
    await page.waitForFunction((code) => JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').tenantcode === code, target);
    await page.getByTestId('school-widget').waitFor();
    await page.waitForFunction((previous) => document.querySelector('[data-testid="learner-count"]')?.textContent !== previous, before);
    const after = await page.getByTestId('learner-count').textContent();
    expect({ primary: '560', secondary: '480' }).toMatchObject({
      [current === 'demo-primary' ? 'primary' : 'secondary']: before,
      [target === 'demo-primary' ? 'primary' : 'secondary']: after,
    });
    await page.context().close();
  });

  it('collapses the sidebar at 900 px', async () => {
    const page = await signedIn(ADMIN, { width: 900, height: 800 });
    // Collapsed means moved out of view, left of the page.
    const onScreen = async () => {
      const box = await page.getByTestId('sidebar').boundingBox();
      return Boolean(box && box.x + box.width > 0);
    };
    await expect(onScreen()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Show or hide the menu' }).click();
    await page.waitForTimeout(400); // the slide-in transition
    await expect(onScreen()).resolves.toBe(true);
    await page.context().close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await signedIn(ADMIN);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Opps, page not found' }).waitFor();
    await page.context().close();
  });

  it('has no serious or critical accessibility violation on the dashboard', async () => {
    const page = await signedIn(ADMIN);
    await page.getByTestId('students-chart').waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.context().close();
  });
});
