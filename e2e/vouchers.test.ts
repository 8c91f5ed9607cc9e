import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/*
 * A payment voucher in a browser at 360 px (issue 32 point 4): the demo shop's cashier prepares
 * it (a line on the rent account), the administrator approves it (numbered PV-...) and pays it,
 * and the trial balance shows the books still balanced, nothing wider than the phone.
 */
let h: Harness;
const PHONE = { width: 360, height: 740 };
const CASHIER = 'cashier@mustard.demo';

beforeAll(async () => {
  h = await useHarness();
});

const fitsPhone = (page: Awaited<ReturnType<Harness['signedIn']>>) =>
  expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);

describe('a payment voucher from draft to paid', () => {
  it('is prepared by the cashier, approved and paid by the administrator, and kept in balanced books', async () => {
    const cashier = await h.signedIn(CASHIER, { school: 'demo-shop', path: '/business/vouchers/new', ...PHONE });
    const payee = `Kampala Security ${Date.now()}`;
    await cashier.getByTestId('payee-name').fill(payee);
    await cashier.getByTestId('line-account').click();
    await cashier.getByRole('option', { name: /Rent$/ }).click();
    await cashier.getByTestId('line-description').fill('Night guard, one week');
    await cashier.getByTestId('line-amount').fill('70,000');
    await expect(cashier.getByTestId('voucher-total').textContent()).resolves.toContain('70,000');
    await fitsPhone(cashier);
    await cashier.getByTestId('save-voucher').click();
    await cashier.getByTestId('voucher-status').filter({ hasText: 'Draft' }).waitFor();
    const url = new URL(cashier.url()).pathname;
    expect(url).toMatch(/^\/business\/vouchers\/[0-9a-f-]{36}$/);
    // The cashier prepares, not approves.
    await expect(cashier.getByTestId('approve').count()).resolves.toBe(0);
    await cashier.context().close();

    const admin = await h.signedIn(ADMIN, { school: 'demo-shop', path: url, ...PHONE });
    await admin.getByTestId('approve').click();
    await admin.getByTestId('voucher-status').filter({ hasText: 'Approved' }).waitFor();
    await expect(admin.getByTestId('voucher-number').textContent()).resolves.toMatch(/^PV-\d{6}$/);
    await admin.getByTestId('payment-reference').fill('CASH-0001');
    await admin.getByTestId('pay').click();
    await admin.getByTestId('voucher-status').filter({ hasText: 'Paid' }).waitFor();
    await expect(admin.getByTestId('net-paid').textContent()).resolves.toBe('70,000');
    await fitsPhone(admin);

    await admin.goto('/business/vouchers');
    await admin.getByTestId('voucher-card').filter({ hasText: payee }).waitFor();
    await admin.goto('/business/accounts/trial-balance');
    await admin.getByTestId('trial-balance-row').filter({ hasText: 'Rent' }).waitFor();
    const debit = await admin.getByTestId('total-debit').textContent();
    expect(debit).toBe(await admin.getByTestId('total-credit').textContent());
    await fitsPhone(admin);
    await admin.goto('/business/accounts/journal');
    await admin.getByTestId('journal-entry').filter({ hasText: payee }).waitFor();
    await fitsPhone(admin);
    await admin.context().close();
  });
});
