import AxeBuilder from '@axe-core/playwright';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueSignInCode } from '../apps/server/src/modules/auth/auth.service.js';
import { ADMIN, type Harness, signIn, TEACHER, useHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('signing in', () => {
  it('with a password: email first, then the password, then the dashboard', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByRole('textbox', { name: 'Password' }).count()).resolves.toBe(0);
    await signIn(page, ADMIN);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('school-widget').waitFor();
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('mustard.token'),
      user: JSON.parse(localStorage.getItem('mustard.user') ?? '{}'),
    }));
    expect(stored.token?.split('.')).toHaveLength(3);
    expect(stored.user.permissions).toBeDefined();
    await context.close();
  });

  it('asks for the email when it is empty', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please enter your email address').waitFor();
    await context.close();
  });

  it('shows "Invalid email or password" in a red alert for a wrong password', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, TEACHER, 'not-the-password');
    const alert = page.getByTestId('login-alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('Invalid email or password');
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('redeems ?code= on load and signs in', async () => {
    const user = await h.database.db.selectFrom('users').select('id').where('email', '=', TEACHER).executeTakeFirstOrThrow();
    const code = await issueSignInCode(h.database, user.id);
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto(`/login?code=${code}`);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('school-widget').waitFor();
    await context.close();
  });

  it('says "Invalid code" for a code that was already used', async () => {
    const user = await h.database.db.selectFrom('users').select('id').where('email', '=', TEACHER).executeTakeFirstOrThrow();
    const code = await issueSignInCode(h.database, user.id);
    const first = await h.newContext();
    await (await first.newPage()).goto(`/login?code=${code}`);
    const context = await h.newContext();
    const page = await context.newPage();
    await first.pages()[0]?.waitForURL('**/dashboard');
    await page.goto(`/login?code=${code}`);
    const alert = page.getByTestId('login-alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('Invalid code');
    await first.close();
    await context.close();
  });

  it('returns to the page first asked for', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/grades');
    await page.waitForURL('**/login');
    await signIn(page, ADMIN);
    await page.waitForURL('**/grades');
    await page.getByRole('heading', { name: 'Grades' }).waitFor();
    await context.close();
  });

  it('sends a signed-in visitor of /login straight to the dashboard', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/login');
    await signIn(page, ADMIN);
    await page.waitForURL('**/dashboard');
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('has no serious or critical accessibility violation on the login page', async () => {
    const context = await h.newContext();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').waitFor();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    await context.close();
  });
});
