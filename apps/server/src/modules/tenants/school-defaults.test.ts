import { classOptions, currentTerm, DEFAULT_PRIMARY_FORMS, defaultTermDates, localDay, SECONDARY_FORMS, TERMS } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant as createTenantCommand } from '../../cli.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { ok } from '../settings/settings-fixtures.js';

/*
 * A new school that starts with the Ugandan defaults (issue 24 point 1), by the tenants route
 * (the businesses screen) and by `mustard create-tenant --defaults`: everything a school needs
 * before marks and a card, in the transaction that creates it, and nothing of anybody's people.
 * Then marks go in and a card prints with no other setup.
 */

let t: TestApp;
let head: Caller;

const code = () => `dflt-${Math.random().toString(36).slice(2, 8)}`;
const today = currentTerm(localDay(), defaultTermDates(Number(localDay().slice(0, 4))));

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Where the head works' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
});
afterAll(() => t.close());

type Counted = 'subjects' | 'mark_types' | 'grades' | 'proportions' | 'remark_types' | 'auto_mark_comments' | 'auto_report_comments';
const TABLES: Counted[] = ['subjects', 'mark_types', 'grades', 'proportions', 'remark_types', 'auto_mark_comments', 'auto_report_comments'];

/** What a tenant has of each settings table, and of the tables of people and results (none). */
async function contents(tenantId: string) {
  return withTenant(t.database.db, { tenantId }, async (trx) => {
    const counts: Record<string, number> = {};
    for (const table of [
      ...TABLES,
      'report_footers',
      'grade_footers',
      'students',
      'marks',
      'statement_lines',
      'subject_teachers',
      'subject_papers',
    ] as const) {
      const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(trx);
      counts[table] = row.rows[0]?.n ?? 0;
    }
    const members = await sql<{ n: number }>`SELECT count(*)::int AS n FROM memberships`.execute(trx);
    const sets = await sql<{ form: string; term: string; year: number; sets: number }>`
      SELECT form, term, year, count(DISTINCT subject_id)::int AS sets FROM grades GROUP BY form, term, year ORDER BY form, term
    `.execute(trx);
    const markTypes = await trx.selectFrom('mark_types').select('label').orderBy('position').execute();
    const footers = await trx
      .selectFrom('report_footers')
      .select(['title', 'remarks'])
      .where('form', '=', 'P7')
      .where('term', '=', 'I')
      .orderBy('position')
      .execute();
    return { counts, members: members.rows[0]?.n, sets: sets.rows, markTypes: markTypes.map((type) => type.label), footers };
  });
}

describe('a school created with the Ugandan primary defaults on the tenants route', () => {
  let tenant: { id: string; tenantcode: string };
  let school: Caller;

  beforeAll(async () => {
    tenant = ok(await head.post('/api/tenants', { name: 'Kitende Primary', tenantcode: code(), category: 'School', defaults: 'primary' }));
    school = head.in(tenant.tenantcode);
  });

  it('has subjects, BOT/MOT/EOT, a grade set and proportions for every class and term, remark types, automatic comments and footers', async () => {
    const { counts, members, sets, markTypes, footers } = await contents(tenant.id);
    const classes = DEFAULT_PRIMARY_FORMS.length;
    expect(markTypes).toEqual(['BOT', 'MOT', 'EOT']);
    expect(counts.subjects).toBe(6);
    // Every class, every term of the year, every subject: nine bands each; three proportions each.
    expect(sets).toHaveLength(classes * 3);
    expect(sets.every((set) => set.sets === 6 && set.year === today.year)).toBe(true);
    expect(new Set(sets.map((set) => set.term))).toEqual(new Set(TERMS));
    expect(counts.grades).toBe(classes * 3 * 6 * 9);
    expect(counts.proportions).toBe(classes * 3 * 6 * 3);
    expect(counts.remark_types).toBe(6);
    // Subject comments for each grade (and A-level letter); the new curriculum's by identifier.
    expect(counts.auto_mark_comments).toBeGreaterThanOrEqual(9 + 3 * 2);
    expect(counts.auto_report_comments).toBe(classes * 7 * 2);
    expect(counts.grade_footers).toBe(classes);
    expect(counts.subject_papers).toBe(0);
    // The card's own signature lines and next term's dates stand: only next term's fees is a footer.
    expect(counts.report_footers).toBe(classes * 3);
    expect(footers.map((footer) => [footer.title, footer.remarks])).toEqual([['Fees for next term', `UGX ${'_'.repeat(30)}`]]);
    // Nothing of the demo's learners, people, marks or fees: the creator is its one member.
    expect([counts.students, counts.marks, counts.statement_lines, counts.subject_teachers, members]).toEqual([0, 0, 0, 0, 1]);
  });

  it('takes marks and prints a card with no other setup', async () => {
    const learner = ok(
      await school.post('/api/school/students', { studentid: 'KP/001', firstname: 'Amina', lastname: 'Nakato', gender: 'F', form: 'P7' }),
    );
    const subjects: Array<{ id: string; name: string }> = ok(await school.get('/api/school/subjects?per_page=100')).subjects;
    const types: Array<{ id: string; label: string }> = ok(await school.get('/api/school/marktypes?per_page=100')).marktypes;
    const counted = ['English', 'Mathematics', 'Integrated Science', 'Social Studies'];
    for (const name of counted) {
      const subject = subjects.find((each) => each.name === name) as { id: string };
      const marks = Object.fromEntries(types.map((type) => [type.id, { [learner.id]: 80 }]));
      const saved = ok(
        await school.post('/api/school/marks', {
          form: 'P7',
          stream: '',
          term: today.term,
          year: today.year,
          subject_id: subject.id,
          paper: 'I',
          save_id: crypto.randomUUID(),
          marks,
        }),
      );
      expect(saved.saved).toBe(3);
    }
    const query = `form=P7&term=${today.term}&year=${today.year}`;
    const model = ok(await school.get(`/api/school/terminalreport?${query}&json=1`));
    const card = model.learners[0];
    expect(card.subjects.filter((subject: { grade: string | null }) => subject.grade === 'D1')).toHaveLength(4);
    expect([card.aggregate, card.division]).toEqual([4, 'I']);
    // A card a head teacher signs: the grading key, both signature lines, next term and its fees.
    expect(card.footers.map((footer: { title: string }) => footer.title)).toEqual(['Fees for next term']);
    expect(model.gradeKey).toMatch(/^D1 80-100, D2 75-79, .*F9 0-34$/);
    expect(model.signatures).toHaveLength(2);
    expect(model.nextTerm).not.toBeNull();
    const pdf = await school.get(`/api/school/terminalreport?${query}`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});

describe('the defaults asked of the tenants route', () => {
  it('are the secondary school’s when asked: O and A level subjects, comments by UCE and UACE results', async () => {
    const tenant = ok(
      await head.post('/api/tenants', {
        name: 'Seeta High',
        tenantcode: code(),
        category: 'School',
        schooltype: 'secondary',
        defaults: 'secondary',
      }),
    );
    const { counts, sets } = await contents(tenant.id);
    expect(counts.subjects).toBe(15);
    expect(sets).toHaveLength(SECONDARY_FORMS.length * 3);
    // O level offers all but the A-level subsidiaries; A level its combinations and General Paper.
    expect(sets.find((set) => set.form === 'S1')?.sets).toBe(13);
    expect(sets.find((set) => set.form === 'S6')?.sets).toBe(10);
    // S1-S4 are new-curriculum classes (three identifier bands of the overall score), S5-S6 UACE (five).
    expect(counts.auto_report_comments).toBe((4 * 3 + 2 * 5) * 2);
    // UNEB's papers of each A-level subject, in S5 and S6, each term: eight subjects.
    expect(counts.subject_papers).toBe(2 * 8 * 3);
  });

  it('are nothing without the choice, with none, or for a business', async () => {
    for (const body of [
      { category: 'School' },
      { category: 'School', defaults: 'none' },
      { category: 'School', defaults: null },
      { category: 'Retail', defaults: 'primary' },
    ]) {
      const tenant = ok(await head.post('/api/tenants', { name: 'Plain Tenant', tenantcode: code(), ...body }));
      const { counts } = await contents(tenant.id);
      expect(
        TABLES.map((table) => counts[table]),
        JSON.stringify(body),
      ).toEqual(TABLES.map(() => 0));
    }
  });

  it('refuses defaults it does not know by name, and creates no tenant', async () => {
    const tenantcode = code();
    for (const defaults of ['tertiary', 7, 'primary\u0000', 'x'.repeat(10_000)]) {
      const response = await head.post('/api/tenants', { name: 'Odd Defaults', tenantcode, category: 'School', defaults });
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().errors ?? {})).toEqual(['defaults']);
    }
    const found = await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).execute();
    expect(found).toEqual([]);
  });

  it('do not touch the school the person works in', async () => {
    ok(await head.post('/api/tenants', { name: 'Another School', tenantcode: code(), category: 'School', defaults: 'primary' }));
    const own = await t.database.db.selectFrom('tenants').select('id').where('name', '=', 'Where the head works').executeTakeFirstOrThrow();
    const { counts } = await contents(own.id);
    expect(TABLES.map((table) => counts[table])).toEqual(TABLES.map(() => 0));
  });
});

describe('mustard create-tenant --defaults', () => {
  it('creates a school with the primary defaults for its own classes and says what it set up', async () => {
    const tenantcode = code();
    const message = await createTenantCommand(t.database, { code: tenantcode, name: 'Gayaza Junior', defaults: 'primary' });
    expect(message).toMatch(/with the Ugandan primary defaults: 6 subjects, 3 mark types, \d+ grade bands/);
    const tenant = await t.database.db
      .selectFrom('tenants')
      .select(['id', 'schooltype', 'forms'])
      .where('tenantcode', '=', tenantcode)
      .executeTakeFirstOrThrow();
    const { counts, sets } = await contents(tenant.id);
    expect(sets).toHaveLength(classOptions(tenant).length * 3);
    expect(counts.proportions).toBe(classOptions(tenant).length * 3 * 6 * 3);
    expect(counts.report_footers).toBe(classOptions(tenant).length * 3);
  });

  it('creates a school without defaults unless asked, and refuses an unknown choice', async () => {
    const tenantcode = code();
    expect(await createTenantCommand(t.database, { code: tenantcode, name: 'Plain Junior' })).not.toMatch(/defaults/);
    const tenant = await t.database.db.selectFrom('tenants').select('id').where('tenantcode', '=', tenantcode).executeTakeFirstOrThrow();
    expect((await contents(tenant.id)).counts.subjects).toBe(0);
    await expect(createTenantCommand(t.database, { code: code(), name: 'Odd Junior', defaults: 'nursery' })).rejects.toThrow(/defaults/);
  });
});
