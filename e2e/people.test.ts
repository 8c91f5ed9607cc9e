import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Harness, pickOption, TEACHER, useHarness } from './harness.js';

/*
 * The school's people behind the Admin Console link (issue 13 point 5): a head teacher adds a
 * member (an invitation whose code is shown once), the person joins, their roles change, and
 * they are removed, all in the browser. A teacher has no such link and no such page.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('the school’s people', () => {
  it('the Admin Console link opens the members; a member is invited, joins, gets roles and is removed', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Admin Console' }).click();
    await page.waitForURL('**/users');
    const screen = page.getByTestId('screen-users');
    const demoTeacher = screen.locator('tbody tr').filter({ hasText: TEACHER });
    await demoTeacher.getByText('teacher', { exact: true }).waitFor();

    // Adding a member invites them: the code is shown this once, with its join link.
    await screen.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add a member' }).click();
    const form = page.getByRole('dialog').getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name' }).fill('Harriet Nalwoga');
    await form.getByRole('textbox', { name: 'Email' }).fill('harriet.nalwoga@example.ug');
    await pickOption(page, form.getByRole('combobox', { name: 'Roles' }), 'teacher');
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Save' }).click();
    const notice = page.getByTestId('invitation-code');
    await notice.waitFor();
    const code = ((await notice.locator('[data-code]').textContent()) ?? '').trim();
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await expect(notice.locator('[data-link]').textContent()).resolves.toBe(`${h.url}/join?code=${code}`);
    await page.getByRole('dialog', { name: 'Invitation created' }).getByRole('button', { name: 'Close' }).click();

    // Not a member until they join: the invitation waits below the list.
    const pending = page.getByTestId('pending-invitations');
    await pending.locator('[data-invitation="harriet.nalwoga@example.ug"]').waitFor();
    await expect(screen.locator('tbody tr').filter({ hasText: 'harriet.nalwoga@example.ug' }).count()).resolves.toBe(0);

    // She joins with the code and a password of her own (the join page's call).
    const joined = await page.request.post('/auth/join', { data: { code, password: 'Nalwoga#2026' } });
    expect(joined.status()).toBe(200);
    await page.reload();
    const row = screen.locator('tbody tr').filter({ hasText: 'harriet.nalwoga@example.ug' });
    await row.waitFor();
    await expect(pending.count()).resolves.toBe(0);

    // Change roles: the edit form holds the roles alone, and says Update.
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog').getByTestId('resource-form');
    await edit.getByRole('button', { name: 'Update' }).waitFor();
    await expect(edit.getByRole('textbox', { name: 'Email' }).count()).resolves.toBe(0);
    await pickOption(page, edit.getByRole('combobox', { name: 'Roles' }), 'bursar');
    await page.keyboard.press('Escape');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('bursar', { exact: true }).waitFor();
    await row.getByText('teacher', { exact: true }).waitFor();

    // Removed: gone from the list.
    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('a pending invitation is withdrawn from the list', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/users' });
    const screen = page.getByTestId('screen-users');
    await screen.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add a member' }).click();
    const form = page.getByRole('dialog').getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name' }).fill('Ivan Ssekitoleko');
    await form.getByRole('textbox', { name: 'Email' }).fill('ivan.ssekitoleko@example.ug');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('invitation-code').waitFor();
    await page.getByRole('dialog', { name: 'Invitation created' }).getByRole('button', { name: 'Close' }).click();
    const invitation = page.getByTestId('pending-invitations').locator('[data-invitation="ivan.ssekitoleko@example.ug"]');
    await invitation.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await invitation.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('a teacher has no Admin Console link, and /users is refused', async () => {
    const page = await h.signedIn(TEACHER);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Admin Console' }).count()).resolves.toBe(0);
    await page.goto('/users');
    await page.waitForURL('**/error-403-basic');
    await page.context().close();
  });
});
