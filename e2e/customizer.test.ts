import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await useHarness();
  page = await h.signedIn(ADMIN);
});

const rootData = (name: string) => page.evaluate((key) => document.documentElement.dataset[key], name);

/** Opens the customizer, clicks a choice by its label as a person would, and closes it. */
async function choose(option: string, label: string) {
  await page.getByTestId('customizer-open').click();
  await page.getByTestId(`customizer-${option}`).getByText(label, { exact: true }).click();
  await page.keyboard.press('Escape');
}

async function reload() {
  await page.reload();
  await page.getByTestId('school-widget').waitFor();
}

describe('the Theme Customizer', () => {
  it.each([
    ['layoutMode', 'Dark', () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')), 'dark'],
    ['layoutWidth', 'Boxed', () => rootData('layoutWidth'), 'boxed'],
    ['layoutPosition', 'Scrollable', () => rootData('layoutPosition'), 'scrollable'],
    ['topbarTheme', 'Dark', () => rootData('topbar'), 'dark'],
    ['sidebarSize', 'Small icon view', () => page.getByTestId('sidebar').getAttribute('data-size'), 'sm'],
    ['sidebarTheme', 'Brand', () => rootData('sidebar'), 'brand'],
  ])('applies %s "%s" at once and keeps it across a reload', async (option, label, read, expected) => {
    await choose(option, label);
    await expect(read()).resolves.toBe(expected);
    await reload();
    await expect(read()).resolves.toBe(expected);
  });

  it('shows each entry’s own icon in the small icon view, never letters, its name on hover', async () => {
    await page.evaluate(() => localStorage.removeItem('mustard.layout'));
    await reload();
    await choose('sidebarSize', 'Small icon view');
    const entries = page.getByTestId('sidebar').locator('a[data-nav]');
    await entries.first().waitFor();
    const shown = await entries.evaluateAll((links) =>
      links.map((link) => ({
        text: (link.textContent ?? '').trim(),
        icon: link.querySelector('svg')?.getAttribute('class') ?? '',
        name: link.getAttribute('aria-label'),
      })),
    );
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.filter((entry) => entry.text !== '')).toEqual([]);
    expect(new Set(shown.map((entry) => entry.icon)).size).toBe(shown.length);
    expect(shown.every((entry) => entry.name)).toBe(true);
    await entries.filter({ has: page.locator('[class*="tabler-icon-report-analytics"]') }).hover();
    await page.getByRole('tooltip', { name: 'Cummulative Report' }).waitFor();
    await page.evaluate(() => localStorage.removeItem('mustard.layout'));
    await reload();
  });

  it('switches to the horizontal layout, keeps it across a reload, and hides the sidebar options there', async () => {
    await page.evaluate(() => localStorage.removeItem('mustard.layout'));
    await reload();
    await choose('layoutType', 'Horizontal');
    await page.getByTestId('horizontal-nav').waitFor();
    await reload();
    await page.getByTestId('horizontal-nav').waitFor();
    await expect(page.getByTestId('sidebar').count()).resolves.toBe(0);
    await page.getByTestId('customizer-open').click();
    // The panel is open once its topbar option is drawn; only then is the missing sidebar option telling.
    await page.getByTestId('customizer-topbarTheme').waitFor();
    await expect(page.getByTestId('customizer-sidebarSize').count()).resolves.toBe(0);
    await page.getByTestId('customizer-layoutType').getByText('Vertical', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('sidebar').waitFor();
  });
});
