import { COMMENT_MESSAGES, classTeachers, REMARK_MESSAGES, subjectTeachers } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newRemarkType, newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * What the school's default teacher role may write (issue 23 item 8): the demo teacher, holding
 * that role, wrote a P7 head teacher's remark that printed on the card and deleted 74 P7 remarks.
 * A teacher writes subject comments and generic skills where assigned as subject teacher and the
 * class teacher's remarks of the class they are class teacher of; the head teacher's remarks,
 * deleting remarks and recording attendance are for those who manage remarks (the head teacher).
 */

let t: TestApp;
let head: Caller;
let teacher: Caller;
let schoolId: string;
let english: Row;
let maths: Row;
let classType: Row;
let conduct: Row;
let headType: Row;
let promotion: Row;
/** Amina is in P7 East (the teacher's class), Carol in P7 West. */
let amina: string;
let carol: string;
const YEAR = new Date().getFullYear();
const rt = (row: Row) => `rt_${row.id}`;

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Rights Primary' });
  schoolId = school.id;
  const headUser = await makeUser(t.database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { name: 'Demo Like', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  [amina, carol] = [newId(), newId()];
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('students')
      .values([
        { tenant_id: school.id, id: amina, studentid: 'P7/001', firstname: 'Amina', lastname: 'Okello', form: 'P7', stream: 'East' },
        { tenant_id: school.id, id: carol, studentid: 'P7/002', firstname: 'Carol', lastname: 'Okello', form: 'P7', stream: 'West' },
      ])
      .execute(),
  );
  english = await newSubject(head, { name: 'English', category: 'english', position: 1 });
  maths = await newSubject(head, { name: 'Mathematics', category: 'mathematics', position: 2 });
  classType = await newRemarkType(head, { label: "Class teacher's comment", position: 1 });
  conduct = await newRemarkType(head, { label: 'Conduct', parent_id: classType.id, position: 1 });
  headType = await newRemarkType(head, { label: "Head Teacher's remarks", position: 2 });
  promotion = await newRemarkType(head, { label: 'Promotion', parent_id: headType.id, position: 1 });
  // Like the demo teacher: class teacher of one stream, subject teacher of a subject in the class.
  const user_id = teacherUser.id;
  ok(await head.post(classTeachers.path, { user_id, form: 'P7', stream: 'East', term: 'I', year: YEAR, category: 'primary' }));
  ok(await head.post(subjectTeachers.path, { user_id, subject_id: english.id, form: 'P7', stream: '', term: 'I', year: YEAR }));
});
afterAll(() => t?.close());

const saveRemarks = (by: Caller, comment: Record<string, Record<string, string>>, stream = 'East') =>
  by.post('/api/school/remarks', { form: 'P7', stream, term: 'I', year: YEAR, category: 'exam', comment, base: {} });
const storedRemarks = () =>
  withTenant(t.database.db, { tenantId: schoolId }, (trx) =>
    trx.selectFrom('remarks').select(['remarktype_id', 'student_id', 'comment']).orderBy('comment').execute(),
  );

describe('the default teacher role', () => {
  it('writes the class teacher’s remarks (and their sub categories) of the class he is class teacher of', async () => {
    const saved = ok(
      await saveRemarks(teacher, { [rt(classType)]: { [`s_${amina}`]: 'A careful worker.' }, [rt(conduct)]: { [`s_${amina}`]: 'Good' } }),
    );
    expect(saved.saved).toBe(2);
    // Not another stream's.
    const elsewhere = await saveRemarks(teacher, { [rt(classType)]: { [`s_${carol}`]: 'Not my class.' } }, 'West');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe(REMARK_MESSAGES.notClassTeacher);
  });

  it('is refused the head teacher’s remark and its sub categories, even of his own class, and writes nothing', async () => {
    const before = await storedRemarks();
    for (const comment of [
      { [rt(headType)]: { [`s_${amina}`]: 'Promoted to S1.' } },
      { [rt(promotion)]: { [`s_${amina}`]: 'Promoted.' } },
      // With a remark he may write in the same save: all or nothing.
      { [rt(classType)]: { [`s_${amina}`]: 'Changed.' }, [rt(headType)]: { [`s_${amina}`]: 'Promoted to S1.' } },
      // Emptying (deleting) one is refused too.
      { [rt(headType)]: { [`s_${amina}`]: '' } },
    ]) {
      const refused = await saveRemarks(teacher, comment);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(REMARK_MESSAGES.headTeacherOnly);
    }
    expect(await storedRemarks()).toEqual(before);
    // The head teacher writes it.
    expect(ok(await saveRemarks(head, { [rt(headType)]: { [`s_${amina}`]: 'Promoted to S1.' } })).saved).toBe(1);
    expect((await storedRemarks()).map((row) => row.comment)).toContain('Promoted to S1.');
  });

  it('may not delete remarks (POST /api/remark/delete); the head teacher may', async () => {
    const body = { form: 'P7', stream: '', term: 'I', year: YEAR, remarktype_id: classType.id };
    const before = await storedRemarks();
    expect(before.length).toBeGreaterThan(0);
    const refused = await teacher.post('/api/remark/delete', body);
    expect(refused.statusCode).toBe(403);
    expect(await storedRemarks()).toEqual(before);
    expect(ok(await head.post('/api/remark/delete', body)).records).toBe(2);
  });

  it('may not record attendance; the head teacher may', async () => {
    const body = { form: 'P7', stream: 'East', term: 'I', year: YEAR, totaldays: 60, daysattended: { [amina]: 58 } };
    expect((await teacher.post('/api/school/attendances', body)).statusCode).toBe(403);
    const rows = await withTenant(t.database.db, { tenantId: schoolId }, (trx) => trx.selectFrom('attendances').selectAll().execute());
    expect(rows).toEqual([]);
    expect(ok(await head.post('/api/school/attendances', body)).saved).toBe(1);
  });

  it('writes subject comments and generic skills in the subject he teaches in the class, not in another subject', async () => {
    for (const path of ['/api/school/markcomments', '/api/school/genericcomments']) {
      const where = { form: 'P7', stream: 'East', term: 'I', year: YEAR, category: 'exam' };
      const mine = ok(await teacher.post(path, { ...where, subject_id: english.id, comment: { [amina]: 'Reads well.' }, base: {} }));
      expect(mine.comments[amina]).toEqual({ comment: 'Reads well.', version: 1 });
      const theirs = await teacher.post(path, { ...where, subject_id: maths.id, comment: { [amina]: 'Not mine.' }, base: {} });
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json().message).toBe(COMMENT_MESSAGES.notAssigned);
    }
  });
});
