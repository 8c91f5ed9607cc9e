import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { checker, LAPTOP, PHONE, PUBLIC_PATHS, settled } from './axe.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * Issue 24 points 7 and 8: no serious or critical axe-core violation on a public page, on a
 * laptop (1366 px) and on a phone (360 px) (the signed-in pages: accessibility-laptop and
 * accessibility-phone); a skip link; on a phone the class sheets fold their filter after Next and
 * keep the learners' names in sight while the marks scroll; a select keeps the option chosen
 * again; Ctrl+Enter saves the marks grid.
 */

let h: Harness;
let serial = 0;

beforeAll(async () => {
  h = await useHarness();
});

describe('every public page passes axe (issue 24 point 8)', () => {
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
