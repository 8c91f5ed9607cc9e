import { currentTerm, defaultTermDates, localDay } from '@mustard/shared';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant, withTenantTx } from '../apps/server/src/db/tenant.js';
import { seedSchoolDefaults } from '../apps/server/src/seed/school-defaults.js';
import { makeMarks, makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { type Harness, pickOption, useHarness } from './harness.js';

/**
 * A card a head teacher signs (issue 24 point 3), in the browser: a new school with the Ugandan
 * defaults and nothing else set up but its learners' marks (one stream) previews a card with the
 * signature lines, the key with the division rule and X, raw marks under BOT, MOT and EOT and no
 * position in stream; and the Report layout screen's preview fits its pane at 1366 px (point 7).
 */
let h: Harness;
let head: { email: string; password: string };
const TENANT = 'card-defaults';
const today = currentTerm(localDay(), defaultTermDates(Number(localDay().slice(0, 4))));

beforeAll(async () => {
  h = await useHarness();
  const school = await makeTenant(h.database, { tenantcode: TENANT, name: 'Bukoto Primary' });
  await withTenantTx(h.database.db, { tenantId: school.id }, (tx) =>
    seedSchoolDefaults(tx, { schooltype: 'primary', classes: ['P7'] }, 'primary', today.year),
  );
  const user = await makeUser(h.database, { name: 'Bukoto Head', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = { email: user.email, password: user.password };
  const { subjects, types } = await withTenant(h.database.db, { tenantId: school.id }, async (trx) => ({
    subjects: await trx.selectFrom('subjects').select('id').execute(),
    types: await trx.selectFrom('mark_types').select(['id', 'label']).execute(),
  }));
  const learners = [
    { id: newId(), firstname: 'Ruth', lin: 'U7654321', marks: { BOT: 71, MOT: 63, EOT: 87 } },
    { id: newId(), firstname: 'Simon', lin: null, marks: { BOT: 52, MOT: 58, EOT: 61 } },
  ];
  await withTenant(h.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('students')
      .values(
        learners.map((learner, index) => ({
          tenant_id: school.id,
          id: learner.id,
          studentid: `BK/${index + 1}`,
          firstname: learner.firstname,
          lastname: 'Ssali',
          form: 'P7',
          stream: 'A',
          lin: learner.lin,
        })),
      )
      .execute(),
  );
  for (const learner of learners)
    await makeMarks(
      h.database,
      school.id,
      learner.id,
      subjects.flatMap((subject) =>
        types
          .filter((type) => type.label in learner.marks)
          .map((type) => ({
            subjectId: subject.id,
            marktypeId: type.id,
            form: 'P7',
            term: today.term,
            year: today.year,
            mark: learner.marks[type.label as keyof typeof learner.marks],
          })),
      ),
    );
});

async function openCard(page: Page) {
  await page.getByRole('heading', { name: 'Terminal Report' }).waitFor();
  const filter = page.getByRole('form', { name: 'Terminal report filter' });
  await pickOption(page, filter.getByRole('combobox', { name: 'Class' }), 'P7');
  await filter.getByRole('button', { name: 'Next' }).click();
  const frame = page.frameLocator('iframe[title="Report preview"]');
  const card = frame.locator('section.card', { hasText: 'Ruth Ssali' });
  await card.waitFor();
  return card;
}

describe('the card of a new school with the defaults', () => {
  it('shows the signature lines, the key with the division rule and X, raw marks under the mark types, no position in stream', async () => {
    const page = await h.signedIn(head.email, { password: head.password, school: TENANT, path: '/terminalreport' });
    const card = await openCard(page);
    const text = await card.innerText();
    expect(text).toMatch(/Class teacher's signature/);
    expect(text).toMatch(/Head teacher's signature/);
    expect(text).toContain('Division I: aggregate 4–12');
    expect(text).toContain('X: no mark in a counted subject');
    expect(text).toContain('U7654321');
    const heads = await card.locator('table.subjects thead th').allInnerTexts();
    expect(heads.slice(1, 4)).toEqual(['BOT', 'MOT', 'EOT']);
    const firstRow = await card.locator('table.subjects tbody tr').first().locator('td').allInnerTexts();
    expect(firstRow.slice(0, 3)).toEqual(['71', '63', '87']);
    expect(text).toContain('Position in class');
    expect(text).not.toContain('Position in stream');
  });
});

describe('the Report layout screen at 1366 px', () => {
  it('fits the card preview in its pane: nothing to scroll sideways, in the page or in the frame', async () => {
    const page = await h.signedIn(head.email, {
      password: head.password,
      school: TENANT,
      path: '/school/reportlayout',
      width: 1366,
      height: 900,
    });
    const pane = page.getByTestId('layout-preview');
    const frame = pane.frameLocator('iframe');
    await frame.locator('section.card').waitFor();
    await expect.poll(async () => Number(await pane.locator('iframe').getAttribute('data-scale'))).toBeLessThan(1);
    const [paneBox, frameBox] = [await pane.boundingBox(), await pane.locator('iframe').boundingBox()];
    if (!paneBox || !frameBox) throw new Error('the preview is not drawn');
    expect(frameBox.x).toBeGreaterThanOrEqual(paneBox.x - 1);
    expect(frameBox.x + frameBox.width).toBeLessThanOrEqual(paneBox.x + paneBox.width + 1);
    // The card itself fits the frame's width (no sideways scroll inside), and the page scrolls no sideways either.
    const inside = await frame.locator('html').evaluate((html) => ({ scroll: html.scrollWidth, client: html.clientWidth }));
    expect(inside.scroll).toBeLessThanOrEqual(inside.client);
    const outside = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(outside.scroll).toBeLessThanOrEqual(outside.client);
    // The card shows the key and the signature lines there too.
    await expect(frame.locator('section.card').innerText()).resolves.toContain('Division I: aggregate 4–12');
  });
});

describe('the badge and the marks under the mark types, on the Report layout screen', () => {
  it('uploads the badge the preview then prints, refuses what is not a picture, shows weighted parts when chosen, removes the badge', async () => {
    const page = await h.signedIn(head.email, { password: head.password, school: TENANT, path: '/school/reportlayout' });
    const frame = page.getByTestId('layout-preview').frameLocator('iframe');
    const card = frame.locator('section.card');
    await card.waitFor();
    const badge = page.getByTestId('school-badge');
    await badge.getByTestId('school-badge-none').waitFor();
    await expect(card.locator('img.logo').count()).resolves.toBe(0);
    const file = badge.locator('input[type="file"]');

    await file.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await badge.getByRole('button', { name: 'Upload the badge' }).click();
    await badge.getByText('The badge must be a JPEG, PNG or WebP picture').waitFor();

    const png = await sharp({ create: { width: 120, height: 120, channels: 4, background: { r: 200, g: 150, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();
    await file.setInputFiles({ name: 'badge.png', mimeType: 'image/png', buffer: png });
    await badge.getByRole('button', { name: 'Upload the badge' }).click();
    await badge.getByTestId('school-badge-image').waitFor();
    await card.locator('img.logo').waitFor();

    // Raw marks by default; weighted parts when chosen, each head with its proportion.
    const heads = () => card.first().locator('table.subjects thead th').allInnerTexts();
    await expect(heads()).resolves.toEqual(expect.arrayContaining(['BOT', 'MOT', 'EOT']));
    await page.getByTestId('layout-mark-values').getByRole('radio', { name: 'Weighted parts' }).check();
    await expect.poll(async () => (await heads()).slice(1, 4).every((head) => /^(BOT|MOT|EOT) (\d+%|weighted)$/.test(head))).toBe(true);

    await badge.getByRole('button', { name: 'Remove the badge' }).click();
    await badge.getByTestId('school-badge-none').waitFor();
    await expect.poll(() => card.locator('img.logo').count()).toBe(0);
  });
});
