import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, callApi, type Harness, pickOption, TEACHER, useHarness } from './harness.js';

/*
 * A class sheet belongs to the filter it was loaded for (issue 23 items 15 and 16). On the demo
 * a teacher changed the Subject, typed 33 into the grid still on screen and overwrote another
 * subject's mark; a comment typed after switching subjects was stored under the first. Now the
 * sheet names what it was loaded for, goes stale (nothing typed or saved) the moment the form
 * names something else, and a refused Next removes it. Each test makes its own subjects and mark
 * types, so nothing it writes meets another test's.
 */

let h: Harness;
let serial = 0;

beforeAll(async () => {
  h = await useHarness();
});

const unique = (what: string) => `${what} ${Date.now() % 100000}-${++serial}`;

async function created(page: Page, path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const answer = await callApi(page, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.data)).toBe(200);
  return answer.data as { id: string };
}

/** The signed-in admin of demo-primary on `path`, with two subjects and a mark type of the test's own. */
async function adminWithSubjects(path: string) {
  const page = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/dashboard' });
  const first = unique('Sheet English');
  const second = unique('Sheet Mathematics');
  const type = unique('Sheet EOT');
  const ids = {
    first: (await created(page, '/api/school/subjects', { name: first, category: 'general' })).id,
    second: (await created(page, '/api/school/subjects', { name: second, category: 'general' })).id,
    type: (await created(page, '/api/school/marktypes', { label: type, category: 'test', outof: 100 })).id,
  };
  await page.goto(path);
  return { page, names: { first, second, type }, ids };
}

async function chooseClass(page: Page, filter: Locator, form: string, stream: string) {
  await filter.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: form, exact: true }).click();
  await pickOption(page, filter.getByRole('combobox', { name: 'Stream' }), stream);
}

const heading = (page: Page) => page.getByTestId('sheet-heading');
const stale = (page: Page) => page.getByTestId('sheet-stale');

describe('the marks grid belongs to its filter', () => {
  it('names its grid, goes stale when the subject changes (no typing, no SAVE), saves into its own subject, and a refused Next removes it', async () => {
    const { page, names, ids } = await adminWithSubjects('/marks/create');
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await chooseClass(page, filter, 'P5', 'East');
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.first);
    await filter.getByRole('checkbox', { name: names.type }).check();
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();
    const term = await filter.getByRole('combobox', { name: 'Term' }).inputValue();
    const year = await filter.getByRole('textbox', { name: 'Year' }).inputValue();
    await expect(heading(page).innerText()).resolves.toBe(`P5 East · ${names.first} · Paper I · Term ${term} ${year} · ${names.type}`);

    const cell = page.locator('[data-cell="0:0"]');
    await cell.fill('33');
    // The form now names the other subject: the grid on screen is no longer the one it shows.
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.second);
    await stale(page).waitFor();
    await expect(page.getByTestId('save-marks').isDisabled()).resolves.toBe(true);
    await expect(cell.isDisabled()).resolves.toBe(true);
    await expect(heading(page).innerText()).resolves.toContain(names.first);

    // Put back, the grid is live again, and its SAVE writes into its own subject only.
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.first);
    await expect(stale(page).count()).resolves.toBe(0);
    await page.getByTestId('save-marks').click();
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    const marksOf = async (subject: string) => {
      const query = `form=P5&stream=East&term=${term}&year=${year}&subject_id=${subject}&marktype_id=${ids.type}`;
      const answer = await callApi(page, 'GET', `/api/school/marks?${query}`);
      return (answer.data as { marks: Array<{ mark: unknown }> }).marks.map((row) => row.mark);
    };
    await expect(marksOf(ids.first)).resolves.toEqual([33]);
    await expect(marksOf(ids.second)).resolves.toEqual([]);

    // Next for the other subject opens its own grid, named so, with nothing of the first.
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.second);
    await filter.getByRole('button', { name: 'Next' }).click();
    await heading(page).getByText(names.second, { exact: false }).waitFor();
    await expect(page.locator('[data-cell="0:0"]').inputValue()).resolves.toBe('');
    await expect(stale(page).count()).resolves.toBe(0);

    // A Next the form refuses (no mark type) leaves no grid behind.
    await filter.getByRole('checkbox', { name: names.type }).uncheck();
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('loaded-sheet').waitFor({ state: 'detached' });
    await expect(page.getByTestId('marks-grid').count()).resolves.toBe(0);
    await page.context().close();
  });
});

describe('subject comments belong to their filter', () => {
  it('go stale when the subject changes, so a comment typed then cannot be saved under the first subject; Next opens the other', async () => {
    const { page, names, ids } = await adminWithSubjects('/comments/subject');
    const filter = page.getByRole('form', { name: 'Subject comments filter' });
    await chooseClass(page, filter, 'P5', 'East');
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.first);
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('comments-sheet').waitFor();
    const term = await filter.getByRole('combobox', { name: 'Term' }).inputValue();
    const year = await filter.getByRole('textbox', { name: 'Year' }).inputValue();
    await expect(heading(page).innerText()).resolves.toMatch(new RegExp(`^P5 East · ${names.first} · Term ${term} ${year} · Exam`));

    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.second);
    await stale(page).waitFor();
    const comment = page.locator('textarea[data-comment="0"]');
    await expect(comment.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('save-comments').isDisabled()).resolves.toBe(true);

    await filter.getByRole('button', { name: 'Next' }).click();
    await heading(page).getByText(names.second, { exact: false }).waitFor();
    await expect(stale(page).count()).resolves.toBe(0);
    await comment.fill('Works hard at numbers.');
    await page.getByTestId('save-comments').click();
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();

    const commentsOf = async (subject: string) => {
      const query = `form=P5&stream=East&term=${term}&year=${year}&category=exam&subject_id=${subject}`;
      const answer = await callApi(page, 'GET', `/api/school/markcomments?${query}`);
      expect(answer.status).toBe(200);
      return (answer.data as { records: Array<{ comment: string | null }> }).records.map((row) => row.comment).filter(Boolean);
    };
    await expect(commentsOf(ids.second)).resolves.toEqual(['Works hard at numbers.']);
    await expect(commentsOf(ids.first)).resolves.toEqual([]);
    await page.context().close();
  });
});

describe('the stream is chosen from the class’s streams', () => {
  it('offers the class’s streams as its learners are in them, and the demo teacher the P5 streams he teaches', async () => {
    const page = await h.signedIn(TEACHER, { school: 'demo-primary', path: '/marks/create' });
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await filter.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'P5', exact: true }).click();
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), 'Mathematics');
    const stream = filter.getByRole('combobox', { name: 'Stream' });
    await pickOption(page, stream, 'West');
    await stream.click({ force: true });
    await expect(page.getByRole('listbox').getByRole('option').allInnerTexts()).resolves.toEqual(['East', 'West']);
    await page.keyboard.press('Escape');
    await expect(stream.inputValue()).resolves.toBe('West');
    // Left empty, the stream is every stream of the class (the placeholder says so).
    await expect(stream.getAttribute('placeholder')).resolves.toBe('All streams');
    await page.context().close();

    // The administrator's P3 offers P3's streams, as its learners are in them.
    const admin = await h.signedIn(ADMIN, { school: 'demo-primary', path: '/marks/create' });
    const adminFilter = admin.getByRole('form', { name: 'Marks filter' });
    await adminFilter.getByRole('combobox', { name: 'Class' }).click();
    await admin.getByRole('option', { name: 'P3', exact: true }).click();
    const streams = (await callApi(admin, 'GET', '/api/school/classstreams')).data as {
      classes: Array<{ form: string; streams: string[] }>;
    };
    const p3 = streams.classes.find((row) => row.form === 'P3')?.streams ?? [];
    expect(p3).toEqual(expect.arrayContaining(['East', 'West']));
    const adminStream = adminFilter.getByRole('combobox', { name: 'Stream' });
    await pickOption(admin, adminStream, 'East');
    await adminStream.click({ force: true });
    await expect(admin.getByRole('listbox').getByRole('option').allInnerTexts()).resolves.toEqual(p3);
    await admin.context().close();
  });
});

describe('a pasted block lands on the learners it names', () => {
  /** Pastes text at the focused cell as a spreadsheet's copy arrives (a paste event with text/plain). */
  const paste = (page: Page, text: string) =>
    page.evaluate((content) => {
      const data = new DataTransfer();
      data.setData('text/plain', content);
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);

  it('lists the class by surname, pastes a register’s lines onto the learners they name, says which named no one, and shows whom a positional paste reached', async () => {
    const { page, names, ids } = await adminWithSubjects('/marks/create');
    const filter = page.getByRole('form', { name: 'Marks filter' });
    await chooseClass(page, filter, 'P5', 'East');
    await pickOption(page, filter.getByRole('combobox', { name: 'Subject' }), names.first);
    await filter.getByRole('checkbox', { name: names.type }).check();
    await filter.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('marks-grid').waitFor();

    // The grid's order is the class list's: surname (the last name written), then first name.
    const learners = await page
      .locator('tr[data-learner]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-learner') ?? ''));
    expect(learners.length).toBeGreaterThan(6);
    const surnameFirst = (name: string) => {
      const words = name.split(' ');
      return `${words.at(-1)} ${words[0]}`;
    };
    expect(learners).toEqual([...learners].sort((a, b) => surnameFirst(a).localeCompare(surnameFirst(b))));

    // A register's lines, not in the grid's order, one of them naming no learner of P5 East.
    const [first, second, third] = [learners[5], learners[0], learners[3]] as [string, string, string];
    const register = [`${surnameFirst(first).toUpperCase()}\t71`, `${second}\t72`, 'Nobody Atall\t73', `${third}\t74`].join('\n');
    await page.locator('[data-cell="0:0"]').focus();
    await paste(page, `${register}\n`);
    const report = page.getByTestId('paste-report');
    await expect(report.getAttribute('data-by')).resolves.toBe('name');
    const cellOf = (name: string) => page.getByRole('textbox', { name: `${names.type}, ${name}`, exact: true });
    await expect(cellOf(first).inputValue()).resolves.toBe('71');
    await expect(cellOf(second).inputValue()).resolves.toBe('72');
    await expect(cellOf(third).inputValue()).resolves.toBe('74');
    await expect(report.getByTestId('paste-unmatched').innerText()).resolves.toContain('line 3, Nobody Atall');
    await expect(page.locator('tr[data-pasted="yes"]').count()).resolves.toBe(3);

    // Marks alone land by position, and the teacher is told whom they reached before saving.
    await page.locator('[data-cell="1:0"]').focus();
    await paste(page, '61\n62\n');
    await expect(report.getAttribute('data-by')).resolves.toBe('position');
    await expect(report.getByTestId('pasted-learners').innerText()).resolves.toBe(
      `Learners who received values (2): ${learners[1]}, ${learners[2]}`,
    );
    await page.getByTestId('save-marks').click();
    await page.getByTestId('unsaved-count').getByText('0 unsaved').waitFor();
    const term = await filter.getByRole('combobox', { name: 'Term' }).inputValue();
    const year = await filter.getByRole('textbox', { name: 'Year' }).inputValue();
    const query = `form=P5&stream=East&term=${term}&year=${year}&subject_id=${ids.first}&marktype_id=${ids.type}`;
    const stored = (await callApi(page, 'GET', `/api/school/marks?${query}`)).data as {
      marks: Array<{ student: { fullname: string }; mark: unknown }>;
    };
    expect(Object.fromEntries(stored.marks.map((row) => [row.student.fullname, row.mark]))).toEqual({
      [first]: 71,
      [second]: 72,
      [learners[1] as string]: 61,
      [learners[2] as string]: 62,
      [third]: 74,
    });
    await page.context().close();
  });
});
