import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { currentTerm, defaultTermDates } from '@mustard/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { ADMIN, type Harness, useHarness } from './harness.js';

let h: Harness;
let files: string;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-files-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

/** A school's active learners: those the class list shows unless asked for another status. */
async function activeLearners(tenantcode: string): Promise<number> {
  const db = h.database.db;
  const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirstOrThrow();
  const { count } = await withTenant(db, { tenantId: school.id }, (trx) =>
    trx
      .selectFrom('students')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow(),
  );
  return Number(count);
}

const rows = (page: Page) => page.getByTestId('screen-students').locator('tbody tr[data-row]');

async function chooseClass(page: Page, form: string) {
  await page.getByTestId('screen-students').locator('search').getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: form, exact: true }).click();
}

describe('the class list', () => {
  it('filters a class and stream, 50 a page', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/students/list' });
    await rows(page).first().waitFor();
    await chooseClass(page, 'P4');
    await page.getByRole('textbox', { name: 'Stream' }).fill('East');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–40 of 40').waitFor();
    const classes = await rows(page).evaluateAll((all) => all.map((row) => row.querySelectorAll('td')[2]?.textContent));
    expect(new Set(classes)).toEqual(new Set(['P4 East']));
    await page.context().close();
  });

  it('labels the name filter as a person’s name in Russian (ФИО), not a thing’s (Название)', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    await page.evaluate(() => localStorage.setItem('mustard.language', 'rs'));
    await page.goto('/students/list');
    const bar = page.getByTestId('screen-students').locator('search');
    await bar.getByRole('textbox', { name: 'ФИО', exact: true }).waitFor();
    await expect(bar.getByRole('textbox', { name: 'Название' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('shows the whole school 50 a page, from one request of up to 1,000', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/school/students?')) asked.push(request.url());
    });
    // The demo's 560 learners, and those other tests have added since.
    const learners = (await activeLearners('demo-primary')).toLocaleString('en-US');
    await page.goto('/students/list');
    await rows(page).first().waitFor();
    await expect(rows(page).count()).resolves.toBe(50);
    await page.getByText(`1–50 of ${learners}`).waitFor();
    await page.getByRole('button', { name: '2', exact: true }).click();
    await page.getByText(`51–100 of ${learners}`).waitFor();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('per_page=1000');
    await page.context().close();
  });

  it('adds a learner with a photo, who then has a detail page showing the photo', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/students/list' });
    await rows(page).first().waitFor();
    const photo = path.join(files, 'amina.jpg');
    await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#c98f00' } })
      .jpeg()
      .toFile(photo);
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add student' }).click();
    const form = page.getByTestId('resource-form');
    await form.getByRole('textbox', { name: 'First name' }).fill('Amina');
    await form.getByRole('textbox', { name: 'Last name' }).fill('Nakato');
    await form.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P3', exact: true }).click();
    await form.getByRole('textbox', { name: 'Stream' }).fill('West');
    await form.getByRole('combobox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await form.locator('input[type="file"]').setInputFiles(photo);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByRole('textbox', { name: 'Name' }).fill('Amina Nakato');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    await rows(page).first().getByRole('link').click();
    await page.waitForURL('**/students/*');
    await page.getByRole('heading', { name: 'Amina Nakato' }).waitFor();
    await expect.poll(() => page.getByTestId('student-photo').getAttribute('data-loaded')).toBe('yes');
    await page.context().close();
  });

  it('uploads a class from a file, then lists it', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Learners');
    sheet.addRow(['studentid', 'firstname', 'lastname', 'gender', 'form', 'stream']);
    for (let index = 1; index <= 12; index += 1)
      sheet.addRow([`NEW/${index}`, `Pupil${index}`, 'Okello', index % 2 ? 'M' : 'F', 'P1', 'North']);
    const file = path.join(files, 'p1-north.xlsx');
    await workbook.xlsx.writeFile(file);

    await page.goto('/students/list');
    await rows(page).first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Upload students' }).click();
    const form = page.getByTestId('upload-form');
    await form.locator('input[type="file"]').setInputFiles(file);
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Added 12 learners, changed 0.' }).waitFor();
    await form.waitFor({ state: 'detached' });
    await chooseClass(page, 'P1');
    await page.getByRole('textbox', { name: 'Stream' }).fill('North');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–12 of 12').waitFor();
    await page.context().close();
  });

  it('names the bad rows of an upload and saves nothing', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Learners');
    sheet.addRow(['studentid', 'firstname', 'lastname', 'form']);
    sheet.addRow(['BAD/1', 'Good', 'Row', 'P2']);
    sheet.addRow(['BAD/2', '', 'Nameless', 'P2']);
    const file = path.join(files, 'bad.xlsx');
    await workbook.xlsx.writeFile(file);
    await page.goto('/students/list');
    await rows(page).first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Upload students' }).click();
    const form = page.getByTestId('upload-form');
    await form.locator('input[type="file"]').setInputFiles(file);
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByTestId('upload-problems').getByText('Row 3, First name: Please enter the first name').waitFor();
    await page.context().close();
  });
});

describe('a learner’s page', () => {
  it('shows the details and the statement with its running balance', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/students/list' });
    await rows(page).first().waitFor();
    await rows(page).first().getByRole('link').click();
    await page.waitForURL('**/students/*');
    const facts = page.getByTestId('student-facts');
    await facts.getByText('Class and stream').waitFor();
    const statement = page.getByTestId('statement');
    await statement.waitFor();
    // The demo's fee journal: an invoice first, dates as "Feb 3, 2026", amounts with thousands separators.
    const first = statement.locator('tbody tr').first();
    await expect(first.locator('td').first().textContent()).resolves.toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(first.locator('td').nth(2).textContent()).resolves.toMatch(/^\d{1,3}(,\d{3})+$/);
    const balances = await statement.locator('tbody tr').evaluateAll((all) =>
      all.map((row) => {
        const cells = Array.from(row.querySelectorAll('td')).map((cell) => Number((cell.textContent ?? '').replaceAll(',', '') || 0));
        return { invoice: cells[2] ?? 0, payment: cells[3] ?? 0, balance: cells[4] ?? 0 };
      }),
    );
    let running = 0;
    for (const line of balances) {
      running += line.invoice - line.payment;
      expect(line.balance).toBe(running);
    }
    await page.context().close();
  });
});

describe('on a phone, 360 px wide (issue 10 point 7)', () => {
  const PHONE = { width: 360, height: 740 };
  /** How far the page scrolls sideways (0: not at all). */
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  /**
   * Pairs of the given elements whose boxes overlap, and elements whose text runs out of their
   * own box (text spilling over a neighbour does not grow the box it spills from).
   */
  async function overlaps(page: Page, selector: string): Promise<string[]> {
    const count = await page.locator(selector).count();
    expect(count).toBeGreaterThan(1);
    return page.locator(selector).evaluateAll((elements) => {
      const boxes = elements.map((element) => ({ text: (element.textContent ?? '').trim(), box: element.getBoundingClientRect() }));
      const found: string[] = elements
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => `${(element.textContent ?? '').trim()} spills out`);
      boxes.forEach((a, i) => {
        for (const b of boxes.slice(i + 1)) {
          const apart = a.box.right <= b.box.left || b.box.right <= a.box.left || a.box.bottom <= b.box.top || b.box.bottom <= a.box.top;
          if (!apart) found.push(`${a.text} / ${b.text}`);
        }
      });
      return found;
    });
  }

  it('the class list: filters folded behind "Filters", a card per learner with its menu, nothing sideways', async () => {
    const page = await h.signedIn(ADMIN, { ...PHONE, school: 'demo-primary', path: '/students/list' });
    const cards = page.getByTestId('record-cards').locator('[data-card]');
    await cards.first().waitFor();
    await expect(cards.count()).resolves.toBe(50);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // The first card: id (a link to the learner), name, class and stream, and the row menu.
    const first = cards.first();
    await expect(first.getByRole('link').textContent()).resolves.toMatch(/^MPS\//);
    await first.getByText(/^P\d (East|West)$/).waitFor();
    await expect(overlaps(page, '[data-card]:first-child p')).resolves.toEqual([]);
    await first.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).waitFor();
    await page.keyboard.press('Escape');

    // The filters are folded until asked for; then a class can be chosen as on a wide screen.
    const classFilter = page.getByTestId('screen-students').locator('search').getByRole('combobox', { name: 'Class' });
    await expect(classFilter.isVisible()).resolves.toBe(false);
    await page.getByTestId('filters-toggle').click();
    await classFilter.click();
    await page.getByRole('option', { name: 'P4', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–50 of 80').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  it('a learner’s page: details stacked, none over another, nothing sideways', async () => {
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const id = newId();
    // A learner with long details, as schools type them.
    await withTenant(db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id,
          studentid: 'MPS/PHONE/1',
          firstname: 'Nakalembe',
          othername: 'Rukundo',
          lastname: 'Tumusiime-Byaruhanga',
          form: 'P6',
          stream: 'West',
          status: 'active',
          phone: '+256 772 123 456 / +256 701 987 654',
          address: 'Plot 14, Kisaasi-Kyanja Road, Nakawa Division, Kampala',
          email: 'nakalembe.tumusiime.byaruhanga.parent@example.co.ug',
          paymentcode: '4812093347',
          gender: 'F',
        })
        .execute(),
    );
    const page = await h.signedIn(ADMIN, { ...PHONE, school: 'demo-primary', path: `/students/${id}` });
    await page.getByTestId('student-facts').waitFor();
    await expect(overlaps(page, '[data-testid="student-facts"] p')).resolves.toEqual([]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // The photo sits above the details, not beside them.
    const photo = await page.getByTestId('student-photo').boundingBox();
    const facts = await page.getByTestId('student-facts').boundingBox();
    expect(photo && facts && photo.y + photo.height <= facts.y).toBe(true);
    await page.context().close();
  });
});

describe('the fee journal upload', () => {
  it('starts at the current term and year of the school’s calendar, not Term I', async () => {
    // A fixed day in Term II, so the test means the same thing on every day of the year.
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    await page.clock.setFixedTime(new Date('2026-07-15T10:00:00'));
    const expected = currentTerm('2026-07-15', defaultTermDates(2026));
    expect(expected.term).toBe('II');
    await page.goto('/students/list');
    await rows(page).first().waitFor();
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Upload Financial Records' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Year' }).inputValue()).toBe(String(expected.year));
    await expect(dialog.getByRole('combobox', { name: 'Term' }).inputValue()).resolves.toBe(expected.term);
    await page.context().close();
  });
});

describe('leavers and mistakes', () => {
  it('finds inactive learners by status, and deletes a learner entered by mistake after a confirmation', async () => {
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    const learner = (firstname: string, status: 'active' | 'inactive') => ({
      tenant_id: school.id,
      id: newId(),
      studentid: `MPS/E2E/${firstname}`,
      firstname,
      lastname: 'Okello',
      form: 'P2',
      stream: 'East',
      status,
    });
    await withTenant(db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values([learner('Leaver', 'inactive'), learner('Mistaken', 'active')])
        .execute(),
    );
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/students/list' });
    await rows(page).first().waitFor();
    const bar = page.getByTestId('screen-students').locator('search');
    await bar.getByRole('textbox', { name: 'Name' }).fill('Okello');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await rows(page).filter({ hasText: 'Mistaken' }).waitFor();
    await expect(rows(page).filter({ hasText: 'Leaver' }).count()).resolves.toBe(0);

    // The leaver is still there, under Inactive.
    await bar.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Inactive', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await rows(page).filter({ hasText: 'Leaver' }).waitFor();
    await expect(rows(page).filter({ hasText: 'Mistaken' }).count()).resolves.toBe(0);

    // The mistake goes, once confirmed.
    await bar.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Active', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const mistaken = rows(page).filter({ hasText: 'Mistaken' });
    await mistaken.getByRole('button', { name: 'Row actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('Only a learner entered by mistake').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Successfully deleted').waitFor();
    await mistaken.waitFor({ state: 'detached' });
    await page.context().close();
  });
});

describe('a learner’s page that cannot show its learner (issue 10 point 6)', () => {
  const learnerOf = async (tenantcode: string) => {
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirstOrThrow();
    return withTenant(db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('students').select('id').where('status', '=', 'active').orderBy('studentid').executeTakeFirstOrThrow(),
    );
  };
  const toasts = (page: Page) => page.locator('.mantine-Notification-root');

  it('says a learner of another school is not here, once, with the way back to the class list', async () => {
    const theirs = await learnerOf('demo-secondary');
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) asked.push(new URL(request.url()).pathname);
    });
    await page.goto(`/students/${theirs.id}`);
    const state = page.getByTestId('record-unavailable');
    await state.getByText('This learner is not in the selected school').waitFor();
    await expect(state.getAttribute('data-reason')).resolves.toBe('not-found');
    // The page says it; no toast repeats it, and the learner's records and fees are not asked for
    // (looked at once every call has answered).
    await page.waitForLoadState('networkidle');
    await expect(toasts(page).count()).resolves.toBe(0);
    expect(asked.filter((path) => path.includes(theirs.id))).toEqual([`/api/school/students/${theirs.id}`]);
    await state.getByRole('link', { name: 'Back to the class list' }).click();
    await page.waitForURL('**/students/list');
    await page.context().close();
  });

  it('shows a failure that two calls share in one toast', async () => {
    const ours = await learnerOf('demo-primary');
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    // Both the records and the statement are refused alike.
    await page.route(/\/api\/(school\/students\/[^/]+\/results|student\/statement)/, (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ statusCode: 403, message: 'Forbidden' }) }),
    );
    await page.goto(`/students/${ours.id}`);
    await page.getByTestId('student-facts').waitFor();
    await toasts(page).first().waitFor();
    // Each part says it failed and offers another try, instead of "Please wait" for ever; once
    // both have, both answers are in, and one toast says it.
    await expect.poll(() => page.getByTestId('part-failed').count()).toBe(2);
    await expect(toasts(page).count()).resolves.toBe(1);
    await page.unroute(/\/api\/(school\/students\/[^/]+\/results|student\/statement)/);
    await page.getByTestId('part-failed').first().getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByTestId('part-failed').count()).toBe(1);
    await page.context().close();
  });

  it('goes to the dashboard when the school is switched on a learner’s page', async () => {
    const ours = await learnerOf('demo-primary');
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: `/students/${ours.id}` });
    await page.getByTestId('student-facts').waitFor();
    await page.getByTestId('school-switcher').click();
    await page.locator('[data-tenant="demo-secondary"]').click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('school-widget').waitFor();
    await expect(page.getByTestId('record-unavailable').count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('academic records', () => {
  it('shows marks as soon as they exist: records by class and term, exams by type, a subject across records', async () => {
    // Marks written straight into the database, as the marks pages will write them.
    const db = h.database.db;
    const school = await db.selectFrom('tenants').select('id').where('tenantcode', '=', 'demo-primary').executeTakeFirstOrThrow();
    // A learner of its own: the demo's learners already have the term's marks.
    const learner = { id: newId() };
    const learnerId = await withTenant(db, { tenantId: school.id }, async (trx) => {
      await trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id: learner.id,
          studentid: 'MPS/RECORDS/1',
          firstname: 'Apio',
          lastname: 'Records',
          form: 'P5',
          stream: 'East',
          status: 'active',
          gender: 'F',
        })
        .execute();
      const english = await trx.selectFrom('subjects').select('id').where('name', '=', 'English').executeTakeFirstOrThrow();
      const maths = await trx.selectFrom('subjects').select('id').where('name', '=', 'Mathematics').executeTakeFirstOrThrow();
      const types = await trx.selectFrom('mark_types').select(['id', 'label']).execute();
      const type = (label: string) => types.find((row) => row.label === label)?.id as string;
      const year = new Date().getFullYear();
      const mark = (subject: string, marktype: string, form: string, term: string, value: number, inYear = year) => ({
        tenant_id: school.id,
        id: newId(),
        student_id: learner.id,
        subject_id: subject,
        marktype_id: marktype,
        form,
        stream: 'East',
        term,
        year: inYear,
        paper: 'I',
        mark: value,
      });
      // A competency of the new curriculum, scored 1 to 3.
      const topic = { tenant_id: school.id, id: newId(), subject_id: english.id, form: 'P5', term: 'I', title: 'Speaking', remarks: null };
      await trx.insertInto('topics').values(topic).execute();
      await trx
        .insertInto('marks')
        .values([
          { ...mark(english.id, type('BOT'), 'P5', 'I', 3), topic_id: topic.id },
          mark(english.id, type('BOT'), 'P5', 'I', 82),
          mark(maths.id, type('BOT'), 'P5', 'I', 74.5),
          mark(english.id, type('EOT'), 'P5', 'I', 71),
          mark(english.id, type('EOT'), 'P4', 'III', 66, year - 1),
        ])
        .execute();
      return learner.id;
    });

    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: `/students/${learnerId}` });
    const records = page.getByTestId('academic-records');
    await records.getByText('P5 · Term I ·').waitFor();
    await records.getByText('P4 · Term III ·').waitFor();
    // The newest record is open: BOT with English D1 and Mathematics C3 (74.5 under the default bands).
    const bot = page.getByTestId('exam-BOT');
    await expect(bot.locator('tr[data-subject="English"] td').nth(2).textContent()).resolves.toBe('D1');
    await expect(bot.locator('tr[data-subject="Mathematics"] td').nth(1).textContent()).resolves.toBe('74.5');
    await expect(bot.locator('tr[data-subject="Mathematics"] td').nth(2).textContent()).resolves.toBe('C3');
    // English across all records.
    await bot.locator('tr[data-subject="English"]').click();
    const history = page.getByTestId('subject-history');
    await history.waitFor();
    await expect(history.locator('tbody tr').count()).resolves.toBe(3);
    await page.keyboard.press('Escape');
    // The new curriculum's scores, grouped by subject with the descriptor.
    const nc = page.getByTestId('nc-results').locator('table[data-nc-subject="English"]');
    await nc.getByRole('cell', { name: 'Speaking' }).waitFor();
    await nc.getByRole('cell', { name: 'Outstanding' }).first().waitFor();
    await page.context().close();
  });
});

describe('accessibility', () => {
  it('finds no serious or critical violation on the class list and a learner’s page', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary' });
    const serious = async () =>
      (await new AxeBuilder({ page }).analyze()).violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    await page.goto('/students/list');
    await rows(page).first().waitFor();
    expect(await serious()).toEqual([]);
    await rows(page).first().getByRole('link').click();
    await page.getByTestId('statement').waitFor();
    expect(await serious()).toEqual([]);
    await page.context().close();
  });
});
