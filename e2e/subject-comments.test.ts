import { localDay, type MarkComments, matchSubjectComment, personalise, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * Subject comments and generic skills in the browser (issue 16 points 1, 3, 4 and 6): a class's
 * learners with their marks, typed down the class with Tab, saved, kept through a reload and a
 * dropped connection, started from the school's automatic comments, checked for another
 * learner's name and the wrong pronouns. P5 of demo-primary in the term the demo's marks are
 * of: the demo leaves P5 uncommented (its end-of-term exam is still to come). Each test writes
 * in a subject of its own, so none finds another's comments.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

interface Target {
  path: '/comments/subject' | '/school/mark_genericcomment';
  form: string;
  stream: string;
  subject: string;
}

const SUBJECT_FILTER = 'Subject comments filter';
const SKILLS_FILTER = 'Generic skills filter';

/** The term the demo's marks are of (the seed's rule, from the school's own term dates). */
async function demoMarksTerm(page: Page) {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const calendars = new Map<number, TermDates[]>();
  for (const each of [year - 1, year]) {
    const answer = await callApi(page, 'GET', `/api/school/termdates?year=${each}`);
    expect(answer.status).toBe(200);
    calendars.set(each, (answer.data as { terms: TermDates[] }).terms);
  }
  return marksTerm(today, (each) => calendars.get(each) ?? []);
}

/** The term and year of the sheet opened last (the school's marks term). */
let when: { term: string; year: number } | undefined;

/** Fills the filter and opens the class's sheet. */
async function openSheet(page: Page, target: Target) {
  if (!page.url().endsWith(target.path)) await page.goto(target.path);
  when = await demoMarksTerm(page);
  const filter = page.getByRole('form', { name: target.path === '/comments/subject' ? SUBJECT_FILTER : SKILLS_FILTER });
  await filter.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: target.form, exact: true }).click();
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), target.stream);
  await filter.getByRole('combobox', { name: 'Term' }).click();
  await page.getByRole('option', { name: when.term, exact: true }).click();
  await filter.getByRole('textbox', { name: 'Year' }).fill(String(when.year));
  // The subjects arrive with the school's list: picked as a person does when they are still on their way.
  await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), target.subject);
  await filter.getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('comments-sheet').waitFor();
}

/** What the API answers for the same screen: the learners in the screen's order, their records and stored comments. */
async function loadByApi(page: Page, target: Target): Promise<MarkComments> {
  const subjects = (await callApi(page, 'GET', '/api/school/subjects?per_page=1000')).data as {
    subjects: Array<{ id: string; name: string }>;
  };
  const subject = subjects.subjects.find((row) => row.name === target.subject);
  expect(subject).toBeDefined();
  const endpoint = target.path === '/comments/subject' ? 'markcomments' : 'genericcomments';
  const query = new URLSearchParams({
    form: target.form,
    stream: target.stream,
    term: when?.term ?? '',
    year: String(when?.year),
    category: 'exam',
    subject_id: subject?.id ?? '',
  });
  const answer = await callApi(page, 'GET', `/api/school/${endpoint}?${query}`);
  expect(answer.status).toBe(200);
  return answer.data as MarkComments;
}

const comment = (page: Page, row: number) => page.locator(`textarea[data-comment="${row}"]`);
const focusedRow = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-comment'));
const rowOf = (page: Page, fullname: string) => page.locator('tr', { has: page.locator(`td:text-is("${fullname}")`) });
const saved = (page: Page) =>
  page
    .locator('.mantine-Notification-root', { hasText: /Successfully (created|updated)/ })
    .first()
    .waitFor();

/** Whether the browser's drafts (IndexedDB, lib/drafts.ts) hold this text; never creates the database itself. */
const draftHolds = (page: Page, text: string) =>
  page.evaluate(
    (wanted) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('mustard-drafts');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const all = open.result.transaction('marks').objectStore('marks').getAll();
          all.onsuccess = () => {
            resolve(JSON.stringify(all.result).includes(wanted));
            open.result.close();
          };
          all.onerror = () => resolve(false);
        };
      }),
    text,
  );

describe('subject comments', () => {
  it('shows the class with marks, total and grade; Tab moves to the next learner; SAVE stores what was typed', async () => {
    const target: Target = { path: '/comments/subject', form: 'P5', stream: 'East', subject: 'English' };
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await page.getByRole('heading', { name: 'Subject comments' }).waitFor();
    await openSheet(page, target);
    const before = await loadByApi(page, target);
    expect(before.students.length).toBeGreaterThan(2);
    const [first, second] = before.students as [MarkComments['students'][number], MarkComments['students'][number]];

    // A row per learner in the API's order, a column per mark type with its mark, the total and the grade.
    const sheet = page.getByTestId('comments-sheet');
    await expect(sheet.locator('tbody tr').count()).resolves.toBe(before.students.length);
    const headers = await sheet.locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Student ID', 'Name', ...before.marktypes.map((type) => type.label), 'TOTAL', 'GRADE', 'Comment']);
    expect(before.marktypes.length).toBeGreaterThan(0);
    const row = rowOf(page, first.fullname);
    await expect(row.locator('td').first().innerText()).resolves.toBe(first.studentid);
    const record = before.records[0] as MarkComments['records'][number];
    expect(record.total).not.toBeNull();
    await expect(row.locator('td[data-total]').innerText()).resolves.toBe(String(record.total));
    await expect(row.locator('td[data-grade]').innerText()).resolves.toBe(record.grade ?? '');
    const label = before.marktypes[0]?.label as string;
    await expect(row.locator(`td[data-mark="${label}"]`).innerText()).resolves.toBe(String(record.marks[label] ?? ''));

    await comment(page, 0).click();
    await page.keyboard.type('Reads fluently and speaks up in class.');
    await page.keyboard.press('Tab');
    await expect(focusedRow(page)).resolves.toBe('1');
    await page.keyboard.type('Writes neat compositions.');
    await page.getByTestId('unsaved-count').getByText('2 unsaved').waitFor();
    await expect(page.getByTestId('saved-tick').count()).resolves.toBe(0);
    await page.getByTestId('save-comments').click();
    await saved(page);
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    // The Saved marker (spec §4) under the two comments stored, and only there; typing over one takes it away.
    await expect(page.getByTestId('saved-tick').count()).resolves.toBe(2);
    await expect(rowOf(page, first.fullname).getByTestId('saved-tick').count()).resolves.toBe(1);
    await comment(page, 0).fill('Reads fluently and speaks up in class. Well done.');
    await expect(rowOf(page, first.fullname).getByTestId('saved-tick').count()).resolves.toBe(0);
    await comment(page, 0).fill('Reads fluently and speaks up in class.');
    await rowOf(page, first.fullname).getByTestId('saved-tick').waitFor();
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();

    const after = await loadByApi(page, target);
    const byId = new Map(after.records.map((each) => [each.student_id, each]));
    expect(byId.get(first.id)?.comment).toBe('Reads fluently and speaks up in class.');
    expect(byId.get(second.id)?.comment).toBe('Writes neat compositions.');
    expect(after.records.filter((each) => each.comment !== null)).toHaveLength(2);

    // A reload shows them as stored, with nothing offered as a draft.
    await page.reload();
    await openSheet(page, target);
    await expect(comment(page, 0).inputValue()).resolves.toBe('Reads fluently and speaks up in class.');
    await expect(comment(page, 1).inputValue()).resolves.toBe('Writes neat compositions.');
    await expect(page.getByTestId('draft-found').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('keeps a typed comment through a reload (Restore), and saves it while offline once the connection is back', async () => {
    const target: Target = { path: '/comments/subject', form: 'P5', stream: 'East', subject: 'Social Studies' };
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await openSheet(page, target);
    const text = 'Draws good maps; should revise the regions of Uganda.';
    await comment(page, 2).fill(text);
    await page.getByTestId('unsaved-count').getByText('1 unsaved').waitFor();
    await expect.poll(() => draftHolds(page, text)).toBe(true);

    await page.reload();
    await openSheet(page, target);
    await expect(comment(page, 2).inputValue()).resolves.toBe('');
    const offer = page.getByTestId('draft-found');
    await offer.getByText('not saved: 1', { exact: false }).waitFor();
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(comment(page, 2).inputValue()).resolves.toBe(text);
    await expect(offer.count()).resolves.toBe(0);
    await page.getByTestId('unsaved-count').getByText('1 unsaved').waitFor();

    // Ctrl+Enter saves; offline, the save waits for the connection and goes when it is back.
    await page.context().setOffline(true);
    await comment(page, 2).focus();
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('save-waiting').getByText('Offline', { exact: false }).waitFor();
    await expect(comment(page, 2).inputValue()).resolves.toBe(text);
    await page.context().setOffline(false);
    await saved(page);
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    const stored = await loadByApi(page, target);
    expect(stored.records[2]?.comment).toBe(text);
    expect(stored.records.filter((each) => each.comment !== null)).toHaveLength(1);
    // Saved: the draft is gone.
    await expect.poll(() => draftHolds(page, text)).toBe(false);
    await page.context().close();
  });

  it('fills only the empty comments from the automatic ones, in each learner’s name, and keeps a typed one', async () => {
    const target: Target = { path: '/comments/subject', form: 'P5', stream: 'East', subject: 'Integrated Science' };
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await openSheet(page, target);
    const answer = await loadByApi(page, target);
    const suggestion = answer.records.map((record, index) => {
      const auto = matchSubjectComment(answer.autocomments, record);
      const learner = answer.students[index] as MarkComments['students'][number];
      return auto && record.comment === null ? personalise(auto, learner) : null;
    });
    const suggested = suggestion.flatMap((text, index) => (text ? [index] : []));
    expect(suggested.length).toBeGreaterThan(2);
    const typedRow = suggested[0] as number;
    await comment(page, typedRow).fill('Typed by the teacher: a keen experimenter.');

    await page.getByTestId('fill-empty').click();
    await page
      .locator('.mantine-Notification-root', { hasText: `Empty comments filled: ${suggested.length - 1}.` })
      .first()
      .waitFor();
    await expect(comment(page, typedRow).inputValue()).resolves.toBe('Typed by the teacher: a keen experimenter.');
    for (const index of suggested.slice(1)) await expect(comment(page, index).inputValue()).resolves.toBe(suggestion[index]);
    for (const [index, text] of suggestion.entries())
      if (text === null && index !== typedRow)
        await expect(comment(page, index).inputValue()).resolves.toBe(answer.records[index]?.comment ?? '');
    await page.getByTestId('unsaved-count').getByText(`${suggested.length} unsaved`).waitFor();

    // Asked again, nothing is left to fill and nothing typed is touched.
    await page.getByTestId('fill-empty').click();
    await page.locator('.mantine-Notification-root', { hasText: 'No empty comment has an automatic comment' }).first().waitFor();
    await expect(comment(page, typedRow).inputValue()).resolves.toBe('Typed by the teacher: a keen experimenter.');
    await page.context().close();
  });

  it('warns under a comment that names another learner or has pronouns not matching the learner’s sex, and still saves it', async () => {
    const target: Target = { path: '/comments/subject', form: 'P5', stream: 'East', subject: 'Religious Education' };
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await openSheet(page, target);
    const answer = await loadByApi(page, target);
    const girl = answer.students.findIndex((learner) => learner.gender === 'F');
    expect(girl).toBeGreaterThanOrEqual(0);
    const her = answer.students[girl] as MarkComments['students'][number];
    const other = answer.students.find(
      (learner) => learner.firstname.toLowerCase() !== her.firstname.toLowerCase() && learner.firstname.length >= 2,
    ) as MarkComments['students'][number];
    const row = rowOf(page, her.fullname);
    await expect(row.getByTestId('comment-warning').count()).resolves.toBe(0);

    await comment(page, girl).fill(`He is doing well, like ${other.firstname}.`);
    await row.getByTestId('comment-warning').getByText('Pronouns that do not fit this learner: he').waitFor();
    await row.getByTestId('comment-warning').getByText(`This comment names another learner of the class: ${other.firstname}`).waitFor();
    await comment(page, girl).fill(`${her.firstname} is doing well; her reading has improved.`);
    await expect(row.getByTestId('comment-warning').count()).resolves.toBe(0);

    // A warning is not a refusal.
    await comment(page, girl).fill('He is doing well.');
    await row.getByTestId('comment-warning').waitFor();
    await page.getByTestId('save-comments').click();
    await saved(page);
    expect((await loadByApi(page, target)).records[girl]?.comment).toBe('He is doing well.');
    await page.context().close();
  });

  it('shows a comment changed by someone else since, with both texts, and keeps mine on request', async () => {
    const target: Target = { path: '/comments/subject', form: 'P5', stream: 'West', subject: 'English' };
    const mine = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await openSheet(mine, target);
    const theirs = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await openSheet(theirs, target);

    await comment(theirs, 0).fill('Their comment.');
    await theirs.getByTestId('save-comments').click();
    await saved(theirs);

    await comment(mine, 0).fill('My comment.');
    await mine.getByTestId('save-comments').click();
    const conflicts = mine.getByTestId('conflicts');
    await conflicts.getByText('“Their comment.” by Demo Administrator; yours “My comment.”', { exact: false }).waitFor();
    expect((await loadByApi(mine, target)).records[0]?.comment).toBe('Their comment.');
    await conflicts.getByRole('button', { name: 'Keep mine' }).click();
    await mine.getByTestId('save-comments').click();
    await saved(mine);
    expect((await loadByApi(mine, target)).records[0]?.comment).toBe('My comment.');
    await mine.context().close();
    await theirs.context().close();
  });

  it('shows S5’s results paper by paper, each with its mark and grade', async () => {
    const target: Target = { path: '/comments/subject', form: 'S5', stream: 'A', subject: 'Physics' };
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: target.path });
    await openSheet(page, target);
    const answer = await loadByApi(page, target);
    const withPapers = answer.records.findIndex((record) => (record.papers ?? []).length > 1);
    expect(withPapers).toBeGreaterThanOrEqual(0);
    const record = answer.records[withPapers] as MarkComments['records'][number];
    const learner = answer.students[withPapers] as MarkComments['students'][number];
    const sheet = page.getByTestId('comments-sheet');
    for (const paper of record.papers ?? []) {
      await sheet.locator(`thead th[data-paper="${paper.paper}"]`).getByText(`Paper ${paper.paper}`).waitFor();
      const cell = rowOf(page, learner.fullname).locator(`td[data-paper="${paper.paper}"]`);
      const text = await cell.innerText();
      if (paper.mark !== null) expect(text).toContain(String(paper.mark));
      if (paper.grade !== null) expect(text).toContain(paper.grade);
    }
    await page.context().close();
  });
});

describe('generic skills', () => {
  it('loads the class with a skills text per learner and saves it apart from the subject comments', async () => {
    const target: Target = { path: '/school/mark_genericcomment', form: 'P5', stream: 'West', subject: 'Mathematics' };
    const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: target.path });
    await page.getByRole('heading', { name: 'Generic skills' }).waitFor();
    await openSheet(page, target);
    const sheet = page.getByTestId('comments-sheet');
    await sheet.locator('thead th').last().getByText('Skills', { exact: true }).waitFor();
    const answer = await loadByApi(page, target);
    await expect(sheet.locator('tbody tr').count()).resolves.toBe(answer.students.length);

    await comment(page, 0).fill('Works well in groups and explains solutions to others.');
    await page.keyboard.press('Control+Enter');
    await saved(page);
    const skills = await loadByApi(page, target);
    expect(skills.records[0]?.comment).toBe('Works well in groups and explains solutions to others.');
    // The subject comment of the same class and subject is another text.
    const subject = await loadByApi(page, { ...target, path: '/comments/subject' });
    expect(subject.records[0]?.comment).toBeNull();
    await page.context().close();
  });
});
