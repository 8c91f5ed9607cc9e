import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../apps/server/src/test/factories.js';
import { type Harness, useHarness } from './harness.js';

/**
 * A forgotten password in the browser (issue 29 point 3): the reset page asks for the address,
 * the e-mail's link (read from the outbox the message was written to) opens the page that sets
 * the new password, and a link used twice says so and offers to ask again.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

/** The path and query of the newest reset link mailed to the address, once it is in the outbox. */
async function mailedLink(email: string): Promise<string> {
  let body = '';
  await expect
    .poll(async () => {
      const mail = await h.database.db
        .selectFrom('mail_outbox')
        .select('body_text')
        .where('recipient', '=', email)
        .where('template', '=', 'passwordReset')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      body = mail?.body_text ?? '';
      return body;
    })
    .toContain('/auth/password/reset?token=');
  const link = new URL(/https?:\/\/\S+\/auth\/password\/reset\?token=[A-Za-z0-9_-]+/.exec(body)?.[0] as string);
  return `${link.pathname}${link.search}`;
}

describe('the password reset pages', () => {
  it('asks for the address, and the link sets a new password that signs in', async () => {
    const person = await makeUser(h.database, { name: 'Apio Sarah', email: `apio.${Date.now()}@school.test` });
    const page = await (await h.newContext()).newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
    await page.getByRole('button', { name: 'Send Request' }).click();
    await expect
      .poll(() => page.getByTestId('reset-requested').textContent())
      .toBe('If an account uses this address, we have sent it a link to choose a new password.');

    const link = await mailedLink(person.email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const newPassword = page.getByLabel(/^New password/);
    const repeat = page.getByLabel(/^Repeat the new password/);
    await newPassword.fill('short');
    await repeat.fill('other');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Too short').waitFor();
    await page.getByText('The two passwords differ').waitFor();
    await newPassword.fill('Brand-New-Pass-5!');
    await repeat.fill('Brand-New-Pass-5!');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => page.getByTestId('reset-done').textContent()).toBe('Your password has been changed. Sign in with it.');
    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: person.email, password: 'Brand-New-Pass-5!' } },
    });
    expect(signIn.statusCode).toBe(200);

    // The same link again: the page says it no longer works and offers to ask again.
    await page.goto(link);
    await newPassword.fill('Another-Pass-6!');
    await repeat.fill('Another-Pass-6!');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByTestId('reset-link-invalid').waitFor();
    expect(await page.getByTestId('reset-link-invalid').textContent()).toBe(
      'This link is not valid: it has expired, was already used or a newer one was sent. Ask for a new link.',
    );
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.getByRole('button', { name: 'Send Request' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.context().close();
  });
});
