import {
  autoReportComments,
  ERROR_MESSAGES,
  grades,
  IN_USE_MESSAGES,
  markTypes,
  proportions,
  publishMarks,
  remarkTypes,
  SETTINGS_MESSAGES,
  studentCategories,
  subjects,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { gradeSet, newMarkType, newRemarkType, newSubject, next, ok, type Row } from './settings-fixtures.js';

/*
 * Records that others depend on (RESTRICT foreign keys answer 409 with the resource's reason)
 * and the remark type tree: two levels, answered as top-level records with their children.
 */

let t: TestApp;
let head: Caller;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
/** A school of its own for the tree, so its list is exactly the test's. */
let treeSchool: { id: string; tenantcode: string };

/** A delete refused because others depend on the record: 409 with the reason, and the record kept. */
async function expectInUse(path: string, record: Row, message: string) {
  const response = await head.delete(`${path}/${record.id}`);
  expect(response.statusCode).toBe(409);
  expect(response.json()).toEqual({ statusCode: 409, message });
  expect(ok(await head.get(`${path}/${record.id}`))).toEqual(record);
  const deletes = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx.selectFrom('audit_log').select('id').where('action', '=', 'delete').where('entity_id', '=', record.id).execute(),
  );
  expect(deletes).toEqual([]);
}

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Kabojja Junior' });
  neighbour = await makeTenant(t.database, { name: 'Hillside Nursery' });
  treeSchool = await makeTenant(t.database, { name: 'Tree Primary' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: school.id, roles: ['headteacher'] },
      { tenantId: neighbour.id, roles: ['headteacher'] },
      { tenantId: treeSchool.id, roles: ['headteacher'] },
    ],
  });
  head = caller(t.app, await login(t.app, user.email), school.tenantcode);
});
afterAll(() => t.close());

describe('records in use', () => {
  it('keeps a subject that has grades, and lets it go once they are gone', async () => {
    const subject = await newSubject(head);
    const set = ok(await head.post(grades.path, gradeSet(subject.id))).grades as Row[];
    await expectInUse(subjects.path, subject, IN_USE_MESSAGES.subjects);
    for (const grade of set) ok(await head.delete(`${grades.path}/${grade.id}`));
    ok(await head.delete(`${subjects.path}/${subject.id}`));
    expect((await head.get(`${subjects.path}/${subject.id}`)).statusCode).toBe(404);
  });

  it('keeps a subject and a mark type that a proportion uses', async () => {
    const [subject, markType] = [await newSubject(head), await newMarkType(head)];
    const proportion = ok(
      await head.post(proportions.path, {
        form: 'P7',
        term: 'I',
        year: 2026,
        subject_id: subject.id,
        marktype_id: markType.id,
        percentage: 50,
      }),
    );
    await expectInUse(subjects.path, subject, IN_USE_MESSAGES.subjects);
    await expectInUse(markTypes.path, markType, IN_USE_MESSAGES.marktypes);
    ok(await head.delete(`${proportions.path}/${proportion.id}`));
    ok(await head.delete(`${markTypes.path}/${markType.id}`));
    ok(await head.delete(`${subjects.path}/${subject.id}`));
  });

  it('keeps a mark type whose marks are published', async () => {
    const markType = await newMarkType(head);
    ok(await head.post(publishMarks.path, { term: 'I', year: 2026, marktype_id: markType.id }));
    await expectInUse(markTypes.path, markType, IN_USE_MESSAGES.marktypes);
  });

  it('keeps a remark type with a sub category or an automatic comment', async () => {
    const parent = await newRemarkType(head);
    const child = await newRemarkType(head, { parent_id: parent.id });
    await expectInUse(remarkTypes.path, parent, IN_USE_MESSAGES.remarktypes);
    ok(await head.post(autoReportComments.path, { form: 'P7', remarktype_id: child.id, score: 0, upper: 100, comment: 'Fine' }));
    await expectInUse(remarkTypes.path, child, IN_USE_MESSAGES.remarktypes);
  });

  it('keeps a student category that a learner belongs to', async () => {
    const category = ok(await head.post(studentCategories.path, { name: 'Boarders' }));
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id: newId(),
          studentid: `S-${next()}`,
          firstname: 'Grace',
          lastname: 'Nakato',
          form: 'P7',
          studentcategory_id: category.id,
        })
        .execute(),
    );
    await expectInUse(studentCategories.path, category, IN_USE_MESSAGES.studentcategories);
    const unused = ok(await head.post(studentCategories.path, { name: 'Day scholars' }));
    ok(await head.delete(`${studentCategories.path}/${unused.id}`));
  });
});

describe('remark types', () => {
  it('lists a parent once, with its children, and no child at the top level', async () => {
    const c = head.in(treeSchool.tenantcode);
    const parent = await newRemarkType(c, { label: 'Conduct' });
    const [first, second] = [
      await newRemarkType(c, { label: 'Honesty', parent_id: parent.id }),
      await newRemarkType(c, { label: 'Cleanliness', parent_id: parent.id }),
    ];
    const alone = await newRemarkType(c, { label: 'Attendance' });
    const body = ok(await c.get(remarkTypes.path));
    expect(body.totalRecords).toBe(2);
    expect(body.remarktypes.map((row: Row) => row.label)).toEqual(['Attendance', 'Conduct']);
    const listed = body.remarktypes.find((row: Row) => row.id === parent.id);
    expect(listed).toEqual({ ...parent, children: [second, first] });
    expect(body.remarktypes.find((row: Row) => row.id === alone.id).children).toEqual([]);
    expect(ok(await c.get(`${remarkTypes.path}/${first.id}`))).toEqual({ ...first, parent_id: parent.id });
  });

  it('refuses a parent that is itself a sub category: two levels at most', async () => {
    const parent = await newRemarkType(head);
    const child = await newRemarkType(head, { parent_id: parent.id });
    const response = await head.post(remarkTypes.path, { label: `Grandchild ${next()}`, category: 'exam', parent_id: child.id });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      statusCode: 422,
      message: ERROR_MESSAGES[422],
      errors: { parent_id: [SETTINGS_MESSAGES.parentInvalid] },
    });
  });

  it('refuses a remark type as its own parent', async () => {
    const record = await newRemarkType(head);
    const { id, ...fields } = record;
    const response = await head.put(`${remarkTypes.path}/${id}`, { ...fields, parent_id: id });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ parent_id: [SETTINGS_MESSAGES.parentInvalid] });
    expect(ok(await head.get(`${remarkTypes.path}/${id}`))).toEqual(record);
  });

  it('refuses to put a remark type with sub categories under another one, or under its own child', async () => {
    const [parent, other] = [await newRemarkType(head), await newRemarkType(head)];
    const child = await newRemarkType(head, { parent_id: parent.id });
    const { id, ...fields } = parent;
    for (const parentId of [other.id, child.id]) {
      const response = await head.put(`${remarkTypes.path}/${id}`, { ...fields, parent_id: parentId });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ parent_id: [SETTINGS_MESSAGES.parentInvalid] });
    }
    expect(ok(await head.get(`${remarkTypes.path}/${id}`))).toEqual(parent);
  });

  it('moves a sub category under another top-level remark type', async () => {
    const [parent, other] = [await newRemarkType(head), await newRemarkType(head)];
    const child = await newRemarkType(head, { parent_id: parent.id });
    const { id, ...fields } = child;
    expect(ok(await head.put(`${remarkTypes.path}/${id}`, { ...fields, parent_id: other.id }))).toEqual({ ...child, parent_id: other.id });
    // And back to the top level.
    expect(ok(await head.put(`${remarkTypes.path}/${id}`, { ...fields, parent_id: '' })).parent_id).toBeNull();
  });

  it('refuses a parent that does not exist here', async () => {
    const theirs = await newRemarkType(head.in(neighbour.tenantcode));
    for (const parentId of [newId(), theirs.id]) {
      const response = await head.post(remarkTypes.path, { label: `Orphan ${next()}`, category: 'exam', parent_id: parentId });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ parent_id: [SETTINGS_MESSAGES.referenceMissing] });
    }
  });
});
