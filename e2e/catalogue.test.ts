import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * A shop's catalogue and partners through their list screens (issue 31 points 1-3), on the demo
 * shop: money typed as text with thousands commas comes back exact and shown the same way. What
 * the test adds it deletes again, so the demo shop's lists are as seeded for the other files.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const SHOP = 'demo-shop';

/** Deletes a record the test made, as the web app does (its token and tenant, no body). */
async function remove(page: Page, path: string): Promise<number> {
  return page.evaluate(async (path) => {
    const tenant = JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}');
    const headers = { authorization: `Bearer ${localStorage.getItem('mustard.token')}`, tenantcode: tenant.tenantcode };
    return (await fetch(path, { method: 'DELETE', headers })).status;
  }, path);
}

describe('a shop’s catalogue', () => {
  it('adds a product priced "12,500" through the form, finds it by its barcode and lists the price as typed', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, path: '/inventory/products' });
    const screen = page.getByTestId('screen-products');
    await screen.waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Code', exact: true }).fill('E2E-PEN-01');
    await form.getByRole('textbox', { name: 'Barcode', exact: true }).fill('6009990001234');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Fountain pen (browser test)');
    // A service keeps no stock: its switch goes while the kind is Service, and comes back with Goods.
    const trackStock = form.getByRole('switch', { name: 'Track stock' });
    await trackStock.waitFor();
    await form.getByRole('combobox', { name: 'Kind', exact: true }).click();
    await page.getByRole('option', { name: 'Service' }).click();
    await trackStock.waitFor({ state: 'detached' });
    await form.getByRole('combobox', { name: 'Kind', exact: true }).click();
    await page.getByRole('option', { name: 'Goods' }).click();
    await trackStock.waitFor();
    await form.getByRole('textbox', { name: 'Selling price', exact: true }).fill('12,500');
    // The shop's own screens are not in the every-page check (it signs in to a school): checked here, form open.
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByLabel('Search', { exact: true }).fill('6009990001234');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    const row = screen.locator('tbody tr[data-row="E2E-PEN-01"]');
    await row.getByRole('cell', { name: '12,500', exact: true }).waitFor();
    // Editing shows the price as the list does, and saving it unchanged keeps it.
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(form.getByRole('textbox', { name: 'Selling price', exact: true }).inputValue()).resolves.toBe('12,500');
    await form.getByRole('button', { name: 'Update' }).click();
    await form.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: '12,500', exact: true }).waitFor();

    // Stored exact, not as a float of a formatted number.
    const listed = await callApi(page, 'GET', '/api/products?search=E2E-PEN-01');
    const [product] = (listed.data as { products: Array<{ id: string; price: string; track_stock: boolean }> }).products;
    expect(product).toMatchObject({ price: '12500', track_stock: true });
    await expect(remove(page, `/api/products/${product?.id}`)).resolves.toBe(200);
    await page.context().close();
  });

  it('adds a supplier with its TIN, refusing a TIN that is not 10 digits', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, path: '/business/partners' });
    const screen = page.getByTestId('screen-companies');
    await screen.waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Kampala Paper Supplies (browser test)');
    await form.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Supplier', exact: true }).click();
    const tin = form.getByRole('textbox', { name: 'TIN', exact: true });
    await tin.fill('12345');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Enter the TIN of 10 digits').waitFor();
    await tin.fill('1000987654');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByLabel('Search', { exact: true }).fill('1000987654');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = screen.locator('tbody tr[data-row="Kampala Paper Supplies (browser test)"]');
    await row.getByRole('cell', { name: 'Supplier', exact: true }).waitFor();
    await row.getByRole('cell', { name: '1000987654', exact: true }).waitFor();

    const listed = await callApi(page, 'GET', '/api/companies?search=1000987654');
    const [partner] = (listed.data as { companies: Array<{ id: string }> }).companies;
    await expect(remove(page, `/api/companies/${partner?.id}`)).resolves.toBe(200);
    await page.context().close();
  });

  it('shows the shop its Ugandan reference data: kinds in words, amounts with thousands commas, banks filtered by kind', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, path: '/business/taxes' });
    await page
      .getByTestId('screen-taxes')
      .locator('tbody tr[data-row="VAT"]')
      .getByRole('cell', { name: 'Standard', exact: true })
      .waitFor();
    await page.goto('/business/whduties');
    await page.getByTestId('screen-whduties').locator('tbody tr[data-row="WHT6"]').getByRole('cell', { name: '1,000,000' }).waitFor();
    await page.goto('/business/currencies');
    await page.getByTestId('screen-currencies').locator('tbody tr[data-row="UGX"]').waitFor();
    await page.goto('/business/banks');
    const banks = page.getByTestId('screen-banks');
    await banks.locator('tbody tr[data-row="Stanbic Bank Uganda"]').waitFor();
    await banks.getByRole('combobox', { name: 'Kind', exact: true }).click();
    await page.getByRole('option', { name: 'Mobile money' }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–2 of 2').waitFor();
    await expect(
      banks.locator('tbody tr[data-row]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row'))),
    ).resolves.toEqual(['Airtel Money', 'MTN Mobile Money']);
    await page.goto('/inventory/productgroups');
    await page.getByTestId('screen-productgroups').waitFor();
    await page.context().close();
  });

  it('tells a school that opens a business’s page that it is a business’s', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/inventory/products' });
    await page.getByTestId('businesses-only').getByRole('heading', { name: 'This screen is for businesses' }).waitFor();
    await expect(page.getByTestId('screen-products').count()).resolves.toBe(0);
    await page.context().close();
  });
});
