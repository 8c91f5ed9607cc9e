import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * Issue 24 points 7 and 8: no serious or critical axe-core violation on any page, on a laptop
 * (1366 px) and on a phone (360 px); a skip link; on a phone the class sheets fold their filter
 * after Next and keep the learners' names in sight while the marks scroll; a select keeps the
 * option chosen again; Ctrl+Enter saves the marks grid.
 */

let h: Harness;
let serial = 0;

beforeAll(async () => {
  h = await useHarness();
});

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };

/**
 * The signed-in pages, from PAGES itself (apps/web/src/lib/pages.ts) as it is when the test
 * runs: a page added there is checked without a word here. Loaded by a path the compiler does
 * not follow, since the browser tests' project compiles none of the web app.
 */
async function signedInPaths(): Promise<string[]> {
  const routes = '../apps/web/src/lib/pages.js';
  const { PAGES } = (await import(routes)) as { PAGES: Record<string, { path: string }> };
  return Object.values(PAGES).map((page) => page.path);
}

/** The public pages of the plain layout (apps/web/src/app/registry.tsx), /logout aside: it signs out. */
const PUBLIC_PATHS = [
  '/login',
  '/auth/password/reset',
  '/join',
  '/register',
  '/signup',
  '/register/business',
  '/register/business/products',
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

function watchRequests(page: Page): void {
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
async function settled(page: Page): Promise<void> {
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
async function go(page: Page, path: string): Promise<void> {
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
async function seriousViolations(page: Page): Promise<string[]> {
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
async function recordIds(): Promise<Record<string, string>> {
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

describe('every page passes axe (issue 24 point 8)', () => {
  /** The records the pages with an id show, made once for both sizes. */
  let records: Promise<Record<string, string>> | undefined;
  /** Serious and critical violations found, one entry per page view. */
  const checker = (page: Page, found: string[]) => async (where: string) => {
    const violations = await seriousViolations(page);
    if (violations.length > 0) found.push(`${where}:\n  ${violations.join('\n  ')}`);
  };

  // One size a test: every signed-in page at a laptop's width, then at a phone's (each well within its time on a busy machine).
  for (const size of [LAPTOP, PHONE]) {
    it(`has no serious or critical violation on any signed-in page at ${size.width} px`, { timeout: 300_000 }, async () => {
      records ??= recordIds();
      const ids = await records;
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
    });
  }

  it('has no serious or critical violation on any public page, at 1366 and at 360 px', { timeout: 120_000 }, async () => {
    // Signed out: the public pages, each loaded as a visitor opens it.
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    await settled(page);
    await page.evaluate(() => localStorage.clear());
    const found: string[] = [];
    const check = checker(page, found);
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const path of PUBLIC_PATHS) {
        await page.goto(path);
        await settled(page);
        await check(`${path} at ${size.width} px`);
      }
    }
    expect(found.join('\n'), `${found.length} page views with serious or critical violations`).toBe('');
    await page.context().close();
  });
});

// ---------------------------------------------------------------------------------------------
// The marks grid on a phone and a laptop: a class of the demo with subjects of the test's own.

const unique = (what: string) => `${what} ${Date.now() % 100000}-${++serial}`;

async function created(page: Page, path: string, body: Record<string, unknown>): Promise<string> {
  const answer = await callApi(page, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.data)).toBe(200);
  return (answer.data as { id: string }).id;
}

/** The demo admin on Create marks at `size`, with a subject and `types` mark types of the test's own. */
async function marksPage(size: { width: number; height: number }, types = 1) {
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard', ...size });
  const subject = unique('A11y Science');
  await created(page, '/api/school/subjects', { name: subject, category: 'general' });
  const labels: string[] = [];
  for (let index = 0; index < types; index++) {
    const label = unique(`A11y T${index}`);
    await created(page, '/api/school/marktypes', { label, category: 'test', outof: 100 });
    labels.push(label);
  }
  await page.goto('/marks/create');
  const filter = page.getByRole('form', { name: 'Marks filter' });
  return { page, filter, subject, labels };
}

async function openGrid(page: Page, filter: Locator, subject: string, labels: string[]): Promise<void> {
  await filter.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: 'P5', exact: true }).click();
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
  await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), subject);
  for (const label of labels) await filter.getByRole('checkbox', { name: label }).check();
  await filter.getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('marks-grid').waitFor();
}

describe('forms (issue 24 point 7)', () => {
  it('keeps the option a select shows when it is chosen again', async () => {
    const { page, filter } = await marksPage(LAPTOP);
    const classes = filter.getByRole('combobox', { name: 'Class' });
    await classes.click();
    await page.getByRole('option', { name: 'P5', exact: true }).click();
    await expect(classes.inputValue()).resolves.toBe('P5');
    await classes.click();
    await page.getByRole('option', { name: 'P5', exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await expect(classes.inputValue()).resolves.toBe('P5');
    await page.context().close();
  });

  it('saves the marks grid with Ctrl+Enter, as the comment sheets do', async () => {
    const { page, filter, subject, labels } = await marksPage(LAPTOP);
    await openGrid(page, filter, subject, labels);
    const cell = page.locator('[data-cell="0:0"]');
    await cell.fill('71');
    await page.getByTestId('unsaved-count').getByText('1 unsaved').waitFor();
    await cell.press('Control+Enter');
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    // Saved, not moved: the focus stays on the cell typed in.
    await expect(cell.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.context().close();
  });
});

describe('phones and the keyboard (issue 24 point 8)', () => {
  it('offers "Skip to the main content" at the first Tab, which moves the focus past the menu', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/students/list', ...PHONE });
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to the main content' });
    await expect(skip.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    // Shown while it has the focus, inside the screen.
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.x >= 0).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content');
    // The next Tab lands in the page itself, not in the top bar or the menu.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => Boolean(document.activeElement?.closest('#main-content')))).resolves.toBe(true);
    await page.context().close();
  });

  it('folds the filter after Next at 360 px and keeps the learners’ names in sight while the marks scroll', async () => {
    const { page, filter, subject, labels } = await marksPage(PHONE, 4);
    await openGrid(page, filter, subject, labels);
    // The filter folds away: the grid is at the top, and a button opens the filter again.
    await filter.waitFor({ state: 'hidden' });
    const unfold = page.getByRole('button', { name: 'Show the filter' });
    const grid = page.getByRole('grid');
    const gridTop = (await grid.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    expect(gridTop).toBeLessThan(PHONE.height);

    // The marks scroll across to their end; the names stay in sight at the left of the grid.
    const name = grid.getByRole('rowheader').first();
    const mark = page.locator('[data-cell="0:0"]');
    const markBefore = (await mark.boundingBox())?.x ?? 0;
    const view = await grid.evaluate((table) => {
      const scrolls = (element: HTMLElement) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
      let box: HTMLElement | null = table.parentElement;
      while (box && !(scrolls(box) && box.scrollWidth > box.clientWidth)) box = box.parentElement;
      if (!box || box === document.documentElement || box === document.body) return null;
      box.scrollLeft = box.scrollWidth;
      const { x, width } = box.getBoundingClientRect();
      return { x, width, id: (table.querySelector('tbody td') as HTMLElement).getBoundingClientRect().width };
    });
    expect(view, 'the marks do not scroll across at 360 px').not.toBeNull();
    if (!view) return;
    await page.waitForFunction((x) => (document.querySelector('[data-cell="0:0"]')?.getBoundingClientRect().x ?? x) < x - 20, markBefore);
    // Scrolled further than the student ID column is wide: a name that scrolled with the marks would be cut off.
    expect(markBefore - ((await mark.boundingBox())?.x ?? 0)).toBeGreaterThan(view.id);
    const shown = await name.boundingBox();
    expect(shown?.x).toBeGreaterThanOrEqual(view.x - 1);
    expect((shown?.x ?? 0) + (shown?.width ?? 0)).toBeLessThanOrEqual(view.x + view.width + 1);
    // The page itself is no wider than the phone.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);

    await unfold.click();
    await filter.waitFor();
    await expect(unfold.count()).resolves.toBe(0);
    await page.context().close();
  });

  it('folds the attendance and subject comment filters after Next at 360 px as well', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/attendance/create', ...PHONE });
    for (const [name, subject] of [
      ['Class filter', null],
      ['Subject comments filter', 'English'],
    ] as const) {
      const filter = page.getByRole('form', { name });
      await filter.getByRole('combobox', { name: 'Class' }).click();
      await page.getByRole('option', { name: 'P5', exact: true }).click();
      await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
      if (subject) await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), subject);
      await filter.getByRole('button', { name: 'Next' }).click();
      await page.getByTestId('loaded-sheet').waitFor();
      await filter.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Show the filter' }).click();
      await filter.waitFor();
      if (!subject) await page.goto('/comments/subject');
    }
    await page.context().close();
  });

  it('does not fold the filter on a laptop', async () => {
    const { page, filter, subject, labels } = await marksPage(LAPTOP);
    await openGrid(page, filter, subject, labels);
    await expect(filter.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Show the filter' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('a school’s menu (issue 24 point 7)', () => {
  it('has no Stock locations or Businesses; the administrator opens the businesses from the account menu', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', ...LAPTOP });
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('link', { name: 'Subject papers' }).waitFor();
    await expect(sidebar.getByText('Stock locations').count()).resolves.toBe(0);
    await expect(sidebar.getByText('Businesses').count()).resolves.toBe(0);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Businesses' }).click();
    await page.waitForURL('**/businesses');
    await page.context().close();
  });
});

/** Terminal Reports in the demo's primary school, P7 East previewed, at `size`: the preview's frame. */
async function previewP7East(size: { width: number; height: number }) {
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/terminalreport', ...size });
  const filter = page.getByRole('form', { name: 'Terminal report filter' });
  await pickOption(page, filter.getByRole('combobox', { name: 'Class' }), 'P7');
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
  await filter.getByRole('button', { name: 'Next' }).click();
  const frame = page.frameLocator('iframe[title="Report preview"]');
  const card = frame.locator('section.card').first();
  await card.waitFor();
  return { page, frame, card };
}

describe('the card preview (issue 24 points 7 and 8)', () => {
  it('opens one explanation at a time: opening another closes the first', async () => {
    const { page, card } = await previewP7East(LAPTOP);
    const division = card.locator('details[data-explain="division"]');
    const aggregate = card.locator('details[data-explain="aggregate"]');
    await division.locator('summary').click();
    await division.locator('.because').waitFor();
    await aggregate.locator('summary').click();
    await aggregate.locator('.because').waitFor();
    await expect(division.evaluate((details) => (details as HTMLDetailsElement).open)).resolves.toBe(false);
    await expect(division.locator('.because').isVisible()).resolves.toBe(false);
    await page.context().close();
  });

  it('fits a phone’s width: the whole card is in sight, scaled down, and the page does not scroll sideways', async () => {
    const { page, frame } = await previewP7East(PHONE);
    // The frame is drawn inside the phone's width, and the card inside the frame needs no sideways scrolling.
    // (Fitted once the frame's box is measured: a frame later.)
    const fitted = () => frame.locator('html').evaluate((html) => html.scrollWidth <= html.clientWidth);
    await expect.poll(fitted, { timeout: 5_000 }).toBe(true);
    const shown = await page.locator('iframe[title="Report preview"]').evaluate((element) => element.getBoundingClientRect());
    expect(shown.x).toBeGreaterThanOrEqual(0);
    expect(shown.x + shown.width).toBeLessThanOrEqual(PHONE.width);
    const inside = await frame.locator('html').evaluate((html) => ({ needed: html.scrollWidth, given: html.clientWidth }));
    expect(inside.needed, 'the card is cut off at the frame’s edge').toBeLessThanOrEqual(inside.given);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.context().close();
  });
});
