import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { ADMIN, type Harness, useHarness } from './harness.js';

/**
 * A new school's dashboard explains what to set up first (issue 24 point 6): subjects, mark types,
 * grade sets, learners and teachers, each a link to its page and ticked when done; the checklist
 * goes once everything is done (the demo school), and a teacher, who sets nothing up, never sees it.
 */
let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

describe('the setup checklist', () => {
  it('lists what a new school lacks with links, ticks a step once done, and is gone when all are', async () => {
    const school = await makeTenant(h.database, { name: 'Kisubi Checklist Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password });
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor();
    await checklist.getByText('0 of 5 done').waitFor();
    const steps = checklist.locator('[data-step]');
    expect(
      await steps.evaluateAll((items) => items.map((item) => [item.getAttribute('data-step'), item.getAttribute('data-done')])),
    ).toEqual([
      ['subjects', 'false'],
      ['mark_types', 'false'],
      ['grade_sets', 'false'],
      ['learners', 'false'],
      ['teachers', 'false'],
    ]);

    // The school adds a subject: the step is ticked on the next visit.
    const subject = newId();
    await withTenant(h.database.db, { tenantId: school.id }, (trx) =>
      trx.insertInto('subjects').values({ tenant_id: school.id, id: subject, name: 'Mathematics', category: 'mathematics' }).execute(),
    );
    await page.reload();
    await checklist.getByText('1 of 5 done').waitFor();
    expect(await checklist.locator('[data-step="subjects"]').getAttribute('data-done')).toBe('true');

    // Each step is a link to where it is done.
    await checklist.getByRole('link', { name: 'Mark types' }).click();
    await page.waitForURL('**/marks/categories');
    await page.context().close();
  });

  it('the checklist’s Learners step leads to an empty class list offering Add and Upload students under it', async () => {
    const school = await makeTenant(h.database, { name: 'Kisubi Empty List Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password });
    await page
      .getByTestId('setup-checklist')
      .getByRole('link', { name: /Learners/ })
      .click();
    const offered = page.getByTestId('empty-list-actions');
    await offered.waitFor();
    // Add and the upload, not the list's other actions (promoting an empty class means nothing).
    expect(await offered.getByRole('button').allInnerTexts()).toEqual(['Add student', 'Upload students']);
    await offered.getByRole('button', { name: 'Upload students' }).click();
    await page.getByRole('dialog', { name: 'Upload students' }).waitFor();
    await page.context().close();
  });

  it('is not shown to the demo school, which has everything, nor to a teacher', async () => {
    const admin = await h.signedIn(ADMIN, { school: 'demo-primary' });
    await admin.getByTestId('school-widget').waitFor();
    await admin.getByTestId('students-chart').waitFor();
    expect(await admin.getByTestId('setup-checklist').count()).toBe(0);
    await admin.context().close();

    const school = await makeTenant(h.database, { name: 'Teachers Checklist Primary' });
    const teacher = await makeUser(h.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const page = await h.signedIn(teacher.email, { password: teacher.password });
    await page.getByTestId('school-widget').waitFor();
    expect(await page.getByTestId('setup-checklist').count()).toBe(0);
    await page.context().close();
  });
});
