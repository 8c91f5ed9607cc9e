import AxeBuilder from '@axe-core/playwright';
import { localDay, type MarkComments, type TermDates } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * New-curriculum comments in the browser (issue 27 point 3): the secondary demo's administrator
 * opens /school/mark_newcurriculumcomment for S2 English Language in the term the demo's
 * competency scores are of, sees each learner's competency scores and the subject's score with
 * its identifier (as the API answers them), types a remark on competency, saves it and finds it
 * again after a reload; axe finds no serious or critical violation on the sheet. The old subject
 * comments screen, asked for S2, says it is a new-curriculum class and links to this screen.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const PATH = '/school/mark_newcurriculumcomment';
const FILTER = 'New curriculum comments filter';

/** The term the demo's marks (and competency scores) are of: the seed's rule, from the school's own term dates. */
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

/** Class S2 (the whole class), the term and year, and English Language; then Next. */
async function openSheet(page: Page, when: { term: string; year: number }) {
  const filter = page.getByRole('form', { name: FILTER });
  await filter.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: 'S2', exact: true }).click();
  await filter.getByRole('combobox', { name: 'Term' }).click();
  await page.getByRole('option', { name: when.term, exact: true }).click();
  await filter.getByRole('textbox', { name: 'Year' }).fill(String(when.year));
  await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), 'English Language');
  await filter.getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('comments-sheet').waitFor();
}

const rowOf = (page: Page, fullname: string) => page.locator('tr', { has: page.locator(`td:text-is("${fullname}")`) });

describe('new-curriculum comments', () => {
  it('show S2 English Language’s competency scores and identifiers; a remark typed and saved is there after a reload', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: PATH });
    await page.getByRole('heading', { name: 'New curriculum report comments' }).waitFor();
    const when = await demoMarksTerm(page);
    const subjects = (await callApi(page, 'GET', '/api/school/subjects?per_page=1000')).data as {
      subjects: Array<{ id: string; name: string }>;
    };
    const english = subjects.subjects.find((row) => row.name === 'English Language');
    expect(english).toBeDefined();
    const query = new URLSearchParams({ form: 'S2', term: when.term, year: String(when.year), subject_id: english?.id ?? '' });
    const answer = await callApi(page, 'GET', `/api/school/nccomments?${query}`);
    expect(answer.status).toBe(200);
    const screen = answer.data as MarkComments;
    expect(screen.curriculum).toBe('new');
    expect(screen.topics?.length).toBeGreaterThan(0);

    await openSheet(page, when);
    const sheet = page.getByTestId('comments-sheet');
    await expect(sheet.locator('tbody tr').count()).resolves.toBe(screen.students.length);
    const headers = await sheet.locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Student ID', 'Name', ...(screen.topics ?? []).map((topic) => topic.title), 'SCORE', 'Remark on competency']);

    // A learner with a subject score: their competencies' scores and the subject's score and identifier, as the API has them.
    const index = screen.records.findIndex((record) => record.score !== null && record.score !== undefined);
    expect(index).toBeGreaterThanOrEqual(0);
    const record = screen.records[index] as MarkComments['records'][number];
    const learner = screen.students[index] as MarkComments['students'][number];
    const row = rowOf(page, learner.fullname);
    const subjectCell = await row.getByTestId('subject-score').innerText();
    expect(subjectCell).toContain(String(record.score));
    expect(subjectCell).toContain(record.identifier as string);
    const scores = await row.getByTestId('competency-score').allInnerTexts();
    expect(scores.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(
      (screen.topics ?? []).map((topic) => {
        const score = record.competencies?.[topic.id];
        return score && score.score !== null ? `${score.score} ${score.identifier}` : '';
      }),
    );

    // A remark typed, saved (the Saved marker), and there after a reload.
    const remark = `Reads widely and explains ideas clearly (${Date.now().toString(36)}).`;
    const field = page.locator(`textarea[data-comment="${index}"]`);
    await field.fill(remark);
    await page.getByTestId('unsaved-count').getByText('1 unsaved').waitFor();
    await page.getByTestId('save-comments').click();
    await page
      .locator('.mantine-Notification-root', { hasText: /Successfully (created|updated)/ })
      .first()
      .waitFor();
    await row.getByTestId('saved-tick').waitFor();
    await page.reload();
    await openSheet(page, when);
    await expect(page.locator(`textarea[data-comment="${index}"]`).inputValue()).resolves.toBe(remark);
    await expect(page.getByTestId('draft-found').count()).resolves.toBe(0);
    const results = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .options({ iframes: false, resultTypes: ['violations'] })
      .analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`)).toEqual([]);

    // The old subject comments screen, asked for S2, points here.
    await page.goto('/comments/subject');
    const old = page.getByRole('form', { name: 'Subject comments filter' });
    await old.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S2', exact: true }).click();
    await old.getByRole('textbox', { name: 'Year' }).fill(String(when.year));
    const notice = page.getByTestId('other-curriculum');
    await notice.waitFor();
    await expect(notice.innerText()).resolves.toContain('follows the new curriculum');
    await notice.getByRole('link', { name: 'Open New curriculum report comments' }).click();
    await page.waitForURL((url) => url.pathname === PATH);
    await page.context().close();
  });

  it('the report remarks of S2 show each learner’s overall score and identifier beside the class and head teacher’s remarks', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/ncreportremark' });
    await page.getByRole('heading', { name: 'New curriculum remarks' }).waitFor();
    const when = await demoMarksTerm(page);
    const query = new URLSearchParams({ form: 'S2', term: when.term, year: String(when.year), category: 'exam' });
    const answer = await callApi(page, 'GET', `/api/school/ncremarks?${query}`);
    expect(answer.status).toBe(200);
    const students = (answer.data as { students: Array<{ fullname: string; score: number | null; identifier: string | null }> }).students;
    const scored = students.find((student) => student.score !== null);
    expect(scored).toBeDefined();
    const filter = page.getByRole('form', { name: 'New curriculum remarks filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'S2', exact: true }).click();
    await filter.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: when.term, exact: true }).click();
    await filter.getByRole('textbox', { name: 'Year' }).fill(String(when.year));
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('remarks-sheet').waitFor();
    const card = page.locator(`[data-learner="${scored?.fullname}"]`);
    await expect(card.getByTestId('overall-score').innerText()).resolves.toBe(`Overall: ${scored?.score} ${scored?.identifier}`);
    await page.context().close();
  });
});
