import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/*
 * EFRIS in a browser at 360 px (issue 32 point 7): the demo shop's administrator sets up its
 * device on the local simulator (the key made for it, kept sealed and never shown), then reads
 * the fiscal outbox and the products with URA; nothing is wider than the phone.
 */
let h: Harness;
const PHONE = { width: 360, height: 740 };

beforeAll(async () => {
  h = await useHarness();
});

describe('the EFRIS page', () => {
  it('saves the device on the simulator, then shows the outbox and the products with URA, at 360 px', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-shop', path: '/business/efris', ...PHONE });
    await page.getByRole('tab', { name: 'Device' }).click();
    await page.getByLabel('Device number').fill('TCS-E2E-01');
    await page.getByLabel('TIN', { exact: true }).fill('1000000055');
    await page.getByTestId('efris-save').click();
    await expect.poll(() => page.getByText('A key is kept, sealed').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByText('SIMULATED - NOT A VALID TAX INVOICE', { exact: false }).count()).toBeGreaterThan(0);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
    // The device talks to the simulator: its time (T101) and payment modes (T115).
    await page.getByRole('button', { name: 'Check the connection with URA' }).click();
    await expect.poll(() => page.getByText(/^URA's time: \d{2}\/\d{2}\/\d{4}/).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByText(/^Payment modes: .*102/).count()).toBe(1);

    await page.getByRole('tab', { name: 'Fiscal outbox' }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Failed' }).count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('tab', { name: 'Products with URA' }).click();
    await expect.poll(() => page.getByText('Not registered').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.close();
  });
});
