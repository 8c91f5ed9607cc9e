import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REPORT_LAYOUT, markTypes, REPORT_MESSAGES } from '@mustard/shared';
import { Queue, Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Database, openDatabase } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { withTenant } from '../db/tenant.js';
import { DOCUMENTS_RETRY_AFTER_SECONDS } from '../documents/queue.js';
import { ADMISSION_LEASE_MS, SharedAdmission } from '../documents/shared-admission.js';
import { REPORT_CARDS_DRAWER } from '../modules/reports/document-drawers.js';
import { reportFixture } from '../modules/reports/pdf/fixture.js';
import { newSubject, ok, type Row } from '../modules/settings/settings-fixtures.js';
import { makeMarks, makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';
import {
  DOCUMENT_WORKERS_KEPT,
  type DocumentJobData,
  DocumentJobs,
  documentPriority,
  documentResultKey,
  documentWorkersKey,
  drawDocumentJob,
  drawerOfAddress,
  serializeInput,
} from './documents.js';
import { DOCUMENTS_QUEUE } from './queues.js';

/*
 * Documents as BullMQ jobs (issue 30), on the real Redis and PostgreSQL: two app servers of one
 * database and one Redis (one installation prefix), the first with a job worker beside it, the
 * second with none. A class's cards asked of either are drawn by the worker and read back whole;
 * their progress answers on the other server, to the asker alone; the admission bounds hold
 * across both servers; a job's result is stored once; a drawing that fails answers at once.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const YEAR = new Date().getFullYear();
const LEARNERS = 5;
const PER_SCHOOL = 2;
const TOTAL = 3;

let t: TestApp;
let second: { app: FastifyInstance; database: Database };
let redis: Redis;
let tenantId: string;
let otherTenantId: string;
let head: Caller;
let colleague: Caller;
let otherSchool: Caller;
const codes = new Map<Caller, string>();

const onSecond = (by: Caller) => caller(second.app, by.token, codes.get(by));
const cardsWith = (by: Caller, token?: string) =>
  by.get(`/api/school/terminalreport?form=P7&term=I&year=${YEAR}${token ? `&progress=${token}` : ''}`);
const progressOf = (by: Caller, token: string) => by.get(`/api/school/terminalreport/progress?token=${token}`);

const run = promisify(execFile);
/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'document-job-'));
  try {
    const file = path.join(folder, 'cards.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function until(check: () => Promise<boolean>) {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 200) throw new Error('never got there');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every key of this test's installation prefix matching `pattern`. */
async function keys(pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${t.config.redisPrefix}:${pattern}`, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}

async function schoolWithClass(name: string, learners: number) {
  const school = await makeTenant(t.database, { name });
  const user = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const by = caller(t.app, await login(t.app, user.email), school.tenantcode);
  codes.set(by, school.tenantcode);
  const subject = await newSubject(by, { name: 'Mathematics', category: 'mathematics' });
  const exam: Row = ok(await by.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  for (let index = 0; index < learners; index++) {
    const learnerId = newId();
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx
        .insertInto('students')
        .values({
          tenant_id: school.id,
          id: learnerId,
          studentid: `P7/${index}`,
          firstname: 'Amina',
          lastname: `Okello${index}`,
          form: 'P7',
        })
        .execute(),
    );
    await makeMarks(t.database, school.id, learnerId, [
      { subjectId: subject.id, marktypeId: exam.id, form: 'P7', term: 'I', year: YEAR, mark: 40 + index * 7 },
    ]);
  }
  return { school, by };
}

beforeAll(async () => {
  t = await buildTestApp({ redisUrl: REDIS_URL, pdfQueuePerSchool: PER_SCHOOL, pdfQueueTotal: TOTAL });
  redis = new Redis(REDIS_URL);
  const first = await schoolWithClass('Kitante Primary', LEARNERS);
  tenantId = first.school.id;
  head = first.by;
  const colleagueUser = await makeUser(t.database, { memberOf: [{ tenantId, roles: ['headteacher'] }] });
  colleague = caller(t.app, await login(t.app, colleagueUser.email), first.school.tenantcode);
  codes.set(colleague, first.school.tenantcode);
  const other = await schoolWithClass('Gayaza Primary', 1);
  otherTenantId = other.school.id;
  otherSchool = other.by;
  // The second server: the same database and Redis prefix, no worker of its own.
  const config = { ...t.config, databaseUrl: t.database.appUrl };
  const database = await openDatabase(config, { migrate: false });
  second = { app: await buildApp(config, database, { logger: false }), database };
});

afterAll(async () => {
  await second?.app.close();
  await second?.database.close();
  await t?.close();
  if (redis) {
    const left = await keys('*');
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  }
});

describe.runIf(process.env.MUSTARD_TEST_DB === 'postgres')('documents as jobs on Redis', () => {
  it("draws a class's cards on the job worker, not the app server, and answers them whole", async () => {
    expect(t.app.documents.queue).toBeNull();
    expect(t.worker).not.toBeNull();
    const response = await cardsWith(head);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(response.rawPayload);
    for (let index = 0; index < LEARNERS; index++) expect(text).toContain(`Okello${index}`);
    // The worker named itself on the job; the PDF was taken from Redis (GETDEL), nothing left.
    expect(Object.values(await redis.hgetall(documentWorkersKey(t.config.redisPrefix)))).toContain(t.worker?.id);
    expect(await keys('document:*')).toEqual([]);
  });

  it('answers the progress of cards asked of one server on the other, to the asker alone', async () => {
    const token = `test-${newId()}`;
    // Asked of the second server, which has no worker: the first's worker draws it.
    const response = await cardsWith(onSecond(head), token);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(ok(await progressOf(head, token))).toEqual({ done: LEARNERS, total: LEARNERS });
    expect(ok(await progressOf(onSecond(head), token))).toEqual({ done: LEARNERS, total: LEARNERS });
    // A colleague, another school, or a forged token: nothing.
    expect((await progressOf(colleague, token)).statusCode).toBe(404);
    expect((await progressOf(onSecond(otherSchool), token)).statusCode).toBe(404);
    expect((await progressOf(head, `test-${newId()}`)).statusCode).toBe(404);
  });

  it("holds one school's bound and the installation's across both servers: 503 with Retry-After, freed when done", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const noReply = { header: () => undefined };
    // The school's two places taken on the first server.
    const held = [t.app.documents.serve(tenantId, noReply, () => released), t.app.documents.serve(tenantId, noReply, () => released)];
    const refused = await cardsWith(onSecond(head));
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(DOCUMENTS_RETRY_AFTER_SECONDS));
    expect(refused.json()).toEqual({ statusCode: 503, message: REPORT_MESSAGES.schoolDocumentsBusy });
    // Another school still has room (two of three taken)…
    expect((await cardsWith(onSecond(otherSchool))).statusCode).toBe(200);
    // …until the third place is taken on the second server: then the installation is full.
    held.push(second.app.documents.serve(otherTenantId, noReply, () => released));
    const full = await cardsWith(otherSchool);
    expect([full.statusCode, full.headers['retry-after'], full.json().message]).toEqual([
      503,
      String(DOCUMENTS_RETRY_AFTER_SECONDS),
      REPORT_MESSAGES.documentsBusy,
    ]);
    release();
    await Promise.all(held);
    expect(await t.app.documents.shared?.admission.counts(tenantId)).toEqual({ school: 0, total: 0 });
    expect((await cardsWith(onSecond(head))).statusCode).toBe(200);
  });

  it('frees the places of a server that died holding them once their lease ends, and not before', async () => {
    let clock = Date.now();
    const limits = { perSchool: 1, total: 10 };
    const school = `lease-${newId()}`;
    const dying = new SharedAdmission(redis, t.config.redisPrefix, limits, t.app.log, () => clock);
    // A server takes the school's one place and dies with it (its `finally` never runs).
    void dying.serve(school, { header: () => undefined }, () => new Promise<never>(() => undefined));
    await until(async () => (await dying.counts(school)).school === 1);
    const other = new SharedAdmission(redis, t.config.redisPrefix, limits, t.app.log, () => clock);
    await expect(other.serve(school, { header: () => undefined }, async () => 'drawn')).rejects.toMatchObject({ statusCode: 503 });
    clock += ADMISSION_LEASE_MS - 1000;
    await expect(other.serve(school, { header: () => undefined }, async () => 'drawn')).rejects.toMatchObject({ statusCode: 503 });
    clock += 2000;
    await expect(other.serve(school, { header: () => undefined }, async () => 'drawn')).resolves.toBe('drawn');
    await redis.del(...dying.keys(school));
  });

  it('refuses documents with 503 while Redis is away, never drawing them unlimited', async () => {
    const config = { ...t.config, redisUrl: 'redis://127.0.0.1:1', databaseUrl: t.database.appUrl };
    const database = await openDatabase(config, { migrate: false });
    const away = await buildApp(config, database, { logger: false });
    try {
      const refused = await caller(away, head.token, codes.get(head)).get(`/api/school/terminalreport?form=P7&term=I&year=${YEAR}`);
      expect(refused.statusCode).toBe(503);
    } finally {
      await away.close();
      await database.close();
    }
  });

  it('stores a job drawn twice (a retry after a worker died) once: the first result stays', async () => {
    const jobId = newId();
    const data: DocumentJobData = {
      drawer: drawerOfAddress(REPORT_CARDS_DRAWER),
      school: tenantId,
      input: serializeInput({ model: reportFixture({ learners: 1, photos: 'none' }), layout: DEFAULT_REPORT_LAYOUT, images: new Map() }),
      progress: false,
    };
    const job = { id: jobId, data, updateProgress: async () => undefined };
    const context = { redis, prefix: t.config.redisPrefix, workerId: 'test-worker' };
    const firstDrawing = await drawDocumentJob(job, context);
    expect(firstDrawing.worker).toBe('test-worker');
    const key = documentResultKey(t.config.redisPrefix, jobId);
    expect((await redis.getBuffer(key))?.subarray(0, 5).toString()).toBe('%PDF-');
    // Marked, so a second write would show.
    await redis.set(key, 'the first result', 'KEEPTTL');
    const again = await drawDocumentJob(job, context);
    expect(again.bytes).toBeGreaterThan(0);
    expect(await redis.get(key)).toBe('the first result');
    expect(await keys(`document:${jobId}*`)).toEqual([key]);
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    await redis.del(key);
  });

  it('keeps its record of who drew which job bounded', async () => {
    const key = documentWorkersKey(t.config.redisPrefix);
    await redis.hset(key, Object.fromEntries(Array.from({ length: DOCUMENT_WORKERS_KEPT }, (_, index) => [`old-${index}`, 'a-worker'])));
    const job = {
      id: newId(),
      data: {
        drawer: drawerOfAddress(REPORT_CARDS_DRAWER),
        school: tenantId,
        input: serializeInput({ model: reportFixture({ learners: 1, photos: 'none' }), layout: DEFAULT_REPORT_LAYOUT, images: new Map() }),
        progress: false,
      },
      updateProgress: async () => undefined,
    };
    await drawDocumentJob(job, { redis, prefix: t.config.redisPrefix, workerId: 'test-worker' });
    expect(await redis.hgetall(key)).toEqual({ [job.id]: 'test-worker' });
    await redis.del(documentResultKey(t.config.redisPrefix, job.id));
  });

  it('answers a document whose drawing fails with an error at once, not retried and not hung', async () => {
    const started = performance.now();
    await expect(
      t.app.documents.serve(tenantId, { header: () => undefined }, (draw) =>
        draw({ module: REPORT_CARDS_DRAWER.module, name: 'drawNothingOfTheKind' }, {}),
      ),
    ).rejects.toThrow(/failed: The document could not be drawn: No drawer "drawNothingOfTheKind"/);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await t.app.documents.shared?.admission.counts(tenantId)).toEqual({ school: 0, total: 0 });
  });

  it("forwards a job's progress to the route, never going back when a retried job draws again from its start", async () => {
    // A prefix of its own, where this test plays the worker: progress 3, then a retry's 1 and 2, then 5.
    const prefix = `${t.config.redisPrefix}-progress`;
    const jobs = new DocumentJobs({ redisUrl: REDIS_URL, prefix, redis, waitMs: 20_000, log: t.app.log });
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const worker = new Worker<DocumentJobData>(
      DOCUMENTS_QUEUE,
      async (job) => {
        for (const done of [3, 1, 2, 5]) await job.updateProgress({ done, total: 5 });
        await redis.set(documentResultKey(prefix, job.id as string), '%PDF-played', 'PX', 60_000);
        return { bytes: 11, worker: 'played' };
      },
      { connection, prefix },
    );
    const heard: number[] = [];
    try {
      const pdf = await jobs.draw(
        { school: tenantId, place: 1, reply: { header: () => undefined } },
        REPORT_CARDS_DRAWER,
        {} as never,
        (done) => heard.push(done),
      );
      expect(pdf.toString()).toBe('%PDF-played');
      expect(heard).toEqual([3, 3, 3, 5]);
    } finally {
      await worker.close();
      await jobs.close();
      await connection.quit();
      const left = await redis.keys(`${prefix}:*`);
      if (left.length > 0) await redis.del(...left);
    }
  });

  it("takes another school's single card before a school's second and third documents, first come first served within a priority", async () => {
    const name = `fairness-${newId()}`;
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(name, { connection, prefix: t.config.redisPrefix });
    const order: string[] = [];
    try {
      for (const [document, place] of [
        ['A1', 1],
        ['A2', 2],
        ['A3', 3],
        ['B1', 1],
        ['C1', 1],
      ] as const) {
        await queue.add(document, {}, { priority: documentPriority(place) });
      }
      let worker: Worker | undefined;
      await new Promise<void>((resolve) => {
        worker = new Worker(
          name,
          async (job) => {
            order.push(job.name);
            if (order.length === 5) resolve();
          },
          { connection, prefix: t.config.redisPrefix, concurrency: 1 },
        );
      });
      await worker?.close();
      expect(order).toEqual(['A1', 'B1', 'C1', 'A2', 'A3']);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await connection.quit();
    }
  });
});
