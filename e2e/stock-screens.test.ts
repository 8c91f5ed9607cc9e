import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The shop's stock screens in a browser (issue 31 point 5), on a phone (360 × 740): goods
 * received by a typed barcode and Enter (as a keyboard-wedge scanner types it), the new quantity
 * on the on-hand screen, its ledger row, and the product below its reorder level on the low
 * stock list. The test makes its own product, supplier and location through the API (named by
 * the run), so the demo shop's seeded numbers stay as they are for other files.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const SHOP = 'demo-shop';

describe('a shop’s stock on a phone', () => {
  it('receives goods by a typed barcode, shows them on hand, in the ledger and as low stock', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, width: 360, height: 740, path: '/inventory/stock/receive' });
    const run = Date.now().toString().slice(-8);
    const code = `E2E-STK-${run}`;
    const barcode = `60099${run}`;
    const made = await callApi(page, 'POST', '/api/products', {
      code,
      barcode,
      name: `Stock test soap ${run}`,
      unit: 'pcs',
      price: '2000',
      reorder_level: '10',
    });
    expect(made.status).toBe(200);
    const supplier = await callApi(page, 'POST', '/api/companies', { name: `Stock test supplier ${run}`, role: 'supplier' });
    expect(supplier.status).toBe(200);
    const place = await callApi(page, 'POST', '/api/locations', { name: `Stock test store ${run}` });
    expect(place.status).toBe(200);
    // The choices were loaded before these existed: open the screen again.
    await page.reload();

    await pickOption(page, page.getByTestId('supplier'), `Stock test supplier ${run}`);
    await pickOption(page, page.getByTestId('location'), `Stock test store ${run}`);
    await page.getByLabel("Supplier's invoice no.").fill(`INV-${run}`);
    const scan = page.getByTestId('scan');
    await scan.fill(barcode);
    await scan.press('Enter');
    const line = page.getByTestId(`line-${code}`);
    await line.waitFor();
    // The field is empty and focused for the next scan; the same barcode again adds 1 to the line.
    await expect(scan.inputValue()).resolves.toBe('');
    await expect(scan.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    await scan.fill(barcode);
    await scan.press('Enter');
    await expect.poll(() => line.getByTestId('quantity').inputValue()).toBe('2');
    await line.getByTestId('quantity').fill('4');
    await line.getByTestId('unit-cost').fill('1,250.5');
    await expect(line.getByTestId('line-total').textContent()).resolves.toContain('5,002');
    await expect(page.getByTestId('grand-total').textContent()).resolves.toContain('5,002');
    // The shop's screens are not in the every-page check (it signs in to a school): checked here, a line open.
    await expect(seriousViolations(page)).resolves.toEqual([]);
    // Phones first: nothing wider than the screen.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    // The shop's currency (UGX) has no decimals: the server's refusal shows beside the line, nothing saved.
    await page.getByTestId('submit').click();
    await line.getByText('This amount has more decimals than the currency allows').waitFor();
    await line.getByTestId('unit-cost').fill('1,250');
    await expect(page.getByTestId('grand-total').textContent()).resolves.toContain('5,000');
    await page.getByTestId('submit').click();
    await page.getByTestId('saved').waitFor();

    await page.goto(`${h.url}/inventory/stock/onhand`);
    await page.getByLabel('Search', { exact: true }).fill(code);
    await expect.poll(() => page.getByTestId(`onhand-${code}`).getByTestId('on-hand').textContent({ timeout: 10_000 })).toBe('4');

    const listed = await callApi(page, 'GET', `/api/products?search=${code}`);
    const product = (listed.data as { products: Array<{ id: string }> }).products[0]?.id;
    await page.goto(`${h.url}/inventory/stock/ledger?product=${product}`);
    const row = page.getByTestId('ledger-row');
    await row.first().waitFor();
    await expect(row.count()).resolves.toBe(1);
    const text = await row.first().textContent();
    expect(text).toContain('Purchase');
    expect(text).toContain('+4');
    expect(text).toContain(`INV-${run}`);
    expect(text).toContain(`Stock test supplier ${run}`);

    // 4 on hand against a reorder level of 10: low, 6 short.
    await page.goto(`${h.url}/inventory/stock/low`);
    await page.getByLabel('Search', { exact: true }).fill(code);
    await expect.poll(() => page.getByTestId(`onhand-${code}`).getByTestId('shortfall').textContent({ timeout: 10_000 })).toBe('6');

    // The dashboard: the figures the server gives, the low-stock count a link to the list.
    await page.goto(`${h.url}/dashboard`);
    const widget = page.getByTestId('stock-widget');
    await widget.getByTestId('low-stock-count').waitFor();
    const home = (await callApi(page, 'GET', '/api/home/business')).data as { low_stock: number; movements_today: number };
    expect(home.low_stock).toBeGreaterThanOrEqual(1);
    await expect(widget.getByTestId('low-stock-count').textContent()).resolves.toBe(home.low_stock.toLocaleString('en-US'));
    await expect(widget.getByTestId('movements-today').textContent()).resolves.toBe(home.movements_today.toLocaleString('en-US'));

    // The stock setting, for those who manage the business's settings: switched on and back off.
    await page.goto(`${h.url}/inventory/stock/valuation`);
    const allow = page.getByRole('switch', { name: 'Allow negative stock' });
    await expect(allow.isChecked()).resolves.toBe(false);
    await allow.click({ force: true });
    await expect.poll(async () => (await callApi(page, 'GET', '/api/business/settings')).data).toEqual({ allow_negative_stock: true });
    await allow.click({ force: true });
    await expect.poll(async () => (await callApi(page, 'GET', '/api/business/settings')).data).toEqual({ allow_negative_stock: false });
    await page.context().close();
  });
});
