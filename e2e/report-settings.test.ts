import AxeBuilder from '@axe-core/playwright';
import { DEFAULT_GRADING_RULES, GRADING_RULE_MESSAGES, type GradingRulesAnswer } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { callApi, type Harness, useHarness } from './harness.js';

/*
 * A school's grading rules and report layout in the browser (issue 15 points 1 and 5). Each test
 * works in a school of its own, so the demo schools' reports keep the guide's defaults.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

/** A new school and its head teacher (who manages settings), signed in on `path`. */
async function headOfNewSchool(name: string, path: string): Promise<Page> {
  const school = await makeTenant(h.database, { name });
  const head = await makeUser(h.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  return h.signedIn(head.email, { password: head.password, school: school.tenantcode, path });
}

/**
 * Serious or critical accessibility faults of the page as it is, or of the parts named (the
 * grading rules repeat a few kinds of row hundreds of times: one of each is checked, in time).
 */
async function seriousFaults(page: Page, parts: string[] = []): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  for (const part of parts) builder.include(`[data-testid="${part}"]`);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const saved = (page: Page) => page.locator('.mantine-Notification-root', { hasText: 'Successfully updated' }).first().waitFor();

/** The PLE division cap's box of division `name`. */
const pleCap = (page: Page, name: string) =>
  page.getByTestId('rules-primary').getByRole('textbox', { name: `Aggregate at most for division ${name}`, exact: true });

describe('grading rules', () => {
  it('keeps a school’s own PLE division cap after a save and a reload', async () => {
    const page = await headOfNewSchool('Rules Primary', '/school/gradingrules');
    await page.getByTestId('grading-rules').waitFor();
    await expect(pleCap(page, 'I').inputValue()).resolves.toBe('12');
    await pleCap(page, 'I').fill('13');
    await page.getByTestId('settings-save').click();
    await saved(page);

    await page.reload();
    await page.getByTestId('grading-rules').waitFor();
    await expect(pleCap(page, 'I').inputValue()).resolves.toBe('13');
    const stored = (await callApi(page, 'GET', '/api/school/gradingrules')).data as GradingRulesAnswer;
    expect(stored.version).toBe(1);
    expect(stored.rules.primary.divisions[0]).toEqual({ division: 'I', aggregateAtMost: 13 });

    // Restore the defaults fills the form only; Save keeps them.
    await page.getByTestId('restore-defaults').click();
    await expect(pleCap(page, 'I').inputValue()).resolves.toBe('12');
    expect(((await callApi(page, 'GET', '/api/school/gradingrules')).data as { version: number }).version).toBe(1);
    await page.getByTestId('settings-save').click();
    await saved(page);
    expect((await callApi(page, 'GET', '/api/school/gradingrules')).data).toEqual({
      rules: DEFAULT_GRADING_RULES,
      defaults: DEFAULT_GRADING_RULES,
      version: 2,
    });
    await page.context().close();
  });

  it('names caps that do not rise beside the field, and sends nothing', async () => {
    const page = await headOfNewSchool('Caps Primary', '/school/gradingrules');
    await page.getByTestId('grading-rules').waitFor();
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.url());
    });
    await pleCap(page, 'II').fill('12');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('primary-division-1').getByText(GRADING_RULE_MESSAGES.divisionCapsUnsorted).waitFor();
    await page.getByTestId('settings-invalid').waitFor();
    expect(puts).toEqual([]);
    // Errors beside the fields included, the screen passes the accessibility check (a part of each kind).
    const parts = ['rules-grades', 'rules-primary', 'olevel-division-2', 'alevel-table-1', 'alevel-points', 'settings-invalid'];
    await expect(seriousFaults(page, parts)).resolves.toEqual([]);
    // Fixed, the error goes at once (the form is checked again on every change after a refusal).
    await pleCap(page, 'II').fill('24');
    await page.getByTestId('primary-division-1').getByText(GRADING_RULE_MESSAGES.divisionCapsUnsorted).waitFor({ state: 'detached' });
    await page.getByTestId('settings-invalid').waitFor({ state: 'detached' });

    await page.reload();
    await page.getByTestId('grading-rules').waitFor();
    await expect(pleCap(page, 'II').inputValue()).resolves.toBe('23');
    expect(((await callApi(page, 'GET', '/api/school/gradingrules')).data as { version: number }).version).toBe(0);
    await page.context().close();
  });

  it('keeps how positions rank and where incomplete results go after a save and a reload (issue 23 item 3)', async () => {
    const page = await headOfNewSchool('Ranks Primary', '/school/gradingrules');
    const section = page.getByTestId('rules-positions');
    await section.waitFor();
    const incomplete = section.getByRole('combobox', { name: 'Incomplete results' });
    await expect(incomplete.inputValue()).resolves.toBe('Follow the complete results, by total');
    await incomplete.click();
    await page.getByRole('option', { name: 'Are not ranked', exact: true }).click();
    await section.getByRole('combobox', { name: 'Rank learners by' }).click();
    await page.getByRole('option', { name: 'Their average mark', exact: true }).click();
    await page.getByTestId('settings-save').click();
    await saved(page);

    await page.reload();
    await page.getByTestId('rules-positions').waitFor();
    await expect(page.getByTestId('rules-positions').getByRole('combobox', { name: 'Incomplete results' }).inputValue()).resolves.toBe(
      'Are not ranked',
    );
    const stored = (await callApi(page, 'GET', '/api/school/gradingrules')).data as GradingRulesAnswer;
    expect(stored.rules.positions).toEqual({ basis: 'average', incomplete: 'unranked' });
    await page.context().close();
  });

  it('offers the missed-test and rounding rules with worked examples, and keeps the choice (issue 24 point 4)', async () => {
    const page = await headOfNewSchool('Missed Tests Primary', '/school/gradingrules');
    const section = page.getByTestId('rules-missed-rounding');
    await section.waitFor();
    const missed = section.getByRole('combobox', { name: 'A missed mark type' });
    await expect(missed.inputValue()).resolves.toBe('Grade on the mark types sat, re-weighted (the default)');
    await expect(section.getByTestId('missed-example').textContent()).resolves.toBe(
      'Example: BOT 20%, MOT 30% (missed), EOT 50%; BOT 60, EOT 70 → (12 + 35) / 70 × 100 = 67.14 → C4',
    );
    await expect(section.getByTestId('rounding-example').textContent()).resolves.toBe(
      '59.5 → printed 59.5, grade C659.96 → printed 59.96, grade C6',
    );
    await missed.click();
    await page.getByRole('option', { name: 'Count the missed part as 0', exact: true }).click();
    await section.getByTestId('missed-example').getByText('12 + 0 + 35 = 47 → P7').waitFor();
    await section.getByRole('combobox', { name: 'The subject mark before grading' }).click();
    await page.getByRole('option', { name: 'Rounded to a whole number (half up)', exact: true }).click();
    await section.getByTestId('rounding-example').getByText('59.5 → printed 60, grade C5').waitFor();
    expect(await seriousFaults(page, ['rules-missed-rounding'])).toEqual([]);
    await page.getByTestId('settings-save').click();
    await saved(page);

    await page.reload();
    await page.getByTestId('rules-missed-rounding').waitFor();
    await expect(
      page.getByTestId('rules-missed-rounding').getByRole('combobox', { name: 'The subject mark before grading' }).inputValue(),
    ).resolves.toBe('Rounded to a whole number (half up)');
    const stored = (await callApi(page, 'GET', '/api/school/gradingrules')).data as GradingRulesAnswer;
    expect([stored.rules.missed, stored.rules.rounding]).toEqual(['zero', 'whole']);
    await page.context().close();
  });

  it('says so when someone else saved since the page opened, and reloads their rules', async () => {
    const page = await headOfNewSchool('Busy Primary', '/school/gradingrules');
    await page.getByTestId('grading-rules').waitFor();
    const theirs = structuredClone(DEFAULT_GRADING_RULES);
    (theirs.primary.divisions[0] as { aggregateAtMost: number }).aggregateAtMost = 11;
    expect((await callApi(page, 'PUT', '/api/school/gradingrules', { rules: theirs, version: 0 })).status).toBe(200);

    await pleCap(page, 'I').fill('13');
    await page.getByTestId('settings-save').click();
    const conflict = page.getByTestId('settings-conflict');
    await conflict.getByText('Someone else saved these settings after you opened them').waitFor();
    await conflict.getByRole('button', { name: 'Reload' }).click();
    await conflict.waitFor({ state: 'detached' });
    await expect(pleCap(page, 'I').inputValue()).resolves.toBe('11');
    await page.context().close();
  });
});

describe('report layout', () => {
  it('keeps unticked positions, a left-out section and a moved one after a save and a reload', async () => {
    const page = await headOfNewSchool('Layout Primary', '/school/reportlayout');
    await page.getByTestId('report-layout').waitFor();
    await page.getByTestId('layout-preview').waitFor();
    await expect(seriousFaults(page)).resolves.toEqual([]);
    const positions = page.getByRole('switch', { name: 'Show positions in class and stream' });
    await expect(positions.isChecked()).resolves.toBe(true);
    await positions.uncheck({ force: true });
    await page.getByTestId('layout-sections').getByRole('checkbox', { name: 'Grade key' }).uncheck();
    await page.getByRole('button', { name: 'Move Attendance up' }).click();
    await page.getByRole('textbox', { name: 'Header line 1' }).fill('Hard work pays');
    await page.getByTestId('settings-save').click();
    await saved(page);

    await page.reload();
    await page.getByTestId('report-layout').waitFor();
    await expect(page.getByRole('switch', { name: 'Show positions in class and stream' }).isChecked()).resolves.toBe(false);
    await expect(page.getByTestId('layout-sections').getByRole('checkbox', { name: 'Grade key' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('textbox', { name: 'Header line 1' }).inputValue()).resolves.toBe('Hard work pays');
    const order = await page
      .getByTestId('layout-sections')
      .locator('[data-section]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-section')));
    expect(order).toEqual([
      'header',
      'learner',
      'subjects',
      'attendance',
      'summary',
      'remarks',
      'nextTerm',
      'footers',
      'signatures',
      'gradeKey',
    ]);
    expect((await callApi(page, 'GET', '/api/school/reportlayout')).data).toMatchObject({
      version: 1,
      layout: {
        sections: ['header', 'learner', 'subjects', 'attendance', 'summary', 'remarks', 'nextTerm', 'footers', 'signatures'],
        headerLines: ['Hard work pays'],
        showPositions: false,
        showPhoto: true,
      },
    });
    await page.context().close();
  });
});
