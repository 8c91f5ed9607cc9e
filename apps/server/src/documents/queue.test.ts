import { markTypes, REPORT_MESSAGES } from '@mustard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { newSubject, ok, type Row } from '../modules/settings/settings-fixtures.js';
import { makeMarks, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';
import { DOCUMENT_TASKS_PER_THREAD, DOCUMENT_THREADS } from './pool.js';
import { DOCUMENTS_RETRY_AFTER_SECONDS } from './queue.js';
import { DOCUMENT_READS_AT_ONCE } from './reading.js';

/*
 * Report card and mark sheet PDFs are admitted within bounds and drawn fairly (issue 23 item
 * 10): one school printing class after class used to queue ahead of every other school, with
 * memory growing with its queue. Through the API, on both databases, with small bounds: two
 * documents per school, three more than the pool draws at once in all.
 */

let t: TestApp;
const YEAR = new Date().getFullYear();
const PER_SCHOOL = 2;
/** Documents the pool draws at once (its threads, each drawing a few in turns). */
const DRAWING = DOCUMENT_THREADS * DOCUMENT_TASKS_PER_THREAD;
const TOTAL = DRAWING + 3;

/** A school with one P7 learner and one mark, and its head teacher. */
async function schoolWithACard(name: string): Promise<Caller> {
  const school = await makeTenant(t.database, { name });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const head = caller(t.app, await login(t.app, user.email), school.tenantcode);
  const subject = await newSubject(head, { name: 'Mathematics', category: 'mathematics' });
  const exam: Row = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  const learnerId = newId();
  await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('students')
      .values({ tenant_id: school.id, id: learnerId, studentid: 'P7/001', firstname: 'Amina', lastname: 'Okello', form: 'P7' })
      .execute(),
  );
  await makeMarks(t.database, school.id, learnerId, [
    { subjectId: subject.id, marktypeId: exam.id, form: 'P7', term: 'I', year: YEAR, mark: 72 },
  ]);
  return head;
}

const card = (by: Caller) => by.get(`/api/school/terminalreport?form=P7&term=I&year=${YEAR}`);
const marksheet = (by: Caller) => by.get(`/api/school/marks/marksheet?form=P7&term=I&year=${YEAR}&pdf=1`);

/** Holds every drawing thread with work of another school until released, so what the API admits waits in the queue. */
function holdTheThreads() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = Array.from({ length: DRAWING }, (_, index) =>
    inProcess().serve(`holding-${index}`, { header: () => undefined }, (draw) => draw(() => released)),
  );
  return { release, done: Promise.all(held) };
}

/** The app's own queue (built without Redis, the documents are admitted and drawn in this process). */
function inProcess() {
  const queue = t.app.documents.queue;
  if (!queue) throw new Error('The test app has no in-process document queue');
  return queue;
}

async function until(condition: () => boolean) {
  for (let tries = 0; !condition(); tries++) {
    if (tries > 600) throw new Error('The queue never reached the state awaited');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let schoolA: Caller;
let schoolB: Caller;

beforeAll(async () => {
  // This process's queue and pool, as one machine runs (no Redis); jobs/documents.test.ts has the installation's.
  t = await buildTestApp({ pdfQueuePerSchool: PER_SCHOOL, pdfQueueTotal: TOTAL, redisUrl: undefined });
  schoolA = await schoolWithACard('Busy Primary');
  schoolB = await schoolWithACard('Quiet Primary');
});
afterAll(() => t?.close());

describe('the document queue', () => {
  it('reads the data of a few admitted documents at once, the turn handed on when one ends', async () => {
    let reading = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const until = async (check: () => boolean) => {
      for (let tries = 0; !check() && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    // One more document than may read at once, two a school (within PER_SCHOOL and TOTAL).
    const works = Array.from({ length: DOCUMENT_READS_AT_ONCE + 1 }, (_, index) =>
      t.app.documents.serve(`reading-${Math.floor(index / 2)}`, { header: () => undefined }, async () => {
        reading += 1;
        most = Math.max(most, reading);
        await new Promise<void>((resolve) => gates.push(resolve));
        reading -= 1;
      }),
    );
    await until(() => gates.length === DOCUMENT_READS_AT_ONCE);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gates).toHaveLength(DOCUMENT_READS_AT_ONCE);
    expect(t.app.documents.reads.counts()).toEqual({ reading: DOCUMENT_READS_AT_ONCE, waiting: 1 });
    gates[0]?.();
    await until(() => gates.length === DOCUMENT_READS_AT_ONCE + 1);
    for (const open of gates) open();
    await Promise.all(works);
    expect(most).toBe(DOCUMENT_READS_AT_ONCE);
    expect(t.app.documents.reads.counts()).toEqual({ reading: 0, waiting: 0 });
  });

  it("refuses one school's documents beyond its bound with 503 and Retry-After, while another school's single card is drawn before that school's next", async () => {
    // Warm the pool, so the first card's worker start does not decide the order.
    expect((await card(schoolB)).headers['content-type']).toBe('application/pdf');
    const threads = holdTheThreads();
    const finished: string[] = [];
    const settled = new Map<string, LightMyRequestResponse>();
    const send = (name: string, request: Promise<LightMyRequestResponse>) =>
      request.then((response) => {
        finished.push(name);
        settled.set(name, response);
        return response;
      });
    const fromA = Array.from({ length: 5 }, (_, index) => send(`A${index}`, card(schoolA)));
    const fromB = send('B', card(schoolB));
    // Two of A's and B's card read and wait for a thread; A's other three were refused at once.
    await until(() => t.app.documents.counts().waiting === PER_SCHOOL + 1 && settled.size === 3);
    const refusedA = [...settled.values()];
    for (const refused of refusedA) {
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(DOCUMENTS_RETRY_AFTER_SECONDS));
      expect(refused.json()).toEqual({ statusCode: 503, message: REPORT_MESSAGES.schoolDocumentsBusy });
    }
    // A's mark sheet counts against the same bound; B's second document against the total.
    const sheetA = await marksheet(schoolA);
    expect([sheetA.statusCode, sheetA.json().message]).toEqual([503, REPORT_MESSAGES.schoolDocumentsBusy]);
    const secondB = await card(schoolB);
    expect([secondB.statusCode, secondB.headers['retry-after'], secondB.json().message]).toEqual([
      503,
      String(DOCUMENTS_RETRY_AFTER_SECONDS),
      REPORT_MESSAGES.documentsBusy,
    ]);

    threads.release();
    await threads.done;
    const answersA = await Promise.all(fromA);
    expect((await fromB).statusCode).toBe(200);
    expect((await fromB).headers['content-type']).toBe('application/pdf');
    const drawnA = answersA.flatMap((response, index) => (response.statusCode === 200 ? [`A${index}`] : []));
    expect(drawnA).toHaveLength(PER_SCHOOL);
    // A waited first, so one of its cards may go first; B's goes before A's next.
    expect(finished.indexOf('B')).toBeLessThan(Math.max(...drawnA.map((name) => finished.indexOf(name))));
    // Nothing of the queue is kept once every document is answered.
    expect(t.app.documents.counts()).toEqual({ admitted: 0, drawing: 0, waiting: 0, schools: 0 });
    expect((await marksheet(schoolA)).headers['content-type']).toBe('application/pdf');
    expect(t.app.documents.counts()).toEqual({ admitted: 0, drawing: 0, waiting: 0, schools: 0 });
  });

  it('frees the admission of a document that fails to be read or drawn', async () => {
    const refused = await schoolA.get(`/api/school/terminalreport?form=P6&term=I&year=${YEAR}`);
    expect(refused.statusCode).toBe(422);
    await expect(
      inProcess().serve('school', { header: () => undefined }, (draw) => draw(() => Promise.reject(new Error('broken')))),
    ).rejects.toThrow('broken');
    expect(t.app.documents.counts()).toEqual({ admitted: 0, drawing: 0, waiting: 0, schools: 0 });
  });

  it('takes its bounds from PDF_QUEUE_PER_SCHOOL and PDF_QUEUE_TOTAL, positive whole numbers', () => {
    const env = { JWT_SECRET: 'a-secret-of-more-than-thirty-two-bytes!!', PDF_QUEUE_PER_SCHOOL: '2', PDF_QUEUE_TOTAL: '5' };
    expect(loadConfig(env)).toMatchObject({ pdfQueuePerSchool: 2, pdfQueueTotal: 5 });
    expect(loadConfig({ JWT_SECRET: env.JWT_SECRET })).toMatchObject({ pdfQueuePerSchool: undefined, pdfQueueTotal: undefined });
    expect(() => loadConfig({ ...env, PDF_QUEUE_TOTAL: '0' })).toThrow(ConfigError);
  });
});
