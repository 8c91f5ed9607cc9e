import { STUDENT_MESSAGES, TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { ok } from '../settings/settings-fixtures.js';

/*
 * The guardian's e-mail on the learner's record (issue 29 point 5: where the report cards are
 * e-mailed) on both databases: one plain address or none, checked on the form (a bad one, a line
 * break or a second address: 422 on guardian_email, nothing saved) and in the class list's upload
 * ("Guardian email" column: a bad address is its row's error, nothing saved); shown in the class
 * list's workbook.
 */

let t: TestApp;
let head: Caller;
let school: { id: string; tenantcode: string };
let amina: string;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Guardian Primary' });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  amina = ok(
    await head.post('/api/school/students', {
      firstname: 'Amina',
      lastname: 'Nakato',
      form: 'P7',
      guardian_email: 'amina.guardian@example.org',
    }),
  ).id;
});
afterAll(() => t?.close());

describe('the guardian’s e-mail on the learner’s record', () => {
  const HEADER = ['studentid', 'firstname', 'lastname', 'form', 'Guardian email'];

  async function upload(rows: unknown[][]): Promise<{ statusCode: number; json: () => { errors?: Record<string, string[]> } }> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Students');
    sheet.addRow(HEADER);
    for (const row of rows) sheet.addRow(row);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]), 'class.xlsx');
    const request = new Request('http://mustard.test/', { method: 'POST', body: form });
    return t.app.inject({
      method: 'POST',
      url: '/api/school/students/upload',
      headers: {
        authorization: `Bearer ${head.token}`,
        [TENANT_HEADER]: school.tenantcode,
        'content-type': request.headers.get('content-type') as string,
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }

  const learnerByStudentid = async (studentid: string) =>
    withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('students').select(['id', 'guardian_email']).where('studentid', '=', studentid).executeTakeFirst(),
    );

  it('is checked on the form: one plain address or none, nothing saved otherwise', async () => {
    for (const bad of ['not-an-address', 'a@b.org\r\nBcc: thief@example.org', 'a@b.org, c@d.org', `${'x'.repeat(250)}@example.org`]) {
      const created = await head.post('/api/school/students', {
        firstname: 'Dan',
        lastname: 'Bad',
        studentid: 'BAD/1',
        form: 'P7',
        guardian_email: bad,
      });
      expect(created.statusCode).toBe(422);
      expect(created.json().errors.guardian_email).toEqual([STUDENT_MESSAGES.emailInvalid]);
    }
    expect(await learnerByStudentid('BAD/1')).toBeUndefined();

    const shown = ok(await head.get(`/api/school/students/${amina}`));
    expect(shown.guardian_email).toBe('amina.guardian@example.org');
    const edit = { ...shown, guardian_email: 'x@y.org\nBcc: thief@example.org' };
    for (const field of ['id', 'fullname', 'studentcategory', 'photo_path']) delete edit[field];
    expect((await head.put(`/api/school/students/${amina}`, edit)).statusCode).toBe(422);
    expect(ok(await head.get(`/api/school/students/${amina}`)).guardian_email).toBe('amina.guardian@example.org');
    // The class list's workbook carries it.
    const list = await head.get('/api/school/students?form=P7&excel=1');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(list.rawPayload as unknown as ArrayBuffer);
    const values = book.worksheets[0]?.getSheetValues().flat().map(String) ?? [];
    expect(values).toContain('Guardian email');
    expect(values).toContain('amina.guardian@example.org');
  });

  it('is read from the class list’s upload: a bad address is its row’s error and nothing is saved', async () => {
    const bad = await upload([
      ['UP/1', 'Esther', 'Namuli', 'P7', 'esther.guardian@example.org'],
      ['UP/2', 'Frank', 'Ssali', 'P7', 'frank.guardian@example.org, thief@example.org'],
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors?.['3.guardian_email']).toEqual([STUDENT_MESSAGES.emailInvalid]);
    expect(await learnerByStudentid('UP/1')).toBeUndefined();

    expect(
      (
        await upload([
          ['UP/1', 'Esther', 'Namuli', 'P7', 'esther.guardian@example.org'],
          ['UP/2', 'Frank', 'Ssali', 'P7', ''],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await learnerByStudentid('UP/1'))?.guardian_email).toBe('esther.guardian@example.org');
    expect((await learnerByStudentid('UP/2'))?.guardian_email).toBeNull();
  });
});
