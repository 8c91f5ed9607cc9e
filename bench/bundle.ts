/**
 * The JavaScript a browser downloads on a cold load of /login and of /dashboard, gzipped
 * (what a teacher's slow connection pays), measured in Chromium against the real server.
 * Targets (issue 3): /login <= 150 KB, /dashboard <= 250 KB.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { ADMIN, signIn, startHarness } from '../e2e/harness.js';

const TARGETS_KB = { '/login': 150, '/dashboard': 250 } as const;

async function scriptBytes(page: Page, load: () => Promise<void>): Promise<number> {
  const bodies: Array<Promise<Buffer>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  });
  await load();
  const all = await Promise.all(bodies);
  return all.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
}

export async function measureBundles(): Promise<Array<{ path: string; kb: number; target: number }>> {
  const h = await startHarness();
  try {
    const results: Array<{ path: string; kb: number; target: number }> = [];
    const loginContext = await h.newContext();
    const loginPage = await loginContext.newPage();
    const login = await scriptBytes(loginPage, async () => {
      await loginPage.goto('/login', { waitUntil: 'networkidle' });
    });
    results.push({ path: '/login', kb: login / 1024, target: TARGETS_KB['/login'] });
    // A signed-in teacher opening the dashboard with an empty cache: sign in, then load it cold.
    await signIn(loginPage, ADMIN);
    await loginPage.waitForURL('**/dashboard');
    const storage = await loginContext.storageState();
    const coldContext = await h.browser.newContext({ baseURL: h.url, storageState: storage });
    const dashboardPage = await coldContext.newPage();
    const dashboard = await scriptBytes(dashboardPage, async () => {
      await dashboardPage.goto('/dashboard', { waitUntil: 'networkidle' });
      await dashboardPage.getByTestId('students-chart').waitFor();
    });
    results.push({ path: '/dashboard', kb: dashboard / 1024, target: TARGETS_KB['/dashboard'] });
    return results;
  } finally {
    await h.close();
  }
}
