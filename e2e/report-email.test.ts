import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { ADMIN, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The report cards by e-mail (issue 29 point 5) as a head teacher sends them: the demo's P7 East
 * (most of its learners have a guardian's address on the demo's own domain; without SMTP_URL the
 * messages wait in the outbox) with Email ticked: the cards drawn are followed, then the summary
 * counts the cards sent and names the learners without an address; the same Next again sends
 * nothing twice. And the guardian's address changed on the learner's page.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const filterOf = (page: Page) => page.getByRole('form', { name: 'Terminal report filter' });

describe('Terminal Reports by e-mail', () => {
  it('follows the cards drawn, then sums up what was sent and who has no guardian’s address; again, nothing is sent twice', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/terminalreport' });
    await page.getByRole('heading', { name: 'Terminal Report' }).waitFor();
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Class' }), 'P7');
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'East');
    await filterOf(page).getByRole('checkbox', { name: 'Preview' }).uncheck();
    await filterOf(page).getByRole('checkbox', { name: 'Email', exact: true }).check();

    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    // The cards are followed while they are drawn (no download: they go by e-mail).
    await page.getByTestId('report-progress').waitFor();
    const summary = page.getByTestId('email-summary');
    await summary.waitFor();
    await page.locator('.mantine-Notification-root', { hasText: 'The cards are on their way to the guardians' }).first().waitFor();
    const text = await summary.innerText();
    const sent = Number(/Sent now: (\d+)/.exec(text)?.[1]);
    const without = Number(/No guardian's email on the learner's record: (\d+)/.exec(text)?.[1]);
    expect(sent).toBeGreaterThan(5);
    expect(without).toBeGreaterThan(0);
    // Each learner without an address is named with their student id, so the school can add it.
    await expect(summary.getByRole('listitem').count()).resolves.toBe(without);
    await expect(summary.getByRole('listitem').first().innerText()).resolves.toMatch(/\(MPS\/\d{4}\)$/);
    await expect(page.getByTestId('report-progress').count()).resolves.toBe(0);

    // The same request again: every card unchanged, none sent twice.
    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    await summary.getByText(`Sent before, unchanged (not sent again): ${sent}`).waitFor();
    await summary.getByText('Sent now: 0').waitFor();
  });

  it('offers Email on the new-curriculum card too', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/ncterminalreport' });
    await page
      .getByRole('form', { name: 'New curriculum terminal report filter' })
      .getByRole('checkbox', { name: 'Email', exact: true })
      .waitFor();
  });

  it('the guardian’s email is changed on the learner’s page, checked as the form checks it', async () => {
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const id = newId();
    await withTenant(db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({ tenant_id: school.id, id, studentid: 'MPS/MAIL/1', firstname: 'Ruth', lastname: 'Nabirye', form: 'P5', status: 'active' })
        .execute(),
    );
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: `/students/${id}` });
    const facts = page.getByTestId('student-facts');
    await facts.getByText("Guardian's email").waitFor();
    await facts.getByRole('button', { name: 'Edit' }).click();
    const address = facts.getByRole('textbox', { name: "Guardian's email" });
    await address.fill('ruth.guardian@example.org, thief@example.org');
    await facts.getByRole('button', { name: 'Save' }).click();
    await facts.getByText('Invalid email').waitFor();
    await address.fill('ruth.guardian@example.org');
    await facts.getByRole('button', { name: 'Save' }).click();
    await facts.getByText('ruth.guardian@example.org').waitFor();
    const stored = await withTenant(db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('students').select('guardian_email').where('id', '=', id).executeTakeFirstOrThrow(),
    );
    expect(stored.guardian_email).toBe('ruth.guardian@example.org');
  });
});
