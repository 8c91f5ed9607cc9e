import { defaultTermDates, ERROR_MESSAGES, SETTINGS_MESSAGES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/* The school's calendar (issue 10 point 13): GET and PUT /api/school/termdates. */

const PATH = '/api/school/termdates';
let t: TestApp;
let school: { id: string; tenantcode: string };
let head: Caller;
let teacher: Caller;
let neighbourHead: Caller;

const kampala2027 = [
  { term: 'I', starts: '2027-02-02', ends: '2027-05-01' },
  { term: 'II', starts: '2027-05-25', ends: '2027-08-14' },
  { term: 'III', starts: '2027-09-07', ends: '2027-11-27' },
];

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Calendar Primary' });
  const neighbour = await makeTenant(t.database, { name: 'Other Primary' });
  const as = async (tenant: { id: string; tenantcode: string }, roles: string[]) => {
    const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles }] });
    return caller(t.app, await login(t.app, user.email), tenant.tenantcode);
  };
  head = await as(school, ['headteacher']);
  teacher = await as(school, ['teacher']);
  neighbourHead = await as(neighbour, ['headteacher']);
});
afterAll(() => t.close());

describe('term dates', () => {
  it('are the Ugandan defaults for a year the school has not set, to every member', async () => {
    const response = await teacher.get(`${PATH}?year=2026`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ year: 2026, custom: false, terms: defaultTermDates(2026) });
  });

  it('are saved whole by those who manage settings, read back, and audited', async () => {
    const saved = await head.put(PATH, { year: 2027, terms: kampala2027 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ year: 2027, custom: true, terms: kampala2027 });
    expect((await teacher.get(`${PATH}?year=2027`)).json()).toEqual({ year: 2027, custom: true, terms: kampala2027 });
    // Another year keeps its defaults.
    expect((await head.get(`${PATH}?year=2028`)).json().custom).toBe(false);
    const audit = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').select(['action', 'entity_id']).where('entity', '=', 'term_dates').execute(),
    );
    expect(audit).toEqual([{ action: 'update', entity_id: '2027' }]);
  });

  it('of one school are invisible to another, even with only row-level security between them', async () => {
    for (const filter of [true, false]) {
      setCodeTenantFilterForTests(filter);
      t.database.changes.bump();
      try {
        expect((await neighbourHead.get(`${PATH}?year=2027`)).json()).toEqual({ year: 2027, custom: false, terms: defaultTermDates(2027) });
      } finally {
        setCodeTenantFilterForTests(true);
        t.database.changes.bump();
      }
    }
  });

  it('cannot be changed by a teacher (403), and stay as they were', async () => {
    const refused = await teacher.put(PATH, { year: 2027, terms: defaultTermDates(2027) });
    expect(refused.statusCode).toBe(403);
    expect((await head.get(`${PATH}?year=2027`)).json().terms).toEqual(kampala2027);
  });

  it('refuses bad input with a clear 422 and saves nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ year: 2027, terms: [kampala2027[1], kampala2027[0], kampala2027[2]] }, SETTINGS_MESSAGES.termDatesOrder],
      [{ year: 2027, terms: kampala2027.slice(0, 2) }, SETTINGS_MESSAGES.termDatesOrder],
      [
        { year: 2027, terms: [{ ...kampala2027[0], starts: '2027-13-01' }, kampala2027[1], kampala2027[2]] },
        SETTINGS_MESSAGES.termDateInvalid,
      ],
      [
        { year: 2027, terms: [{ ...kampala2027[0], starts: '2026-12-01' }, kampala2027[1], kampala2027[2]] },
        SETTINGS_MESSAGES.termDatesYear,
      ],
      [{ year: '2027', terms: kampala2027 }, SETTINGS_MESSAGES.yearInvalid],
      [{ year: 2027, terms: [{ ...kampala2027[0], starts: '2027-02-02\u0000' }, kampala2027[1], kampala2027[2]] }, ''],
      [{ year: 2027, terms: kampala2027, tenant_id: school.id }, ''],
      [{ year: 2027 }, ''],
    ];
    for (const [body, message] of cases) {
      const response = await head.put(PATH, body);
      expect(response.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(500);
      if (message) expect(JSON.stringify(response.json().errors)).toContain(message);
    }
    expect((await head.get(`${PATH}?year=2027`)).json().terms).toEqual(kampala2027);
    const badYear = await head.get(`${PATH}?year=abc`);
    expect(badYear.statusCode).toBe(422);
    expect(badYear.json().message).toBe(ERROR_MESSAGES[422]);
  });

  it('saved twice at once end as one of the two saves, never a mix', async () => {
    const other = defaultTermDates(2027);
    const [a, b] = await Promise.all([head.put(PATH, { year: 2027, terms: kampala2027 }), head.put(PATH, { year: 2027, terms: other })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const final = (await head.get(`${PATH}?year=2027`)).json().terms;
    expect([JSON.stringify(kampala2027), JSON.stringify(other)]).toContain(JSON.stringify(final));
  });
});
