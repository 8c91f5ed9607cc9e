import {
  aLevelScores,
  autoMarkComments,
  autoReportComments,
  ERROR_MESSAGES,
  grades,
  locations,
  markTypes,
  proportions,
  publishMarks,
  RESULT_MESSAGES,
  type ResourceDefinition,
  remarkTypes,
  SCHOOL_RESOURCES,
  SETTINGS_MESSAGES,
  studentCategories,
  subjects,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import {
  type Body,
  EXCEL_ATTACHMENT,
  gradeSet,
  newMarkType,
  newRemarkType,
  newSchool,
  newSubject,
  next,
  ok,
  type Row,
  valuesOf,
  workbookOf,
} from './settings-fixtures.js';

/*
 * The school settings resources through the API (issue 4): every resource's create, read,
 * update, delete, search and paging, with real dependencies; then the rules that are the same
 * mechanism but worth seeing once: paging and search of subjects, validation messages, tenant
 * isolation, permissions and the audit trail.
 */

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
/** A head teacher of both schools, working in `school` (`head.in(...)` works elsewhere). */
let head: Caller;
let teacher: Caller;
/** Custom roles: `manage setting` only, and `manage location` only. */
let clerk: Caller;
let storekeeper: Caller;

/** A-level totals run 0 to 60 and are unique per paper count: their own counter. */
let aLevelTotals = 0;

/** A grade row as a PUT body. */
function gradeSetFields(row: Row) {
  const { form, term, year, subject_id, grade, lower, upper } = row;
  return { form, term, year, subject_id, grade, lower, upper };
}

interface Fixture {
  definition: ResourceDefinition;
  /** A valid body and a changed one (records they refer to made first), and the names each shows. */
  bodies(c: Caller): Promise<{ body: Body; changed: Body; shows?: Body; changedShows?: Body }>;
  /** How a record comes to be when not by the generic POST (grades: a whole set). */
  create?(c: Caller, body: Body): Promise<Row>;
}

const FIXTURES: Fixture[] = [
  {
    definition: studentCategories,
    bodies: async () => {
      const n = next();
      return { body: { name: `Boarders ${n}`, remarks: 'Sleep at school' }, changed: { name: `Day scholars ${n}`, remarks: null } };
    },
  },
  {
    definition: subjects,
    bodies: async () => {
      const n = next();
      return {
        body: {
          name: `Mathematics ${n}`,
          category: 'mathematics',
          abbreviation: 'MTC',
          olevelcategory: 'science',
          position: 1,
          weeklylabel: 'Maths',
          multiple_paper_forms: 'P6,P7',
          multiple_papers: true,
          active: true,
        },
        changed: {
          name: `Physics ${n}`,
          category: 'science',
          abbreviation: null,
          olevelcategory: null,
          position: 2,
          weeklylabel: null,
          multiple_paper_forms: null,
          multiple_papers: false,
          active: false,
        },
      };
    },
  },
  {
    definition: locations,
    bodies: async () => {
      const n = next();
      return { body: { name: `Main store ${n}`, code: 'MS' }, changed: { name: `Kitchen store ${n}`, code: 'KS' } };
    },
  },
  {
    definition: markTypes,
    bodies: async () => {
      const n = next();
      return {
        body: { label: `Beginning of term ${n}`, category: 'test', position: 1, status: 'active', outof: 50 },
        changed: { label: `End of term ${n}`, category: 'exam', position: 3, status: 'inactive', outof: 100 },
      };
    },
  },
  {
    definition: grades,
    bodies: async (c) => {
      const subject = await newSubject(c);
      const shows = { subject: { name: subject.name } };
      const set = { form: 'P7', term: 'I', year: 2026, subject_id: subject.id };
      return {
        body: { ...set, grade: 'D1', lower: 80, upper: 100 },
        changed: { ...set, form: 'P6', term: 'II', year: 2027, grade: 'A', lower: 81.5, upper: 100 },
        shows,
        changedShows: shows,
      };
    },
    create: async (c, body) => {
      const answer = ok(
        await c.post(
          grades.path,
          gradeSet(body.subject_id as string, { form: body.form as string, term: body.term as string, year: body.year as number }),
        ),
      );
      return answer.grades.find((row: Row) => row.grade === body.grade);
    },
  },
  {
    definition: proportions,
    bodies: async (c) => {
      const [subject, markType, otherMarkType] = [await newSubject(c), await newMarkType(c), await newMarkType(c)];
      return {
        body: { form: 'P6', term: 'II', year: 2026, subject_id: subject.id, marktype_id: markType.id, percentage: 40 },
        changed: { form: 'P7', term: 'III', year: 2027, subject_id: subject.id, marktype_id: otherMarkType.id, percentage: 62.5 },
        shows: { subject: { name: subject.name }, marktype: { label: markType.label } },
        changedShows: { subject: { name: subject.name }, marktype: { label: otherMarkType.label } },
      };
    },
  },
  {
    definition: publishMarks,
    bodies: async (c) => {
      const [markType, otherMarkType] = [await newMarkType(c), await newMarkType(c)];
      return {
        body: { term: 'I', year: 2026, marktype_id: markType.id },
        changed: { term: 'III', year: 2027, marktype_id: otherMarkType.id },
        shows: { marktype: { label: markType.label } },
        changedShows: { marktype: { label: otherMarkType.label } },
      };
    },
  },
  {
    definition: aLevelScores,
    bodies: async () => {
      const total = ++aLevelTotals;
      return { body: { total, score: 3, papercount: 3 }, changed: { total, score: 5, papercount: 4 } };
    },
  },
  {
    definition: remarkTypes,
    bodies: async () => {
      const n = next();
      return {
        body: {
          label: `Conduct ${n}`,
          category: 'exam',
          parent_id: null,
          displaytype: 'table',
          inputtype: 'number',
          position: 1,
          forms: 'P1,P2',
          active: true,
        },
        changed: {
          label: `Discipline ${n}`,
          category: 'mid term',
          parent_id: null,
          displaytype: 'list',
          inputtype: 'text',
          position: 2,
          forms: null,
          active: false,
        },
      };
    },
  },
  {
    definition: autoMarkComments,
    bodies: async () => {
      const n = next();
      return {
        body: { score: `D${n}`, comment: 'Excellent work', category: 'general' },
        changed: { score: `C${n}`, comment: 'Good, keep it up', category: 'nc skill' },
      };
    },
  },
  {
    definition: autoReportComments,
    bodies: async (c) => {
      const [remarkType, otherRemarkType] = [await newRemarkType(c), await newRemarkType(c)];
      return {
        body: { form: 'P7', remarktype_id: remarkType.id, score: 80, upper: 100, comment: 'A promising pupil' },
        changed: { form: 'P6', remarktype_id: otherRemarkType.id, score: 50.5, upper: 79.5, comment: 'Can do better' },
        shows: { remarktype: { label: remarkType.label } },
        changedShows: { remarktype: { label: otherRemarkType.label } },
      };
    },
  },
];

async function createWith(fixture: Fixture, c: Caller, body: Body): Promise<Row> {
  return fixture.create ? fixture.create(c, body) : ok(await c.post(fixture.definition.path, body));
}

/** A list record: tree resources answer their top-level records with `children`. */
function listed(definition: ResourceDefinition, record: Row) {
  return definition === remarkTypes ? { ...record, children: [] } : record;
}

/** `subject.name` read from a record. */
function readPath(record: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key] ?? null, record);
}

/** Every record of a list (one page big enough for all). */
async function everything(c: Caller, definition: ResourceDefinition, query = ''): Promise<{ rows: Row[]; totalRecords: number }> {
  const body = ok(await c.get(`${definition.path}?per_page=1000${query}`));
  expect(Object.keys(body).sort()).toEqual([definition.listKey, 'totalRecords'].sort());
  return { rows: body[definition.listKey], totalRecords: body.totalRecords };
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Kabojja Junior' });
  neighbour = await makeTenant(t.database, { name: 'Hillside Nursery' });
  const roles = { clerk: 'settings clerk', storekeeper: 'storekeeper' };
  await withTenant(t.database.db, { tenantId: school.id }, async (trx) => {
    for (const [name, subject] of [
      [roles.clerk, 'setting'],
      [roles.storekeeper, 'location'],
    ] as const) {
      const roleId = newId();
      await trx.insertInto('roles').values({ tenant_id: school.id, id: roleId, name }).execute();
      await trx
        .insertInto('role_permissions')
        .values({ tenant_id: school.id, id: newId(), role_id: roleId, subject_class: subject, action: 'manage' })
        .execute();
    }
  });
  const member = (tenantRoles: string[]) => ({ memberOf: [{ tenantId: school.id, roles: tenantRoles }] });
  const headUser = await makeUser(t.database, {
    name: 'Agnes Head',
    memberOf: [
      { tenantId: school.id, roles: ['headteacher'] },
      { tenantId: neighbour.id, roles: ['headteacher'] },
    ],
  });
  const teacherUser = await makeUser(t.database, { name: 'Moses Teacher', ...member(['teacher']) });
  const clerkUser = await makeUser(t.database, { name: 'Sarah Clerk', ...member([roles.clerk]) });
  const storekeeperUser = await makeUser(t.database, { name: 'Peter Store', ...member([roles.storekeeper]) });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  clerk = caller(t.app, await login(t.app, clerkUser.email), school.tenantcode);
  storekeeper = caller(t.app, await login(t.app, storekeeperUser.email), school.tenantcode);
});
afterAll(() => t.close());

it('has contract fixtures for every school resource the server registers (a new resource cannot go untested)', () => {
  expect(FIXTURES.map((fixture) => fixture.definition.name).sort()).toEqual(SCHOOL_RESOURCES.map((definition) => definition.name).sort());
});

describe.each(FIXTURES.map((fixture) => [fixture.definition.name, fixture] as const))('%s', (_name, fixture) => {
  const { definition } = fixture;

  it('is created, read, changed, listed and deleted by a head teacher', async () => {
    const { body, changed, shows = {}, changedShows = shows } = await fixture.bodies(head);
    const created = await createWith(fixture, head, body);
    expect(created).toEqual({ id: expect.any(String), ...body, ...shows });
    expect(ok(await head.get(`${definition.path}/${created.id}`))).toEqual(created);

    const updated = ok(await head.put(`${definition.path}/${created.id}`, changed));
    expect(updated).toEqual({ id: created.id, ...changed, ...changedShows });
    expect(ok(await head.get(`${definition.path}/${created.id}`))).toEqual(updated);

    const list = await everything(head, definition);
    expect(list.rows).toContainEqual(listed(definition, updated));
    expect(list.totalRecords).toBe(list.rows.length);

    expect(ok(await head.delete(`${definition.path}/${created.id}`))).toEqual({ message: RESULT_MESSAGES.deleted });
    const gone = await head.get(`${definition.path}/${created.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(ERROR_MESSAGES[404]);
    expect((await everything(head, definition)).rows.map((row) => row.id)).not.toContain(created.id);
    expect((await head.put(`${definition.path}/${created.id}`, changed)).statusCode).toBe(404);
    expect((await head.delete(`${definition.path}/${created.id}`)).statusCode).toBe(404);
  });

  it('is found by the free-text search, case-insensitively and inside the text', async () => {
    const { body } = await fixture.bodies(head);
    const created = await createWith(fixture, head, body);
    const field = definition.searchFields[0];
    if (field === undefined) {
      // Nothing to search in: the search is ignored rather than refused.
      const all = await everything(head, definition);
      const searched = await everything(head, definition, '&search=anything');
      expect(searched.totalRecords).toBe(all.totalRecords);
      return;
    }
    const text = String(created[field]);
    const part = (text.length > 3 ? text.slice(1, -1) : text).trim();
    const search = part === part.toLowerCase() ? part.toUpperCase() : part.toLowerCase();
    const found = await everything(head, definition, `&search=${encodeURIComponent(search)}`);
    expect(found.rows.map((row) => row.id)).toContain(created.id);
    for (const row of found.rows) {
      const texts = definition.searchFields.map((name) => String(row[name] ?? '').toLowerCase());
      expect(
        texts.some((value) => value.includes(search.toLowerCase())),
        JSON.stringify(row),
      ).toBe(true);
    }
    const missing = await everything(head, definition, `&search=${encodeURIComponent('no such text zz')}`);
    expect(missing).toEqual({ rows: [], totalRecords: 0 });
  });

  it('pages with per_page, the total counting every page', async () => {
    for (let i = 0; i < 2; i++) await createWith(fixture, head, (await fixture.bodies(head)).body);
    const all = await everything(head, definition);
    expect(all.totalRecords).toBeGreaterThanOrEqual(2);
    const pageOf = async (page: number) => ok(await head.get(`${definition.path}?per_page=1&page=${page}`));
    const [first, second, last, beyond] = [
      await pageOf(1),
      await pageOf(2),
      await pageOf(all.totalRecords),
      await pageOf(all.totalRecords + 1),
    ];
    expect(first[definition.listKey]).toEqual([all.rows[0]]);
    expect(second[definition.listKey]).toEqual([all.rows[1]]);
    expect(last[definition.listKey]).toEqual([all.rows.at(-1)]);
    expect(beyond[definition.listKey]).toEqual([]);
    for (const page of [first, second, last, beyond]) expect(page.totalRecords).toBe(all.totalRecords);
    const defaultPage = ok(await head.get(definition.path));
    expect(defaultPage[definition.listKey]).toEqual(all.rows.slice(0, definition.pageSize));
  });

  it('exports its list with excel=1: the definition’s headers and a row per record', async () => {
    const created = await createWith(fixture, head, (await fixture.bodies(head)).body);
    const response = await head.get(`${definition.path}?excel=1`);
    const sheet = await workbookOf(response);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    expect(sheet.name).toBe(definition.name);
    const values = valuesOf(sheet, definition.exportColumns.length);
    expect(values[0]).toEqual(definition.exportColumns.map(([, header]) => header));
    const records = (await everything(head, definition)).rows.flatMap((row) => [row, ...((row.children as Row[] | undefined) ?? [])]);
    expect(records.map((record) => record.id)).toContain(created.id);
    expect(values.slice(1)).toEqual(records.map((record) => definition.exportColumns.map(([field]) => readPath(record, field))));
  });

  it('is invisible and untouchable from another school, even for the same person', async () => {
    const { body, changed } = await fixture.bodies(head);
    const created = await createWith(fixture, head, body);
    const elsewhere = head.in(neighbour.tenantcode);
    expect((await everything(elsewhere, definition)).rows.map((row) => row.id)).not.toContain(created.id);
    expect((await elsewhere.get(`${definition.path}/${created.id}`)).statusCode).toBe(404);
    expect((await elsewhere.put(`${definition.path}/${created.id}`, changed)).statusCode).toBe(404);
    expect((await elsewhere.delete(`${definition.path}/${created.id}`)).statusCode).toBe(404);
    expect(ok(await head.get(`${definition.path}/${created.id}`))).toEqual(created);
  });

  it('may be read but not written by a teacher', async () => {
    const { body, changed } = await fixture.bodies(head);
    const created = await createWith(fixture, head, body);
    const another = definition === grades ? gradeSet(body.subject_id as string, { form: 'P3' }) : (await fixture.bodies(head)).body;
    expect(ok(await teacher.get(definition.path))).toHaveProperty(definition.listKey);
    expect(ok(await teacher.get(`${definition.path}/${created.id}`))).toEqual(created);
    const before = await everything(head, definition);
    const writes = [
      await teacher.post(definition.path, another),
      await teacher.put(`${definition.path}/${created.id}`, changed),
      await teacher.delete(`${definition.path}/${created.id}`),
    ];
    for (const response of writes) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(ERROR_MESSAGES[403]);
    }
    expect(ok(await head.get(`${definition.path}/${created.id}`))).toEqual(created);
    expect((await everything(head, definition)).totalRecords).toBe(before.totalRecords);
  });
});

describe('lists of subjects and student categories', () => {
  let pager: Caller;
  const names = Array.from({ length: 30 }, (_, index) => `Subject ${String(index + 1).padStart(2, '0')}`);

  beforeAll(async () => {
    pager = await newSchool(t, 'Pager Primary');
    // Created out of order, so the list's order is the server's.
    for (const name of [...names].reverse()) ok(await pager.post(subjects.path, { name, category: 'general' }));
  });

  it('pages 30 subjects 25 at a time, sorted by name', async () => {
    const first = ok(await pager.get(subjects.path));
    expect(first.subjects.map((row: Row) => row.name)).toEqual(names.slice(0, 25));
    expect(first.totalRecords).toBe(30);
    const second = ok(await pager.get(`${subjects.path}?page=2`));
    expect(second.subjects.map((row: Row) => row.name)).toEqual(names.slice(25));
    expect(second.totalRecords).toBe(30);
    const third = ok(await pager.get(`${subjects.path}?per_page=10&page=3`));
    expect(third.subjects.map((row: Row) => row.name)).toEqual(names.slice(20, 30));
    expect(third.totalRecords).toBe(30);
  });

  it('refuses a page or page size out of range', async () => {
    for (const query of ['page=0', 'per_page=0', 'per_page=1001', 'page=abc']) {
      expect((await pager.get(`${subjects.path}?${query}`)).statusCode, query).toBe(422);
    }
  });

  it('pages student categories 10 at a time', async () => {
    const categories = Array.from({ length: 12 }, (_, index) => `Category ${String(index + 1).padStart(2, '0')}`);
    for (const name of categories) ok(await pager.post(studentCategories.path, { name }));
    const first = ok(await pager.get(studentCategories.path));
    expect(first.studentcategories.map((row: Row) => row.name)).toEqual(categories.slice(0, 10));
    expect(first.totalRecords).toBe(12);
    const second = ok(await pager.get(`${studentCategories.path}?page=2`));
    expect(second.studentcategories.map((row: Row) => row.name)).toEqual(categories.slice(10));
  });

  describe('search', () => {
    let searcher: Caller;
    const search = async (text: string) => {
      const body = ok(await searcher.get(`${subjects.path}?search=${encodeURIComponent(text)}`));
      expect(body.totalRecords).toBe(body.subjects.length);
      return body.subjects.map((row: Row) => row.name).sort();
    };

    beforeAll(async () => {
      searcher = await newSchool(t, 'Search Secondary');
      for (const [name, category, abbreviation] of [
        ['100% Maths', 'mathematics', null],
        ['Maths_A', 'mathematics', null],
        ['MathsXA', 'mathematics', null],
        ['Applied Mathematics', 'mathematics', 'APM'],
        ['English', 'english', 'ENG'],
        ['Biology', 'science', 'BIO'],
        ['Back\\slash', 'general', null],
      ] as const) {
        ok(await searcher.post(subjects.path, { name, category, abbreviation }));
      }
    });

    it('matches inside the text, ignoring case', async () => {
      expect(await search('MATH')).toEqual(['100% Maths', 'Applied Mathematics', 'MathsXA', 'Maths_A']);
      expect(await search('lied math')).toEqual(['Applied Mathematics']);
    });

    it('looks in the abbreviation and the category too', async () => {
      expect(await search('eng')).toEqual(['English']);
      expect(await search('apm')).toEqual(['Applied Mathematics']);
      expect(await search('scien')).toEqual(['Biology']);
    });

    it('takes % and _ and \\ literally', async () => {
      expect(await search('%')).toEqual(['100% Maths']);
      expect(await search('s_a')).toEqual(['Maths_A']);
      expect(await search('_')).toEqual(['Maths_A']);
      expect(await search('\\')).toEqual(['Back\\slash']);
    });

    it('treats a blank search as none and finds nothing for an unknown text', async () => {
      expect(await search('   ')).toHaveLength(7);
      expect(await search('chemistry')).toEqual([]);
    });
  });
});

describe('validation', () => {
  it.each([
    [{}, SETTINGS_MESSAGES.categoryNameRequired],
    [{ name: '' }, SETTINGS_MESSAGES.categoryNameRequired],
    [{ name: '   ' }, SETTINGS_MESSAGES.categoryNameRequired],
    [{ name: 'Ab' }, SETTINGS_MESSAGES.nameTooShort],
    [{ name: 'x'.repeat(26) }, SETTINGS_MESSAGES.nameTooLong],
  ])('a student category %j answers 422 with errors.name %j', async (body, message) => {
    const response = await head.post(studentCategories.path, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ statusCode: 422, message: ERROR_MESSAGES[422], errors: { name: [message] } });
  });

  it('keeps a student category name of 3 and of 25 characters, trimmed', async () => {
    expect(ok(await head.post(studentCategories.path, { name: '  Day  ' })).name).toBe('Day');
    expect(ok(await head.post(studentCategories.path, { name: 'y'.repeat(25) })).name).toBe('y'.repeat(25));
  });

  it('wants a subject category, and one of the list', async () => {
    for (const category of [undefined, '', 'art']) {
      const response = await head.post(subjects.path, { name: `No category ${next()}`, category });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ category: [SETTINGS_MESSAGES.categoryRequired] });
    }
  });

  it('refuses a field the form does not have', async () => {
    const response = await head.post(subjects.path, { name: `Extra ${next()}`, category: 'general', tenant_id: neighbour.id });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ tenant_id: ['This field is not accepted'] });
  });

  it('refuses a second subject of the same name in another case, on create and on rename', async () => {
    const first = ok(await head.post(subjects.path, { name: 'Geography', category: 'humanity' }));
    const again = await head.post(subjects.path, { name: 'GEOGRAPHY', category: 'humanity' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ name: [SETTINGS_MESSAGES.duplicate] });
    const other = await newSubject(head);
    const rename = await head.put(`${subjects.path}/${other.id}`, { name: 'geography', category: 'humanity' });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().errors).toEqual({ name: [SETTINGS_MESSAGES.duplicate] });
    expect(ok(await head.get(`${subjects.path}/${other.id}`)).name).toBe(other.name);
    expect((await everything(head, subjects, '&search=geography')).rows).toEqual([first]);
    // The same name is free in another school.
    ok(await head.in(neighbour.tenantcode).post(subjects.path, { name: 'Geography', category: 'humanity' }));
  });

  it('takes only the school’s classes in every field that names one, stored in its spelling', async () => {
    const [subject, markType] = [await newSubject(head), await newMarkType(head)];
    const before = await everything(head, proportions);
    const body = { form: 'S9', term: 'I', year: 2026, subject_id: subject.id, marktype_id: markType.id, percentage: 30 };
    const refused = await head.post(proportions.path, body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ form: [SETTINGS_MESSAGES.classUnknown] });
    expect((await everything(head, proportions)).totalRecords).toBe(before.totalRecords);
    expect(ok(await head.post(proportions.path, { ...body, form: ' p5 ' })).form).toBe('P5');
    // Lists of classes: each must be the school's; the list is kept in its spelling.
    const listed = ok(await head.post(remarkTypes.path, { label: `Conduct ${next()}`, category: 'exam', forms: 'p1, P2 ,p3' }));
    expect(listed.forms).toBe('P1,P2,P3');
    const wrong = await head.post(remarkTypes.path, { label: `Conduct ${next()}`, category: 'exam', forms: 'P1, S4' });
    expect(wrong.json().errors).toEqual({ forms: [SETTINGS_MESSAGES.classUnknown] });
    const subjectWrong = await head.post(subjects.path, { name: `Biology ${next()}`, category: 'science', multiple_paper_forms: 'S5,S6' });
    expect(subjectWrong.json().errors).toEqual({ multiple_paper_forms: [SETTINGS_MESSAGES.classUnknown] });
    const edited = await head.put(`${remarkTypes.path}/${listed.id}`, { label: listed.label, category: 'exam', forms: 'nursery' });
    expect(ok(edited).forms).toBe('Nursery');
  });

  it('refuses a proportion that points at another school’s subject, and saves nothing', async () => {
    const theirs = await newSubject(head.in(neighbour.tenantcode));
    const [mine, markType] = [await newSubject(head), await newMarkType(head)];
    const before = await everything(head, proportions);
    const body = { form: 'P5', term: 'I', year: 2026, subject_id: theirs.id, marktype_id: markType.id, percentage: 30 };
    const response = await head.post(proportions.path, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect((await everything(head, proportions)).totalRecords).toBe(before.totalRecords);

    const saved = ok(await head.post(proportions.path, { ...body, subject_id: mine.id }));
    const moved = await head.put(`${proportions.path}/${saved.id}`, { ...body, subject_id: theirs.id });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
    expect(ok(await head.get(`${proportions.path}/${saved.id}`))).toEqual(saved);
  });

  it('refuses a published mark or automatic comment pointing at another school’s record', async () => {
    const elsewhere = head.in(neighbour.tenantcode);
    const [markType, remarkType] = [await newMarkType(elsewhere), await newRemarkType(elsewhere)];
    const publish = await head.post(publishMarks.path, { term: 'I', year: 2026, marktype_id: markType.id });
    expect(publish.statusCode).toBe(422);
    expect(publish.json().errors).toEqual({ marktype_id: [SETTINGS_MESSAGES.referenceMissing] });
    const comment = await head.post(autoReportComments.path, {
      form: 'P7',
      remarktype_id: remarkType.id,
      score: 0,
      upper: 10,
      comment: 'Work harder',
    });
    expect(comment.statusCode).toBe(422);
    expect(comment.json().errors).toEqual({ remarktype_id: [SETTINGS_MESSAGES.referenceMissing] });
    const grade = await head.post(grades.path, gradeSet((await newSubject(elsewhere)).id));
    expect(grade.statusCode).toBe(422);
    expect(grade.json().errors).toEqual({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  });

  it.each(
    (
      [
        [markTypes, { label: 'Zero', category: 'test', outof: 0 }, 'outof', SETTINGS_MESSAGES.numberInvalid],
        [markTypes, { category: 'test' }, 'label', SETTINGS_MESSAGES.labelRequired],
        [proportions, { form: 'P1', term: 'IV', year: 2026 }, 'term', SETTINGS_MESSAGES.termRequired],
        [proportions, { form: 'P1', term: 'I', year: 1999 }, 'year', SETTINGS_MESSAGES.yearInvalid],
        [proportions, { form: '', term: 'I', year: 2026 }, 'form', SETTINGS_MESSAGES.classRequired],
        [proportions, { form: 'P1', term: 'I', year: 2026, percentage: 101 }, 'percentage', SETTINGS_MESSAGES.percentageInvalid],
        [publishMarks, { term: 'I', year: 2026 }, 'marktype_id', SETTINGS_MESSAGES.markTypeRequired],
        [aLevelScores, { total: 61, score: 1, papercount: 1 }, 'total', SETTINGS_MESSAGES.numberInvalid],
        // A letter where a number belongs is said, never saved as 0 (issue 10 point 10).
        [aLevelScores, { total: 12, score: 'B', papercount: 3 }, 'score', SETTINGS_MESSAGES.numberRequired],
        [aLevelScores, { total: '', score: 5, papercount: 3 }, 'total', SETTINGS_MESSAGES.numberRequired],
        [autoMarkComments, { score: 'D1', comment: ' ' }, 'comment', SETTINGS_MESSAGES.commentRequired],
        [autoMarkComments, { comment: 'Fine' }, 'score', SETTINGS_MESSAGES.scoreRequired],
        [autoReportComments, { form: 'P7', score: 60, upper: 50, comment: 'x' }, 'remarktype_id', SETTINGS_MESSAGES.remarkTypeRequired],
        [remarkTypes, { label: 'Conduct' }, 'category', SETTINGS_MESSAGES.categoryRequired],
      ] as Array<[ResourceDefinition, Body, string, string]>
    ).map(([definition, body, field, message]) => [definition.name, body, field, message, definition.path] as const),
  )('%s %j answers errors.%s %j', async (_name, body, field, message, path) => {
    const response = await head.post(path, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('refuses bounds the wrong way round', async () => {
    const remarkType = await newRemarkType(head);
    const comment = await head.post(autoReportComments.path, {
      form: 'P7',
      remarktype_id: remarkType.id,
      score: 60,
      upper: 50,
      comment: 'x',
    });
    expect(comment.statusCode).toBe(422);
    expect(comment.json().errors).toEqual({ score: [SETTINGS_MESSAGES.rangeReversed] });
    const subject = await newSubject(head);
    const row = ok(await head.post(grades.path, gradeSet(subject.id))).grades[0];
    const reversed = await head.put(`${grades.path}/${row.id}`, { ...gradeSetFields(row), lower: 90, upper: 80 });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().errors).toEqual({ lower: [SETTINGS_MESSAGES.rangeReversed] });
  });

  it('answers 404 for a record id that does not exist', async () => {
    for (const definition of SCHOOL_RESOURCES) {
      expect((await head.get(`${definition.path}/${newId()}`)).statusCode, definition.name).toBe(404);
      expect((await head.delete(`${definition.path}/${newId()}`)).statusCode, definition.name).toBe(404);
    }
  });
});

describe('permissions', () => {
  it('lets a teacher read subjects but not write them', async () => {
    const subject = await newSubject(head);
    expect(ok(await teacher.get(subjects.path)).subjects).toContainEqual(subject);
    expect(ok(await teacher.get(`${subjects.path}/${subject.id}`))).toEqual(subject);
    expect((await teacher.post(subjects.path, { name: `Teacher's ${next()}`, category: 'general' })).statusCode).toBe(403);
    expect((await teacher.put(`${subjects.path}/${subject.id}`, { name: 'Renamed', category: 'general' })).statusCode).toBe(403);
    expect((await teacher.delete(`${subjects.path}/${subject.id}`)).statusCode).toBe(403);
    expect(ok(await head.get(`${subjects.path}/${subject.id}`))).toEqual(subject);
  });

  it('records a refused write in the audit log', async () => {
    await teacher.post(subjects.path, { name: `Refused ${next()}`, category: 'general' });
    const entries = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('action', '=', 'forbidden').where('entity', '=', 'setting').execute(),
    );
    expect(entries.length).toBeGreaterThan(0);
  });

  it('needs `setting` for school settings, `location` for stock locations', async () => {
    ok(await clerk.post(subjects.path, { name: `Clerk's ${next()}`, category: 'general' }));
    ok(await clerk.post(markTypes.path, { label: `Clerk's ${next()}`, category: 'test' }));
    expect((await clerk.post(locations.path, { name: `Clerk's store ${next()}` })).statusCode).toBe(403);
    ok(await storekeeper.post(locations.path, { name: `Storekeeper's store ${next()}` }));
    expect((await storekeeper.post(subjects.path, { name: `Storekeeper's ${next()}`, category: 'general' })).statusCode).toBe(403);
    expect(ok(await storekeeper.get(subjects.path))).toHaveProperty('subjects');
  });

  it('needs `publish-mark` for published marks, which a head teacher has and `setting` alone does not give', async () => {
    const markType = await newMarkType(head);
    const body = { term: 'II', year: 2030, marktype_id: markType.id };
    const refused = await clerk.post(publishMarks.path, body);
    expect(refused.statusCode).toBe(403);
    const published = ok(await head.post(publishMarks.path, body));
    expect((await clerk.put(`${publishMarks.path}/${published.id}`, body)).statusCode).toBe(403);
    expect((await clerk.delete(`${publishMarks.path}/${published.id}`)).statusCode).toBe(403);
    expect(ok(await clerk.get(`${publishMarks.path}/${published.id}`))).toEqual(published);
  });
});

describe('audit', () => {
  it('records the create, update and delete of a subject, with before and after', async () => {
    const subject = await newSubject(head);
    const renamed = ok(await head.put(`${subjects.path}/${subject.id}`, { name: `Renamed ${next()}`, category: 'science' }));
    ok(await head.delete(`${subjects.path}/${subject.id}`));
    const entries = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('entity', '=', 'subjects').where('entity_id', '=', subject.id).orderBy('at').execute(),
    );
    const byAction = Object.fromEntries(entries.map((entry) => [entry.action, entry]));
    expect(entries.map((entry) => entry.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(byAction.create).toMatchObject({ tenant_id: school.id, before: null, after: subject });
    expect(byAction.update).toMatchObject({ before: subject, after: renamed });
    expect(byAction.delete).toMatchObject({ before: renamed, after: null });
    for (const entry of entries) expect(entry.user_id).toEqual(expect.any(String));
    // Nothing of it in the other school's log.
    const theirs = await withTenant(t.database.db, { tenantId: neighbour.id }, (trx) =>
      trx.selectFrom('audit_log').select('id').where('entity_id', '=', subject.id).execute(),
    );
    expect(theirs).toEqual([]);
  });

  it('records a grade set as one entry', async () => {
    const subject = await newSubject(head);
    ok(await head.post(grades.path, gradeSet(subject.id, { form: 'P4' })));
    ok(await head.post(grades.path, { ...gradeSet(subject.id, { form: 'P4' }), replace: true }));
    const entries = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').select(['action', 'after']).where('entity', '=', 'grades').orderBy('at').execute(),
    );
    const mine = entries.filter((entry) => (entry.after as Array<{ subject_id: string }> | null)?.[0]?.subject_id === subject.id);
    expect(mine.map((entry) => entry.action)).toEqual(['create', 'update']);
  });
});
