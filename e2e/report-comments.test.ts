import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, pickOption, TEACHER, useHarness } from './harness.js';

/*
 * Report comments as a class teacher writes them (issue 16 points 2 to 5 and 7): P7 East of the
 * demo primary school (it has end-of-term results), each test with a remark type of its own so
 * what another test or the demo wrote never gets in the way.
 */

let h: Harness;
let files: string;
let serial = 0;

beforeAll(async () => {
  h = await useHarness();
  files = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-remarks-'));
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

interface Learner {
  id: string;
  fullname: string;
  firstname: string;
  result: number | null;
}

/** A new active remark type of P7's exam reports, with one automatic comment covering every result. */
async function newRemarkType(page: Page): Promise<{ id: string; label: string }> {
  const label = `E2E remark ${Date.now() % 100000}-${++serial}`;
  const created = await callApi(page, 'POST', '/api/school/remarktypes', { label, category: 'exam', forms: 'P7', active: true });
  expect(created.status, JSON.stringify(created.data)).toBe(200);
  const id = (created.data as { id: string }).id;
  const auto = await callApi(page, 'POST', '/api/school/autoreportcomments', {
    form: 'P7',
    remarktype_id: id,
    score: 0,
    upper: 1000,
    comment: '{name} has done well this term.',
  });
  expect(auto.status, JSON.stringify(auto.data)).toBe(200);
  return { id, label };
}

const filterOf = (page: Page) => page.getByRole('form', { name: 'Report comments filter' });
const cell = (page: Page, row: number, column = 0) => page.locator(`[data-cell="${column}:${row}"]`);
const focusedCell = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-cell'));

/** Opens Record Comments of a remark type (the remark types list's link) for P7 East, and answers the term and year it used. */
async function openSheet(page: Page, remarktypeId: string) {
  await page.goto(`/comments/report?remarktype_id=${remarktypeId}`);
  await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Class' }), 'P7');
  await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'East');
  // Opened from the list: long text is on.
  await expect(filterOf(page).getByRole('checkbox', { name: 'Display Long text' }).isChecked()).resolves.toBe(true);
  await filterOf(page).getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('remarks-sheet').waitFor();
  return {
    term: await filterOf(page).getByRole('combobox', { name: 'Term' }).inputValue(),
    year: Number(await filterOf(page).getByRole('textbox', { name: 'Year' }).inputValue()),
  };
}

/** The class's learners and their stored remarks of the remark type, as the API has them. */
async function remarksOf(page: Page, when: { term: string; year: number }, remarktypeId: string) {
  const answer = await callApi(
    page,
    'GET',
    `/api/school/remarks?form=P7&stream=East&term=${when.term}&year=${when.year}&category=exam&remarktype_id=${remarktypeId}`,
  );
  expect(answer.status).toBe(200);
  const data = answer.data as { students: Learner[]; remarks: Record<string, Record<string, { comment: string }>> };
  const stored = data.remarks[`rt_${remarktypeId}`] ?? {};
  return {
    students: data.students,
    comment: (learner: Learner) => stored[`s_${learner.id}`]?.comment ?? null,
  };
}

describe('Report comments', () => {
  it('shows a class teacher the head teacher’s remarks read only, and his own to write (issue 23 item 8)', async () => {
    // The demo teacher is class teacher of P5 East, and no longer manages remarks.
    const page = await h.signedIn(TEACHER, { school: 'demo-primary', path: '/comments/report' });
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Class' }), 'P5');
    await pickOption(page, filterOf(page).getByRole('combobox', { name: 'Stream' }), 'East');
    await filterOf(page).getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('remarks-sheet').waitFor();
    const first = page.getByTestId('remarks-sheet').locator('[data-learner]').first();
    const head = first.getByRole('textbox', { name: /^Head teacher's comment, / });
    const own = first.getByRole('textbox', { name: /^Class teacher's comment, / });
    await expect(head.getAttribute('readonly')).resolves.not.toBeNull();
    await expect(own.getAttribute('readonly')).resolves.toBeNull();
    await first.getByText('Written by the head teacher').first().waitFor();
    await page.context().close();
  });

  it('saves a comment when the input loses focus, with a green Saved tick, and Tab goes to the next learner', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    const type = await newRemarkType(page);
    const when = await openSheet(page, type.id);
    const { students } = await remarksOf(page, when, type.id);
    const [first, second] = students as [Learner, Learner];

    await cell(page, 0).fill('A steady worker.');
    await expect(page.getByTestId('saved-tick').count()).resolves.toBe(0);
    await cell(page, 0).press('Tab');
    await expect.poll(() => focusedCell(page)).toBe('0:1');
    await page.locator(`[data-learner="${first.fullname}"]`).getByTestId('saved-tick').waitFor();
    await expect.poll(async () => (await remarksOf(page, when, type.id)).comment(first)).toBe('A steady worker.');

    // An empty input losing focus saves nothing (the spec), and the tick shows only where saved.
    await cell(page, 1).press('Tab');
    await expect(page.locator(`[data-learner="${second.fullname}"]`).getByTestId('saved-tick').count()).resolves.toBe(0);
    expect((await remarksOf(page, when, type.id)).comment(second)).toBeNull();

    // Naming another learner of the class is flagged before it is saved, not refused.
    await cell(page, 1).fill(`Helps ${first.firstname} with reading.`);
    await page
      .locator(`[data-learner="${second.fullname}"]`)
      .getByTestId('comment-warning')
      .getByText(`another learner of the class: ${first.firstname}`)
      .waitFor();
    await page.context().close();
  });

  it('offers the automatic comments in a dropdown, and Fill empty comments fills only the empty ones', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    const type = await newRemarkType(page);
    const when = await openSheet(page, type.id);
    const { students } = await remarksOf(page, when, type.id);
    const withResult = students.filter((learner) => learner.result !== null);
    expect(withResult.length).toBeGreaterThan(2);
    const [first, second] = students as [Learner, Learner];

    // The dropdown of the first learner: the school's automatic comment, with the learner's name.
    await page.getByRole('button', { name: `Automatic comments for ${first.fullname}` }).click();
    await page.getByRole('menuitem', { name: new RegExp(`${first.firstname} has done well this term`) }).click();
    await page.locator(`[data-learner="${first.fullname}"]`).getByTestId('saved-tick').waitFor();
    await expect
      .poll(async () => (await remarksOf(page, when, type.id)).comment(first))
      .toBe(`${first.firstname} has done well this term.`);

    // A typed comment is never overwritten by Fill empty comments.
    await cell(page, 1).fill('Typed by the teacher.');
    await page.getByRole('button', { name: 'Fill empty comments' }).click();
    const emptyWithResult = withResult.filter((learner) => learner.id !== first.id && learner.id !== second.id).length;
    await page
      .locator('.mantine-Notification-root', { hasText: `Filled ${emptyWithResult} empty comments` })
      .first()
      .waitFor();
    await expect(cell(page, 1).inputValue()).resolves.toBe('Typed by the teacher.');
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    const after = await remarksOf(page, when, type.id);
    expect(after.comment(second)).toBe('Typed by the teacher.');
    const third = withResult.find((learner) => learner.id !== first.id && learner.id !== second.id) as Learner;
    expect(after.comment(third)).toBe(`${third.firstname} has done well this term.`);
    await page.context().close();
  });

  it('keeps a comment through a reload and a dropped connection, and sends it when the connection is back', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    const type = await newRemarkType(page);
    const when = await openSheet(page, type.id);
    const { students } = await remarksOf(page, when, type.id);
    const [first, second] = students as [Learner, Learner];

    // The save cannot get through; the page is reloaded before it does.
    await page.route('**/api/school/remarks', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await cell(page, 0).fill('Typed before the reload.');
    await cell(page, 0).press('Tab');
    await page.getByTestId('save-waiting').waitFor();
    await page.unroute('**/api/school/remarks');
    await page.reload();
    await openSheet(page, type.id);
    await page.getByTestId('draft-found').getByRole('button', { name: 'Restore' }).click();
    await expect(cell(page, 0).inputValue()).resolves.toBe('Typed before the reload.');
    await page.locator(`[data-learner="${first.fullname}"]`).getByTestId('saved-tick').waitFor();
    expect((await remarksOf(page, when, type.id)).comment(first)).toBe('Typed before the reload.');

    // Offline: the comment waits, and goes once the connection returns.
    await page.context().setOffline(true);
    await cell(page, 1).fill('Typed while offline.');
    await cell(page, 1).press('Tab');
    await page.getByTestId('save-waiting').getByText('Offline', { exact: false }).waitFor();
    await page.context().setOffline(false);
    await page.locator(`[data-learner="${second.fullname}"]`).getByTestId('saved-tick').waitFor();
    expect((await remarksOf(page, when, type.id)).comment(second)).toBe('Typed while offline.');
    await page.context().close();
  });

  it('a comment typed on the screen is on the report card: the model, the preview and the PDF, <b> as text', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    const type = await newRemarkType(page);
    const when = await openSheet(page, type.id);
    const { students } = await remarksOf(page, when, type.id);
    const first = students[0] as Learner;
    const typed = `<b>Bold</b> effort ${serial}`;
    await cell(page, 0).fill(typed);
    await cell(page, 0).press('Tab');
    await page.locator(`[data-learner="${first.fullname}"]`).getByTestId('saved-tick').waitFor();

    const report = `/api/school/terminalreport?form=P7&stream=East&term=${when.term}&year=${when.year}&student_id=${first.id}`;
    const model = (await callApi(page, 'GET', `${report}&json=1`)).data as {
      learners: Array<{ remarks: Array<{ label: string; text: string }> }>;
    };
    expect(model.learners[0]?.remarks).toContainEqual(expect.objectContaining({ label: type.label, text: typed }));

    // The preview, as the Terminal Reports page shows it: the tags are text, never bold.
    await page.goto('/terminalreport');
    const filter = page.getByRole('form', { name: 'Terminal report filter' });
    await pickOption(page, filter.getByRole('combobox', { name: 'Class' }), 'P7');
    await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
    await filter.getByRole('button', { name: 'Next' }).click();
    const frame = page.frameLocator('iframe[title="Report preview"]');
    const card = frame.locator('section.card', { hasText: first.fullname }).first();
    await card.waitFor();
    await expect(card.innerText()).resolves.toContain(typed);
    await expect(card.locator('b', { hasText: 'Bold' }).count()).resolves.toBe(0);

    await filter.getByRole('checkbox', { name: 'Preview' }).uncheck();
    const [download] = await Promise.all([page.waitForEvent('download'), filter.getByRole('button', { name: 'Next' }).click()]);
    const file = path.join(files, download.suggestedFilename());
    await download.saveAs(file);
    const text = execFileSync('pdftotext', [file, '-']).toString();
    expect(text).toContain(typed);
    await page.context().close();
  });
});

describe('Delete report comments', () => {
  it('asks first, then deletes the class’s comments of the remark type and says so', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
    const type = await newRemarkType(page);
    const when = await openSheet(page, type.id);
    await cell(page, 0).fill('To be deleted.');
    await cell(page, 0).press('Tab');
    await cell(page, 1).fill('Also to be deleted.');
    await cell(page, 1).press('Tab');
    await page.getByTestId('saved-tick').nth(1).waitFor();

    await page.goto('/comments/delete');
    const filter = page.getByRole('form', { name: 'Delete report comments filter' });
    await pickOption(page, filter.getByRole('combobox', { name: 'Class' }), 'P7');
    await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), 'East');
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: when.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(when.year));
    await pickOption(page, filter.getByRole('combobox', { name: 'Remark type' }), type.label);
    await filter.getByRole('button', { name: 'Next' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This operation can not be reversed. Do you really want to proceed with it?').waitFor();
    // Nothing is deleted before the answer.
    const before = await remarksOf(page, when, type.id);
    expect(before.students.filter((learner) => before.comment(learner) !== null)).toHaveLength(2);
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await page.locator('.mantine-Notification-root', { hasText: 'Remarks have been deleted successfully' }).first().waitFor();
    const after = await remarksOf(page, when, type.id);
    expect(after.students.filter((learner) => after.comment(learner) !== null)).toHaveLength(0);
    await page.context().close();
  });
});
