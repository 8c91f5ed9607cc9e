import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { ADMIN, type Harness } from './harness.js';

/*
 * The accessibility check's tools (issue 24 point 8): every page loaded and checked with axe-core
 * for serious and critical violations. The signed-in pages at a laptop's and at a phone's width
 * are two test files, so the two widths run side by side on the browser tests' two workers (one
 * file of both took 213 s, the longest path of the whole suite).
 */

export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 360, height: 740 };

/**
 * The signed-in pages, from PAGES itself (apps/web/src/lib/pages.ts) as it is when the test
 * runs: a page added there is checked without a word here. Loaded by a path the compiler does
 * not follow, since the browser tests' project compiles none of the web app.
 */
export async function signedInPaths(): Promise<string[]> {
  const routes = '../apps/web/src/lib/pages.js';
  const { PAGES } = (await import(routes)) as { PAGES: Record<string, { path: string }> };
  return Object.values(PAGES).map((page) => page.path);
}

/** The public pages of the plain layout (apps/web/src/app/registry.tsx), /logout aside: it signs out. */
export const PUBLIC_PATHS = [
  '/login',
  '/auth/password/reset',
  '/join',
  '/register',
  '/signup',
  '/register/business',
  '/register/business/products',
  '/register/check-email',
  '/register/verify',
  '/coming-soon',
  '/maintenance',
  '/error-403-basic',
  '/error-404-basic',
  '/error-404-cover',
  '/error-500-basic',
  '/error-500-cover',
  '/no/such/page',
];

/** A loader, a page still arriving or a table still fetching: the page has not drawn yet. */
const LOADING = ['.mantine-Loader-root', '.mantine-datatable-loader-fetching', '[role="status"][aria-busy="true"]'].join(', ');

/** The requests a page has on their way, kept by `watchRequests`. */
const inFlight = new WeakMap<Page, Set<Request>>();

export function watchRequests(page: Page): void {
  const waiting = new Set<Request>();
  inFlight.set(page, waiting);
  page.on('request', (request) => waiting.add(request));
  page.on('requestfinished', (request) => waiting.delete(request));
  page.on('requestfailed', (request) => waiting.delete(request));
}

/**
 * Waits until the page has drawn: a heading is shown, nothing loads and no request of the
 * page's is on its way, at two looks in a row (a list asks once its filter is read).
 */
export async function settled(page: Page): Promise<void> {
  const waiting = inFlight.get(page) ?? new Set<Request>();
  const deadline = Date.now() + 20_000;
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() > deadline) {
      const urls = [...waiting].map((request) => request.url());
      throw new Error(`${page.url()} never finished drawing (requests on their way: ${urls.join(', ') || 'none'})`);
    }
    const drawn = await page.evaluate(
      (loading) => document.querySelector('h1, h2, h3') !== null && document.querySelector(loading) === null,
      LOADING,
    );
    quiet = drawn && waiting.size === 0 ? quiet + 1 : 0;
    await page.waitForTimeout(40);
  }
}

/** Opens a signed-in page as its menu does, without loading the app again. */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settled(page);
}

/**
 * Serious and critical violations on the page as it is now, one line each. The rule that a
 * control's name holds its visible words (WCAG 2.5.3) is asked for too: axe leaves it out by
 * default, and the school switcher broke it on every page.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // In the page itself (legacy mode: no blank page opened for each run), frames left out: the
  // report layout's preview is a sandboxed frame without scripts, which axe cannot enter.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({
      iframes: false,
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const targets = violation.nodes.slice(0, 4).map((node) => node.target.join(' '));
      const more = violation.nodes.length > 4 ? ` and ${violation.nodes.length - 4} more` : '';
      return `${violation.impact} ${violation.id} (${violation.help}): ${targets.join(' | ')}${more}`;
    });
}

/** A real record for each page that shows one (its route has an id), from the demo school or made for the test. */
async function recordIds(h: Harness): Promise<Record<string, string>> {
  const db = h.database.db;
  const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
  return withTenant(db, { tenantId: school.id }, async (trx) => {
    const learner = await trx.selectFrom('students').select('id').where('status', '=', 'active').limit(1).executeTakeFirstOrThrow();
    const grade = await trx.selectFrom('grades').select('id').limit(1).executeTakeFirstOrThrow();
    // A competency and a project of the test's own: the demo school keeps none.
    const subject = await trx.selectFrom('subjects').select('id').limit(1).executeTakeFirstOrThrow();
    const place = { tenant_id: school.id, subject_id: subject.id, form: 'P5', term: 'I' };
    const topic = { ...place, id: newId(), title: 'A11y competency', remarks: null };
    const project = { ...place, id: newId(), year: 2026, title: 'A11y project', max_score: 10 };
    await trx.insertInto('topics').values(topic).execute();
    await trx.insertInto('projects').values(project).execute();
    return {
      '/students/:id': learner.id,
      '/grades-detail/:id': grade.id,
      '/competency-detail/:id': topic.id,
      '/project-detail/:id': project.id,
    };
  });
}

/** Serious and critical violations found on `page` as it is now, added to `found` under `where`. */
export const checker = (page: Page, found: string[]) => async (where: string) => {
  const violations = await seriousViolations(page);
  if (violations.length > 0) found.push(`${where}:\n  ${violations.join('\n  ')}`);
};

/**
 * Every signed-in page at `size`, as the demo's administrator of the primary school, then two
 * states a page only shows after an action: a file chosen, and an error toast. Fails naming each
 * page view with a serious or critical violation.
 */
export async function checkSignedInPages(h: Harness, size: { width: number; height: number }): Promise<void> {
  const ids = await recordIds(h);
  const paths = (await signedInPaths()).map((path) => (path.includes('/:') ? path.replace(/:[a-z]+/i, ids[path] ?? '1') : path));
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
  watchRequests(page);
  await settled(page);
  const found: string[] = [];
  const check = checker(page, found);
  await page.setViewportSize(size);
  for (const path of paths) {
    await go(page, path);
    await check(`${path} at ${size.width} px`);
  }
  // A file chosen: its field shows the file's name and a button that clears it.
  await go(page, '/marks/create');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'marks.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('x') });
  await page.getByText('marks.xlsx').waitFor();
  await check(`/marks/create with a file chosen at ${size.width} px`);
  // An error toast (an address whose id is not one): its close button is named too.
  await go(page, '/competency-detail/1');
  await page.getByRole('alert').first().waitFor();
  await check(`an error toast at ${size.width} px`);
  expect(found.join('\n'), `${found.length} page views with serious or critical violations`).toBe('');
  await page.context().close();
}
