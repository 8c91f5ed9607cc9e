import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * An invoice paid by mobile money in a browser (issue 32 point 9), on a phone (360 × 740): the
 * test issues an invoice to a customer of its own through the API, then records the customer's
 * MTN MoMo payment on the new receipt screen: the transaction id is asked for (the server refuses
 * the receipt without it, nothing saved), the grid of the customer's open invoices allocates
 * oldest first, and the invoice is then paid. Named by the run, so the demo shop's figures stay.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const SHOP = 'demo-shop';

describe('getting paid on a phone', () => {
  it('records a MoMo receipt with its transaction id against an invoice, which is then paid', async () => {
    const page = await h.signedIn(ADMIN, { school: SHOP, width: 360, height: 740, path: '/business/sales/receipts/new' });
    const run = Date.now().toString().slice(-8);
    const customerName = `MoMo test customer ${run}`;
    const customer = await callApi(page, 'POST', '/api/companies', { name: customerName, role: 'customer' });
    expect(customer.status).toBe(200);
    const service = await callApi(page, 'POST', '/api/products', {
      code: `E2E-PAY-${run}`,
      name: `Delivery ${run}`,
      unit: 'trip',
      kind: 'service',
      track_stock: false,
      price: '25000',
    });
    expect(service.status).toBe(200);
    const draft = await callApi(page, 'POST', '/api/invoices', {
      request_id: crypto.randomUUID(),
      customer_id: (customer.data as { id: string }).id,
      lines: [{ product_id: (service.data as { id: string }).id, quantity: '1', unit_price: '25000' }],
    });
    expect(draft.status).toBe(200);
    const invoiceId = (draft.data as { invoice: { id: string } }).invoice.id;
    const issued = await callApi(page, 'POST', `/api/invoices/${invoiceId}/issue`, {});
    expect(issued.status).toBe(200);
    const number = (issued.data as { invoice: { number: string } }).invoice.number;
    // The choices were loaded before the customer existed: open the screen again.
    await page.reload();

    await pickOption(page, page.getByTestId('customer'), customerName);
    const open = page.getByTestId(`open-${number}`);
    await open.waitFor();
    await expect(open.textContent()).resolves.toContain('25,000');
    await pickOption(page, page.getByTestId('method'), 'MTN MoMo');
    await page.getByTestId('amount').fill('25,000');
    await page.getByTestId('auto-allocate').click();
    await expect(open.getByTestId('allocate-amount').inputValue()).resolves.toBe('25000');
    await expect(page.getByTestId('advance').textContent()).resolves.toBe('0');
    // Phones first, and the screen with its grid open is accessible.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    await expect(seriousViolations(page)).resolves.toEqual([]);

    // Mobile money without its transaction id: refused beside the field, nothing saved.
    await page.getByTestId('submit').click();
    await page.getByText('Enter the transaction reference', { exact: false }).waitFor();
    const before = (await callApi(page, 'GET', `/api/receipts?customer_id=${(customer.data as { id: string }).id}`)).data as {
      totalRecords: number;
    };
    expect(before.totalRecords).toBe(0);

    await page.getByTestId('reference').fill(`MP${run}.1432.B77`);
    await page.getByTestId('submit').click();
    await page.getByTestId('saved').waitFor();
    const receiptNumber = await page.getByTestId('saved-number').textContent();
    expect(receiptNumber).toMatch(/^RCT-\d{6}$/);

    const invoice = (await callApi(page, 'GET', `/api/invoices/${invoiceId}`)).data as { payment_status: string; balance: string };
    expect(invoice).toMatchObject({ payment_status: 'paid', balance: '0' });
    // Paid, the invoice leaves the customer's open invoices.
    await expect.poll(() => page.getByTestId(`open-${number}`).count()).toBe(0);

    // The receipts list shows it with its MoMo reference.
    await page.goto(`${h.url}/business/sales/receipts`);
    const row = page.getByTestId('receipt-row').filter({ hasText: receiptNumber ?? '' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(`MP${run}.1432.B77`);
    await row.click();
    await expect(page.getByTestId('receipt-detail').textContent()).resolves.toContain(number);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    await page.context().close();
  });
});
