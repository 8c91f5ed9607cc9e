import {
  ERROR_MESSAGES,
  IN_USE_MESSAGES,
  INPUT_MESSAGES,
  markTypes,
  RESULT_MESSAGES,
  STUDENT_MESSAGES,
  type Student,
  type StudentResults,
  studentCategories,
  subjects,
  TENANT_HEADER,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeStudents, makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, ok, SPREADSHEET, valuesOf, workbookOf } from '../settings/settings-fixtures.js';

/*
 * The learners' routes (issue 5): the class list with its filters, paging and Classlist
 * spreadsheet; adding (multipart or JSON) and editing a learner with the form's validation;
 * academic records from marks written straight into the database; and another school's
 * learners out of sight. Photos: students-photos.test.ts; promotion: promotion.test.ts.
 */

const PATH = '/api/school/students';

type Body = Record<string, string | null | undefined>;

interface School {
  id: string;
  tenantcode: string;
  token: string;
  /** A head teacher of the school (manages learners). */
  head: Caller;
}

let t: TestApp;
let school: School;
let neighbour: School;
let teacher: Caller;

async function newSchool(name: string, schooltype: 'primary' | 'secondary' = 'primary'): Promise<School> {
  const tenant = await makeTenant(t.database, { name, schooltype });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: ['headteacher'] }] });
  const token = await login(t.app, user.email);
  return { ...tenant, token, head: caller(t.app, token, tenant.tenantcode) };
}

/** A multipart POST or PUT of text fields, as the web's form sends it (no photo). */
async function sendForm(who: { token: string; tenantcode: string }, method: 'POST' | 'PUT', url: string, fields: Body) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== null) form.set(name, value);
  const request = new Request('http://x', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${who.token}`,
      [TENANT_HEADER]: who.tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload,
  });
}

/** The learners of a list call (names only), once its total is checked against `total`. */
async function listed(c: Caller, query: string, total?: number): Promise<string[]> {
  const body = ok(await c.get(`${PATH}?${query}`));
  if (total !== undefined) expect(body.totalRecords).toBe(total);
  return body.students.map((student: Student) => student.fullname);
}

async function newCategory(c: Caller, name: string): Promise<{ id: string; name: string }> {
  return ok(await c.post(studentCategories.path, { name }));
}

async function countStudents(tenantId: string): Promise<number> {
  const row = await withTenant(t.database.db, { tenantId }, (trx) =>
    trx
      .selectFrom('students')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  );
  return Number(row.n);
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await newSchool('Kabojja Junior School');
  neighbour = await newSchool('Hillside Primary');
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
});
afterAll(() => t.close());

describe('the class list (GET /api/school/students)', () => {
  let list: School;
  let boarders: { id: string; name: string };
  let day: { id: string; name: string };
  const byName = new Map<string, Student>();

  beforeAll(async () => {
    list = await newSchool('List Primary School');
    boarders = await newCategory(list.head, 'Boarders');
    day = await newCategory(list.head, 'Day scholars');
    // Created out of order, so the order of the list is the server's.
    const learners: Body[] = [
      { studentid: 'KJS/0107', firstname: 'Esther', lastname: 'Nakato', gender: 'F', form: 'P5' },
      {
        studentid: 'KJS/0106',
        firstname: 'Charles',
        lastname: 'Mukasa',
        gender: 'M',
        form: 'P4',
        stream: 'West',
        studentcategory_id: day.id,
      },
      {
        studentid: 'KJS/0105',
        firstname: 'Brian',
        lastname: 'Okello',
        gender: 'M',
        form: 'P4',
        stream: 'East',
        studentcategory_id: day.id,
        phone: '0701 555 010',
        house: 'Victoria',
      },
      {
        studentid: 'KJS/0104',
        firstname: 'Betty',
        lastname: 'Nakato',
        gender: 'F',
        form: 'P4',
        stream: 'East',
        studentcategory_id: boarders.id,
      },
      {
        studentid: 'KJS/0103',
        firstname: 'Amina',
        othername: 'Grace',
        lastname: 'Nakato',
        gender: 'F',
        form: 'P4',
        stream: 'East',
        studentcategory_id: boarders.id,
        phone: '+256 772 123456',
        email: 'amina.parent@example.ug',
        code: '4821',
        house: 'Nile',
        lin: 'LIN0012345',
      },
      { studentid: 'KJS/0102', firstname: 'Diana', lastname: 'Namusoke', gender: 'F', form: 'P3', stream: 'East' },
      { studentid: 'KJS/0101', firstname: 'Fred', lastname: 'Ssali', gender: 'M', form: 'P4', stream: 'East', status: 'inactive' },
      { studentid: 'KJS/0100', firstname: 'Grace', lastname: 'Achieng', gender: 'F', form: 'P7', stream: 'East', status: 'completed' },
      { studentid: 'OLD-2019-44', firstname: 'Joseph', lastname: 'Kato', gender: 'M', form: 'P7', status: 'completed' },
    ];
    for (const learner of learners) {
      const saved: Student = ok(await list.head.post(PATH, learner));
      byName.set(saved.fullname, saved);
    }
  });

  const ACTIVE = ['Diana Namusoke', 'Amina Grace Nakato', 'Betty Nakato', 'Brian Okello', 'Charles Mukasa', 'Esther Nakato'];

  it('lists active learners only, sorted by class, stream, last name and first name', async () => {
    expect(await listed(list.head, 'per_page=1000', 6)).toEqual(ACTIVE);
  });

  it('gives each learner its full name and its category by name', async () => {
    const body = ok(await list.head.get(`${PATH}?form=P4&stream=East`));
    const amina = body.students.find((student: Student) => student.studentid === 'KJS/0103');
    expect(amina).toEqual({
      id: byName.get('Amina Grace Nakato')?.id,
      studentid: 'KJS/0103',
      firstname: 'Amina',
      othername: 'Grace',
      lastname: 'Nakato',
      fullname: 'Amina Grace Nakato',
      gender: 'F',
      dob: null,
      form: 'P4',
      stream: 'East',
      status: 'active',
      studentcategory_id: boarders.id,
      studentcategory: { name: 'Boarders' },
      // Generated: a new learner without one gets a payment code (10 digits) and a passcode.
      paymentcode: expect.stringMatching(/^[1-9]\d{9}$/),
      address: null,
      phone: '+256 772 123456',
      email: 'amina.parent@example.ug',
      house: 'Nile',
      lin: 'LIN0012345',
      code: '4821',
      guardian_email: null,
      photo_path: null,
    });
    const esther = ok(await list.head.get(`${PATH}?form=P5`)).students[0];
    expect(esther).toMatchObject({ fullname: 'Esther Nakato', studentcategory_id: null, studentcategory: null, stream: null });
  });

  it('filters by class, and by stream ignoring case', async () => {
    expect(await listed(list.head, 'form=P4', 4)).toEqual(['Amina Grace Nakato', 'Betty Nakato', 'Brian Okello', 'Charles Mukasa']);
    expect(await listed(list.head, 'form=P4&stream=east', 3)).toEqual(['Amina Grace Nakato', 'Betty Nakato', 'Brian Okello']);
    expect(await listed(list.head, 'stream=EAST', 4)).toEqual(['Diana Namusoke', 'Amina Grace Nakato', 'Betty Nakato', 'Brian Okello']);
    expect(await listed(list.head, 'form=P6', 0)).toEqual([]);
  });

  it('filters by a part of the first, other or last name, ignoring case', async () => {
    expect(await listed(list.head, 'name=nakAT', 3)).toEqual(['Amina Grace Nakato', 'Betty Nakato', 'Esther Nakato']);
    expect(await listed(list.head, 'name=RIA', 1)).toEqual(['Brian Okello']);
    // "Grace" is Amina's other name; Grace Achieng has completed school and is not listed.
    expect(await listed(list.head, 'name=grace', 1)).toEqual(['Amina Grace Nakato']);
    expect(await listed(list.head, 'name=%25', 0)).toEqual([]);
    expect(await listed(list.head, 'name=zzz', 0)).toEqual([]);
  });

  it('filters by a part of the student id, ignoring case', async () => {
    expect(await listed(list.head, 'studentid=010', 6)).toEqual(ACTIVE);
    expect(await listed(list.head, 'studentid=kjs%2F0105', 1)).toEqual(['Brian Okello']);
    expect(await listed(list.head, 'studentid=0106', 1)).toEqual(['Charles Mukasa']);
  });

  it('filters by student category, alone and with the other filters', async () => {
    expect(await listed(list.head, `studentcategory_id=${boarders.id}`, 2)).toEqual(['Amina Grace Nakato', 'Betty Nakato']);
    expect(await listed(list.head, `form=P4&stream=East&studentcategory_id=${day.id}`, 1)).toEqual(['Brian Okello']);
    expect(await listed(list.head, `studentcategory_id=${newId()}`, 0)).toEqual([]);
    // The filter bar sends a blank category when none is chosen.
    expect(await listed(list.head, 'studentcategory_id=', 6)).toEqual(ACTIVE);
  });

  it('lists completed or inactive learners when the status is asked', async () => {
    expect(await listed(list.head, 'status=completed', 2)).toEqual(['Grace Achieng', 'Joseph Kato']);
    expect(await listed(list.head, 'status=inactive', 1)).toEqual(['Fred Ssali']);
    expect(await listed(list.head, 'status=completed&name=grace', 1)).toEqual(['Grace Achieng']);
  });

  it('pages with per_page and page, the total counting every page', async () => {
    expect(await listed(list.head, 'per_page=2&page=1', 6)).toEqual(ACTIVE.slice(0, 2));
    expect(await listed(list.head, 'per_page=2&page=2', 6)).toEqual(ACTIVE.slice(2, 4));
    expect(await listed(list.head, 'per_page=2&page=3', 6)).toEqual(ACTIVE.slice(4, 6));
    expect(await listed(list.head, 'per_page=2&page=4', 6)).toEqual([]);
    expect(await listed(list.head, 'form=P4&per_page=3&page=2', 4)).toEqual(['Charles Mukasa']);
  });

  it('shows 50 learners a page unless told, and refuses a page size over 1000 or a page below 1', async () => {
    const big = await newSchool('Big Primary School');
    await makeStudents(t.database, big.id, 'P2', 53);
    const first = ok(await big.head.get(PATH));
    expect(first.students).toHaveLength(50);
    expect(first.totalRecords).toBe(53);
    const second = ok(await big.head.get(`${PATH}?page=2`));
    expect(second.students).toHaveLength(3);
    const ids = new Set([...first.students, ...second.students].map((student: Student) => student.id));
    expect(ids.size).toBe(53);
    expect(ok(await big.head.get(`${PATH}?per_page=1000`)).students).toHaveLength(53);
    for (const query of ['per_page=1001', 'per_page=0', 'page=0', 'status=gone', 'studentcategory_id=nope']) {
      expect((await big.head.get(`${PATH}?${query}`)).statusCode, query).toBe(422);
    }
  });

  it('is open to every member of the school, a teacher too', async () => {
    const member = await makeUser(t.database, { memberOf: [{ tenantId: list.id, roles: ['teacher'] }] });
    const reader = caller(t.app, await login(t.app, member.email), list.tenantcode);
    expect(await listed(reader, 'form=P3', 1)).toEqual(['Diana Namusoke']);
    expect((await t.app.inject({ method: 'GET', url: PATH, headers: { [TENANT_HEADER]: list.tenantcode } })).statusCode).toBe(401);
  });

  it('downloads a class and stream as Classlist-P4-East.xlsx: the spec’s columns and every learner, not one page', async () => {
    const response = await list.head.get(`${PATH}?form=P4&stream=East&excel=1&per_page=1`);
    expect(response.headers['content-disposition']).toBe('attachment; filename="Classlist-P4-East.xlsx"');
    const sheet = await workbookOf(response);
    expect(response.headers['content-type']).toBe(SPREADSHEET);
    const headers = ['Student ID', 'Name', 'Class', 'Stream', 'Gender', 'Phone', 'Email', 'Category', 'Passcode', 'House', 'LIN'];
    const values = valuesOf(sheet, headers.length);
    expect(values[0]).toEqual(headers);
    expect(values.slice(1)).toEqual([
      [
        'KJS/0103',
        'Amina Grace Nakato',
        'P4',
        'East',
        'F',
        '+256 772 123456',
        'amina.parent@example.ug',
        'Boarders',
        '4821',
        'Nile',
        'LIN0012345',
      ],
      ['KJS/0104', 'Betty Nakato', 'P4', 'East', 'F', null, null, 'Boarders', byName.get('Betty Nakato')?.code, null, null],
      [
        'KJS/0105',
        'Brian Okello',
        'P4',
        'East',
        'M',
        '0701 555 010',
        null,
        'Day scholars',
        byName.get('Brian Okello')?.code,
        'Victoria',
        null,
      ],
    ]);
  });
});

describe('adding a learner (POST /api/school/students)', () => {
  let boarders: { id: string; name: string };

  beforeAll(async () => {
    boarders = await newCategory(school.head, 'Boarders');
  });

  it('saves every field of a multipart form and answers the saved learner', async () => {
    const fields = {
      studentid: 'KJS/0201',
      firstname: 'Amina',
      lastname: 'Nakato',
      othername: 'Grace',
      gender: 'F',
      dob: '2014-03-05',
      form: 'P4',
      stream: 'East',
      status: 'active',
      studentcategory_id: boarders.id,
      paymentcode: '1002003',
      address: 'Plot 12, Kireka Road',
      phone: '+256 772 123456',
      email: 'amina.parent@example.ug',
      house: 'Nile',
      lin: 'LIN0012345',
      code: '4821',
      guardian_email: 'nakato.family@example.ug',
    };
    const saved = ok(await sendForm(school, 'POST', PATH, fields));
    expect(saved).toEqual({
      id: expect.any(String),
      ...fields,
      fullname: 'Amina Grace Nakato',
      studentcategory: { name: 'Boarders' },
      photo_path: null,
    });
    expect(ok(await school.head.get(`${PATH}/${saved.id}`))).toEqual(saved);
  });

  it('takes a JSON body too, blanks becoming null and the status active', async () => {
    const saved = ok(
      await school.head.post(PATH, {
        studentid: 'KJS/0202',
        firstname: ' Brian ',
        lastname: 'Okello',
        form: 'P3',
        stream: '',
        gender: 'm',
      }),
    );
    expect(saved).toMatchObject({
      studentid: 'KJS/0202',
      firstname: 'Brian',
      lastname: 'Okello',
      othername: null,
      fullname: 'Brian Okello',
      gender: 'M',
      form: 'P3',
      stream: null,
      status: 'active',
      studentcategory: null,
      photo_path: null,
    });
    expect(ok(await school.head.get(`${PATH}/${saved.id}`))).toEqual(saved);
  });

  const VALID = { firstname: 'Ruth', lastname: 'Apio', gender: 'F', form: 'P2' };

  it('leaves the gender unknown (null) when it is blank or not sent at all', async () => {
    const { gender: _gender, ...withoutGender } = VALID;
    expect(ok(await sendForm(school, 'POST', PATH, { ...withoutGender, gender: '' })).gender).toBeNull();
    expect(ok(await school.head.post(PATH, { ...withoutGender, gender: null })).gender).toBeNull();
    // Gender is optional (the column and the learner's record allow null): leaving it out is no error.
    expect(ok(await sendForm(school, 'POST', PATH, withoutGender)).gender).toBeNull();
    expect(ok(await school.head.post(PATH, withoutGender)).gender).toBeNull();
  });

  it.each([
    ['the first name missing', { firstname: undefined }, 'firstname', STUDENT_MESSAGES.firstnameRequired],
    ['a blank first name', { firstname: '   ' }, 'firstname', STUDENT_MESSAGES.firstnameRequired],
    ['the last name missing', { lastname: undefined }, 'lastname', STUDENT_MESSAGES.lastnameRequired],
    ['the class missing', { form: undefined }, 'form', STUDENT_MESSAGES.classRequired],
    ['gender X', { gender: 'X' }, 'gender', STUDENT_MESSAGES.genderInvalid],
    ['a date of birth that does not exist (30 February)', { dob: '2020-02-30' }, 'dob', STUDENT_MESSAGES.dateInvalid],
    ['a date of birth in year 0, which the database has not', { dob: '0000-01-01' }, 'dob', STUDENT_MESSAGES.dobTooEarly],
    ['a date of birth before 1900', { dob: '1899-12-31' }, 'dob', STUDENT_MESSAGES.dobTooEarly],
    ['a date of birth in year 9999 (issue 23 item 14)', { dob: '9999-01-01' }, 'dob', STUDENT_MESSAGES.dobInFuture],
    [
      'a date of birth two days ahead',
      { dob: new Date(Date.now() + 2 * 86_400_000 + 14 * 3_600_000).toISOString().slice(0, 10) },
      'dob',
      STUDENT_MESSAGES.dobInFuture,
    ],
    ['a date of birth in another format', { dob: '05/03/2014' }, 'dob', STUDENT_MESSAGES.dateInvalid],
    ['a bad email', { email: 'amina.example.ug' }, 'email', STUDENT_MESSAGES.emailInvalid],
    ['an unknown status', { status: 'expelled' }, 'status', STUDENT_MESSAGES.statusInvalid],
  ] as Array<[string, Body, string, string]>)(
    'refuses %s with a 422 naming the field, and saves nothing',
    async (_case, change, field, message) => {
      const before = await countStudents(school.id);
      const response = await sendForm(school, 'POST', PATH, { ...VALID, ...change });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({ statusCode: 422, message: ERROR_MESSAGES[422], errors: { [field]: [message] } });
      expect(await countStudents(school.id)).toBe(before);
    },
  );

  it('takes a date of birth from 1 January 1900 to today', async () => {
    expect(ok(await sendForm(school, 'POST', PATH, { ...VALID, dob: '1900-01-01' })).dob).toBe('1900-01-01');
    const today = new Date().toISOString().slice(0, 10);
    expect(ok(await sendForm(school, 'POST', PATH, { ...VALID, dob: today })).dob).toBe(today);
  });

  it('refuses a name sent in JSON as a flag or a number (issue 23 item 14), naming each field; other fields take numbers as text', async () => {
    const before = await countStudents(school.id);
    const refused = await school.head.post(PATH, { ...VALID, firstname: true, lastname: 5, othername: false });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toEqual({
      statusCode: 422,
      message: ERROR_MESSAGES[422],
      errors: {
        firstname: [INPUT_MESSAGES.textExpected],
        lastname: [INPUT_MESSAGES.textExpected],
        othername: [INPUT_MESSAGES.textExpected],
      },
    });
    expect(await countStudents(school.id)).toBe(before);
    // An edit the same way.
    const saved = ok(await school.head.post(PATH, { ...VALID, studentid: 20231, phone: 772000111 }));
    expect([saved.studentid, saved.phone]).toEqual(['20231', '772000111']);
    const edit = await school.head.put(`${PATH}/${saved.id}`, { ...VALID, firstname: true });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors).toEqual({ firstname: [INPUT_MESSAGES.textExpected] });
    expect(ok(await school.head.get(`${PATH}/${saved.id}`)).firstname).toBe('Ruth');
  });

  it('refuses a student category of another school', async () => {
    const theirs = await newCategory(neighbour.head, 'Their boarders');
    const before = await countStudents(school.id);
    const response = await sendForm(school, 'POST', PATH, { ...VALID, studentcategory_id: theirs.id });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ studentcategory_id: [STUDENT_MESSAGES.categoryUnknown] });
    expect(await countStudents(school.id)).toBe(before);
  });

  it('refuses a field the form does not have (tenant_id), and saves nothing', async () => {
    const before = await countStudents(school.id);
    const response = await school.head.post(PATH, { ...VALID, tenant_id: neighbour.id });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ tenant_id: ['This field is not accepted'] });
    expect(await countStudents(school.id)).toBe(before);
    expect(await countStudents(neighbour.id)).toBe(0);
  });

  it('refuses a student id another learner of the school has, but not one of another school', async () => {
    ok(await school.head.post(PATH, { ...VALID, studentid: 'KJS/0300' }));
    const before = await countStudents(school.id);
    const again = await sendForm(school, 'POST', PATH, { ...VALID, firstname: 'Other', studentid: 'KJS/0300' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      statusCode: 422,
      message: ERROR_MESSAGES[422],
      errors: { studentid: [STUDENT_MESSAGES.studentidTaken] },
    });
    expect(await countStudents(school.id)).toBe(before);
    ok(await neighbour.head.post(PATH, { ...VALID, studentid: 'KJS/0300' }));
  });

  it('gives a learner without a student id the school’s next one', async () => {
    const abc = await newSchool('Bright Future Academy');
    ok(await abc.head.post(PATH, { ...VALID, studentid: 'ABC/0007' }));
    ok(await abc.head.post(PATH, { ...VALID, studentid: 'ABC/0003' }));
    ok(await abc.head.post(PATH, { ...VALID, studentid: 'LEGACY-99' }));
    const next = ok(await sendForm(abc, 'POST', PATH, { ...VALID, studentid: '' }));
    expect(next.studentid).toBe('ABC/0008');
    const after = ok(await abc.head.post(PATH, VALID));
    expect(after.studentid).toBe('ABC/0009');
    // A school without school-style ids starts from the initials of its name.
    const fresh = await newSchool('Kireka Hill School');
    expect(ok(await fresh.head.post(PATH, VALID)).studentid).toBe('KHS/0001');
  });

  it('takes only the school’s classes, in the school’s spelling, and a stream as the school already writes it', async () => {
    const high = await newSchool('Kololo High School', 'secondary');
    const refused = await high.head.post(PATH, { ...VALID, form: 'S9' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ form: [STUDENT_MESSAGES.classUnknown] });
    expect((await high.head.post(PATH, { ...VALID, form: 'P4' })).json().errors).toEqual({ form: [STUDENT_MESSAGES.classUnknown] });
    const first = ok(await high.head.post(PATH, { ...VALID, form: ' s2 ', stream: 'East' }));
    expect([first.form, first.stream]).toEqual(['S2', 'East']);
    const second = ok(await sendForm(high, 'POST', PATH, { ...VALID, form: 's2', stream: ' east ' }));
    expect([second.form, second.stream]).toEqual(['S2', 'East']);
    // The class list's filters find both, however they are typed.
    expect(await listed(high.head, 'form=S2&stream=East', 2)).toHaveLength(2);
    expect(await listed(high.head, 'form=s2&stream=EAST', 2)).toHaveLength(2);
    // Editing follows the same rule.
    const edited = await high.head.put(`${PATH}/${second.id}`, { ...VALID, form: 'S7' });
    expect(edited.json().errors).toEqual({ form: [STUDENT_MESSAGES.classUnknown] });
    expect(ok(await high.head.put(`${PATH}/${second.id}`, { ...VALID, form: 's3', stream: 'EAST' })).form).toBe('S3');
  });

  it('continues past a serial beyond 2^53 (a phone number pasted as the id) instead of hanging', async () => {
    const big = await newSchool('Lira Town College');
    ok(await big.head.post(PATH, { ...VALID, studentid: 'X/9007199254740992' }));
    ok(await big.head.post(PATH, { ...VALID, studentid: 'X/256772123456789012345' }));
    expect(ok(await big.head.post(PATH, VALID)).studentid).toBe('X/256772123456789012346');
    expect(ok(await big.head.post(PATH, VALID)).studentid).toBe('X/256772123456789012347');
  });

  it('gives a new learner a passcode and a payment code unless the form has them, and an edit keeps them', async () => {
    const drawn: Student = ok(await school.head.post(PATH, { firstname: 'Coded', lastname: 'Learner', gender: 'F', form: 'P2' }));
    expect(drawn.code).toMatch(/^[1-9]\d{5}$/);
    expect(drawn.paymentcode).toMatch(/^[1-9]\d{9}$/);
    const given: Student = ok(
      await school.head.post(PATH, { firstname: 'Given', lastname: 'Codes', gender: 'M', form: 'P2', code: '9001', paymentcode: 'KJS-77' }),
    );
    expect([given.code, given.paymentcode]).toEqual(['9001', 'KJS-77']);
    const edited: Student = ok(
      await school.head.put(`${PATH}/${drawn.id}`, { firstname: 'Coded', lastname: 'Learner', gender: 'F', form: 'P3' }),
    );
    expect([edited.code, edited.paymentcode]).toEqual([drawn.code, drawn.paymentcode]);
    // A code typed by hand that another learner has is refused: one code, one learner.
    const clash = await school.head.post(PATH, {
      firstname: 'Copy',
      lastname: 'Cat',
      gender: 'M',
      form: 'P2',
      code: '9001',
      paymentcode: drawn.paymentcode,
    });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors).toEqual({ code: [STUDENT_MESSAGES.codeTaken], paymentcode: [STUDENT_MESSAGES.paymentcodeTaken] });
    const renamed = await school.head.put(`${PATH}/${given.id}`, {
      firstname: 'Given',
      lastname: 'Codes',
      gender: 'M',
      form: 'P2',
      code: drawn.code,
    });
    expect(renamed.json().errors).toEqual({ code: [STUDENT_MESSAGES.codeTaken] });
    // Another school may use the same codes.
    expect(
      (await neighbour.head.post(PATH, { firstname: 'Same', lastname: 'Code', gender: 'F', form: 'P2', code: '9001' })).statusCode,
    ).toBe(200);
  });

  it('is refused to a teacher (403), who saves nothing', async () => {
    const before = await countStudents(school.id);
    const response = await teacher.post(PATH, { ...VALID, studentid: 'KJS/0400' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(ERROR_MESSAGES[403]);
    expect(await countStudents(school.id)).toBe(before);
  });
});

describe('editing a learner (PUT /api/school/students/:id)', () => {
  it('changes the fields, keeping the student id when it is left blank', async () => {
    const created: Student = ok(
      await school.head.post(PATH, {
        studentid: 'KJS/0501',
        firstname: 'Peter',
        lastname: 'Ouma',
        gender: 'M',
        form: 'P5',
        stream: 'East',
        phone: '0700 000 001',
      }),
    );
    const updated = ok(
      await sendForm(school, 'PUT', `${PATH}/${created.id}`, {
        studentid: '',
        firstname: 'Peter',
        othername: 'Paul',
        lastname: 'Ouma',
        form: 'P6',
        stream: 'West',
        gender: 'M',
        dob: '2013-11-30',
        phone: '0772 000 002',
        status: 'inactive',
      }),
    );
    expect(updated).toEqual({
      ...created,
      othername: 'Paul',
      fullname: 'Peter Paul Ouma',
      form: 'P6',
      stream: 'West',
      gender: 'M',
      dob: '2013-11-30',
      phone: '0772 000 002',
      status: 'inactive',
    });
    expect(ok(await school.head.get(`${PATH}/${created.id}`))).toEqual(updated);
  });

  it('refuses another learner’s student id, and keeps its own', async () => {
    ok(await school.head.post(PATH, { studentid: 'KJS/0601', firstname: 'Sarah', lastname: 'Akello', gender: 'F', form: 'P1' }));
    const mine: Student = ok(
      await school.head.post(PATH, { studentid: 'KJS/0602', firstname: 'John', lastname: 'Mugisha', gender: 'M', form: 'P1' }),
    );
    const taken = await sendForm(school, 'PUT', `${PATH}/${mine.id}`, {
      studentid: 'KJS/0601',
      firstname: 'John',
      lastname: 'Mugisha',
      gender: 'M',
      form: 'P1',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ studentid: [STUDENT_MESSAGES.studentidTaken] });
    expect(ok(await school.head.get(`${PATH}/${mine.id}`))).toEqual(mine);
    const same = ok(
      await sendForm(school, 'PUT', `${PATH}/${mine.id}`, {
        studentid: 'KJS/0602',
        firstname: 'Johnny',
        lastname: 'Mugisha',
        gender: 'M',
        form: 'P1',
      }),
    );
    expect(same).toEqual({ ...mine, firstname: 'Johnny', fullname: 'Johnny Mugisha' });
  });

  it('answers 404 for another school’s learner, which does not change', async () => {
    const theirs: Student = ok(
      await neighbour.head.post(PATH, { studentid: 'HPS/0001', firstname: 'Moses', lastname: 'Wasswa', gender: 'M', form: 'P4' }),
    );
    const response = await sendForm(school, 'PUT', `${PATH}/${theirs.id}`, {
      firstname: 'Changed',
      lastname: 'Name',
      gender: 'M',
      form: 'P7',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, message: ERROR_MESSAGES[404] });
    expect(
      (await school.head.put(`${PATH}/${theirs.id}`, { firstname: 'Changed', lastname: 'Name', gender: 'M', form: 'P7' })).statusCode,
    ).toBe(404);
    expect(ok(await neighbour.head.get(`${PATH}/${theirs.id}`))).toEqual(theirs);
    expect((await school.head.put(`${PATH}/${newId()}`, { firstname: 'No', lastname: 'One', gender: 'M', form: 'P1' })).statusCode).toBe(
      404,
    );
  });

  it('is refused to a teacher (403)', async () => {
    const created: Student = ok(await school.head.post(PATH, { firstname: 'Joan', lastname: 'Atim', gender: 'F', form: 'P2' }));
    const response = await teacher.put(`${PATH}/${created.id}`, { firstname: 'Changed', lastname: 'Atim', gender: 'M', form: 'P2' });
    expect(response.statusCode).toBe(403);
    expect(ok(await teacher.get(`${PATH}/${created.id}`))).toEqual(created);
  });
});

describe('deleting a learner (DELETE /api/school/students/:id)', () => {
  const add = async (c: Caller, firstname: string): Promise<Student> =>
    ok(await c.post(PATH, { firstname, lastname: 'Mistake', gender: 'F', form: 'P3' }));
  const auditedDeletes = (tenantId: string, id: string) =>
    withTenant(t.database.db, { tenantId }, (trx) =>
      trx
        .selectFrom('audit_log')
        .select(['action', 'before'])
        .where('entity', '=', 'students')
        .where('entity_id', '=', id)
        .where('action', '=', 'delete')
        .execute(),
    );

  it('removes a learner entered by mistake (no marks, no fees), with an audit entry keeping what was removed', async () => {
    const learner = await add(school.head, 'Typo');
    const response = await school.head.delete(`${PATH}/${learner.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: RESULT_MESSAGES.deleted });
    expect((await school.head.get(`${PATH}/${learner.id}`)).statusCode).toBe(404);
    const audit = await auditedDeletes(school.id, learner.id);
    expect(audit).toHaveLength(1);
    expect((audit[0]?.before as Student | undefined)?.fullname).toBe(learner.fullname);
  });

  it('refuses (409) a learner with a fee line or a mark, who stays, and can be made inactive instead', async () => {
    const withFees = await add(school.head, 'Payer');
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('statement_lines')
        .values({
          tenant_id: school.id,
          id: newId(),
          student_id: withFees.id,
          date: '2026-02-03',
          particulars: 'Fees',
          category: 'invoice',
          amount: 100000,
        })
        .execute(),
    );
    const refused = await school.head.delete(`${PATH}/${withFees.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(IN_USE_MESSAGES.students);
    expect(ok(await school.head.get(`${PATH}/${withFees.id}`)).fullname).toBe(withFees.fullname);
    expect(await auditedDeletes(school.id, withFees.id)).toEqual([]);

    const withMarks = await add(school.head, 'Scholar');
    const subject = ok(await school.head.post(subjects.path, { name: 'Deletion science', category: 'science' }));
    const marktype = ok(await school.head.post(markTypes.path, { label: 'Deletion exam', category: 'exam' }));
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('marks')
        .values({
          tenant_id: school.id,
          id: newId(),
          student_id: withMarks.id,
          subject_id: subject.id,
          marktype_id: marktype.id,
          form: 'P3',
          stream: null,
          term: 'I',
          year: 2026,
          paper: 'I',
          mark: 70,
          topic_id: null,
          user_id: null,
        })
        .execute(),
    );
    expect((await school.head.delete(`${PATH}/${withMarks.id}`)).statusCode).toBe(409);

    // The leaver is made inactive: out of the active class list, in the inactive one.
    ok(
      await school.head.put(`${PATH}/${withMarks.id}`, {
        firstname: 'Scholar',
        lastname: 'Mistake',
        gender: 'F',
        form: 'P3',
        status: 'inactive',
      }),
    );
    expect(await listed(school.head, 'form=P3&name=Scholar')).toEqual([]);
    expect(await listed(school.head, 'form=P3&name=Scholar&status=inactive')).toEqual([withMarks.fullname]);
  });

  it('answers 404 for another school’s learner, who stays; 403 to a teacher; the same delete twice at once removes once', async () => {
    const theirs = await add(neighbour.head, 'Neighbour');
    expect((await school.head.delete(`${PATH}/${theirs.id}`)).statusCode).toBe(404);
    expect((await neighbour.head.get(`${PATH}/${theirs.id}`)).statusCode).toBe(200);
    expect((await school.head.delete(`${PATH}/not-an-id`)).statusCode).toBe(422);

    const mine = await add(school.head, 'Twice');
    expect((await teacher.delete(`${PATH}/${mine.id}`)).statusCode).toBe(403);
    const both = await Promise.all([school.head.delete(`${PATH}/${mine.id}`), school.head.delete(`${PATH}/${mine.id}`)]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 404]);
    expect(await auditedDeletes(school.id, mine.id)).toHaveLength(1);
  });
});

describe('academic records (GET /api/school/students/:id/results)', () => {
  interface Ref {
    id: string;
  }

  async function writeMarks(
    tenantId: string,
    studentId: string,
    marks: Array<{
      subject: Ref;
      marktype: Ref;
      form: string;
      term: string;
      year: number;
      mark: number | 'ABS';
      paper?: string;
      topic?: Ref;
    }>,
  ) {
    await makeMarks(
      t.database,
      tenantId,
      studentId,
      marks.map(({ subject, marktype, topic, ...mark }) => ({
        ...mark,
        subjectId: subject.id,
        marktypeId: marktype.id,
        topicId: topic?.id,
      })),
    );
  }

  it('groups marks by class, term and year, newest first, then by exam, with each subject’s grade', async () => {
    const head = school.head;
    const maths = ok(await head.post(subjects.path, { name: 'Mathematics', category: 'mathematics', position: 1 }));
    const english = ok(await head.post(subjects.path, { name: 'English', category: 'english', position: 2 }));
    const bot = ok(await head.post(markTypes.path, { label: 'BOT', category: 'test', position: 1 }));
    const eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 }));
    for (const subject of [maths, english])
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'P5', term: 'I', year: 2026 })));
    ok(await head.post('/api/school/grades', gradeSet(maths.id, { form: 'P4', term: 'III', year: 2025 })));
    const learner: Student = ok(
      await head.post(PATH, { studentid: 'KJS/0701', firstname: 'Irene', lastname: 'Nabirye', gender: 'F', form: 'P5' }),
    );
    const other: Student = ok(
      await head.post(PATH, { studentid: 'KJS/0702', firstname: 'Other', lastname: 'Learner', gender: 'M', form: 'P5' }),
    );

    expect(ok(await head.get(`${PATH}/${learner.id}/results`))).toEqual({ results: [], history: [] });

    await writeMarks(school.id, learner.id, [
      { subject: maths, marktype: eot, form: 'P4', term: 'III', year: 2025, mark: 55 },
      { subject: english, marktype: eot, form: 'P5', term: 'I', year: 2026, mark: 34.5 },
      { subject: maths, marktype: eot, form: 'P5', term: 'I', year: 2026, mark: 80 },
      { subject: english, marktype: bot, form: 'P5', term: 'I', year: 2026, mark: 80 },
      { subject: maths, marktype: bot, form: 'P5', term: 'I', year: 2026, mark: 74.5 },
      // No grade set for term II: the mark shows without a grade.
      { subject: maths, marktype: bot, form: 'P5', term: 'II', year: 2026, mark: 90 },
    ]);
    await writeMarks(school.id, other.id, [{ subject: maths, marktype: bot, form: 'P5', term: 'I', year: 2026, mark: 12 }]);

    const subject = (row: { id: string; name: string; category: string }, mark: number, score: string | null) => ({
      subject_id: row.id,
      subject: row.name,
      category: row.category,
      mark,
      score,
    });
    const results: StudentResults = ok(await head.get(`${PATH}/${learner.id}/results`));
    expect(results).toEqual({
      results: [
        {
          form: 'P5',
          term: 'II',
          year: 2026,
          curriculum: 'old',
          exams: [{ marktype_id: bot.id, marktype: 'BOT', subjects: [subject(maths, 90, null)] }],
          ncresults: [],
        },
        {
          form: 'P5',
          term: 'I',
          year: 2026,
          curriculum: 'old',
          exams: [
            { marktype_id: bot.id, marktype: 'BOT', subjects: [subject(maths, 74.5, 'C3'), subject(english, 80, 'D1')] },
            { marktype_id: eot.id, marktype: 'EOT', subjects: [subject(maths, 80, 'D1'), subject(english, 34.5, 'F9')] },
          ],
          ncresults: [],
        },
        {
          form: 'P4',
          term: 'III',
          year: 2025,
          curriculum: 'old',
          exams: [{ marktype_id: eot.id, marktype: 'EOT', subjects: [subject(maths, 55, 'C6')] }],
          ncresults: [],
        },
      ],
      history: [],
    });
    // A teacher (a member) reads them too; another school does not.
    expect(ok(await teacher.get(`${PATH}/${learner.id}/results`))).toEqual(results);
    expect((await neighbour.head.get(`${PATH}/${learner.id}/results`)).statusCode).toBe(404);
  });

  it('shows an S5 learner’s subjects per paper, each paper with its grade, and the subject’s total and letter as the card has them', async () => {
    const high = await newSchool('Kings High School', 'secondary');
    const head = high.head;
    const physics = ok(
      await head.post(subjects.path, {
        name: 'Physics',
        category: 'science',
        position: 1,
        multiple_papers: true,
        multiple_paper_forms: 'S5,S6',
      }),
    );
    const general = ok(await head.post(subjects.path, { name: 'General Paper', category: 'subsidiary', position: 2 }));
    const eot = ok(await head.post(markTypes.path, { label: 'End of term', category: 'exam', position: 1 }));
    for (const subject of [physics, general])
      ok(await head.post('/api/school/grades', gradeSet(subject.id, { form: 'S5', term: 'I', year: 2026 })));
    const learner: Student = ok(
      await head.post(PATH, { studentid: 'KHS/0001', firstname: 'Daniel', lastname: 'Mwesigwa', gender: 'M', form: 'S5' }),
    );
    await writeMarks(high.id, learner.id, [
      { subject: physics, marktype: eot, form: 'S5', term: 'I', year: 2026, mark: 81, paper: 'II' },
      { subject: physics, marktype: eot, form: 'S5', term: 'I', year: 2026, mark: 62, paper: 'I' },
      { subject: general, marktype: eot, form: 'S5', term: 'I', year: 2026, mark: 70 },
    ]);
    expect(ok(await head.get(`${PATH}/${learner.id}/results`))).toEqual({
      results: [
        {
          form: 'S5',
          term: 'I',
          year: 2026,
          curriculum: 'old',
          exams: [
            {
              marktype_id: eot.id,
              marktype: 'End of term',
              subjects: [
                {
                  subject_id: physics.id,
                  subject: 'Physics',
                  category: 'science',
                  mark: null,
                  // Paper values 5 and 1: D in the two-paper table; the total is the papers' mean.
                  score: 'D',
                  papers: [
                    { paper: 'I', mark: 62, score: 'C5' },
                    { paper: 'II', mark: 81, score: 'D1' },
                  ],
                  total: 71.5,
                },
                { subject_id: general.id, subject: 'General Paper', category: 'subsidiary', mark: 70, score: 'C3' },
              ],
            },
          ],
          ncresults: [],
        },
      ],
      history: [],
    });
  });

  it('shows a new-curriculum learner’s competencies with their activities, projects and exam marks, without grades', async () => {
    const school = await newSchool('Mbale Secondary', 'secondary');
    const head = school.head;
    const biology = ok(await head.post(subjects.path, { name: 'Biology', category: 'science' }));
    const aoi1 = ok(await head.post(markTypes.path, { label: 'AOI 1', category: 'ca', position: 1 }));
    const aoi2 = ok(await head.post(markTypes.path, { label: 'AOI 2', category: 'ca', position: 2 }));
    const eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 3 }));
    // A grade set for S2 Biology: an old-curriculum card would grade the exam with it; this one does not.
    ok(await head.post('/api/school/grades', gradeSet(biology.id, { form: 'S2', term: 'I', year: 2026 })));
    const topic = (title: string) => ({ id: newId(), title });
    const [cells, nutrition, soil] = [topic('Cells'), topic('Nutrition in plants'), topic('Soil')];
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('topics')
        .values(
          [cells, nutrition, soil].map(({ id, title }) => ({
            tenant_id: school.id,
            id,
            subject_id: biology.id,
            form: 'S2',
            term: 'I',
            title,
            remarks: null,
          })),
        )
        .execute(),
    );
    const project = ok(
      await head.post('/api/school/projects', {
        form: 'S2',
        term: 'I',
        year: 2026,
        subject_id: biology.id,
        title: 'A school garden',
        max_score: 10,
      }),
    );
    const learner: Student = ok(await head.post(PATH, { studentid: 'MSS/0001', firstname: 'Joan', lastname: 'Achieng', form: 'S2' }));
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('project_scores')
        .values({ tenant_id: school.id, id: newId(), project_id: project.id, student_id: learner.id, score: 7.5, comment: 'Careful plan' })
        .execute(),
    );
    const s2 = { subject: biology, form: 'S2', term: 'I', year: 2026 };
    await writeMarks(school.id, learner.id, [
      { ...s2, marktype: aoi1, mark: 3, topic: cells },
      { ...s2, marktype: aoi2, mark: 2, topic: cells },
      { ...s2, marktype: aoi1, mark: 2, topic: nutrition },
      { ...s2, marktype: aoi2, mark: 'ABS', topic: nutrition },
      { ...s2, marktype: aoi1, mark: 'ABS', topic: soil },
      { ...s2, marktype: eot, mark: 64 },
    ]);
    const results: StudentResults = ok(await head.get(`${PATH}/${learner.id}/results`));
    expect(results.results).toHaveLength(1);
    expect(results.results[0]?.curriculum).toBe('new');
    // The exam's mark, with no grade: the new curriculum prints no grades from a grade set.
    expect(results.results[0]?.exams).toEqual([
      {
        marktype_id: eot.id,
        marktype: 'EOT',
        subjects: [{ subject_id: biology.id, subject: 'Biology', category: 'science', mark: 64, score: null }],
      },
    ]);
    const aoi = (type: { id: string; label: string }, mark: number | 'ABS') => ({ marktype_id: type.id, marktype: type.label, mark });
    expect(results.results[0]?.ncresults).toEqual([
      {
        subject_id: biology.id,
        subject: 'Biology',
        topics: [
          // (3 + 2) / 2: two activities averaged.
          { topic_id: cells.id, title: 'Cells', aois: [aoi(aoi1, 3), aoi(aoi2, 2)], mark: 2.5, score: 'Outstanding' },
          // An absence is no score: the one activity sat is the competency's score.
          { topic_id: nutrition.id, title: 'Nutrition in plants', aois: [aoi(aoi1, 2), aoi(aoi2, 'ABS')], mark: 2, score: 'Moderate' },
          // Missed entirely: no score, and it does not pull the subject down.
          { topic_id: soil.id, title: 'Soil', aois: [aoi(aoi1, 'ABS')], mark: null, score: null },
        ],
        average: 2.3,
        score: 'Moderate',
        projects: [{ project_id: project.id, title: 'A school garden', score: 7.5, max_score: 10, comment: 'Careful plan' }],
      },
    ]);

    // The school puts S2 on the old curriculum for 2026: the exam is graded again.
    ok(await head.put('/api/school/curricula', { year: 2026, allow_zero: false, classes: [{ form: 'S2', curriculum: 'old' }] }));
    const old: StudentResults = ok(await head.get(`${PATH}/${learner.id}/results`));
    expect(old.results[0]?.curriculum).toBe('old');
    expect(old.results[0]?.exams[0]?.subjects[0]?.score).not.toBeNull();
  });
});

describe('another school’s learners', () => {
  it('are not listed, and their records answer 404', async () => {
    const theirs: Student = ok(
      await neighbour.head.post(PATH, {
        studentid: 'HPS/0900',
        firstname: 'Hidden',
        lastname: 'Learner',
        gender: 'M',
        form: 'P4',
        stream: 'East',
      }),
    );
    const mine = ok(await school.head.get(`${PATH}?per_page=1000`));
    expect(mine.students.map((student: Student) => student.id)).not.toContain(theirs.id);
    expect(await listed(school.head, 'name=hidden', 0)).toEqual([]);
    expect(await listed(school.head, 'studentid=HPS%2F0900', 0)).toEqual([]);
    for (const url of [`${PATH}/${theirs.id}`, `${PATH}/${theirs.id}/results`, `${PATH}/${theirs.id}/photo`]) {
      const response = await school.head.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: ERROR_MESSAGES[404] });
    }
    // The same person working in the neighbouring school sees it there.
    expect(ok(await caller(t.app, neighbour.token, neighbour.tenantcode).get(`${PATH}/${theirs.id}`))).toEqual(theirs);
    // And a member of one school cannot read the other by naming it.
    expect((await school.head.in(neighbour.tenantcode).get(`${PATH}/${theirs.id}`)).statusCode).toBe(403);
  });
});
