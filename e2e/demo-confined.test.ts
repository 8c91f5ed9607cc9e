import { beforeAll, describe, it } from 'vitest';
import { ADMIN, type Harness, useHarness } from './harness.js';

/**
 * The demo is confined (issue 24 point 5): its administrator, whose password is published, is
 * told on the businesses screen why a school of their own cannot be made with the demo account.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('the demo administrator', () => {
  it('is refused a new school on the businesses screen, with the reason and the way to a school of one’s own', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/businesses' });
    await page.locator('tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'Name' }).fill('My Own Primary');
    await form.getByRole('textbox', { name: 'Tenant code' }).fill('myown');
    await form.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(
        'The demo accounts cannot create schools or businesses: sign up, or start Mustard with SEED_DEMO=false, to create your own',
      )
      .first()
      .waitFor();
    await page.context().close();
  });
});
