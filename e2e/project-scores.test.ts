import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * Project scores (issue 26 point 5), as the secondary demo school's administrator records them:
 * a project of S3 Mathematics opened from its page through Record Scores, two learners' scores
 * typed with comments (Enter moving down the column), Record Scores, and the page reloaded
 * showing them; a score above the maximum is refused in its cell before anything is sent; axe
 * finds no serious or critical violation on the grid at 1366 and 360 px.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** A new project of S3 Mathematics (maximum 10) in this year's Term I, made through the API. */
async function newProject(page: Page): Promise<string> {
  const subjects = (await callApi(page, 'GET', '/api/school/subjects?per_page=1000')).data as {
    subjects: Array<{ id: string; name: string }>;
  };
  const maths = subjects.subjects.find((row) => row.name === 'Mathematics');
  expect(maths).toBeDefined();
  const made = await callApi(page, 'POST', '/api/school/projects', {
    form: 'S3',
    subject_id: maths?.id,
    term: 'I',
    year: new Date().getFullYear(),
    title: `Designing a school garden ${unique()}`,
    max_score: 10,
  });
  expect(made.status).toBe(200);
  return (made.data as { id: string }).id;
}

const cell = (page: Page, column: string, row: number) =>
  page.getByTestId('project-scores-grid').locator(`[data-cell="${row}:${column === 'score' ? 0 : 1}"]`);

describe('project scores', () => {
  it('are typed with comments from the project’s Record Scores, saved, and shown again after a reload', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/dashboard' });
    const id = await newProject(page);
    await page.goto(`/project-detail/${id}`);
    const detail = page.getByTestId('record-detail');
    await detail.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Record Scores', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/school/projectscores/new' && url.search === `?project_id=${id}`);

    // The project's class, subject, term and year, read-only; the learners of S3.
    await page.getByTestId('project-scores-grid').waitFor();
    await expect(page.getByRole('textbox', { name: 'Class', exact: true }).inputValue()).resolves.toBe('S3');
    await expect(page.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).resolves.toBe('Mathematics');
    const learners = page.getByTestId('project-scores-grid').locator('tbody tr');
    expect(await learners.count()).toBeGreaterThan(1);

    // Typed like the marks grid: a score, Enter to the next learner, then the comments.
    await cell(page, 'score', 0).fill('8.5');
    await cell(page, 'score', 0).press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-cell'))).toBe('1:0');
    await page.keyboard.type('12');
    await page.getByTestId('project-scores-grid').getByRole('alert').first().waitFor();
    await expect(page.getByTestId('project-scores-grid').getByRole('alert').first().innerText()).resolves.toContain(
      'above the project’s maximum',
    );
    await cell(page, 'score', 1).fill('7');
    await cell(page, 'comment', 0).fill('A neat plan, well measured');
    await cell(page, 'comment', 1).fill('Good teamwork');
    await page.getByTestId('save-scores').click();
    await page.getByText('Scores saved: 2; unchanged: 0.').waitFor();

    await page.reload();
    await page.getByTestId('project-scores-grid').waitFor();
    await expect.poll(() => cell(page, 'score', 0).inputValue()).toBe('8.5');
    await expect(cell(page, 'score', 1).inputValue()).resolves.toBe('7');
    await expect(cell(page, 'comment', 0).inputValue()).resolves.toBe('A neat plan, well measured');
    await expect(cell(page, 'comment', 1).inputValue()).resolves.toBe('Good teamwork');

    // No serious or critical accessibility violation on the grid, on a laptop and on a phone.
    for (const size of [
      { width: 1366, height: 768 },
      { width: 360, height: 740 },
    ]) {
      await page.setViewportSize(size);
      const results = await new AxeBuilder({ page })
        .setLegacyMode(true)
        .options({ iframes: false, resultTypes: ['violations'] })
        .analyze();
      const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`)).toEqual(
        [],
      );
    }

    // The API lists them too.
    const list = (await callApi(page, 'GET', `/api/school/projectscores?project_id=${id}`)).data as {
      projectscores: Array<{ score: number | null; comment: string | null }>;
    };
    expect(list.projectscores.map((row) => [row.score, row.comment]).sort()).toEqual([
      [7, 'Good teamwork'],
      [8.5, 'A neat plan, well measured'],
    ]);

    // A comment is a box of several lines that grows with what it says, so a long one is read whole;
    // Enter still moves down the column there, as in the scores.
    await page.setViewportSize({ width: 1366, height: 768 });
    const comment = cell(page, 'comment', 0);
    await expect(comment.evaluate((element) => element.tagName)).resolves.toBe('TEXTAREA');
    const oneLine = await comment.evaluate((element) => element.clientHeight);
    await comment.fill(
      'A neat plan, well measured: the beds are drawn to scale, the costs are added up correctly, and the group explained how they would water the garden in the dry season.',
    );
    await expect.poll(() => comment.evaluate((element) => element.clientHeight)).toBeGreaterThan(oneLine);
    await expect(comment.evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).resolves.toBe(true);
    await comment.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-cell'))).toBe('1:1');
    await expect(comment.inputValue()).resolves.not.toContain('\n');
    await page.context().close();
  });
});
