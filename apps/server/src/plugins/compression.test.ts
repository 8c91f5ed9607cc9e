import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TENANT_HEADER } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStudents, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, login, type TestApp } from '../test/test-app.js';

/*
 * Teachers on slow links get API answers compressed (issue 10 point 14): the same JSON, fewer
 * bytes; small answers and files that are zipped already go as they are.
 */
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Compression Primary' });
  await makeStudents(t.database, school.id, 'P4', 300);
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  headers = { authorization: `Bearer ${await login(t.app, user.email)}`, [TENANT_HEADER]: school.tenantcode };
});
afterAll(() => t.close());

const classList = (encoding?: string, query = 'per_page=1000') =>
  t.app.inject({
    method: 'GET',
    url: `/api/school/students?${query}`,
    headers: { ...headers, ...(encoding ? { 'accept-encoding': encoding } : {}) },
  });

describe('compressed API answers', () => {
  it('sends a class list as brotli or gzip when the browser accepts it: the same learners in a fraction of the bytes', async () => {
    const plain = await classList();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const learners = plain.json().students;
    expect(learners).toHaveLength(300);

    const br = await classList('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).students).toEqual(learners);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);

    const gzip = await classList('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString()).students).toEqual(learners);
  });

  it('sends a small answer and a spreadsheet as they are', async () => {
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const sheet = await classList('br, gzip', 'excel=1&form=P4');
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(sheet.headers['content-encoding']).toBeUndefined();
    expect(sheet.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
