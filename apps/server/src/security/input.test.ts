import {
  ERROR_MESSAGES,
  INPUT_MESSAGES,
  isStorableText,
  routeTenantKind,
  studentCategories,
  subjects,
  TENANT_HEADER,
} from '@mustard/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../db/tenant.js';
import { maskUrl } from '../logger.js';
import { gradeSet, newSubject, ok } from '../modules/settings/settings-fixtures.js';
import { makeTenant, makeUser, SUPERADMIN_ROLE } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login, TEST_PASSWORD, type TestApp } from '../test/test-app.js';

/*
 * What a request itself may hold (issue 9, points 6 to 9 and 12): no NUL or lone surrogate in
 * any text, a multipart body that cannot be read, objects where a form has text, a URL that
 * cannot be decoded; and API answers that no browser keeps.
 */

const NUL = 'Nakato\u0000Amina';
const LONE = 'D\uD800';
const TEXT_INVALID = INPUT_MESSAGES.textInvalid;

let t: TestApp;
let school: { id: string; tenantcode: string };
let head: Caller;
let token: string;

beforeAll(async () => {
  t = await buildTestApp({}, { captureLogs: true });
  school = await makeTenant(t.database, { name: 'Kisubi Parents School' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  token = await login(t.app, user.email);
  head = caller(t.app, token, school.tenantcode);
});
afterAll(() => t.close());

function expectRefused(response: LightMyRequestResponse, field: string, message: string = TEXT_INVALID) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().message).toBe(ERROR_MESSAGES[422]);
  expect(response.json().errors[field]).toEqual([message]);
}

async function count(table: 'students' | 'subjects' | 'grades'): Promise<number> {
  const rows = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  );
  return Number(rows.n);
}

/** A multipart body built by hand, so it can be cut short or left without its boundary. */
function multipart(boundary: string, parts: Array<[string, string]>, end = true): Buffer {
  const lines = parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.from(`${lines.join('')}${end ? `--${boundary}--\r\n` : ''}`);
}

function sendRaw(method: 'POST' | 'PUT', url: string, contentType: string, payload: Buffer | string) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': contentType },
    payload,
  });
}

/** (method, path) of every route of the app, from its printed route tree. */
function routeTable(app: FastifyInstance): Array<{ method: string; url: string }> {
  const pairs: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    stack.length = (match[1] ?? '').length / 4;
    stack.push(match[2] ?? '');
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method) pairs.push({ method, url: url.startsWith('/') ? url : `/${url}` });
    }
  }
  return pairs;
}

describe('a NUL or a lone surrogate in any text: 422 naming the field, never a 500 (point 6)', () => {
  it('the shared text check finds both, and lets real text through (accents, emoji, Luganda)', () => {
    expect(isStorableText('Nakato Amina')).toBe(true);
    expect(isStorableText('Ssebaggala Ŋŋ 😀 Müller')).toBe(true);
    expect(isStorableText(NUL)).toBe(false);
    expect(isStorableText('\uD800')).toBe(false);
    expect(isStorableText('\uDC00x')).toBe(false);
    expect(isStorableText('\uD83D\uDE00')).toBe(true);
  });

  it('POST /auth/login, with no sign-in needed', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: `a${NUL}@x.ug`, password: 'x' } },
    });
    expectRefused(response, 'user.email');
    const password = await t.app.inject({ method: 'POST', url: '/auth/type', payload: { email: NUL } });
    expectRefused(password, 'email');
  });

  it('a settings text field (a subject’s name), and nothing is saved', async () => {
    const before = await count('subjects');
    expectRefused(await head.post(subjects.path, { name: NUL, category: 'general' }), 'name');
    expectRefused(await head.post(studentCategories.path, { name: 'Day', remarks: NUL }), 'remarks');
    expect(await count('subjects')).toBe(before);
  });

  it('search= and the class list’s filters', async () => {
    expectRefused(await head.get(`${subjects.path}?search=%00`), 'search');
    expectRefused(await head.get('/api/school/students?form=P4%00'), 'form');
    expectRefused(await head.get('/api/school/students?name=a%00b&stream=East'), 'name');
    expectRefused(await head.get('/api/users?search=%00'), 'search');
  });

  it('a learner’s fields, as JSON and as a multipart form, and nothing is saved', async () => {
    const before = await count('students');
    expectRefused(await head.post('/api/school/students', { firstname: NUL, lastname: 'Apio', form: 'P2' }), 'firstname');
    const boundary = 'mustardboundary';
    const form = multipart(boundary, [
      ['firstname', 'Ruth'],
      ['lastname', 'Apio'],
      ['form', 'P2'],
      ['address', NUL],
    ]);
    expectRefused(await sendRaw('POST', '/api/school/students', `multipart/form-data; boundary=${boundary}`, form), 'address');
    expect(await count('students')).toBe(before);
  });

  it('a lone surrogate in a grade set’s grade, a key of the bounds', async () => {
    const subject = await newSubject(head);
    const before = await count('grades');
    const set = gradeSet(subject.id);
    const response = await head.post('/api/school/grades', {
      ...set,
      lower: { ...set.lower, [LONE]: 0 },
      upper: { ...set.upper, [LONE]: 1 },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.values(response.json().errors).flat()).toContain(TEXT_INVALID);
    expect(await count('grades')).toBe(before);
  });

  it('every route of the app: a NUL in a body field or a query value is refused by name, before anything else', async () => {
    // The school's administrator, so that no route stops the request at its permission check.
    // A business route is asked by the administrator of a business: a school meets the wall's 404 there.
    const shop = await makeTenant(t.database, { name: 'Kisubi Stationers', category: 'Retail' });
    const admin = await makeUser(t.database, {
      memberOf: [
        { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
        { tenantId: shop.id, roles: [SUPERADMIN_ROLE] },
      ],
    });
    const adminToken = await login(t.app, admin.email);
    const routes = routeTable(t.app).filter(({ url }) => url.startsWith('/api/') || url.startsWith('/auth/'));
    expect(routes.length).toBeGreaterThan(40);
    for (const { method, url } of routes) {
      if (method === 'HEAD') continue;
      const path = url.replace(':id', '0190a1b2-0000-7000-8000-000000000000');
      const tenantcode = routeTenantKind(url) === 'business' ? shop.tenantcode : school.tenantcode;
      if (method === 'GET') {
        const query = await caller(t.app, adminToken, tenantcode).get(`${path}?probe=%00`);
        expect({ route: `${method} ${url}`, status: query.statusCode }).toEqual({ route: `${method} ${url}`, status: 422 });
        expect(query.json().errors.probe).toEqual([TEXT_INVALID]);
        continue;
      }
      const response = await t.app.inject({
        method: method as 'POST' | 'PUT' | 'DELETE',
        url: path,
        headers: { authorization: `Bearer ${adminToken}`, [TENANT_HEADER]: tenantcode },
        payload: { probe: `x${NUL}` },
      });
      expect({ route: `${method} ${url}`, status: response.statusCode }).toEqual({ route: `${method} ${url}`, status: 422 });
      expect(response.json().errors.probe).toEqual([TEXT_INVALID]);
    }
  });
});

describe('a multipart body that cannot be read: 400 with the catalogue’s words, never a 500 (point 7)', () => {
  const boundary = 'mustardboundary';
  const routes: Array<['POST' | 'PUT', string]> = [
    ['POST', '/api/school/students'],
    ['POST', '/api/school/students/upload'],
    ['POST', '/api/uploads/studentjournals'],
  ];
  const cases: Array<[string, string, Buffer | string]> = [
    [
      'cut short in a field',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="firstname"\r\n\r\nRu`,
    ],
    ['without its closing boundary', `multipart/form-data; boundary=${boundary}`, multipart(boundary, [['firstname', 'Ruth']], false)],
    ['not multipart at all', `multipart/form-data; boundary=${boundary}`, '{"firstname":"Ruth"}'],
    ['without a boundary', 'multipart/form-data', multipart(boundary, [['firstname', 'Ruth']])],
  ];

  it.each(cases)('%s', async (_case, contentType, payload) => {
    const before = await count('students');
    const learner = await head.post('/api/school/students', { firstname: 'Ruth', lastname: 'Apio', form: 'P2' });
    const all: Array<['POST' | 'PUT', string]> = [...routes, ['PUT', `/api/school/students/${learner.json().id}`]];
    for (const [method, url] of all) {
      const response = await sendRaw(method, url, contentType, payload);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json()).toEqual({ statusCode: 400, message: INPUT_MESSAGES.formUnreadable });
    }
    expect(await count('students')).toBe(before + 1);
  });
});

describe('objects where a learner form has text: 422, never "[object Object]" (point 8)', () => {
  it('on adding and on editing, and nothing changes', async () => {
    const before = await count('students');
    const added = await head.post('/api/school/students', { firstname: { a: 1 }, lastname: 'Apio', form: 'P2' });
    expectRefused(added, 'firstname', INPUT_MESSAGES.valueInvalid);
    expectRefused(
      await head.post('/api/school/students', { firstname: 'Ruth', lastname: ['Apio'], form: 'P2' }),
      'lastname',
      INPUT_MESSAGES.valueInvalid,
    );
    expect(await count('students')).toBe(before);

    const learner = ok(await head.post('/api/school/students', { firstname: 'Ruth', lastname: 'Apio', form: 'P2' }));
    const edited = await head.put(`/api/school/students/${learner.id}`, { ...learner, id: undefined, firstname: { toString: 'x' } });
    expectRefused(edited, 'firstname', INPUT_MESSAGES.valueInvalid);
    expect(ok(await head.get(`/api/school/students/${learner.id}`)).firstname).toBe('Ruth');
  });
});

describe('no answer of the API is kept by a browser (point 9)', () => {
  it('JSON answers, errors, downloads and photos all say no-store; the web app’s pages keep their own rules', async () => {
    const answers = [
      await head.get('/api/users/profile'),
      await head.get(`${subjects.path}?excel=1`),
      await head.get('/api/uploads/studentjournals/template'),
      await head.get('/api/school/students/template'),
      await head.get('/api/school/students?excel=1'),
      await head.get('/api/school/students/0190a1b2-0000-7000-8000-000000000000'),
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email: 'x@y.ug', password: 'wrong' } } }),
    ];
    // However the URL is spelled: percent-encoded, or in absolute form on the request line.
    answers.push(
      await t.app.inject({
        method: 'GET',
        url: '/%61pi/users/profile',
        headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode },
      }),
      await t.app.inject({ method: 'GET', url: '/%61uth/invitations', headers: { authorization: `Bearer ${token}` } }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
    );
    expect(answers.at(-3)?.statusCode).toBe(200);
    expect(answers.at(-2)?.statusCode).toBe(200);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });
});

describe('a URL that cannot be decoded, and secrets in URLs (point 12)', () => {
  it('GET /%ff answers the catalogue’s 400, with the security headers', async () => {
    for (const url of ['/%ff', '/api/school/%ff', '/api/users/%E0%A4%A']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, message: ERROR_MESSAGES[400] });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('masks a code however the URL carries it', () => {
    expect(maskUrl('/login?code=abc123&x=1')).toBe('/login?code=[redacted]&x=1');
    expect(maskUrl('/login;code=abc123?x=1')).toBe('/login;code=[redacted]?x=1');
    expect(maskUrl('/login%3Fcode%3Dabc123')).toBe('/login%3Fcode%3D[redacted]');
    expect(maskUrl('/x?next=%2Flogin%3Fcode%3Dabc%26y%3D2')).toBe('/x?next=%2Flogin%3Fcode%3D[redacted]%26y%3D2');
    expect(maskUrl('/x?TOKEN=eyJabc;password=hunter2')).toBe('/x?TOKEN=[redacted];password=[redacted]');
    expect(maskUrl('/api/school/students?code=ordinary')).toBe('/api/school/students?code=[redacted]');
  });

  it('masks a secret whose name is percent-encoded, nested or in capitals, and leaves other names alone (issue 23 item 14)', () => {
    expect(maskUrl('/auth/join?%63ode=abc123&x=1')).toBe('/auth/join?%63ode=[redacted]&x=1');
    expect(maskUrl('/x?%2563ode=abc123')).toBe('/x?%2563ode=[redacted]');
    expect(maskUrl('/x?%70%61%73%73%77%6F%72%64=hunter2')).toBe('/x?%70%61%73%73%77%6F%72%64=[redacted]');
    expect(maskUrl('/x?user[password]=hunter2&code[]=abc&Access_Token=eyJ')).toBe(
      '/x?user[password]=[redacted]&code[]=[redacted]&Access_Token=[redacted]',
    );
    expect(maskUrl('/x?user%5Bpassword%5D=hunter2')).toBe('/x?user%5Bpassword%5D=[redacted]');
    // A URL inside a parameter, encoded twice: the whole value is masked.
    expect(maskUrl('/x?next=%252Flogin%253Fcode%253Dabc')).toBe('/x?next=[redacted]');
    expect(maskUrl('/api/school/students?paymentcode=12345&form=P7')).toBe('/api/school/students?paymentcode=12345&form=P7');
  });

  it('no log line holds a code sent in those ways', async () => {
    const secret = 'SECRETCODE0123456789';
    await t.app.inject({ method: 'GET', url: `/login;code=${secret}` });
    await t.app.inject({ method: 'GET', url: `/login%3Fcode%3D${secret}` });
    await t.app.inject({ method: 'GET', url: `/%ff?code=${secret}` });
    // The name percent-encoded: the server reads `code` (issue 23 item 14).
    await t.app.inject({ method: 'GET', url: `/auth/join?%63ode=${secret}` });
    await t.app.inject({ method: 'GET', url: `/auth/join?%2563ode=${secret}&C%4FDE=${secret}` });
    expect(t.logs.some((line) => line.includes('/login'))).toBe(true);
    expect(t.logs.some((line) => line.includes('/auth/join?%63ode=[redacted]'))).toBe(true);
    for (const line of t.logs) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(TEST_PASSWORD);
    }
  });
});
