import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, useHarness } from './harness.js';

/*
 * A competency's activity-of-integration scores in the browser (issue 26 point 3), as the
 * secondary demo's administrator enters them: a competency added on its page, Record Marks
 * opens the marks grid already set to its class, term and subject, a column copied from a
 * spreadsheet is pasted, a score off the 1-to-3 scale is refused in its cell, the grid is
 * saved, and the scores are there when the page is opened again. The test's own mark type
 * keeps its grid empty whatever the demo holds.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const cell = (page: Page, row: number, column: number) => page.locator(`[data-cell="${row}:${column}"]`);

/** Pastes text at the focused cell as a spreadsheet's copy arrives (a paste event with text/plain). */
async function paste(page: Page, text: string) {
  await page.evaluate((content) => {
    const data = new DataTransfer();
    data.setData('text/plain', content);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe("a competency's scores", () => {
  it('opens the grid from the competency, takes a pasted column on the 1-to-3 scale, saves it and shows it again', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/topics/new' });
    const aoi = `AOI ${unique()}`;
    expect((await callApi(page, 'POST', '/api/school/marktypes', { label: aoi, category: 'assesment', outof: 3 })).status).toBe(200);
    const title = `Personal life and family ${unique()}`;
    const form = page.getByTestId('resource-form');
    for (const [field, option] of [
      ['Class', 'S2'],
      ['Term', 'I'],
      ['Subject', 'English Language'],
    ] as const) {
      await form.getByRole('combobox', { name: field, exact: true }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/competency-detail/'));
    const detail = page.getByTestId('record-detail');
    await detail.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Record Marks', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/marks/create');
    const gridAddress = page.url();

    // The competency names itself and fills the filter: its class and subject stay.
    const banner = page.getByTestId('competency-banner');
    await banner.getByText(`Competency: ${title}`, { exact: false }).waitFor();
    await banner.getByText('Scores run from 1 to 3', { exact: false }).waitFor();
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await expect.poll(() => filter.getByRole('combobox', { name: 'Class' }).inputValue()).toBe('S2');
    await expect.poll(() => filter.getByRole('combobox', { name: 'Subject' }).inputValue()).toBe('English Language');
    await expect(filter.getByRole('combobox', { name: 'Class' }).isDisabled()).resolves.toBe(true);
    await expect.poll(() => filter.getByRole('combobox', { name: 'Term' }).inputValue()).toBe('I');
    // The page says what it records; the competency's term is locked like its class and subject,
    // and the locked choices read as plainly as any text (not faded grey on grey).
    await page.getByRole('heading', { name: 'Record competency scores', level: 1 }).waitFor();
    await expect(filter.getByRole('combobox', { name: 'Term' }).isDisabled()).resolves.toBe(true);
    await expect(filter.getByRole('combobox', { name: 'Subject' }).isDisabled()).resolves.toBe(true);
    for (const name of ['Class', 'Term', 'Subject'])
      await expect(filter.getByRole('combobox', { name }).evaluate((element) => getComputedStyle(element).opacity)).resolves.toBe('1');
    await filter.getByRole('checkbox', { name: aoi }).check();
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();

    // A column copied from a spreadsheet: scores with a decimal and an absence.
    await cell(page, 0, 0).focus();
    await paste(page, '2.5\n3\nABS\n1.5\n');
    await expect(cell(page, 0, 0).inputValue()).resolves.toBe('2.5');
    await expect(cell(page, 2, 0).inputValue()).resolves.toBe('ABS');
    await expect(cell(page, 3, 0).inputValue()).resolves.toBe('1.5');
    // A 4 is off the scale: refused in its cell, with its reason, before anything is sent.
    await cell(page, 4, 0).click();
    await page.keyboard.type('4');
    await expect(cell(page, 4, 0).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByTestId('save-marks').click();
    await page.getByTestId('wrong-cells').waitFor();
    await cell(page, 4, 0).fill('2');
    await page.getByTestId('save-marks').click();
    await page
      .locator('.mantine-Notification-root', { hasText: /^Marks saved: 5; unchanged: \d+\.$/ })
      .first()
      .waitFor();

    // Opened again from its address: the competency's scores are there.
    await page.goto(gridAddress);
    await page.getByTestId('competency-banner').getByText(`Competency: ${title}`, { exact: false }).waitFor();
    const again = page.getByRole('form', { name: 'Marks filter' });
    await expect.poll(() => again.getByRole('combobox', { name: 'Class' }).inputValue()).toBe('S2');
    await again.getByRole('checkbox', { name: aoi }).check();
    await again.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();
    await expect.poll(() => cell(page, 0, 0).inputValue()).toBe('2.5');
    await expect(cell(page, 1, 0).inputValue()).resolves.toBe('3');
    await expect(cell(page, 2, 0).inputValue()).resolves.toBe('ABS');
    await expect(cell(page, 4, 0).inputValue()).resolves.toBe('2');
    await page.context().close();
  });
});

describe("a new-curriculum learner's page", () => {
  it('shows each competency with its activities, score and identifier, the subject’s mean, a project with its comment, and exams without grades', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/dashboard' });
    const learners = (await callApi(page, 'GET', '/api/school/students?form=S3&per_page=5')).data as {
      students: Array<{ id: string; fullname: string }>;
    };
    const learner = learners.students[0] as { id: string; fullname: string };
    // The learner's score on one of the demo's S3 projects, with a comment, as the project's grid saves it.
    const projects = (await callApi(page, 'GET', '/api/school/projects?form=S3&per_page=5')).data as {
      projects: Array<{ id: string; title: string; max_score: number }>;
    };
    const project = projects.projects[0] as { id: string; title: string; max_score: number };
    const comment = `Careful measurements ${unique()}`;
    // From the version the grid loads (the demo may have scored the learner already).
    const grid = (await callApi(page, 'POST', '/api/school/projectscores/grid', { project_id: project.id })).data as {
      students: Array<{ student: { id: string }; scores: { version: number } | null }>;
    };
    const version = grid.students.find((row) => row.student.id === learner.id)?.scores?.version ?? 0;
    const saved = await callApi(page, 'POST', '/api/school/projectscores', {
      project_id: project.id,
      save_id: crypto.randomUUID(),
      scores: { [learner.id]: { score: 8.5, comment } },
      base: { [learner.id]: version },
    });
    expect(saved.status).toBe(200);

    await page.goto(`/students/${learner.id}`);
    const nc = page.getByTestId('nc-results');
    await nc.waitFor();
    // Every subject the demo scored: its competencies, each with its activities of integration and identifier, and the mean.
    const subjects = nc.locator('[data-nc-block]');
    await expect.poll(() => subjects.count()).toBeGreaterThan(3);
    const first = subjects.first();
    await expect.poll(() => first.locator('tr[data-topic]').count()).toBeGreaterThan(2);
    await expect(first.locator('tr[data-topic]').first().locator('td').nth(1).textContent()).resolves.toMatch(/^AOI 1: (\d(\.\d)?|ABS)/);
    await expect(first.locator('tr[data-topic="average"] td').nth(3).textContent()).resolves.toMatch(/^(Outstanding|Moderate|Basic)$/);
    const projectRow = nc.locator(`tr[data-project="${project.title}"]`);
    await expect(projectRow.locator('td').nth(1).textContent()).resolves.toBe(`8.5 / ${project.max_score}`);
    await expect(projectRow.locator('td').nth(2).textContent()).resolves.toBe(comment);
    // The end-of-term exam shows its marks without a grade column: the new curriculum prints no grades.
    const exam = page.getByTestId('exam-EOT');
    await exam.waitFor();
    await expect(exam.locator('thead th').count()).resolves.toBe(2);
    await page.context().close();
  });
});

describe('on a phone, 360 px wide', () => {
  const PHONE = { width: 360, height: 740 };
  /** How far the page scrolls sideways (0: not at all). */
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  /** The value a record card shows beside a label ('' when the card has no such line). */
  const cardValue = (page: Page, label: string) =>
    page
      .locator('[data-card]')
      .first()
      .evaluate((card, wanted) => {
        for (const line of Array.from(card.querySelectorAll('div'))) {
          const texts = Array.from(line.children).map((child) => (child.textContent ?? '').trim());
          if (texts.length === 2 && texts[0] === wanted) return texts[1] ?? '';
        }
        return '';
      }, label);

  it("a learner's new-curriculum tables: every cell reached (the table scrolls in its own box), columns aligned, a project's score on one line", async () => {
    const page = await h.signedIn(ADMIN, { ...PHONE, school: 'demo-secondary', path: '/dashboard' });
    const learners = (await callApi(page, 'GET', '/api/school/students?form=S3&per_page=5')).data as {
      students: Array<{ id: string }>;
    };
    const learner = learners.students[0] as { id: string };
    // A score with a decimal on one of the demo's S3 projects, as the project's grid saves it.
    const projects = (await callApi(page, 'GET', '/api/school/projects?form=S3&per_page=5')).data as {
      projects: Array<{ id: string; title: string; max_score: number }>;
    };
    const project = projects.projects[0] as { id: string; title: string; max_score: number };
    const grid = (await callApi(page, 'POST', '/api/school/projectscores/grid', { project_id: project.id })).data as {
      students: Array<{ student: { id: string }; scores: { version: number } | null }>;
    };
    const version = grid.students.find((row) => row.student.id === learner.id)?.scores?.version ?? 0;
    const saved = await callApi(page, 'POST', '/api/school/projectscores', {
      project_id: project.id,
      save_id: crypto.randomUUID(),
      scores: { [learner.id]: { score: 6.7, comment: `A clear plan, carefully measured and neatly drawn ${unique()}` } },
      base: { [learner.id]: version },
    });
    expect(saved.status).toBe(200);

    await page.goto(`/students/${learner.id}`);
    const nc = page.getByTestId('nc-results');
    await nc.waitFor();
    await expect.poll(() => nc.locator('[data-nc-block]').count()).toBeGreaterThan(1);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // Each table's cells: inside the screen, or reached by scrolling the table's own box to its end.
    const unreached = await nc.locator('table').evaluateAll((tables) =>
      tables.flatMap((table) => {
        let box: HTMLElement | null = table.parentElement;
        while (box && box !== document.body && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
        if (box && box !== document.body) box.scrollLeft = box.scrollWidth;
        const edge = Math.min(window.innerWidth, box && box !== document.body ? box.getBoundingClientRect().right : window.innerWidth);
        return Array.from(table.querySelectorAll('th, td'))
          .filter((cell) => {
            const rect = cell.getBoundingClientRect();
            return rect.width > 0 && rect.right > edge + 1;
          })
          .map((cell) => `${table.getAttribute('data-nc-subject') ?? 'projects'}: ${(cell.textContent ?? '').trim()}`);
      }),
    );
    expect(unreached).toEqual([]);
    // The identifier column is called so, and lines up from one subject's table to the next.
    await expect(nc.locator('table[data-nc-subject] thead th').nth(3).textContent()).resolves.toBe('Identifier');
    const widths = await nc.locator('table[data-nc-subject]').evaluateAll((tables) =>
      tables.map((table) =>
        Array.from(table.querySelectorAll('thead th'))
          .map((th) => Math.round(th.getBoundingClientRect().width))
          .join(','),
      ),
    );
    expect(new Set(widths).size).toBe(1);
    // "6.7 / 10" stays on one line.
    const score = nc.locator(`tr[data-project="${project.title}"] td`).nth(1);
    await expect(score.textContent()).resolves.toBe(`6.7 / ${project.max_score}`);
    const lines = await score.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    await page.context().close();
  });

  it("the competencies' cards lead with the title, the marks' cards show the mark type and the mark", async () => {
    const page = await h.signedIn(ADMIN, { ...PHONE, school: 'demo-secondary', path: '/school/topics' });
    const topics = (await callApi(page, 'GET', '/api/school/topics?form=S1&per_page=100')).data as {
      topics: Array<{ id: string; title: string }>;
    };
    const titles = new Set(topics.topics.map((topic) => topic.title));
    const all = (await callApi(page, 'GET', '/api/school/topics?per_page=1000')).data as { topics: Array<{ title: string }> };
    for (const topic of all.topics) titles.add(topic.title);
    await page.getByTestId('record-cards').waitFor();
    await expect.poll(() => cardValue(page, 'Title')).not.toBe('');
    expect(titles.has(await cardValue(page, 'Title'))).toBe(true);
    expect(await sideways(page)).toBeLessThanOrEqual(0);

    // A demo S1 competency's scores: each card says which activity of integration and the score.
    let scored: string | undefined;
    for (const topic of topics.topics) {
      const marks = (await callApi(page, 'GET', `/api/school/marks?topic_id=${topic.id}&per_page=1`)).data as { totalRecords: number };
      if (marks.totalRecords > 0) {
        scored = topic.id;
        break;
      }
    }
    expect(scored).toBeDefined();
    await page.goto(`/school/marks?topic_id=${scored}`);
    await page.getByTestId('record-cards').waitFor();
    await expect.poll(() => cardValue(page, 'Mark type')).toMatch(/\S/);
    await expect(cardValue(page, 'Mark')).resolves.toMatch(/^(\d(\.\d)?|ABS)$/);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});
