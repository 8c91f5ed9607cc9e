import {
  DEFAULT_GRADING_RULES,
  DEFAULT_REPORT_LAYOUT,
  ERROR_MESSAGES,
  GRADING_RULE_MESSAGES,
  type GradingRules,
  INPUT_MESSAGES,
  REPORT_MESSAGES,
  type ReportLayout,
  TENANT_HEADER,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { setCodeTenantFilterForTests } from '../../db/tenant-filter.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * A school's grading rules and report layout as settings (issue 15 points 1 and 5):
 * GET and PUT /api/school/gradingrules and /api/school/reportlayout, on both databases.
 */

const RULES = '/api/school/gradingrules';
const LAYOUT = '/api/school/reportlayout';

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
let head: Caller;
let teacher: Caller;
let neighbourHead: Caller;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Rules Primary' });
  neighbour = await makeTenant(t.database, { name: 'Other Primary' });
  const as = async (tenant: { id: string; tenantcode: string }, roles: string[]) => {
    const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles }] });
    return caller(t.app, await login(t.app, user.email), tenant.tenantcode);
  };
  head = await as(school, ['headteacher']);
  teacher = await as(school, ['teacher']);
  neighbourHead = await as(neighbour, ['headteacher']);
});
afterAll(() => t.close());

/** A deep copy of the defaults, changed by `change`. */
function rulesWith(change: (rules: GradingRules) => void): GradingRules {
  const rules = structuredClone(DEFAULT_GRADING_RULES);
  change(rules);
  return rules;
}

function layoutWith(change: Partial<ReportLayout>): ReportLayout {
  return { ...structuredClone(DEFAULT_REPORT_LAYOUT), ...change };
}

/** Division I of PLE up to 13 instead of 12 (a school's own rule). */
const capThirteen = rulesWith((rules) => {
  (rules.primary.divisions[0] as { aggregateAtMost: number }).aggregateAtMost = 13;
});

async function version(path: string, by: Caller = head): Promise<number> {
  const answer = await by.get(path);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().version;
}

async function storedRows(tenantId: string) {
  return withTenant(t.database.db, { tenantId }, (trx) =>
    trx.selectFrom('report_settings').select(['grading_rules', 'report_layout', 'version']).execute(),
  );
}

describe('grading rules', () => {
  it('are the guide’s defaults for a school that never saved, to every member', async () => {
    for (const by of [head, teacher]) {
      const answer = await by.get(RULES);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ rules: DEFAULT_GRADING_RULES, defaults: DEFAULT_GRADING_RULES, version: 0 });
    }
  });

  it('are saved with the version read, read back, and audited', async () => {
    const saved = await head.put(RULES, { rules: capThirteen, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ rules: capThirteen, defaults: DEFAULT_GRADING_RULES, version: 1 });
    const read = (await teacher.get(RULES)).json();
    expect(read.rules.primary.divisions[0]).toEqual({ division: 'I', aggregateAtMost: 13 });
    expect(read).toEqual({ rules: capThirteen, defaults: DEFAULT_GRADING_RULES, version: 1 });
    // The layout was never saved: still the default, at the shared version.
    expect((await head.get(LAYOUT)).json()).toEqual({ layout: DEFAULT_REPORT_LAYOUT, defaults: DEFAULT_REPORT_LAYOUT, version: 1 });
    const audit = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').select(['action', 'entity_id', 'after']).where('entity', '=', 'report_settings').execute(),
    );
    expect(audit).toEqual([{ action: 'update', entity_id: 'grading_rules', after: capThirteen }]);
  });

  it('refuse rules that cannot mean anything with a 422 naming the field, and save nothing', async () => {
    const before = await storedRows(school.id);
    const current = await version(RULES);
    const cases: Array<[GradingRules, string, string]> = [
      [
        rulesWith((rules) => {
          (rules.primary.divisions[1] as { aggregateAtMost: number }).aggregateAtMost = 12;
        }),
        'rules.primary.divisions.1.aggregateAtMost',
        GRADING_RULE_MESSAGES.divisionCapsUnsorted,
      ],
      [
        rulesWith((rules) => {
          rules.grades.creditAtMost = 9;
        }),
        'rules.grades.creditAtMost',
        GRADING_RULE_MESSAGES.creditAbovePass,
      ],
      [
        rulesWith((rules) => {
          rules.primary.countedCategories = [];
        }),
        'rules.primary.countedCategories',
        GRADING_RULE_MESSAGES.countedEmpty,
      ],
      [
        rulesWith((rules) => {
          (rules.olevel.divisions[1] as { division: string }).division = 'I';
        }),
        'rules.olevel.divisions.1.division',
        GRADING_RULE_MESSAGES.divisionNameRepeated,
      ],
      [
        rulesWith((rules) => {
          (rules.alevel.tables[0] as { papers: number }).papers = 7;
        }),
        'rules.alevel.tables.0.papers',
        GRADING_RULE_MESSAGES.papersOutOfRange,
      ],
    ];
    for (const [rules, field, message] of cases) {
      const refused = await head.put(RULES, { rules, version: current });
      expect(refused.statusCode, field).toBe(422);
      expect(refused.json().message).toBe(ERROR_MESSAGES[422]);
      expect(refused.json().errors[field], refused.body).toEqual([message]);
    }
    expect(await storedRows(school.id)).toEqual(before);
  });

  it('are refused with 409 when someone saved since the version read, and nothing is saved', async () => {
    const current = await version(RULES);
    const stale = await head.put(RULES, { rules: DEFAULT_GRADING_RULES, version: current - 1 });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().message).toBe(REPORT_MESSAGES.settingsChanged);
    // A version from the future is no better.
    expect((await head.put(RULES, { rules: DEFAULT_GRADING_RULES, version: current + 5 })).statusCode).toBe(409);
    expect((await head.get(RULES)).json()).toMatchObject({ rules: capThirteen, version: current });
  });

  it('cannot be changed by a teacher (403), and stay as they were', async () => {
    const current = await version(RULES);
    const refused = await teacher.put(RULES, { rules: DEFAULT_GRADING_RULES, version: current });
    expect(refused.statusCode).toBe(403);
    expect((await head.get(RULES)).json()).toMatchObject({ rules: capThirteen, version: current });
  });

  it('of one school are invisible to another, even with only row-level security between them', async () => {
    for (const filter of [true, false]) {
      setCodeTenantFilterForTests(filter);
      t.database.changes.bump();
      try {
        expect((await neighbourHead.get(RULES)).json()).toEqual({
          rules: DEFAULT_GRADING_RULES,
          defaults: DEFAULT_GRADING_RULES,
          version: 0,
        });
        expect((await neighbourHead.get(LAYOUT)).json()).toMatchObject({ layout: DEFAULT_REPORT_LAYOUT, version: 0 });
      } finally {
        setCodeTenantFilterForTests(true);
        t.database.changes.bump();
      }
    }
    expect(await storedRows(neighbour.id)).toEqual([]);
  });

  it('refuse huge names, NUL bytes and wrong types with 422, never a 500', async () => {
    const before = await storedRows(school.id);
    const current = await version(RULES);
    const named = (name: string) =>
      rulesWith((rules) => {
        (rules.primary.divisions[0] as { division: string }).division = name;
      });
    const cases: Array<[unknown, string, string]> = [
      [{ rules: named('I'.repeat(200_000)), version: current }, 'rules.primary.divisions.0.division', REPORT_MESSAGES.nameTooLong],
      [{ rules: named('I'.repeat(21)), version: current }, 'rules.primary.divisions.0.division', REPORT_MESSAGES.nameTooLong],
      [{ rules: named('I\u0000'), version: current }, 'rules.primary.divisions.0.division', INPUT_MESSAGES.textInvalid],
      [{ rules: named('\uD800'), version: current }, 'rules.primary.divisions.0.division', INPUT_MESSAGES.textInvalid],
      [
        { rules: rulesWith((rules) => Object.assign(rules.primary.divisions[0] as object, { aggregateAtMost: '12' })), version: current },
        'rules.primary.divisions.0.aggregateAtMost',
        GRADING_RULE_MESSAGES.wholeNumber,
      ],
      [
        { rules: rulesWith((rules) => Object.assign(rules.primary.divisions[0] as object, { aggregateAtMost: 12.5 })), version: current },
        'rules.primary.divisions.0.aggregateAtMost',
        GRADING_RULE_MESSAGES.wholeNumber,
      ],
      [
        { rules: rulesWith((rules) => Object.assign(rules.primary.divisions[0] as object, { aggregateAtMost: -1 })), version: current },
        'rules.primary.divisions.0.aggregateAtMost',
        GRADING_RULE_MESSAGES.notNegative,
      ],
      [{ rules: rulesWith((rules) => Object.assign(rules.grades, { values: 'D1' })), version: current }, 'rules.grades.values', ''],
      [
        { rules: rulesWith((rules) => Object.assign(rules.primary, { countedCategories: ['english', 'cookery'] })), version: current },
        'rules.primary.countedCategories.1',
        GRADING_RULE_MESSAGES.unknownCategory,
      ],
      [{ rules: 'strict', version: current }, 'rules', ''],
      [{ rules: null, version: current }, 'rules', ''],
      [{ rules: capThirteen, version: '1' }, 'version', INPUT_MESSAGES.valueInvalid],
      [{ rules: capThirteen, version: 1.5 }, 'version', INPUT_MESSAGES.valueInvalid],
      [{ rules: capThirteen, version: 2 ** 40 }, 'version', INPUT_MESSAGES.valueInvalid],
      [{ rules: capThirteen }, 'version', INPUT_MESSAGES.valueInvalid],
    ];
    for (const [payload, field, message] of cases) {
      const refused = await head.put(RULES, payload);
      expect(refused.statusCode, `${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      const errors = refused.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), field).toContain(field);
      if (message) expect(errors[field], field).toContain(message);
    }
    // Bodies that are no object at all.
    for (const payload of ['[1,2]', '"rules"', 'null', '{"rules":']) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: RULES,
        headers: { authorization: `Bearer ${head.token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': 'application/json' },
        payload,
      });
      expect([400, 422], `${payload}: ${refused.body}`).toContain(refused.statusCode);
    }
    expect(await storedRows(school.id)).toEqual(before);
  });

  it('saved twice at once from the same version: exactly one wins, the other is told (409)', async () => {
    const current = await version(RULES);
    const mine = rulesWith((rules) => {
      (rules.primary.divisions[0] as { aggregateAtMost: number }).aggregateAtMost = 11;
    });
    const theirs = rulesWith((rules) => {
      (rules.primary.divisions[0] as { aggregateAtMost: number }).aggregateAtMost = 10;
    });
    const answers = await Promise.all([
      head.put(RULES, { rules: mine, version: current }),
      head.put(RULES, { rules: theirs, version: current }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json();
    expect(winner.version).toBe(current + 1);
    expect((await head.get(RULES)).json()).toEqual(winner);
  });

  it('saved twice at once by a school that never saved: exactly one wins', async () => {
    const fresh = await makeTenant(t.database, { name: 'Fresh Primary' });
    const user = await makeUser(t.database, { memberOf: [{ tenantId: fresh.id, roles: ['headteacher'] }] });
    const by = caller(t.app, await login(t.app, user.email), fresh.tenantcode);
    const answers = await Promise.all([
      by.put(RULES, { rules: capThirteen, version: 0 }),
      by.put(LAYOUT, { layout: DEFAULT_REPORT_LAYOUT, version: 0 }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await storedRows(fresh.id)).map((row) => row.version)).toEqual([1]);
  });

  it('keep a school’s new-curriculum rules (issue 27 point 1), and refuse an unsorted band by its field, saving nothing', async () => {
    const own = await makeTenant(t.database, { name: 'Competency Secondary' });
    const user = await makeUser(t.database, { memberOf: [{ tenantId: own.id, roles: ['headteacher'] }] });
    const by = caller(t.app, await login(t.app, user.email), own.tenantcode);
    const changed = rulesWith((rules) => {
      (rules.newCurriculum.identifiers[1] as { atLeast: number }).atLeast = 1.6;
      (rules.newCurriculum.identifiers[0] as { descriptor: string }).descriptor = 'A'.repeat(120);
      rules.newCurriculum.formative = 'scoresAndProject';
      (rules.newCurriculum.grades[0] as { atLeast: number }).atLeast = 85;
      rules.newCurriculum.positions = true;
      rules.newCurriculum.certificate = true;
    });
    const saved = await by.put(RULES, { rules: changed, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await by.get(RULES)).json()).toEqual({ rules: changed, defaults: DEFAULT_GRADING_RULES, version: 1 });

    const before = await storedRows(own.id);
    const unsorted = rulesWith((rules) => {
      (rules.newCurriculum.identifiers[2] as { atLeast: number }).atLeast = 2;
    });
    const refused = await by.put(RULES, { rules: unsorted, version: 1 });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors['rules.newCurriculum.identifiers.2.atLeast'], refused.body).toEqual([
      GRADING_RULE_MESSAGES.ncBoundsUnsorted,
    ]);
    const outOfRange = rulesWith((rules) => {
      (rules.newCurriculum.identifiers[0] as { atLeast: number }).atLeast = 2.55;
    });
    const refusedBound = await by.put(RULES, { rules: outOfRange, version: 1 });
    expect(refusedBound.statusCode, refusedBound.body).toBe(422);
    expect(refusedBound.json().errors['rules.newCurriculum.identifiers.0.atLeast']).toContain(GRADING_RULE_MESSAGES.ncScoreOutOfRange);
    expect(await storedRows(own.id)).toEqual(before);
  });
});

describe('report layout', () => {
  it('is the default for a school that never saved', async () => {
    const answer = await neighbourHead.get(LAYOUT);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ layout: DEFAULT_REPORT_LAYOUT, defaults: DEFAULT_REPORT_LAYOUT, version: 0 });
  });

  it('is saved with the version read and read back, the grading rules kept', async () => {
    const rules = (await head.get(RULES)).json().rules;
    const current = await version(LAYOUT);
    const layout = layoutWith({
      sections: ['header', 'subjects', 'learner', 'footers'],
      columns: ['marks', 'grade'],
      headerLines: ['Hard work pays', 'P.O. Box 123, Kampala'],
      showPositions: false,
      label: 'MID TERM',
    });
    const saved = await head.put(LAYOUT, { layout, version: current });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ layout, defaults: DEFAULT_REPORT_LAYOUT, version: current + 1 });
    expect((await teacher.get(LAYOUT)).json()).toEqual({ layout, defaults: DEFAULT_REPORT_LAYOUT, version: current + 1 });
    expect((await head.get(RULES)).json()).toMatchObject({ rules, version: current + 1 });
  });

  it('refuses a bad layout (422 naming the field), a stale version (409) and a teacher (403), saving nothing', async () => {
    const before = await storedRows(school.id);
    const current = await version(LAYOUT);
    const cases: Array<[unknown, string, string]> = [
      [{ layout: layoutWith({ sections: ['header', 'learner'] }), version: current }, 'layout.sections', REPORT_MESSAGES.subjectsRequired],
      [{ layout: layoutWith({ sections: [] }), version: current }, 'layout.sections', REPORT_MESSAGES.sectionsEmpty],
      [{ layout: layoutWith({ columns: ['marks', 'marks'] }), version: current }, 'layout.columns', REPORT_MESSAGES.columnRepeated],
      [
        { layout: layoutWith({ headerLines: ['a', 'b', 'c', 'd', 'e'] }), version: current },
        'layout.headerLines',
        REPORT_MESSAGES.tooManyLines,
      ],
      [
        { layout: layoutWith({ headerLines: ['x'.repeat(500_000)] }), version: current },
        'layout.headerLines.0',
        REPORT_MESSAGES.lineTooLong,
      ],
      [{ layout: layoutWith({ label: 'END\u0000' }), version: current }, 'layout.label', INPUT_MESSAGES.textInvalid],
      [{ layout: layoutWith({ label: ' ' }), version: current }, 'layout.label', REPORT_MESSAGES.labelRequired],
      [{ layout: { ...layoutWith({}), showPhoto: 'yes' }, version: current }, 'layout.showPhoto', REPORT_MESSAGES.yesOrNo],
      [{ layout: { ...layoutWith({}), sections: 'header' }, version: current }, 'layout.sections', REPORT_MESSAGES.sectionsEmpty],
      [{ layout: [], version: current }, 'layout', ''],
    ];
    for (const [payload, field, message] of cases) {
      const refused = await head.put(LAYOUT, payload);
      expect(refused.statusCode, `${field}: ${refused.body.slice(0, 300)}`).toBe(422);
      const errors = refused.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), field).toContain(field);
      if (message) expect(errors[field], field).toContain(message);
    }
    const stale = await head.put(LAYOUT, { layout: DEFAULT_REPORT_LAYOUT, version: current - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(REPORT_MESSAGES.settingsChanged);
    expect((await teacher.put(LAYOUT, { layout: DEFAULT_REPORT_LAYOUT, version: current })).statusCode).toBe(403);
    expect(await storedRows(school.id)).toEqual(before);
  });

  it('saved twice at once from the same version: exactly one wins', async () => {
    const current = await version(LAYOUT);
    const answers = await Promise.all([
      head.put(LAYOUT, { layout: layoutWith({ label: 'END OF YEAR' }), version: current }),
      head.put(LAYOUT, { layout: layoutWith({ label: 'MOCK' }), version: current }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json();
    expect((await head.get(LAYOUT)).json()).toEqual(winner);
  });
});
