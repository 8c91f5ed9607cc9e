import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('requests over a dropping connection', () => {
  it('a call that gets no answer ends in a "Network error" toast, and the page offers to try again', async () => {
    const page = await h.signedIn(ADMIN);
    // The connection drops for the dashboard's figures only.
    await page.route('**/api/home/mustard', (route) => route.abort('internetdisconnected'));
    await page.reload();
    const toast = page.locator('.mantine-Notification-root', { hasText: 'Network error' });
    await toast.waitFor({ timeout: 20_000 });
    await page.getByTestId('home-error').getByText('Network error').waitFor();
    // The connection comes back: Try again shows the figures.
    await page.unroute('**/api/home/mustard');
    await page.getByTestId('home-error').getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('students-chart').waitFor();
    await page.context().close();
  });

  it('a server error ends in a toast with the catalogue’s text', async () => {
    const page = await h.signedIn(ADMIN);
    // The school the browser names is no longer one of the user's: the server refuses (403).
    await page.evaluate(() => {
      const tenant = JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}');
      localStorage.setItem('mustard.tenant', JSON.stringify({ ...tenant, tenantcode: 'no-such-school' }));
    });
    await page.reload();
    await page
      .locator('.mantine-Notification-root', { hasText: 'You are not permitted to access this content' })
      .waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  it('a session ended elsewhere (signed out, password changed) sends the user to sign in', async () => {
    const page = await h.signedIn(ADMIN, { ownSession: true });
    // The session is revoked on the server while the browser still holds its token.
    await page.evaluate(async () => {
      const token = localStorage.getItem('mustard.token');
      await fetch('/auth/logout', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    });
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('mustard.token'))).toBeNull();
    await page.context().close();
  });

  it('a page whose code cannot be downloaded says "Network error" and reloads on Try again', async () => {
    const page = await h.signedIn(ADMIN);
    // A fresh browser with the same session and an empty cache.
    const cold = await h.browser.newContext({ baseURL: h.url, storageState: await page.context().storageState() });
    const other = await cold.newPage();
    await other.route('**/assets/HomePage-*.js', (route) => route.abort('internetdisconnected'));
    await other.goto('/dashboard');
    await other.getByRole('heading', { name: 'Network error' }).waitFor();
    await other.unroute('**/assets/HomePage-*.js');
    await other.getByRole('button', { name: 'Try again' }).click();
    await other.getByTestId('students-chart').waitFor();
    await cold.close();
    await page.context().close();
  });
});

describe('the home dashboard chart', () => {
  it('shows "# of students" per class, in the reverse order of the server’s answer', async () => {
    const page = await h.signedIn(ADMIN);
    const answer = await page.evaluate(async () => {
      const token = localStorage.getItem('mustard.token');
      const tenant = JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}');
      const response = await fetch('/api/home/mustard', { headers: { authorization: `Bearer ${token}`, tenantcode: tenant.tenantcode } });
      return (await response.json()) as { students: Record<string, number> };
    });
    const expected = Object.entries(answer.students)
      .reverse()
      .map(([label, count]) => `${label} ${count}`)
      .join(', ');
    const chart = page.getByTestId('students-chart');
    await expect(chart.getByRole('img').getAttribute('aria-label')).resolves.toBe(`# of students: ${expected}`);
    const box = await chart.locator('svg').boundingBox();
    expect(box?.height).toBe(440);
    await page.context().close();
  });
});
