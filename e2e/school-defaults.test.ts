import { currentTerm, defaultTermDates, localDay, TERMS, type Term } from '@mustard/shared';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { callApi, type Harness, useHarness } from './harness.js';

/**
 * A new school starts with the Ugandan defaults from the businesses screen, the choice following
 * its school type (issue 24 point 1); then "Copy from Term II" copies a term's grade sets and
 * proportions to another in one action and says what it copied.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const today = currentTerm(localDay(), defaultTermDates(Number(localDay().slice(0, 4))));
const before = (term: Term, year: number) => {
  const index = TERMS.indexOf(term);
  return index === 0 ? { term: 'III' as Term, year: year - 1 } : { term: TERMS[index - 1] as Term, year };
};

async function counts(tenantId: string, year: number) {
  return withTenant(h.database.db, { tenantId }, async (trx) => {
    const row = await sql<{ subjects: number; sets: number; proportions: number }>`
      SELECT (SELECT count(*)::int FROM subjects) AS subjects,
        (SELECT count(DISTINCT (subject_id, form, term))::int FROM grades WHERE year = ${year}) AS sets,
        (SELECT count(*)::int FROM proportions WHERE year = ${year}) AS proportions
    `.execute(trx);
    return row.rows[0];
  });
}

describe('a new school with the Ugandan defaults', () => {
  it('is created from the businesses screen with the defaults of its type, then copies a term in one action', async () => {
    const own = await makeTenant(h.database, { name: 'Founder Office' });
    const founder = await makeUser(h.database, { name: 'Founder', memberOf: [{ tenantId: own.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(founder.email, { password: founder.password, path: '/businesses' });
    await page.getByTestId('screen-tenants').locator('tbody tr[data-row]').first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add' }).click();
    const form = page.getByTestId('resource-form');
    const defaults = form.getByRole('combobox', { name: 'Start with the Ugandan defaults' });
    // A new school: the defaults of its type, and they follow the type until the person chooses.
    await expect(defaults.inputValue()).resolves.toBe('Primary');
    await form.getByRole('combobox', { name: 'School type' }).click();
    await page.getByRole('option', { name: 'Secondary' }).click();
    await page.waitForFunction(() => (document.querySelector('[data-field="defaults"]') as HTMLInputElement | null)?.value === 'Secondary');
    await form.getByRole('combobox', { name: 'School type' }).click();
    await page.getByRole('option', { name: 'Primary' }).click();
    await page.waitForFunction(() => (document.querySelector('[data-field="defaults"]') as HTMLInputElement | null)?.value === 'Primary');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Kasangati Primary');
    await form.getByRole('textbox', { name: 'Tenant code' }).fill('kasangati');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    // "Successfully created" opens below the top bar: the school switcher stays in reach meanwhile.
    const toast = page.locator('.mantine-Notification-root', { hasText: 'Successfully created' });
    await toast.waitFor();
    const [toastBox, headerBox] = await Promise.all([toast.boundingBox(), page.locator('.mustard-header').boundingBox()]);
    expect(toastBox?.y).toBeGreaterThanOrEqual((headerBox?.y ?? 0) + (headerBox?.height ?? Number.POSITIVE_INFINITY));
    await page.locator('tbody tr[data-row="Kasangati Primary"]').waitFor();
    const tenant = await h.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', 'kasangati').executeTakeFirstOrThrow();
    // Six subjects, a grade set for each subject of each of the ten classes in each term, three proportions each.
    expect(await counts(tenant.id, today.year)).toEqual({ subjects: 6, sets: 6 * 10 * 3, proportions: 6 * 10 * 3 * 3 });

    // In the new school, a new year's Term I gets the last term's sets and proportions in one action.
    await page.getByTestId('school-switcher').click();
    // Switching reloads the page: go on once it has, or the next navigation races the reload.
    const reloaded = page.waitForEvent('load');
    await page.locator('[data-tenant="kasangati"]').click();
    await reloaded;
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').tenantcode === 'kasangati');
    await page.goto('/proportions');
    await page.getByTestId('screen-proportions').waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Copy grade sets and proportions from another term' }).click();
    const dialog = page.getByTestId('copy-term');
    const source = before(today.term, today.year);
    const copy = dialog.getByRole('button', { name: `Copy from Term ${source.term}` });
    await copy.waitFor();
    await dialog.getByRole('textbox', { name: 'To year' }).fill(String(today.year + 1));
    await dialog.getByRole('combobox', { name: 'To term' }).click();
    await page.getByRole('option', { name: 'Term I', exact: true }).click();
    await copy.click();
    await page.getByText('Copied 60 grade sets, 0 already there; copied 180 proportions, 0 already there').waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await counts(tenant.id, today.year + 1)).toEqual({ subjects: 6, sets: 60, proportions: 180 });
    await page.context().close();
  });

  it('saves one grade set for every class at once from the grade set page', async () => {
    const school = await makeTenant(h.database, { name: 'Apply Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password, path: '/subjects/list' });
    const subject = await callApi(page, 'POST', '/api/school/subjects', { name: 'Mathematics', category: 'mathematics' });
    expect(subject.status).toBe(200);
    await page.goto('/grades/new');
    const set = page.getByTestId('grade-set');
    await set.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await set.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Mathematics' }).click();
    await set.getByRole('textbox', { name: 'Year' }).fill(String(today.year + 2));
    await set.getByRole('combobox', { name: 'Save for' }).click();
    await page.getByRole('option', { name: 'All classes (this subject)' }).click();
    await set.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the grade set for 10 classes, 0 already had one').waitFor();
    await page.waitForURL('**/grades');
    const rows = await withTenant(h.database.db, { tenantId: school.id }, (trx) =>
      sql<{ forms: number; bands: number }>`
        SELECT count(DISTINCT form)::int AS forms, count(*)::int AS bands FROM grades WHERE year = ${today.year + 2}
      `.execute(trx),
    );
    expect(rows.rows[0]).toEqual({ forms: 10, bands: 90 });
    await page.context().close();
  });

  it('applies one proportion to every class at once from the proportions screen', async () => {
    const school = await makeTenant(h.database, { name: 'Share Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password, path: '/proportions' });
    expect((await callApi(page, 'POST', '/api/school/subjects', { name: 'English', category: 'english' })).status).toBe(200);
    expect((await callApi(page, 'POST', '/api/school/marktypes', { label: 'EOT', category: 'exam' })).status).toBe(200);
    await page.reload();
    await page.getByTestId('screen-proportions').waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Apply a proportion to all classes or subjects' }).click();
    const dialog = page.getByTestId('apply-proportion');
    await dialog.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P7', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'EOT' }).click();
    await dialog.getByRole('textbox', { name: 'Percentage' }).fill('60');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Saved the proportion for 10 classes, 0 already had one').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const rows = await withTenant(h.database.db, { tenantId: school.id }, (trx) =>
      sql<{ forms: number; shares: number[] }>`
        SELECT count(DISTINCT form)::int AS forms, array_agg(DISTINCT percentage::float8) AS shares FROM proportions
      `.execute(trx),
    );
    expect(rows.rows[0]).toEqual({ forms: 10, shares: [60] });
    await page.context().close();
  });
});
