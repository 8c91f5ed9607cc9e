import AxeBuilder from '@axe-core/playwright';
import { DEFAULT_GRADING_RULES, GRADING_RULE_MESSAGES, type GradingRulesAnswer } from '@mustard/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { ADMIN, callApi, type Harness, pickOption, useHarness } from './harness.js';

/*
 * The new curriculum's rules on the Grading rules screen (issue 27 point 1): the identifier
 * bands, how the formative 20% is made, the A..E table and what the card prints, edited by a
 * secondary school in the same form and saved with the same version. The demo's secondary
 * school is left with the guide's defaults, as it was.
 */

let h: Harness;

beforeAll(async () => {
  h = await useHarness();
});

const saved = (page: Page) => page.locator('.mantine-Notification-root', { hasText: 'Successfully updated' }).first().waitFor();

/** The "from score" box of the identifier `name`. */
const scoreFrom = (page: Page, name: string) =>
  page.getByTestId('rules-new-curriculum').getByRole('textbox', { name: `From score for identifier ${name}`, exact: true });

const formative = (page: Page) => page.getByTestId('rules-new-curriculum').getByRole('combobox', { name: 'How the formative 20% is made' });

async function seriousFaults(page: Page, part: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(`[data-testid="${part}"]`).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the new curriculum’s grading rules', () => {
  it('keeps a secondary school’s bands and formative mode, names an unsorted band at its field, and restores the defaults', async () => {
    const page = await h.signedIn(ADMIN, { school: 'demo-secondary', path: '/school/gradingrules' });
    const section = page.getByTestId('rules-new-curriculum');
    await section.waitFor();
    await expect(scoreFrom(page, 'Moderate').inputValue()).resolves.toBe('1.5');
    await expect(formative(page).inputValue()).resolves.toBe('Scores: score / 3 × 20');
    await expect(section.getByRole('switch', { name: 'Print positions on the card' }).isChecked()).resolves.toBe(false);
    await section.getByTestId('nc-defaults').getByText('Outstanding from 2.5, Moderate from 1.5, Basic from 0').waitFor();
    const start = ((await callApi(page, 'GET', '/api/school/gradingrules')).data as GradingRulesAnswer).version;

    // Typed as a person types it: the decimal point stays while the number is half written.
    await scoreFrom(page, 'Moderate').fill('');
    await scoreFrom(page, 'Moderate').pressSequentially('1.6');
    await expect(scoreFrom(page, 'Moderate').inputValue()).resolves.toBe('1.6');
    await pickOption(page, formative(page), 'Scores and project: score / 3 × 10 + project / max × 10');
    await page.getByTestId('settings-save').click();
    await saved(page);

    await page.reload();
    await page.getByTestId('rules-new-curriculum').waitFor();
    await expect(scoreFrom(page, 'Moderate').inputValue()).resolves.toBe('1.6');
    await expect(formative(page).inputValue()).resolves.toBe('Scores and project: score / 3 × 10 + project / max × 10');
    const stored = (await callApi(page, 'GET', '/api/school/gradingrules')).data as GradingRulesAnswer;
    expect(stored.version).toBe(start + 1);
    expect(stored.rules.newCurriculum.identifiers[1]).toMatchObject({ label: 'Moderate', atLeast: 1.6 });
    expect(stored.rules.newCurriculum.formative).toBe('scoresAndProject');

    // A band above the one before it: named at its field, nothing sent.
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.url());
    });
    await scoreFrom(page, 'Moderate').fill('2.7');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('nc-identifier-1').getByText(GRADING_RULE_MESSAGES.ncBoundsUnsorted).waitFor();
    await page.getByTestId('settings-invalid').waitFor();
    expect(puts).toEqual([]);
    await expect(seriousFaults(page, 'rules-new-curriculum')).resolves.toEqual([]);
    // On a phone too (the accessibility file checks the page at 360 px in a primary school, without this section).
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(seriousFaults(page, 'grading-rules')).resolves.toEqual([]);
    await page.setViewportSize({ width: 1366, height: 768 });

    // The defaults back, and saved: the demo as it was.
    await page.getByTestId('restore-defaults').click();
    await expect(scoreFrom(page, 'Moderate').inputValue()).resolves.toBe('1.5');
    await expect(formative(page).inputValue()).resolves.toBe('Scores: score / 3 × 20');
    await page.getByTestId('settings-invalid').waitFor({ state: 'detached' });
    await page.getByTestId('settings-save').click();
    await saved(page);
    expect((await callApi(page, 'GET', '/api/school/gradingrules')).data).toEqual({
      rules: DEFAULT_GRADING_RULES,
      defaults: DEFAULT_GRADING_RULES,
      version: start + 2,
    });
    await page.context().close();
  });

  it('is not shown to a primary school', async () => {
    const school = await makeTenant(h.database, { name: 'Rules Only Primary' });
    const head = await makeUser(h.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const page = await h.signedIn(head.email, { password: head.password, school: school.tenantcode, path: '/school/gradingrules' });
    await page.getByTestId('rules-missed-rounding').waitFor();
    await expect(page.getByTestId('rules-new-curriculum').count()).resolves.toBe(0);
    await page.context().close();
  });
});
