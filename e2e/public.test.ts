import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, useHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

async function visit(path: string): Promise<Page> {
  const page = await (await h.newContext()).newPage();
  await page.goto(path);
  return page;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The message shown beside a field, found through the field's own accessible description. */
async function fieldError(page: Page, label: string): Promise<string | null> {
  const input = page.getByRole('textbox', { name: label, exact: true });
  const described = await input.getAttribute('aria-describedby');
  const errorId = described?.split(' ').find((id) => id.endsWith('-error'));
  return errorId ? page.locator(`[id="${errorId}"]`).textContent() : null;
}

describe('registration', () => {
  it('shows every §5 message of the register form beside its field', async () => {
    const page = await visit('/register');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, 'Name')).toBe('Please enter your name');
    expect(await fieldError(page, 'Email')).toBe('Please enter your email address');
    expect(await fieldError(page, 'Telephone')).toBe('Please enter your telephone');
    expect(await fieldError(page, 'Password')).toBe('Please enter your password');

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Al');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('not-an-email');
    await page.getByRole('textbox', { name: 'Telephone', exact: true }).fill('12');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, 'Name')).toBe('Too short');
    expect(await fieldError(page, 'Email')).toBe('Invalid email');
    expect(await fieldError(page, 'Telephone')).toBe('Invalid telephone number');
    expect(await fieldError(page, 'Password')).toBe('Too short');

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('longenough1');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, 'Password')).toBe(
      'Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character',
    );
    expect(page.url()).toMatch(/\/register$/);
    await page.context().close();
  });

  it('walks through the three steps: account, business (Uganda by default), starter products', async () => {
    const page = await visit('/register');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Namukasa');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('grace@stmarys.ug');
    await page.getByRole('textbox', { name: 'Telephone', exact: true }).fill('+256 772 123456');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Kampala#2026');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL('**/register/business');
    // What the owner typed is carried over; the country starts at Uganda.
    expect(await page.getByRole('textbox', { name: 'Business email' }).inputValue()).toBe('grace@stmarys.ug');
    expect(await page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('Uganda');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, 'Business name')).toBe('Please enter your business name');
    await page.getByRole('textbox', { name: 'Business name' }).fill('St. Mary’s Primary School');
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'School', exact: true }).click();
    // A school says its type, primary by default (spec §9).
    expect(await page.getByRole('radio', { name: 'Primary' }).isChecked()).toBe(true);
    // About two hundred countries, searchable.
    await page.getByRole('combobox', { name: 'Country' }).click();
    expect(await page.getByRole('option').count()).toBeGreaterThan(190);
    await page.getByRole('combobox', { name: 'Country' }).fill('Keny');
    await page.getByRole('option', { name: 'Kenya' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL('**/register/business/products');
    // A school reads the defaults it starts with (primary unless said).
    await page.getByText('St. Mary’s Primary School starts ready for its class lists.').waitFor();
    await page.getByTestId('school-defaults').getByText('As a Ugandan primary school', { exact: false }).waitFor();
    // Back a step, the form is as it was left; a shop chooses starter products instead.
    await page.goBack();
    await page.waitForURL('**/register/business');
    expect(await page.getByRole('textbox', { name: 'Business name' }).inputValue()).toBe('St. Mary’s Primary School');
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Retail', exact: true }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/register/business/products');
    await page.getByText('Choose a few products for St. Mary’s Primary School now; you can add more later.').waitFor();
    await page.getByRole('checkbox', { name: 'Sugar' }).check();
    await page.getByRole('checkbox', { name: 'Soap' }).check();
    await page.getByText('Chosen: 2').waitFor();
    await page.context().close();
  });

  it('/signup shows the same form in the cover frame', async () => {
    const page = await visit('/signup');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await fieldError(page, 'Name')).toBe('Please enter your name');
    await page.context().close();
  });

  it('has no serious or critical accessibility violation on the register and business pages', async () => {
    const page = await visit('/register');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // With the error messages showing, too.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please enter your name').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The second step opens only after the first (its answers are kept in memory, not sent yet).
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Namukasa');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('grace@stmarys.ug');
    await page.getByRole('textbox', { name: 'Telephone', exact: true }).fill('+256 772 123456');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Kampala#2026');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your school or business' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('translates the rules’ messages into the chosen language', async () => {
    const page = await (await h.newContext()).newPage();
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('mustard.language', 'gr'));
    await page.goto('/register');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByText('Bitte geben Sie Ihren Namen ein').waitFor();
    await page.context().close();
  });
});

describe('the other public pages', () => {
  it.each([
    ['/auth/password/reset', 'Forgot your password?'],
    ['/coming-soon', 'Coming Soon'],
    ['/maintenance', 'Site is Under Maintenance'],
    ['/error-404-basic', 'Opps, page not found'],
    ['/error-404-cover', 'Opps, page not found'],
    ['/error-500-basic', 'Internal Server Error'],
    ['/error-500-cover', 'Internal Server Error'],
    ['/error-403-basic', 'Oooops, access denied'],
  ])('%s shows "%s" and a way onwards', async (path, heading) => {
    const page = await visit(path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect(await page.getByRole('link').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('Coming Soon keeps a visitor’s address to tell them when it opens, and says what is wrong with a bad one', async () => {
    const page = await visit('/coming-soon');
    const form = page.getByRole('form', { name: 'Notify me' });
    await form.getByRole('textbox', { name: 'Your email' }).fill('not an address');
    await form.getByRole('button', { name: 'Notify me' }).click();
    await form.getByText('Invalid email').waitFor();
    await form.getByRole('textbox', { name: 'Your email' }).fill('bursar@kisubi.ac.ug');
    await form.getByRole('button', { name: 'Notify me' }).click();
    await page.getByTestId('notify-done').getByText('Thank you. We will write to you when it opens.').waitFor();
    const kept = await h.database.db.selectFrom('launch_notifications').select('email').execute();
    expect(kept.map((row) => row.email)).toContain('bursar@kisubi.ac.ug');
    await page.context().close();
  });

  it('the Coming Soon countdown has reached its date (2021/12/31) and stays at zero', async () => {
    const page = await visit('/coming-soon');
    const timer = page.getByRole('timer');
    await timer.waitFor();
    for (const unit of ['days', 'hours', 'minutes', 'seconds']) {
      await expect(timer.locator(`[data-unit="${unit}"] p`).first().textContent()).resolves.toBe('0');
    }
    await page.context().close();
  });

  it('the product name links to the dashboard, which sends a visitor to sign in', async () => {
    const page = await visit('/error-404-cover');
    await page.getByRole('link', { name: 'Mustard' }).first().click();
    await page.waitForURL('**/login');
    await page.context().close();
  });
});
