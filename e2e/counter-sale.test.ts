import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * A sale at the counter in a browser (issue 32 point 9), on a phone (360 × 740): a barcode typed
 * with Enter as a keyboard-wedge scanner types it (twice: one line of 2), cash handed over and
 * the change shown, one button, then the 80 mm receipt: its text fetched and shown with the
 * sale's number and total, and its PDF opened for the printer. The test makes its own product
 * and stock through the API (named by the run), so the demo shop's figures stay as they are.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const SHOP = 'demo-shop';

describe('a counter sale on a phone', () => {
  it('scans a barcode, takes cash, gives the change and prints the 80 mm receipt', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, width: 360, height: 740, path: '/business/sales/counter' });
    const run = Date.now().toString().slice(-8);
    const code = `E2E-SALE-${run}`;
    const barcode = `60098${run}`;
    const made = await callApi(page, 'POST', '/api/products', {
      code,
      barcode,
      name: `Counter test pen ${run}`,
      unit: 'pcs',
      price: '1500',
    });
    expect(made.status).toBe(200);
    const product = made.data as { id: string };
    const defaults = (await callApi(page, 'GET', '/api/invoices/defaults')).data as { location: { id: string } };
    const supplier = await callApi(page, 'POST', '/api/companies', { name: `Counter test supplier ${run}`, role: 'supplier' });
    const bought = await callApi(page, 'POST', '/api/stockrecords', {
      request_id: crypto.randomUUID(),
      kind: 'purchase',
      occurred_on: new Date().toISOString().slice(0, 10),
      location_id: defaults.location.id,
      partner_id: (supplier.data as { id: string }).id,
      lines: [{ product_id: product.id, quantity: '5', unit_cost: '900' }],
    });
    expect(bought.status).toBe(200);

    const started = Date.now();
    const scan = page.getByTestId('scan');
    await scan.fill(barcode);
    await scan.press('Enter');
    const line = page.getByTestId(`line-${code}`);
    await line.waitFor();
    // The field is empty and focused for the next scan; the same barcode again adds 1 to the line.
    await expect(scan.inputValue()).resolves.toBe('');
    await scan.fill(barcode);
    await scan.press('Enter');
    await expect.poll(() => line.getByTestId('quantity').inputValue()).toBe('2');
    await expect(page.getByTestId('total').textContent()).resolves.toContain('3,000');
    await page.getByTestId('tendered').fill('5,000');
    await expect(page.getByTestId('change-due').inputValue()).resolves.toBe('2,000');

    const receiptText = page.waitForResponse((response) => response.url().includes('/print?format=80mm&output=text'));
    // Enter in the cash field completes the sale: no mouse needed at the till.
    await page.getByTestId('tendered').press('Enter');
    const sold = page.getByTestId('sold');
    await sold.waitFor();
    // A sale in well under 10 seconds of the cashier's time (the test types faster than a person).
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(page.getByTestId('change').textContent()).resolves.toContain('2,000');
    const sales = (await callApi(page, 'GET', `/api/invoices?search=${encodeURIComponent(`Walk-in`)}&kind=cash_sale&per_page=1`)).data as {
      invoices: Array<{ number: string; gross_total: string; payment_status: string }>;
    };
    const sale = sales.invoices[0];
    expect(sale).toMatchObject({ gross_total: '3000', payment_status: 'paid' });
    await expect(sold.textContent()).resolves.toContain(sale?.number);

    // The receipt's text came from the print route and is shown as the printer will print it.
    expect((await receiptText).status()).toBe(200);
    const shown = page.getByTestId('receipt-text');
    await shown.waitFor();
    const text = (await shown.textContent()) ?? '';
    expect(text).toContain(sale?.number);
    expect(text).toContain('3,000');
    expect(text).toContain('Cash');

    // The print button (focused after the sale) opens the receipt's PDF for the thermal printer.
    const pdf = page.waitForResponse((response) => response.url().includes('/print?format=80mm&output=pdf'));
    const popup = page.context().waitForEvent('page');
    await page.getByTestId('print-receipt').click();
    const answer = await pdf;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('application/pdf');
    // The same PDF read back from the page: a PDF, for the 80 mm roll.
    const magic = await page.evaluate(async (url) => {
      const token = localStorage.getItem('mustard.token');
      const tenant = JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}');
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, tenantcode: tenant.tenantcode } });
      return new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5));
    }, new URL(answer.url()).pathname + new URL(answer.url()).search);
    expect(magic).toBe('%PDF-');
    await (await popup).close();

    // Phones first: nothing wider than the screen; the shop's screens are checked here.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    await expect(seriousViolations(page)).resolves.toEqual([]);

    // The sale is on the invoices list as paid.
    await page.goto(`${h.url}/business/sales/invoices`);
    await page.getByLabel('Search', { exact: true }).fill(sale?.number ?? '');
    const row = page.getByTestId('invoice-row');
    await expect.poll(() => row.count()).toBe(1);
    await expect(row.first().textContent()).resolves.toContain('Paid');
    await page.context().close();
  });
});
