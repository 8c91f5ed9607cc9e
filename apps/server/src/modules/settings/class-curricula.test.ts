import { CURRICULUM_MESSAGES, ERROR_MESSAGES, INPUT_MESSAGES, SETTINGS_MESSAGES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant, withTenantTx } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { curriculumSettings } from './class-curricula.service.js';

/* Which classes are new-curriculum classes (issue 26 point 1): GET and PUT /api/school/curricula. */

const PATH = '/api/school/curricula';
let t: TestApp;
let secondary: { id: string; tenantcode: string };
let primary: { id: string; tenantcode: string };
let head: Caller;
let teacher: Caller;
let primaryHead: Caller;
let neighbourHead: Caller;

const DEFAULT_SECONDARY = [
  { form: 'S1', curriculum: 'new', default: 'new' },
  { form: 'S2', curriculum: 'new', default: 'new' },
  { form: 'S3', curriculum: 'new', default: 'new' },
  { form: 'S4', curriculum: 'new', default: 'new' },
  { form: 'S5', curriculum: 'old', default: 'old' },
  { form: 'S6', curriculum: 'old', default: 'old' },
];

const rowsOf = (tenantId: string) =>
  withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('class_curricula').select(['form', 'year', 'curriculum']).orderBy('year').orderBy('form').execute(),
  );

beforeAll(async () => {
  t = await buildTestApp();
  secondary = await makeTenant(t.database, { name: 'Curricula Secondary', schooltype: 'secondary' });
  primary = await makeTenant(t.database, { name: 'Curricula Primary' });
  const neighbour = await makeTenant(t.database, { name: 'Other Secondary', schooltype: 'secondary' });
  const as = async (tenant: { id: string; tenantcode: string }, roles: string[]) => {
    const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles }] });
    return caller(t.app, await login(t.app, user.email), tenant.tenantcode);
  };
  head = await as(secondary, ['headteacher']);
  teacher = await as(secondary, ['teacher']);
  primaryHead = await as(primary, ['headteacher']);
  neighbourHead = await as(neighbour, ['headteacher']);
});
afterAll(() => t.close());

describe('new-curriculum classes', () => {
  it('are a secondary school’s S1 to S4 by default, S5 and S6 old, read by every member; 0 not allowed', async () => {
    const response = await teacher.get(`${PATH}?year=2026`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ year: 2026, allow_zero: false, classes: DEFAULT_SECONDARY });
  });

  it('are none of a primary school’s classes by default', async () => {
    const answer = (await primaryHead.get(`${PATH}?year=2026`)).json();
    expect(answer.classes.length).toBeGreaterThan(0);
    expect(answer.classes.map((row: { form: string }) => row.form)).toContain('P7');
    for (const row of answer.classes) expect(row).toMatchObject({ curriculum: 'old', default: 'old' });
  });

  it('can be set either way for one year, read back for that year only, and audited', async () => {
    const saved = await head.put(PATH, {
      year: 2026,
      allow_zero: false,
      classes: [
        { form: 'S4', curriculum: 'old' },
        { form: 's5', curriculum: 'new' },
        { form: 'S1', curriculum: 'new' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = DEFAULT_SECONDARY.map((row) =>
      row.form === 'S4' ? { ...row, curriculum: 'old' } : row.form === 'S5' ? { ...row, curriculum: 'new' } : row,
    );
    expect(saved.json().classes).toEqual(expected);
    expect((await teacher.get(`${PATH}?year=2026`)).json().classes).toEqual(expected);
    expect((await teacher.get(`${PATH}?year=2027`)).json().classes).toEqual(DEFAULT_SECONDARY);
    // Only the choices against the default are kept, in the school's spelling.
    expect(await rowsOf(secondary.id)).toEqual([
      { form: 'S4', year: 2026, curriculum: 'old' },
      { form: 'S5', year: 2026, curriculum: 'new' },
    ]);
    const audit = await withTenant(t.database.db, { tenantId: secondary.id }, (trx) =>
      trx.selectFrom('audit_log').select(['action', 'entity_id']).where('entity', '=', 'class_curricula').execute(),
    );
    expect(audit).toEqual([{ action: 'update', entity_id: '2026' }]);
  });

  it('are what the marks grid reads through curriculumSettings', async () => {
    const settings = await withTenantTx(t.database.db, { tenantId: secondary.id }, (tx) => curriculumSettings(tx, 2026));
    expect(['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 's4', 'S7'].map(settings.isNew)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      false,
      false,
    ]);
    expect(settings.allowZero).toBe(false);
    const later = await withTenantTx(t.database.db, { tenantId: secondary.id }, (tx) => curriculumSettings(tx, 2030));
    expect(later.isNew('S4')).toBe(true);
    const ofPrimary = await withTenantTx(t.database.db, { tenantId: primary.id }, (tx) => curriculumSettings(tx, 2026));
    expect(ofPrimary.isNew('P7')).toBe(false);
  });

  it('set back to the default are forgotten (no row kept); a class left out keeps its choice', async () => {
    const saved = await head.put(PATH, { year: 2026, allow_zero: false, classes: [{ form: 'S5', curriculum: 'old' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await rowsOf(secondary.id)).toEqual([{ form: 'S4', year: 2026, curriculum: 'old' }]);
    ok(await head.put(PATH, { year: 2026, allow_zero: false, classes: [{ form: 'S4', curriculum: 'new' }] }));
    expect(await rowsOf(secondary.id)).toEqual([]);
    expect((await head.get(`${PATH}?year=2026`)).json().classes).toEqual(DEFAULT_SECONDARY);
  });

  it('keep the school’s rule on a score of 0, for every year', async () => {
    ok(await head.put(PATH, { year: 2026, allow_zero: true, classes: [] }));
    expect((await teacher.get(`${PATH}?year=2026`)).json().allow_zero).toBe(true);
    expect((await teacher.get(`${PATH}?year=2031`)).json().allow_zero).toBe(true);
    expect((await withTenantTx(t.database.db, { tenantId: secondary.id }, (tx) => curriculumSettings(tx, 2031))).allowZero).toBe(true);
    ok(await head.put(PATH, { year: 2026, allow_zero: false, classes: [] }));
    expect((await teacher.get(`${PATH}?year=2026`)).json().allow_zero).toBe(false);
  });

  it('of a primary school are all old: a class set to the new curriculum is refused (422 naming it), nothing saved', async () => {
    const before = await rowsOf(primary.id);
    const refused = await primaryHead.put(PATH, {
      year: 2026,
      allow_zero: true,
      classes: [
        { form: 'P6', curriculum: 'old' },
        { form: 'p7', curriculum: 'new' },
      ],
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors).toEqual({ 'classes.1.curriculum': [CURRICULUM_MESSAGES.primaryNoNew] });
    expect(await rowsOf(primary.id)).toEqual(before);
    const answer = (await primaryHead.get(`${PATH}?year=2026`)).json();
    expect(answer.allow_zero).toBe(false);
    expect(answer.classes.find((entry: { form: string }) => entry.form === 'P7')).toEqual({
      form: 'P7',
      curriculum: 'old',
      default: 'old',
    });
    // Every class kept on the old curriculum is a save like any other.
    ok(await primaryHead.put(PATH, { year: 2026, allow_zero: false, classes: [{ form: 'P7', curriculum: 'old' }] }));
  });

  it('cannot be changed by a member without manage on settings (403), and stay as they were', async () => {
    ok(await head.put(PATH, { year: 2026, allow_zero: false, classes: [{ form: 'S4', curriculum: 'old' }] }));
    const refused = await teacher.put(PATH, { year: 2026, allow_zero: true, classes: [{ form: 'S4', curriculum: 'new' }] });
    expect(refused.statusCode).toBe(403);
    expect(await rowsOf(secondary.id)).toEqual([{ form: 'S4', year: 2026, curriculum: 'old' }]);
    expect((await head.get(`${PATH}?year=2026`)).json().allow_zero).toBe(false);
  });

  it('of one school are invisible to another, even with only row-level security between them', async () => {
    for (const filter of [true, false]) {
      setCodeTenantFilterForTests(filter);
      t.database.changes.bump();
      try {
        const theirs = await neighbourHead.get(`${PATH}?year=2026`);
        expect(theirs.json()).toEqual({ year: 2026, allow_zero: false, classes: DEFAULT_SECONDARY });
        const settings = await withTenantTx(t.database.db, { tenantId: primary.id }, (tx) => curriculumSettings(tx, 2026));
        expect(settings.isNew('S4')).toBe(false);
      } finally {
        setCodeTenantFilterForTests(true);
        t.database.changes.bump();
      }
    }
    // The neighbour's own save touches nothing of this school's.
    ok(await neighbourHead.put(PATH, { year: 2026, allow_zero: true, classes: [{ form: 'S3', curriculum: 'old' }] }));
    expect(await rowsOf(secondary.id)).toEqual([{ form: 'S4', year: 2026, curriculum: 'old' }]);
    expect((await head.get(`${PATH}?year=2026`)).json().allow_zero).toBe(false);
  });

  it('refuses bad input with a 4xx (never a 500) and saves nothing', async () => {
    const before = await rowsOf(secondary.id);
    const good = { year: 2026, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] };
    const cases: Array<[unknown, string, string]> = [
      [
        {
          ...good,
          classes: [
            { form: 'S2', curriculum: 'old' },
            { form: 'P7', curriculum: 'new' },
          ],
        },
        'classes.1.form',
        SETTINGS_MESSAGES.classUnknown,
      ],
      [
        {
          ...good,
          classes: [
            { form: 'S2', curriculum: 'old' },
            { form: 's2', curriculum: 'new' },
          ],
        },
        'classes.1.form',
        SETTINGS_MESSAGES.duplicate,
      ],
      [{ ...good, year: 1800 }, 'year', SETTINGS_MESSAGES.yearInvalid],
      [{ ...good, year: 2101 }, 'year', SETTINGS_MESSAGES.yearInvalid],
      [{ ...good, year: 2026.5 }, 'year', SETTINGS_MESSAGES.yearInvalid],
      [{ ...good, year: '2026' }, 'year', SETTINGS_MESSAGES.yearInvalid],
      [{ ...good, allow_zero: 'yes' }, 'allow_zero', INPUT_MESSAGES.valueInvalid],
      [{ ...good, classes: [{ form: 'S2', curriculum: 'both' }] }, 'classes.0.curriculum', INPUT_MESSAGES.valueInvalid],
      [{ ...good, classes: [{ form: 3, curriculum: 'old' }] }, 'classes.0.form', ''],
      [{ ...good, classes: [{ form: '', curriculum: 'old' }] }, 'classes.0.form', SETTINGS_MESSAGES.classRequired],
      [{ ...good, classes: [{ form: 'S2\u0000', curriculum: 'old' }] }, '', ''],
      [{ ...good, classes: [{ form: 'S'.repeat(5000), curriculum: 'old' }] }, 'classes.0.form', ''],
      [{ ...good, classes: 'S2' }, 'classes', ''],
      [{ ...good, tenant_id: primary.id }, '', ''],
      [{ year: 2026, classes: good.classes }, 'allow_zero', ''],
      [{ year: 2026, allow_zero: false }, 'classes', ''],
      [{ allow_zero: false, classes: good.classes }, 'year', ''],
      [null, '', ''],
      ['S2', '', ''],
    ];
    for (const [body, field, message] of cases) {
      const response = await head.put(PATH, body);
      expect(response.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(500);
      if (field) expect(Object.keys(response.json().errors ?? {}), JSON.stringify(body)).toContain(field);
      if (message) expect(response.json().errors[field], JSON.stringify(body)).toContain(message);
    }
    expect(await rowsOf(secondary.id)).toEqual(before);
    for (const query of ['year=1800', 'year=abc', 'year=', '', 'year=2026%00']) {
      const response = await head.get(`${PATH}?${query}`);
      expect(response.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, query).toBeLessThan(500);
    }
    const badYear = await head.get(`${PATH}?year=1800`);
    expect(badYear.statusCode).toBe(422);
    expect(badYear.json()).toMatchObject({ message: ERROR_MESSAGES[422], errors: { year: [SETTINGS_MESSAGES.yearInvalid] } });
  });

  it('saved twice at once end as one of the two saves', async () => {
    const [a, b] = await Promise.all([
      head.put(PATH, { year: 2028, allow_zero: false, classes: [{ form: 'S3', curriculum: 'old' }] }),
      head.put(PATH, { year: 2028, allow_zero: false, classes: [{ form: 'S3', curriculum: 'new' }] }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const s3 = (await head.get(`${PATH}?year=2028`)).json().classes.find((row: { form: string }) => row.form === 'S3');
    expect(['old', 'new']).toContain(s3.curriculum);
  });
});

function ok(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBe(200);
  return response;
}
