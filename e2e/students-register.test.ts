import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { type Harness, pickOption, useHarness } from './harness.js';

/*
 * A school's own register on the Upload students screen (issue 24 point 2): the columns the
 * upload does not know are mapped in one step, the mapping is remembered so the next register
 * of that shape imports at once, and every problem of a bad file is listed ("Show N more").
 */

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-register-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

/** A register with two title rows, a blank row and the header in row 4; no class column. */
async function registerFile(name: string, learners: ReadonlyArray<ReadonlyArray<unknown>>): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('P3');
  sheet.addRow(['KISUBI REGISTER PRIMARY SCHOOL']);
  sheet.addRow(['CLASS LIST P.3 2026']);
  sheet.addRow([]);
  sheet.addRow(['S/N', 'NAME OF PUPIL', 'SEX', 'D.O.B', 'HOUSE COLOUR', 'RELIGION']);
  for (const learner of learners) sheet.addRow([...learner]);
  const file = path.join(files, name);
  await workbook.xlsx.writeFile(file);
  return file;
}

async function openUpload(page: Page) {
  await page.goto('/students/list');
  await page.getByRole('button', { name: 'Actions', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Upload students' }).click();
  return page.getByTestId('upload-form');
}

describe('uploading a school’s own register', () => {
  it('maps the unknown columns once, then imports the next register of that shape in one step', async () => {
    const school = await makeTenant(h.database, { name: 'Kisubi Register Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password });
    const learners = () =>
      withTenant(h.database.db, { tenantId: school.id }, (trx) =>
        trx.selectFrom('students').select(['lastname', 'firstname', 'form', 'stream', 'house']).orderBy('studentid').execute(),
      );

    let form = await openUpload(page);
    await form.locator('input[type="file"]').setInputFiles(
      await registerFile('first.xlsx', [
        [1, 'OKELLO Brian Peter', 'M', '14/03/2017', 'Red', 'Catholic'],
        [2, 'Sarah NAKATO', 'F', '3/7/17', 'Blue', 'Anglican'],
      ]),
    );
    await form.getByRole('checkbox', { name: 'Give new learners student ids' }).check();
    await form.getByRole('button', { name: 'Upload' }).click();

    // The mapping step: the header found in row 4, the two columns nobody knows marked.
    const mapping = page.getByTestId('upload-mapping');
    await mapping.getByText('The column headings are in row 4, with 2 rows of learners below them.', { exact: false }).waitFor();
    await expect.poll(() => mapping.getByText('Not recognised').count()).toBe(2);
    expect(await mapping.getByRole('combobox', { name: 'Field of the column NAME OF PUPIL' }).inputValue()).toBe(
      'Whole name (SURNAME First Other)',
    );
    await pickOption(page, mapping.getByRole('combobox', { name: 'Field of the column HOUSE COLOUR' }), 'House');
    await pickOption(page, mapping.getByRole('combobox', { name: 'Class for every learner' }), 'P3');
    await mapping.getByRole('textbox', { name: 'Stream for every learner' }).fill('Hill');
    await mapping.getByRole('button', { name: 'Import' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Added 2 learners, changed 0. Columns left out: S/N, RELIGION' }).waitFor();
    await mapping.waitFor({ state: 'detached' });
    expect(await learners()).toEqual([
      { lastname: 'OKELLO', firstname: 'Brian', form: 'P3', stream: 'Hill', house: 'Red' },
      { lastname: 'NAKATO', firstname: 'Sarah', form: 'P3', stream: 'Hill', house: 'Blue' },
    ]);

    // Next week's register of the same shape: the class chosen on the form, no mapping step.
    form = await openUpload(page);
    await form
      .locator('input[type="file"]')
      .setInputFiles(await registerFile('second.xlsx', [[1, 'MUKASA John', 'M', '2/2/17', 'Green', null]]));
    await form.getByRole('checkbox', { name: 'Give new learners student ids' }).check();
    await pickOption(page, form.getByRole('combobox', { name: 'Class for every learner' }), 'P3');
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Added 1 learners, changed 0.' }).waitFor();
    await form.waitFor({ state: 'detached' });
    expect(await page.getByTestId('upload-mapping').count()).toBe(0);
    expect((await learners()).at(-1)).toEqual({ lastname: 'MUKASA', firstname: 'John', form: 'P3', stream: null, house: 'Green' });

    // The learner's page shows what the register gave: the date of birth as it was written.
    await page.goto('/students/list');
    await page.getByTestId('screen-students').locator('tbody tr', { hasText: 'OKELLO' }).getByRole('link').click();
    await page.waitForURL('**/students/*');
    const facts = page.getByTestId('student-facts');
    await facts.getByText('Date of birth').waitFor();
    await facts.getByText('14/03/2017').waitFor();
    await page.context().close();
  });

  it('lists every problem of a bad register: the first 50, then the rest on request', async () => {
    const school = await makeTenant(h.database, { name: 'Kisubi Problems Primary' });
    const head = await makeUser(h.database, { name: 'Head', memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const page = await h.signedIn(head.email, { password: head.password });
    const form = await openUpload(page);
    const bad = Array.from({ length: 60 }, (_, n) => [n + 1, `PUPIL${n} Name`, 'F', `${n + 1}/13/2017`, 'Red', null]);
    await form.locator('input[type="file"]').setInputFiles(await registerFile('bad.xlsx', bad));
    await form.getByRole('checkbox', { name: 'Give new learners student ids' }).check();
    await pickOption(page, form.getByRole('combobox', { name: 'Class for every learner' }), 'P3');
    await form.getByRole('button', { name: 'Upload' }).click();
    const mapping = page.getByTestId('upload-mapping');
    await mapping.getByRole('button', { name: 'Import' }).click();
    const problems = mapping.getByTestId('upload-problems');
    await problems.getByText('Row 5, Date of birth: Not a date (write it as dd/mm/yyyy): D5 “1/13/2017”').waitFor();
    expect(await problems.getByRole('listitem').count()).toBe(50);
    await problems.getByRole('button', { name: 'Show 10 more' }).click();
    await expect.poll(() => problems.getByRole('listitem').count()).toBe(60);
    await problems.getByText('Row 64, Date of birth: Not a date (write it as dd/mm/yyyy): D64 “60/13/2017”').waitFor();
    const saved = await withTenant(h.database.db, { tenantId: school.id }, (trx) => trx.selectFrom('students').select('id').execute());
    expect(saved).toEqual([]);
    await page.context().close();
  });
});
