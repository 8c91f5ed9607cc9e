import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { type Harness, pickOption, useHarness } from './harness.js';

/*
 * A head teacher who finds Mustard signs the school up alone (issue 29 point 2): the three steps,
 * the link read back from the run's real SMTP server, the new school's dashboard, and its first
 * class list uploaded. The issue asks for the time this takes: every action the person makes is
 * a counted step, and the test prints the steps and seconds from /register to the class list in.
 */

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-signup-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

/** A class list as a school keeps it: the pupil's whole name, sex, date of birth, class and stream. */
async function classList(): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('P1');
  sheet.addRow(['NAME OF PUPIL', 'SEX', 'D.O.B', 'CLASS', 'STREAM']);
  sheet.addRow(['OKELLO Brian', 'M', '14/03/2019', 'P1', 'East']);
  sheet.addRow(['NAKATO Sarah', 'F', '03/07/2019', 'P1', 'East']);
  sheet.addRow(['MUKASA John Paul', 'M', '21/11/2018', 'P1', 'East']);
  const file = path.join(files, 'p1-east.xlsx');
  await workbook.xlsx.writeFile(file);
  return file;
}

/** A 1×1 PNG: the logo the head teacher attaches on the school's step. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Counts what the person does (each field typed or chosen, each click) and the time since /register. */
function stopwatch() {
  const started = performance.now();
  const laps: Array<{ step: number; what: string; seconds: number }> = [];
  let steps = 0;
  return {
    async act<T>(what: string, action: () => Promise<T>): Promise<T> {
      const result = await action();
      steps += 1;
      laps.push({ step: steps, what, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) });
      return result;
    },
    get steps() {
      return steps;
    },
    seconds: () => (performance.now() - started) / 1000,
    laps,
  };
}

describe('a new school signs itself up', () => {
  it('registers in Chromium, follows the mailed link to its dashboard and uploads a class list', async () => {
    const email = `head-${Date.now().toString(36)}@greenhill.ac.ug`;
    const page: Page = await (await h.newContext()).newPage();
    const watch = stopwatch();
    const { act } = watch;

    await page.goto('/register');
    await act('name', () => page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Namukasa'));
    await act('e-mail', () => page.getByRole('textbox', { name: 'Email', exact: true }).fill(email));
    await act('telephone', () => page.getByRole('textbox', { name: 'Telephone', exact: true }).fill('+256 772 123456'));
    await act('password', () => page.getByRole('textbox', { name: 'Password', exact: true }).fill('Kampala#2026'));
    await act('Continue', () => page.getByRole('button', { name: 'Continue' }).click());

    await page.waitForURL('**/register/business');
    await act('school name', () => page.getByRole('textbox', { name: 'Business name' }).fill('Green Hill Primary'));
    await act('category School', () => pickOption(page, page.getByRole('combobox', { name: 'Category' }), 'School'));
    expect(await page.getByRole('radio', { name: 'Primary' }).isChecked()).toBe(true);
    // The school's logo (optional): a tiny PNG, re-encoded by the server and the new school's badge.
    await act('logo', () =>
      page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG }),
    );
    // The school's e-mail and telephone start as the person's; the country as Uganda.
    await act('Continue', () => page.getByRole('button', { name: 'Continue' }).click());

    await page.waitForURL('**/register/business/products');
    await page.getByTestId('school-defaults').getByText('As a Ugandan primary school', { exact: false }).waitFor();
    await act('Finish', () => page.getByRole('button', { name: 'Finish' }).click());
    await page.waitForURL('**/register/check-email');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByText(`We sent a link to ${email}.`, { exact: false }).waitFor();

    // The mail as the person's mail program gets it, from the run's SMTP server.
    const mail = await h.smtp.waitFor((message) => message.to === email, 15_000);
    expect(mail.subject).toBe('Confirm your e-mail address for Mustard');
    const link = /(https?:\/\/\S+\/register\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeDefined();
    // The link names the deployment's public address; this run's server listens on its own port.
    const { pathname, search } = new URL(link as string);
    await act('open the link', () => page.goto(`${pathname}${search}`));

    await page.waitForURL('**/dashboard');
    await page.getByTestId('school-widget').waitFor();
    await page.getByText('Green Hill Primary').first().waitFor();

    const sidebar = page.getByTestId('sidebar');
    await act('Students', () => sidebar.getByText('Students', { exact: true }).first().click());
    await act('Class list', () => sidebar.getByText('Class list', { exact: true }).first().click());
    await page.waitForURL('**/students/list');
    await act('Actions', () => page.getByRole('button', { name: 'Actions', exact: true }).click());
    await act('Upload students', () => page.getByRole('menuitem', { name: 'Upload students' }).click());
    const form = page.getByTestId('upload-form');
    const file = await classList();
    await act('choose the file', () => form.locator('input[type="file"]').setInputFiles(file));
    await act('Give new learners student ids', () => form.getByRole('checkbox', { name: 'Give new learners student ids' }).check());
    await act('Upload', () => form.getByRole('button', { name: 'Upload' }).click());
    await page.locator('.mantine-Notification-root', { hasText: 'Added 3 learners' }).waitFor();
    const seconds = watch.seconds();

    // The school exists with its defaults, the person is its administrator, the class list is in.
    const tenant = await h.database.db
      .selectFrom('tenants')
      .select(['id', 'category', 'schooltype', 'logo_path'])
      .where('name', '=', 'Green Hill Primary')
      .executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({ category: 'School', schooltype: 'primary', logo_path: expect.stringMatching(/^[a-f0-9]{32}\.jpg$/) });
    const { learners, subjects } = await withTenant(h.database.db, { tenantId: tenant.id }, async (trx) => ({
      learners: await trx.selectFrom('students').select(['lastname', 'form', 'stream']).orderBy('lastname').execute(),
      subjects: await trx.selectFrom('subjects').select('id').execute(),
    }));
    expect(learners).toEqual([
      { lastname: 'MUKASA', form: 'P1', stream: 'East' },
      { lastname: 'NAKATO', form: 'P1', stream: 'East' },
      { lastname: 'OKELLO', form: 'P1', stream: 'East' },
    ]);
    expect(subjects.length).toBeGreaterThan(0);

    console.log(
      `Sign-up measure (issue 29): ${watch.steps} steps, ${seconds.toFixed(1)} s from /register to the class list uploaded\n` +
        watch.laps.map((lap) => `  ${String(lap.step).padStart(2)}. ${lap.what.padEnd(32)} ${lap.seconds.toFixed(2)} s`).join('\n'),
    );
    // Five minutes is the promise; a person reads and types slower than a test, so the machine's part stays far below.
    expect(seconds).toBeLessThan(60);
    await page.context().close();
  });

  it('a link that is not one we sent says so and offers a new one', async () => {
    const page = await (await h.newContext()).newPage();
    await page.goto('/register/verify?token=not-one-we-sent');
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody@greenhill.ac.ug');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByRole('status').getByText('If this address is waiting for a link', { exact: false }).waitFor();
    await page.context().close();
  });
});
