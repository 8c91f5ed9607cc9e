import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../apps/server/src/mail/outbox.js';
import { makeUser } from '../apps/server/src/test/factories.js';
import { TEST_PASSWORD } from '../apps/server/src/test/test-app.js';
import { type Harness, useHarness } from './harness.js';

/**
 * The mail outbox screen (issue 29 point 1) for a platform administrator: reached from the account
 * menu, it lists the messages with where each stands, shows a message's text with its links to
 * copy, and filters by status. (The API test refuses everyone else.)
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('the mail outbox screen', () => {
  it('shows a platform administrator each message, its text and links, and one status at a time', async () => {
    const stamp = Date.now();
    const school = await h.database.db
      .selectFrom('tenants')
      .select('id')
      .where('tenantcode', '=', 'demo-primary')
      .executeTakeFirstOrThrow();
    const admin = await makeUser(h.database, {
      name: 'Platform Admin',
      email: `platform.${stamp}@mustard.test`,
      isAdmin: true,
      memberOf: [{ tenantId: school.id, roles: ['teacher'] }],
    });
    const sentTo = `head.${stamp}@school.test`;
    const failedTo = `nobody.${stamp}@school.test`;
    const link = `${h.url}/register/verify?token=outbox-${stamp}`;
    await h.database.db.transaction().execute(async (trx) => {
      await enqueueMail(trx, { to: sentTo, template: 'verifyEmail', locale: 'en', values: { name: 'Okello', link } });
      await enqueueMail(trx, {
        to: failedTo,
        template: 'passwordReset',
        locale: 'en',
        values: { name: 'Nobody', link: `${h.url}/auth/password/reset?token=x${stamp}` },
      });
      // As the sender leaves a message the mail server refused for good.
      await trx
        .updateTable('mail_outbox')
        .set({ status: 'failed', attempts: 1, last_error: 'EENVELOPE 550: mailbox unavailable' })
        .where('recipient', '=', failedTo)
        .execute();
    });
    // The harness's server sends when it has an SMTP server; either way the screen says where the message stands.
    const sends = h.app.mail.sends;
    h.app.mail.wake();
    const statusOf = async () =>
      (await h.database.db.selectFrom('mail_outbox').select('status').where('recipient', '=', sentTo).executeTakeFirstOrThrow()).status;
    await expect.poll(statusOf).toBe(sends ? 'sent' : 'pending');

    const page = await h.signedIn(admin.email, { password: TEST_PASSWORD, school: 'demo-primary' });
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Mail outbox' }).click();
    await page.getByRole('heading', { name: 'Mail outbox' }).waitFor();
    await expect.poll(() => page.getByTestId('mail-outbox-mode').textContent()).toContain('SMTP_URL');

    const sent = page.locator(`tr[data-message-to="${sentTo}"]`);
    await expect.poll(() => sent.locator('td').nth(2).textContent()).toBe(sends ? 'Sent' : 'Waiting');
    await expect.poll(() => sent.locator('td').nth(1).textContent()).toBe('Confirm your e-mail address for Mustard');
    await sent.getByRole('button', { name: 'Show' }).click();
    const text = page.getByTestId('mail-outbox-text');
    await expect.poll(() => text.textContent()).toContain('Hello Okello,');
    await text.getByText(link, { exact: true }).waitFor();
    await text.getByRole('button', { name: 'Copy link' }).waitFor();

    await page.getByText('Failed', { exact: true }).first().click();
    const failed = page.locator(`tr[data-message-to="${failedTo}"]`);
    await failed.waitFor();
    await expect.poll(() => failed.locator('td').nth(5).textContent()).toBe('EENVELOPE 550: mailbox unavailable');
    await expect.poll(() => page.locator(`tr[data-message-to="${sentTo}"]`).count()).toBe(0);
  });
});
