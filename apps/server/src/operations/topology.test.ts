import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultTermDates, ERROR_MESSAGES, localDay, type ReportModel, TENANT_HEADER } from '@mustard/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentWorkersKey } from '../jobs/documents.js';
import { DOCUMENTS_QUEUE } from '../jobs/queues.js';
import { DEMO_ADMIN_EMAIL, DEMO_TEACHER_EMAIL } from '../seed/demo.js';
import { marksTerm } from '../seed/demo-marks.js';
import { testDatabaseKind } from '../test/test-database.js';
import { sleep, waitForExit, waitUntil } from './helpers.js';
import { type AppServer, DEMO_PASSWORD, type JobWorker, startTopology, type Topology } from './topology.js';

/*
 * The installation of issue 30 as it runs in the last week of term, on this machine: a
 * PostgreSQL and a Redis of the test's own (so they can be restarted), two app servers and two
 * job workers, each a real process as an operator starts it, all on the demo schools. One
 * topology serves every test below, in order (a test that kills a worker starts its
 * replacement); every process is stopped in afterAll, however the tests ended. Redis keeps what
 * it holds over its restart, as the deployment's does (compose.yaml: an append-only file).
 */

const SCHOOL = 'demo-primary';
/** A dead worker's job is taken over once its lock lapses: short here, so the test waits seconds, not the default 30. */
const JOB_LOCK_SECONDS = 3;
/** Sign-in failures an account may have before it is paused (AUTH_MAX_FAILURES' default). */
const AUTH_MAX_FAILURES = 10;

describe.runIf(testDatabaseKind === 'postgres')('two app servers and two job workers on one PostgreSQL and one Redis', () => {
  let topology: Topology;
  const { term, year } = marksTerm(localDay(), defaultTermDates);
  /** The demo administrator's session (valid on every server: sessions are in PostgreSQL). */
  let adminHeaders: Record<string, string>;
  /** The school's classes (P1..P7) and, per class, the learners' names as its cards print them. */
  const classes = new Map<string, string[]>();

  const server = (index: number): AppServer => topology.servers[index % topology.servers.length] as AppServer;
  /** A GET of the API as the administrator; bounded, so a request that never ends fails its test instead of hanging it. */
  const get = (on: AppServer, url: string, headers = adminHeaders) =>
    fetch(`${on.url}${url}`, { headers, signal: AbortSignal.timeout(45_000) });

  async function signIn(on: AppServer, email: string, password: string): Promise<Response> {
    return fetch(`${on.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { email, password } }),
    });
  }

  const reportUrl = (form: string, progress?: string) =>
    `/api/school/terminalreport?form=${form}&term=${term}&year=${year}${progress ? `&progress=${progress}` : ''}`;

  beforeAll(async () => {
    const started = Date.now();
    topology = await startTopology({
      servers: 2,
      workers: 2,
      jobLockSeconds: JOB_LOCK_SECONDS,
      seed: 'demo',
      // The sign-in route's own rate per client address stays out of the way of the failure
      // count being tested (every request here comes from 127.0.0.1).
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    const signedIn = await signIn(server(0), DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    expect(signedIn.status).toBe(200);
    adminHeaders = { authorization: signedIn.headers.get('authorization') ?? '', [TENANT_HEADER]: SCHOOL };
    const forms = await topology.query<{ form: string }>(
      `SELECT DISTINCT s.form FROM students s JOIN tenants t ON t.id = s.tenant_id WHERE t.tenantcode = $1 ORDER BY s.form`,
      [SCHOOL],
    );
    for (const { form } of forms) {
      const model = await get(server(0), `${reportUrl(form)}&json=1`);
      expect(model.status).toBe(200);
      classes.set(
        form,
        ((await model.json()) as ReportModel).learners.map((learner) => learner.fullname),
      );
    }
    console.info(
      `topology started and seeded in ${Date.now() - started} ms: ${classes.size} classes, ${[...classes.values()].flat().length} learners`,
    );
  }, 150_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('a whole school’s cards, asked of both servers at once, are drawn by both workers and arrive complete; progress answers on the other server', async () => {
    const started = Date.now();
    const asked = [...classes.keys()].map(async (form, index) => {
      const [on, other] = [server(index), server(index + 1)];
      const token = randomBytes(12).toString('hex');
      const seen: Array<{ done: number; total: number }> = [];
      let asking = true;
      // The web asks for the progress while the PDF is drawn; here of the server that did not take the request.
      const follow = (async () => {
        while (asking) {
          const answer = await get(other, `/api/school/terminalreport/progress?token=${token}`);
          if (answer.status === 200) seen.push((await answer.json()) as { done: number; total: number });
          await sleep(100);
        }
      })();
      try {
        const response = await get(on, reportUrl(form, token));
        const pdf = Buffer.from(await response.arrayBuffer());
        return { form, status: response.status, type: response.headers.get('content-type'), pdf, seen, token, other };
      } finally {
        asking = false;
        await follow;
      }
    });
    const answers = await Promise.all(asked);
    const took = Date.now() - started;

    for (const answer of answers) {
      expect(answer.status, `${answer.form}: ${answer.pdf.toString().slice(0, 300)}`).toBe(200);
      expect(answer.type).toBe('application/pdf');
      await expectEveryCard(answer.pdf, classes.get(answer.form) ?? []);
      // Done of total, on the other server, once the PDF is there.
      const learners = classes.get(answer.form)?.length;
      const last = await get(answer.other, `/api/school/terminalreport/progress?token=${answer.token}`);
      expect(await last.json()).toEqual({ done: learners, total: learners });
    }
    // While they were drawn, the other server answered how far they were (not only 0 and the end).
    const midway = answers.flatMap((answer) => answer.seen).filter((seen) => seen.done > 0 && seen.done < seen.total);
    expect(midway.length).toBeGreaterThan(0);

    // Both workers drew some: by their logs, and by Redis's record of who drew each job.
    const drawn = topology.workers.map((worker) => finishedJobs(worker).length);
    expect(drawn.reduce((sum, count) => sum + count, 0)).toBe(classes.size);
    for (const count of drawn) expect(count).toBeGreaterThan(0);
    const drewBy = Object.values(await withRedis((redis) => redis.hgetall(documentWorkersKey(topology.redisPrefix))));
    expect(drewBy).toHaveLength(classes.size);
    expect(new Set(drewBy)).toEqual(new Set(topology.workers.map((worker) => worker.id)));
    console.info(
      `${classes.size} classes' cards (${[...classes.values()].flat().length} cards) in ${took} ms; jobs per worker: ${drawn.join(', ')}`,
    );
  }, 60_000);

  it('a worker killed mid-job: the other worker draws it, the request gets a complete PDF, and the PDF is stored once', async () => {
    const form = [...classes.keys()].at(-1) as string;
    const token = randomBytes(12).toString('hex');
    const drewBefore = await withRedis((redis) => redis.hgetall(documentWorkersKey(topology.redisPrefix)));
    const finishedBefore = finishedJobs(topology.workers[1] as JobWorker).length;
    const { answer, stopped, other, inHand, report } = await stopMidJob(token, () =>
      get(server(0), reportUrl(form, token)).then(async (response) => ({
        status: response.status,
        pdf: Buffer.from(await response.arrayBuffer()),
      })),
    );

    expect(answer.status, answer.pdf.toString().slice(0, 300)).toBe(200);
    await expectEveryCard(answer.pdf, classes.get(form) ?? []);
    // The job was drawn to the end once, by the other worker, which its log and Redis say.
    expect(finishedJobs(other).length).toBe(finishedBefore + 1);
    const drewAfter = await withRedis((redis) => redis.hgetall(documentWorkersKey(topology.redisPrefix)));
    const jobs = Object.keys(drewAfter).filter((job) => !(job in drewBefore));
    expect(jobs).toEqual(inHand);
    expect(jobs.map((job) => drewAfter[job])).toEqual([other.id]);
    // Stored once: the app server took the one result, and none is left behind in Redis.
    expect(await withRedis((redis) => redis.keys(`${topology.redisPrefix}:document:*`))).toEqual([]);
    console.info(`a class's PDF: ${report}`);
    expect(stopped.running()).toBe(false);
  }, 60_000);

  it('a worker killed while a class’s cards are e-mailed: every card is drawn, and each guardian’s message is in the outbox once', async () => {
    // The demo's leavers' class: most of its learners have a guardian's address.
    const form = 'P7';
    const token = randomBytes(12).toString('hex');
    const { answer, other, inHand, report } = await stopMidJob(token, () => mailCards(form, token));
    expect(answer.status, answer.body).toBe(200);
    const summary = JSON.parse(answer.body) as { sent: number; alreadySent: number; noAddress: number; failed: number };
    const learners = classes.get(form)?.length ?? 0;
    expect(summary).toMatchObject({ alreadySent: 0, failed: 0 });
    expect(summary.sent + summary.noAddress).toBe(learners);
    expect(summary.sent).toBeGreaterThan(learners / 2);

    // One message a learner: as many rows as were sent, each to its own guardian, none twice.
    const messages = await topology.query<{ recipient: string; rows: number }>(
      `SELECT o.recipient, count(*)::int AS rows FROM mail_outbox o JOIN tenants t ON t.id = o.tenant_id
        WHERE t.tenantcode = $1 AND o.template = 'reportCard' GROUP BY o.recipient`,
      [SCHOOL],
    );
    expect(messages).toHaveLength(summary.sent);
    expect(messages.filter((message) => message.rows !== 1)).toEqual([]);
    // The card the dead worker held was drawn again, by the other worker.
    const drewBy = await withRedis((redis) => redis.hgetall(documentWorkersKey(topology.redisPrefix)));
    expect(inHand.map((job) => drewBy[job])).toEqual(inHand.map(() => other.id));
    expect(await withRedis((redis) => redis.keys(`${topology.redisPrefix}:document:*`))).toEqual([]);
    console.info(`a class's cards e-mailed (${summary.sent} messages): ${report}`);
  }, 90_000);

  it('a worker stopped with SIGTERM while a class’s cards are e-mailed again finishes the cards in hand, exits 0, and nothing goes twice', async () => {
    const token = randomBytes(12).toString('hex');
    const before = await outboxRows();
    const { answer, stopped, exit, inHand, report } = await stopMidJob(token, () => mailCards('P7', token), 'SIGTERM');
    expect(answer.status, answer.body).toBe(200);
    // The same cards again: every message already in the outbox, none added.
    const summary = JSON.parse(answer.body) as { sent: number; alreadySent: number; failed: number };
    expect(summary).toMatchObject({ sent: 0, alreadySent: before, failed: 0 });
    expect(await outboxRows()).toBe(before);
    // The cards in hand were drawn to the end by the worker being stopped, not handed over; then a clean exit.
    const drewBy = await withRedis((redis) => redis.hgetall(documentWorkersKey(topology.redisPrefix)));
    expect(inHand.map((job) => drewBy[job])).toEqual(inHand.map(() => stopped.id));
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stopped.output.stdout()).toContain(`job worker ${stopped.id} stopped`);
    console.info(`a class's cards e-mailed again: ${report}`);
  }, 60_000);

  it('a burst of wrong passwords for one account, sent to both servers at once, is stopped at the limit', async () => {
    const guesses = Array.from({ length: 3 * AUTH_MAX_FAILURES }, (_, index) =>
      signIn(server(index), DEMO_TEACHER_EMAIL, `Wrong-${index}-pass!`),
    );
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    const tally = (status: number) => statuses.filter((each) => each === status).length;
    expect({ 401: tally(401), 429: tally(429), other: statuses.length - tally(401) - tally(429) }).toEqual({
      401: AUTH_MAX_FAILURES,
      429: 2 * AUTH_MAX_FAILURES,
      other: 0,
    });
    // Paused on every server, the right password too.
    for (const index of [0, 1]) expect((await signIn(server(index), DEMO_TEACHER_EMAIL, DEMO_PASSWORD)).status).toBe(429);
  });

  it('PostgreSQL and then Redis restarted under a load of saves: every process lives, both servers are ready again, a PDF is drawn, no acknowledged save is lost', async () => {
    // Marks of the school's classes, two cells a save (one learner's BOT and EOT in one subject),
    // each cell saved once; four teachers' worth of saves, two on each server, each on a subject of its own.
    // With each mark's version: the save's base, as the grid sends it (what the teacher saw).
    const cells = await topology.query<{
      subject_id: string;
      form: string;
      stream: string | null;
      student_id: string;
      marktypes: string[];
      versions: number[];
      originals: Array<number | null>;
    }>(
      `SELECT m.subject_id, m.form, m.stream, m.student_id,
              array_agg(m.marktype_id ORDER BY m.marktype_id) AS marktypes, array_agg(m.version ORDER BY m.marktype_id) AS versions,
              array_agg(m.mark::float ORDER BY m.marktype_id) AS originals
         FROM marks m JOIN tenants t ON t.id = m.tenant_id
        WHERE t.tenantcode = $1 AND m.term = $2 AND m.year = $3 AND m.paper = 'I'
        GROUP BY m.subject_id, m.form, m.stream, m.student_id
       HAVING count(*) >= 2`,
      [SCHOOL, term, year],
    );
    const subjects = [...new Set(cells.map((cell) => cell.subject_id))].slice(0, 4);
    expect(subjects.length).toBe(4);
    type Save = {
      save_id: string;
      cell: (typeof cells)[number];
      values: [number, number];
      on: string;
      status: number;
      body: string;
      at: number;
    };
    const saves: Save[] = [];
    let loading = true;
    const teacher = async (subject: string, on: AppServer) => {
      const queue = cells.filter((cell) => cell.subject_id === subject);
      for (let cell = queue.shift(); loading && cell; cell = queue.shift()) {
        const save_id = randomUUID();
        // Never the cell's mark before (the demo has halves too): each cell is saved once, so it
        // holds this save's value only if this save wrote it.
        const fresh = (original: number | null | undefined) => {
          const value = Math.floor(Math.random() * 90) + 0.5;
          return value === original ? value - 1 + (value < 50 ? 2 : 0) : value;
        };
        const values: [number, number] = [fresh(cell.originals[0]), fresh(cell.originals[1])];
        const [first, second] = cell.marktypes as [string, string];
        const body = {
          form: cell.form,
          stream: cell.stream,
          term,
          year,
          subject_id: cell.subject_id,
          save_id,
          marks: { [first]: { [cell.student_id]: values[0] }, [second]: { [cell.student_id]: values[1] } },
          base: { [first]: { [cell.student_id]: cell.versions[0] }, [second]: { [cell.student_id]: cell.versions[1] } },
        };
        const answer = await fetch(`${on.url}/api/school/marks`, {
          method: 'POST',
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(
          async (response) => ({ status: response.status, body: await response.text() }),
          (error: Error) => ({ status: 0, body: error.message }),
        );
        saves.push({ save_id, cell, values, on: on.name, ...answer, at: Date.now() });
        if (answer.status !== 200) await sleep(50);
      }
    };
    const load = Promise.all(subjects.map((subject, index) => teacher(subject, server(index))));
    // What /readyz says: its status and its words ("ready", "database unavailable", "degraded: redis unavailable").
    const readyz = async (on: AppServer) => {
      const answer = await fetch(`${on.url}/readyz`, { headers: { connection: 'close' } }).catch(() => undefined);
      return answer ? `${answer.status} ${((await answer.json()) as { status: string }).status}` : 'no answer';
    };
    const allAre = (state: string) => async () =>
      (await Promise.all(topology.servers.map(readyz))).every((each) => each === state) ? true : undefined;

    const outages: Array<{ what: string; down: number; back: number }> = [];
    // Without PostgreSQL a server is out of the balancer (503); without Redis it stays in, degraded
    // (saves go on; what Redis counts or carries answers 503 of its own).
    const restart = async (what: string, without: string, stop: () => Promise<void>, start: () => Promise<void>) => {
      await sleep(1000);
      const down = Date.now();
      await stop();
      await waitUntil(`both servers to say "${without}" without ${what}`, 10_000, allAre(without), 20);
      await sleep(500);
      await start();
      await waitUntil(`both servers to be ready with ${what} back`, 20_000, allAre('200 ready'), 20);
      outages.push({ what, down, back: Date.now() });
    };
    try {
      await restart(
        'PostgreSQL',
        '503 database unavailable',
        () => topology.postgres.stop(),
        () => topology.postgres.start(),
      );
      await restart(
        'Redis',
        '200 degraded: redis unavailable',
        () => topology.redis.stop(),
        () => topology.redis.start(),
      );
      await sleep(1000);
    } finally {
      loading = false;
      await load;
    }

    // Every server and worker outlived both restarts.
    topology.assertAllRunning();
    expect(topology.workers).toHaveLength(2);
    // The workers saw Redis go and come back (each says so once), and take jobs again.
    for (const worker of topology.workers) {
      expect(worker.output.stdout()).toContain('Redis is not reachable: the worker waits for it');
      expect(worker.output.stdout()).toContain('Redis is reachable again');
    }
    // A document after the restarts: a class's cards through a worker.
    const form = [...classes.keys()][0] as string;
    const cards = await get(server(1), reportUrl(form));
    expect(cards.status).toBe(200);
    await expectEveryCard(Buffer.from(await cards.arrayBuffer()), classes.get(form) ?? []);

    // Every save was acknowledged or refused as an outage (503, worth another try), never a fault.
    const byStatus = new Map<number, Save[]>();
    for (const save of saves) byStatus.set(save.status, [...(byStatus.get(save.status) ?? []), save]);
    const odd = saves.find((save) => save.status !== 200 && save.status !== 503);
    expect(odd, odd && `${odd.status} on ${odd.on}: ${odd.body}`).toBeUndefined();
    for (const refused of byStatus.get(503) ?? [])
      expect(JSON.parse(refused.body)).toEqual({ statusCode: 503, message: ERROR_MESSAGES[503] });
    // Saves went on after each restart.
    for (const outage of outages)
      expect(
        saves.some((save) => save.status === 200 && save.at > outage.back),
        outage.what,
      ).toBe(true);

    const stored = await topology.query<{
      save_id: string | null;
      student_id: string;
      subject_id: string;
      marktype_id: string;
      mark: number | null;
    }>(
      `SELECT m.student_id, m.subject_id, m.marktype_id, m.mark::float AS mark FROM marks m JOIN tenants t ON t.id = m.tenant_id
        WHERE t.tenantcode = $1 AND m.term = $2 AND m.year = $3 AND m.paper = 'I' AND m.subject_id = ANY($4)`,
      [SCHOOL, term, year, subjects],
    );
    const kept = new Set((await topology.query<{ save_id: string }>('SELECT save_id FROM mark_saves')).map((row) => row.save_id));
    const value = new Map(stored.map((row) => [`${row.subject_id}/${row.marktype_id}/${row.student_id}`, row.mark]));
    const written = (save: Save) =>
      save.cell.marktypes
        .slice(0, 2)
        .map((marktype, index) => value.get(`${save.cell.subject_id}/${marktype}/${save.cell.student_id}`) === save.values[index]);
    // Acknowledged: kept, both cells. Refused: both cells or neither, never half a save.
    const lost = (byStatus.get(200) ?? []).filter((save) => !kept.has(save.save_id) || !written(save).every(Boolean));
    const half = (byStatus.get(503) ?? []).filter((save) => new Set(written(save)).size > 1 || written(save)[0] !== kept.has(save.save_id));
    const detail = [...lost, ...half].map((save) => ({ ...save, cell: undefined, written: written(save), kept: kept.has(save.save_id) }));
    expect({ lost: lost.length, half: half.length }, JSON.stringify(detail).slice(0, 2000)).toEqual({ lost: 0, half: 0 });
    // Per outage: how long until both servers were ready again, and the saves answered in it (refused / acknowledged).
    const during = (each: (typeof outages)[number], status: number) =>
      saves.filter((save) => save.status === status && save.at >= each.down && save.at <= each.back).length;
    const outage = outages
      .map((each) => `${each.what} ${each.back - each.down} ms: ${during(each, 503)} refused, ${during(each, 200)} acknowledged`)
      .join('; ');
    console.info(
      `restarts under load (${outage}): ${byStatus.get(200)?.length ?? 0} saves acknowledged, ${byStatus.get(503)?.length ?? 0} refused with 503`,
    );
  }, 90_000);

  /**
   * Stops the worker drawing `work`'s document(s) while it holds a job: once the progress (under
   * `token`, asked of the second server) is under way, the drawing worker is frozen (SIGSTOP) and,
   * if it holds a job then, sent `signal` (SIGKILL: a machine lost; SIGTERM: its supervisor
   * stopping it, given to the worker's own process as `docker stop` does); between two jobs it goes
   * on and is frozen again a moment later. The other worker is frozen meanwhile, so the one stopped
   * is the one drawing and nothing changes hands while the test looks. (A frozen worker may still
   * swallow Redis's wake-up for a new job, so the drawing one can start it only at its next poll:
   * up to BullMQ's five seconds later, which the timings below include.) Answers the work's answer,
   * the jobs the stopped worker held and how it ended; a replacement is started for the tests after.
   */
  async function stopMidJob<T>(token: string, work: () => Promise<T>, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') {
    const [drawing, other] = topology.workers as [JobWorker, JobWorker];
    const started = Date.now();
    let midway = { done: 0, total: 0 };
    let inHand: string[] = [];
    let killedAt = 0;
    const { pending } = await frozen(other, async () => {
      const pending = work();
      let settled: unknown;
      void pending.then((value) => {
        settled = value;
      });
      const underWay = async () => {
        // Ended before it was under way: no worker to kill, and nothing this test can prove.
        if (settled !== undefined) throw new Error(`ended before it was under way: ${JSON.stringify(settled).slice(0, 500)}`);
        const progress = await get(server(1), `/api/school/terminalreport/progress?token=${token}`);
        const now = (await progress.json()) as { done: number; total: number };
        return now.done > 0 && now.done < now.total ? now : undefined;
      };
      const deadline = Date.now() + 30_000;
      while (inHand.length === 0) {
        if (Date.now() > deadline) throw new Error('no job was ever in hand while the document was under way');
        const now = await underWay();
        if (!now) {
          await sleep(20);
          continue;
        }
        midway = now;
        inHand = await frozen(drawing, async () => {
          const held = await withRedis((redis) => redis.lrange(`${topology.redisPrefix}:${DOCUMENTS_QUEUE}:active`, 0, -1));
          if (held.length > 0 && signal === 'SIGKILL') {
            topology.kill(drawing);
            await waitForExit(drawing.child, 5_000);
          }
          // Pending while it is frozen: delivered (and relayed by tsx to the worker) once it goes on.
          if (held.length > 0 && signal === 'SIGTERM') drawing.child.kill('SIGTERM');
          return held;
        });
      }
      killedAt = Date.now();
      // Wrapped, not awaited here: the work ends only once the other worker goes on.
      return { pending };
    });
    const answer = await pending;
    const report =
      `${drawing.name} sent ${signal} holding ${inHand.length} job(s) at ${midway.done} of ${midway.total}, ${killedAt - started} ms in; ` +
      `answered ${Date.now() - killedAt} ms later (job lock ${JOB_LOCK_SECONDS} s)`;
    const exit = await waitForExit(drawing.child, 30_000);
    topology.kill(drawing);
    await topology.startWorker();
    return { answer, stopped: drawing, exit, other, inHand, report };
  }

  /** `work` while `worker` is stopped (SIGSTOP: it holds its connections and takes nothing), then it goes on (unless killed meanwhile). */
  async function frozen<T>(worker: JobWorker, work: () => Promise<T>): Promise<T> {
    const group = -(worker.child.pid as number);
    process.kill(group, 'SIGSTOP');
    try {
      return await work();
    } finally {
      if (worker.running()) process.kill(group, 'SIGCONT');
    }
  }

  /** Asks the second server to e-mail a class's cards, each to its learner's guardian. */
  async function mailCards(form: string, token: string) {
    const response = await fetch(`${server(1).url}/api/school/terminalreport/email`, {
      method: 'POST',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ form, term, year, progress: token }),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, body: await response.text() };
  }

  /** The school's report-card messages in the outbox. */
  async function outboxRows(): Promise<number> {
    const [row] = await topology.query<{ rows: number }>(
      `SELECT count(*)::int AS rows FROM mail_outbox o JOIN tenants t ON t.id = o.tenant_id WHERE t.tenantcode = $1 AND o.template = 'reportCard'`,
      [SCHOOL],
    );
    return row?.rows ?? 0;
  }

  /** A short connection to the installation's Redis, to read what the jobs left there. */
  async function withRedis<T>(read: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis(topology.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      return await read(redis);
    } finally {
      redis.disconnect();
    }
  }

  /**
   * Every card of a class is in the PDF: each learner's name on a line of its own (a name may be
   * part of another, "Doreen Kirabo" of "Joan Doreen Kirabo") as often as the class has learners of that name.
   */
  async function expectEveryCard(pdf: Buffer, names: string[]) {
    expect(names.length).toBeGreaterThan(0);
    const lines = new Map<string, number>();
    for (const line of (await pdfText(pdf)).split('\n')) lines.set(line.trim(), (lines.get(line.trim()) ?? 0) + 1);
    const expected = new Map<string, number>();
    for (const name of names) expected.set(name, (expected.get(name) ?? 0) + 1);
    const wrong = [...expected].filter(([name, count]) => lines.get(name) !== count);
    expect(wrong.map(([name, count]) => `${name}: ${lines.get(name) ?? 0} of ${count}`)).toEqual([]);
  }
});

/** The text of a PDF as pdftotext reads it (poppler-utils). */
async function pdfText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'topology-'));
  try {
    const file = path.join(folder, 'cards.pdf');
    await writeFile(file, bytes);
    return (await promisify(execFile)('pdftotext', [file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The jobs a worker says it finished (its log lines, jobs/worker-process.ts). */
function finishedJobs(worker: JobWorker): string[] {
  return worker.output.stdout().match(/^.*"document job done".*$/gm) ?? [];
}
