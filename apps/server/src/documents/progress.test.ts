import { DEFAULT_REPORT_LAYOUT, markTypes } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { REPORT_CARDS_DRAWER } from '../modules/reports/document-drawers.js';
import { reportFixture } from '../modules/reports/pdf/fixture.js';
import { newSubject, ok, type Row } from '../modules/settings/settings-fixtures.js';
import { makeMarks, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';
import { testDatabaseKind } from '../test/test-database.js';
import { closeDocumentPool, renderDocument } from './pool.js';
import { DocumentProgressStore, WRITE_EVERY_MS } from './progress.js';

/*
 * A document's progress is kept in the database (issue 25 point 5): a PDF started on one server
 * is followed from another server of the same database; another user or school never reads it;
 * a class of many learners writes it a few times a second, not once a learner.
 */

let t: TestApp;
const YEAR = new Date().getFullYear();
const LEARNERS = 6;
let head: Caller;
let colleague: Caller;
let otherSchool: Caller;
let tenantId: string;
let headId: string;
const codes = new Map<Caller, string>();

const progressOf = (by: Caller, token: string) => by.get(`/api/school/terminalreport/progress?token=${token}`);
const cardsWith = (by: Caller, token: string) => by.get(`/api/school/terminalreport?form=P7&term=I&year=${YEAR}&progress=${token}`);

beforeAll(async () => {
  t = await buildTestApp();
  const school = await makeTenant(t.database, { name: 'Kitante Primary' });
  tenantId = school.id;
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  headId = headUser.id;
  const colleagueUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  colleague = caller(t.app, await login(t.app, colleagueUser.email), school.tenantcode);
  codes.set(head, school.tenantcode).set(colleague, school.tenantcode);
  const subject = await newSubject(head, { name: 'Mathematics', category: 'mathematics' });
  const exam: Row = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  for (let index = 0; index < LEARNERS; index++) {
    const learnerId = newId();
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id: learnerId,
          studentid: `P7/${index}`,
          firstname: 'Amina',
          lastname: `Okello ${index}`,
          form: 'P7',
        })
        .execute(),
    );
    await makeMarks(t.database, school.id, learnerId, [
      { subjectId: subject.id, marktypeId: exam.id, form: 'P7', term: 'I', year: YEAR, mark: 40 + index * 7 },
    ]);
  }
  // The head teacher of another school.
  const other = await makeTenant(t.database, { name: 'Gayaza Primary' });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: other.id, roles: ['headteacher'] }] });
  otherSchool = caller(t.app, await login(t.app, otherUser.email), other.tenantcode);
  codes.set(otherSchool, other.tenantcode);
  // The pool's first worker starts here (loading the drawers takes a while on a busy machine), not in a test.
  await renderDocument(REPORT_CARDS_DRAWER, {
    model: reportFixture({ learners: 1, photos: 'none' }),
    layout: DEFAULT_REPORT_LAYOUT,
    images: new Map(),
  });
});
afterAll(async () => {
  await t?.close();
  await closeDocumentPool();
});

describe("a document's progress", () => {
  it('is read back by the user who asked, in the school asked, and by nobody else', async () => {
    const token = `test-${newId()}`;
    const response = await cardsWith(head, token);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(ok(await progressOf(head, token))).toEqual({ done: LEARNERS, total: LEARNERS });
    // The same token asked by a colleague of the same school, or by another school's head teacher.
    expect((await progressOf(colleague, token)).statusCode).toBe(404);
    expect((await progressOf(otherSchool, token)).statusCode).toBe(404);
    // Row-level security keeps the row to its school even without the query's own filter.
    const seen = await withTenant(t.database.db, { tenantId: newId() }, (trx) =>
      trx.selectFrom('document_progress').select('token').where('token', '=', token).execute(),
    );
    expect(seen).toEqual([]);
  });

  it('writes a class of 150 learners a few times a second, not once a learner, and the last value at the end', async () => {
    const writes: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery(args: PluginTransformQueryArgs) {
        if (args.node.kind === 'InsertQueryNode') writes.push(args.queryId.queryId);
        return args.node;
      },
      transformResult: async (args: PluginTransformResultArgs) => args.result,
    };
    const store = new DocumentProgressStore(t.database.db.withPlugin(counting), t.app.log);
    const key = { tenantId, userId: headId, token: `test-${newId()}` };
    const model = reportFixture({ learners: 150, photos: 'none' });
    const started = performance.now();
    const progress = await store.start(key, model.learners.length);
    let updates = 0;
    await renderDocument(REPORT_CARDS_DRAWER, { model, layout: DEFAULT_REPORT_LAYOUT, images: new Map() }, (done, total) => {
      updates += 1;
      progress.update(done, total);
    });
    await progress.finish();
    const seconds = (performance.now() - started) / 1000;
    expect(updates).toBe(150);
    // The start, then at most one write every WRITE_EVERY_MS (and one in flight), then the last.
    expect(writes.length).toBeLessThanOrEqual(2 + Math.ceil((seconds * 1000) / WRITE_EVERY_MS) + 1);
    expect(writes.length).toBeLessThan(150);
    expect(await store.get(key)).toEqual({ done: 150, total: 150 });
  });
});

/** A second server of the deployment: another app on its own connections to the same PostgreSQL database. */
describe.runIf(testDatabaseKind === 'postgres')('on two servers of one PostgreSQL database', () => {
  let second: { app: FastifyInstance; database: Database };

  beforeAll(async () => {
    const config = { ...t.config, databaseUrl: t.database.appUrl };
    const database = await openDatabase(config, { migrate: false });
    second = { app: await buildApp(config, database, { logger: false }), database };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it('a PDF drawn on the first server has its progress answered by the second', async () => {
    const onSecond = (by: Caller) => caller(second.app, by.token, codes.get(by));
    const token = `test-${newId()}`;
    const response = await cardsWith(head, token);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(ok(await progressOf(onSecond(head), token))).toEqual({ done: LEARNERS, total: LEARNERS });
    expect((await progressOf(onSecond(colleague), token)).statusCode).toBe(404);
    expect((await progressOf(onSecond(otherSchool), token)).statusCode).toBe(404);
  });
});
