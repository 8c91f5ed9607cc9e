/**
 * Mustard at scale (issue 30; docs/DEPLOY.md, "Sizing, measured"): the installation as it runs
 * for many schools, every process real.
 *
 *   (a) The demo schools' report cards (every class of both schools, each class one PDF asked of
 *       the API, every class at once) drawn by one worker, then by two: cards a second each, and
 *       the ratio. The installation is the topology harness's (operations/topology.ts): a private
 *       PostgreSQL and Redis, one app server (server.ts) and the workers (`mustard worker`), real
 *       processes. The admission limits are raised so every class is admitted at once and the
 *       workers, not the admission, set the pace.
 *   (b) Another school (one of its own, not printing) calling the API one call after another
 *       while the cards print (its profile and its class list): p95, beside the same calls with
 *       nothing printing, measured first in the same run.
 *   (c) Exam week's marks load (marks-load.ts: its teachers, grids, saves and check) with two app
 *       servers on one PostgreSQL against one: saves a second and p95 each, each teacher's
 *       requests on one server (as a balancer spreads people), on the shared PostgreSQL of the
 *       other benchmarks.
 *
 * Budgets only where a loaded 2-core machine holds them every time: no request fails, every card
 * arrives complete (a PDF with a page for each learner), every mark saved is in the database. The
 * speeds are printed with their ratios, not held: on two cores shared by PostgreSQL, Redis, the
 * servers, the workers and the load, a second worker or server has no core of its own to use.
 *
 *   tsx bench/scale.ts [--quick]
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultTermDates, localDay, students, TENANT_HEADER } from '@mustard/shared';
import { Redis } from 'ioredis';
import type { Database } from '../apps/server/src/db/connect.js';
import { withTenant, withTenantTx } from '../apps/server/src/db/tenant.js';
import { documentWorkersKey } from '../apps/server/src/jobs/documents.js';
import { curriculumSettings } from '../apps/server/src/modules/settings/class-curricula.repository.js';
import { postgresBinDir } from '../apps/server/src/operations/private-postgres.js';
import { DEMO_PASSWORD, startTopology, type Topology } from '../apps/server/src/operations/topology.js';
import { DEMO_ADMIN_EMAIL, seedDemo } from '../apps/server/src/seed/demo.js';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { makeUser } from '../apps/server/src/test/factories.js';
import { TEST_PASSWORD } from '../apps/server/src/test/test-app.js';
import { percentile, percentiles } from './latency.js';
import { ARRIVAL_MS, checkMarks, type Desk, PAUSE_MS, signIn, startServer, teach } from './marks-load.js';
import { makeGridSchool } from './marks-school.js';
import { benchDatabase, POSTGRES, postgresReachable } from './postgres.js';

const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));
const REQUEST_TIMEOUT_MS = 120_000;

/** One class's cards, as the page asks for them. */
interface ClassCards {
  tenantcode: string;
  form: string;
  stream: string;
  learners: number;
  url: string;
}

/** What the seed leaves for the measurement: the demo's classes, and the other school's head teacher. */
interface Printing {
  classes: ClassCards[];
  other: { email: string; tenantcode: string; form: string };
}

/** The demo, and a school of its own that does not print: what (a) and (b) need, made as the app role. */
async function seedPrinting(database: Database, into: Partial<Printing>): Promise<void> {
  await seedDemo(database, DEMO_PASSWORD);
  const { term, year } = marksTerm(localDay(), defaultTermDates);
  const schools = await database.db
    .selectFrom('tenants')
    .select(['id', 'tenantcode'])
    .where('tenantcode', 'in', ['demo-primary', 'demo-secondary'])
    .orderBy('tenantcode')
    .execute();
  const classes: ClassCards[] = [];
  for (const school of schools) {
    const rows = await withTenant(database.db, { tenantId: school.id }, (trx) =>
      trx
        .selectFrom('students')
        .select(['form', 'stream', (eb) => eb.fn.countAll<number>().as('count')])
        .where('status', '=', 'active')
        .groupBy(['form', 'stream'])
        .orderBy('form')
        .orderBy('stream')
        .execute(),
    );
    const { isNew } = await withTenantTx(database.db, { tenantId: school.id }, (tx) => curriculumSettings(tx, year));
    const endOfTerm = await withTenant(database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('mark_types').select('id').where('label', '=', 'EOT').executeTakeFirstOrThrow(),
    );
    for (const { form, stream, count } of rows) {
      const query = new URLSearchParams({ form, stream: stream ?? '', term, year: String(year) });
      // A new-curriculum class's card is the new card (S1 to S4 of the secondary demo), with its
      // end-of-term exam as the summative, its topics and its comments, as the page asks by default.
      if (isNew(form))
        for (const [key, value] of Object.entries({ marktype_id: endOfTerm.id, topics: '1', comments: '1' })) query.set(key, value);
      const path = isNew(form) ? '/api/school/ncterminalreport' : '/api/school/terminalreport';
      classes.push({ tenantcode: school.tenantcode, form, stream: stream ?? '', learners: Number(count), url: `${path}?${query}` });
    }
  }
  const other = await makeGridSchool(database, {
    name: 'Bench Other School',
    classes: [{ form: 'P5', stream: 'East' }],
    learners: 80,
    subjects: 5,
  });
  const head = await makeUser(database, { name: 'Other Head', memberOf: [{ tenantId: other.id, roles: ['headteacher'] }] });
  into.classes = classes;
  into.other = { email: head.email, tenantcode: other.tenantcode, form: 'P5' };
}

async function signInAt(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password } }),
  });
  const token = response.headers.get('authorization');
  await response.arrayBuffer();
  if (response.status !== 200 || !token) throw new Error(`sign-in of ${email}: ${response.status}`);
  return token.replace(/^Bearer /, '');
}

/** The pages of a PDF: pdfkit writes each page's dictionary uncompressed. */
function pagesOf(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
}

interface Round {
  seconds: number;
  cards: number;
  classes: number;
  /** Classes answered whole: a PDF with at least a page for each learner. */
  complete: number;
  /** Answers that were not a PDF (with the first few). */
  failures: string[];
  /** 503s answered (a full admission): asked again after their Retry-After. */
  retried: number;
  /** The other school's calls meanwhile, in ms. */
  other: number[];
  /** The other school's calls that failed meanwhile (a status other than 200, or no answer). */
  otherFailures: string[];
  /** How many of the round's documents each worker drew, by the worker's id. */
  drawnBy: Map<string, number>;
}

/** Which worker drew each document so far (job id -> worker), as the workers record it in Redis. */
async function documentsDrawn(topology: Topology): Promise<Record<string, string>> {
  const redis = new Redis(topology.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await redis.hgetall(documentWorkersKey(topology.redisPrefix));
  } finally {
    redis.disconnect();
  }
}

/** Every class's cards asked at once (each again after a 503's Retry-After), while the other school calls the API. */
async function printRound(topology: Topology, token: string, printing: Printing, otherToken: string): Promise<Round> {
  const origin = (topology.servers[0] as { url: string }).url;
  const before = await documentsDrawn(topology);
  const failures: string[] = [];
  let retried = 0;
  let complete = 0;
  const other: number[] = [];
  let printingNow = true;
  const otherFailures: string[] = [];
  const otherCalls = otherSchoolCalls(origin, otherToken, printing.other, () => printingNow, other, otherFailures);
  const started = performance.now();
  await Promise.all(
    printing.classes.map(async (cards) => {
      for (;;) {
        const response = await fetch(`${origin}${cards.url}`, {
          headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: cards.tenantcode },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        }).catch((error: unknown) => ({ status: 0, error }) as const);
        if ('error' in response) {
          failures.push(`${cards.tenantcode} ${cards.form} ${cards.stream}: ${String(response.error)}`);
          return;
        }
        const body = Buffer.from(await response.arrayBuffer());
        if (response.status === 503) {
          retried++;
          const after = Number(response.headers.get('retry-after') ?? 1);
          await new Promise((resolve) => setTimeout(resolve, Math.min(after, 2) * 1000));
          continue;
        }
        const isPdf = response.status === 200 && body.subarray(0, 5).toString() === '%PDF-';
        if (!isPdf)
          failures.push(`${cards.tenantcode} ${cards.form} ${cards.stream}: ${response.status} ${body.subarray(0, 160).toString()}`);
        else if (pagesOf(body) >= cards.learners && body.includes('%%EOF')) complete++;
        else failures.push(`${cards.tenantcode} ${cards.form} ${cards.stream}: ${pagesOf(body)} pages for ${cards.learners} learners`);
        return;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  printingNow = false;
  await otherCalls;
  const cards = printing.classes.reduce((sum, each) => sum + each.learners, 0);
  const drawnBy = new Map<string, number>();
  for (const [job, worker] of Object.entries(await documentsDrawn(topology))) {
    if (!(job in before)) drawnBy.set(worker, (drawnBy.get(worker) ?? 0) + 1);
  }
  return { seconds, cards, classes: printing.classes.length, complete, failures, retried, other, otherFailures, drawnBy };
}

/** `count` rounds one after another, added up as one. */
async function printRounds(topology: Topology, token: string, printing: Printing, otherToken: string, count: number): Promise<Round> {
  const each: Round[] = [];
  for (let round = 0; round < count; round++) each.push(await printRound(topology, token, printing, otherToken));
  const drawnBy = new Map<string, number>();
  for (const round of each) for (const [worker, drawn] of round.drawnBy) drawnBy.set(worker, (drawnBy.get(worker) ?? 0) + drawn);
  return {
    seconds: each.reduce((sum, round) => sum + round.seconds, 0),
    cards: each.reduce((sum, round) => sum + round.cards, 0),
    classes: each.reduce((sum, round) => sum + round.classes, 0),
    complete: each.reduce((sum, round) => sum + round.complete, 0),
    failures: each.flatMap((round) => round.failures),
    retried: each.reduce((sum, round) => sum + round.retried, 0),
    other: each.flatMap((round) => round.other),
    otherFailures: each.flatMap((round) => round.otherFailures),
    drawnBy,
  };
}

/** The other school's head teacher at work: their profile, then their class list, one call after another while `going()`. */
async function otherSchoolCalls(
  origin: string,
  token: string,
  other: Printing['other'],
  going: () => boolean,
  into: number[],
  failures: string[],
): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, [TENANT_HEADER]: other.tenantcode };
  const urls = ['/api/users/profile', `${students.path}?form=${other.form}`];
  for (let call = 0; going(); call++) {
    const url = urls[call % urls.length] as string;
    const started = performance.now();
    // A failure is counted (a budget), not thrown: the round goes on, and the run names it.
    const status = await fetch(`${origin}${url}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      (error: unknown) => String(error),
    );
    if (status === 200) into.push(performance.now() - started);
    else {
      failures.push(`${url}: ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** (b)'s baseline: the other school's same calls for `ms` with nothing printing. */
async function otherSchoolAlone(origin: string, token: string, other: Printing['other'], ms: number): Promise<number[]> {
  const into: number[] = [];
  const failures: string[] = [];
  const until = performance.now() + ms;
  await otherSchoolCalls(origin, token, other, () => performance.now() < until, into, failures);
  if (failures.length > 0) throw new Error(`the other school's calls failed with nothing printing: ${failures.slice(0, 3).join(', ')}`);
  return into;
}

function printRoundLine(title: string, round: Round): void {
  console.log(
    `${title.padEnd(40)} ${round.cards.toLocaleString('en-US')} cards of ${round.classes} classes in ${round.seconds.toFixed(1)} s: ` +
      `${(round.cards / round.seconds).toFixed(1)} cards/s` +
      `; the classes drawn by each worker: ${[...round.drawnBy.values()].sort((a, b) => b - a).join(', ')}` +
      `${round.retried ? `  (${round.retried} asked again after a 503)` : ''}`,
  );
  for (const failure of round.failures.slice(0, 5)) console.log(`  failed: ${failure}`);
}

/** (a) and (b): the demo's cards with one worker, then two, and the other school meanwhile. */
export async function reportPrinting(quick: boolean): Promise<void> {
  // The demo printed whole this many times with each number of workers: a round takes seconds,
  // so a busy moment of the shared machine weighs less over several.
  const rounds = quick ? 1 : 3;
  const printing: Partial<Printing> = {};
  let topology: Topology | undefined;
  const startedAt = performance.now();
  try {
    topology = await startTopology({
      servers: 1,
      workers: 1,
      seed: (database) => seedPrinting(database, printing),
      // Every class of both schools admitted at once: the workers set the pace, not the admission.
      env: { PDF_QUEUE_PER_SCHOOL: '32', PDF_QUEUE_TOTAL: '64', AUTH_RATE_LIMIT_PER_MINUTE: '10000' },
      // A worker says at info when it takes jobs (jobs/worker-process.ts); it is counted as started then.
      workerEnv: { LOG_LEVEL: 'info' },
      workerReady: /job worker \S+ started/,
    });
    const seeded = printing as Printing;
    const origin = (topology.servers[0] as { url: string }).url;
    const token = await signInAt(origin, DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
    const otherToken = await signInAt(origin, seeded.other.email, TEST_PASSWORD);
    console.log(
      `an installation of 1 app server and 1 worker on a private PostgreSQL and Redis, the demo seeded: ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
    );
    // Warm: the server's and each worker's first reports of each kind (their modules, the pool's
    // threads, the fonts): a few classes of each, so that every worker draws some.
    const warm = [
      ...seeded.classes.filter((each) => each.url.includes('/terminalreport')).slice(0, 3),
      ...seeded.classes.filter((each) => each.url.includes('/ncterminalreport')).slice(0, 3),
    ];
    await printRound(topology, token, { ...seeded, classes: warm }, otherToken);

    const alone = await otherSchoolAlone(origin, otherToken, seeded.other, quick ? 2000 : 5000);
    const one = await printRounds(topology, token, seeded, otherToken, rounds);
    await topology.startWorker();
    await printRound(topology, token, { ...seeded, classes: warm }, otherToken);
    const two = await printRounds(topology, token, seeded, otherToken, rounds);
    topology.assertAllRunning();

    console.log('');
    printRoundLine('1 worker (baseline)', one);
    printRoundLine('2 workers', two);
    const ratio = two.cards / two.seconds / (one.cards / one.seconds);
    console.log(
      `2 workers / 1 worker = ${ratio.toFixed(2)}x the cards a second  (each worker draws on ${Math.max(1, availableParallelism() - 1)} thread(s); ` +
        `the machine's ${availableParallelism()} cores are shared by PostgreSQL, Redis, the server, the workers and this load: a measurement, not a budget)`,
    );
    const which = [50, 95, 99];
    // The slowest call too: a call queued behind the classes' reads (the server's thread and its
    // pool of connections) shows there first.
    const line = (title: string, ms: number[]) =>
      console.log(
        `${title.padEnd(64)} ${percentiles(ms, which)}  max ${Math.max(...ms)
          .toFixed(0)
          .padStart(5)} ms`,
      );
    line(`another school's calls, nothing printing (baseline, ${alone.length})`, alone);
    line(`the same while 1 worker prints (${one.other.length})`, one.other);
    line(`the same while 2 workers print (${two.other.length})`, two.other);
    const p95 = (ms: number[]) => percentile(ms, 95);
    console.log(
      `another school's p95 while printing / alone: ${(p95(one.other) / p95(alone)).toFixed(1)}x with 1 worker, ${(p95(two.other) / p95(alone)).toFixed(1)}x with 2`,
    );
    const otherFailures = [...one.otherFailures, ...two.otherFailures];
    console.log(
      `\nanother school's calls failed while printing = ${otherFailures.length}${otherFailures.length ? ` (${otherFailures.slice(0, 3).join(', ')})` : ''}  (target 0: ${met(otherFailures.length === 0)})`,
    );
    const failures = one.failures.length + two.failures.length;
    const complete = one.complete === one.classes && two.complete === two.classes;
    console.log(`cards failed = ${failures}  (target 0: ${met(failures === 0)})`);
    console.log(
      `every class's cards complete (a page or more for each learner): ${one.complete + two.complete} of ${one.classes + two.classes}  (${met(complete)})`,
    );
  } finally {
    await topology?.stop();
  }
}

/** One turn of exam week on `origins` (each teacher on one of them, in turn): its desks and seconds. */
async function examWeekTurn(
  origins: string[],
  teachers: Awaited<ReturnType<typeof startServer>>['teachers'],
  place: { term: string; year: number },
  seconds: number,
): Promise<{ desks: Desk[]; seconds: number }> {
  const groups = origins.map((origin, index) => ({ origin, teachers: teachers.filter((_, i) => i % origins.length === index) }));
  // Signed in on their own server, before the clock (each server signs its own sessions here).
  const signedIn = await Promise.all(
    groups.map(async (group) => ({ origin: group.origin, desks: await signIn(group.origin, group.teachers) })),
  );
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    signedIn.flatMap(({ origin, desks }) =>
      desks.map((desk) =>
        teach(origin, desk, place, { arriveMs: between(0, ARRIVAL_MS), pause: PAUSE_MS, until, saves: Number.POSITIVE_INFINITY }),
      ),
    ),
  );
  const desks = signedIn.flatMap((group) => group.desks);
  return { desks, seconds: (Math.max(...desks.map((desk) => desk.lastAnswerAt)) - started) / 1000 };
}

/** (c) Exam week with one app server, then two, on one PostgreSQL. */
export async function reportServers(quick: boolean): Promise<void> {
  const teachers = quick ? 40 : 200;
  const seconds = quick ? 6 : 60;
  console.log(
    `\nExam week with two app servers on one PostgreSQL against one: ${teachers} teachers saving with ${PAUSE_MS[0] / 1000} to ${PAUSE_MS[1] / 1000} s pauses for ${seconds} s a turn`,
  );
  const name = `mustard_bench_scale_${process.pid}`;
  const { appUrl, drop } = await benchDatabase(name);
  try {
    // Both started together (each spends its first seconds compiling the sources); the second, the
    // same code on the same database with no schools of its own to make, waits idle for the second turn.
    const servers = await Promise.all([startServer(appUrl, teachers), startServer(appUrl, 0)]);
    const first = servers[0];
    try {
      const place = { term: first.term, year: first.year };
      const one = await examWeekTurn([`http://127.0.0.1:${first.port}`], first.teachers, place, seconds);
      const two = await examWeekTurn(
        servers.map((server) => `http://127.0.0.1:${server.port}`),
        first.teachers,
        place,
        seconds,
      );
      const turns = [
        { title: '1 app server (baseline)', ...one },
        { title: '2 app servers', ...two },
      ].map((turn) => {
        const saves = turn.desks.flatMap((desk) => desk.saves);
        const every = [...turn.desks.flatMap((desk) => desk.loads), ...saves];
        const errors = turn.desks.flatMap((desk) => desk.errors);
        const failedSaves = errors.filter((error) => error.startsWith('save ')).length;
        return { ...turn, saves, every, errors, savesPerSecond: (saves.length - failedSaves) / turn.seconds };
      });
      for (const turn of turns) {
        console.log(
          `${turn.title.padEnd(26)} ${turn.savesPerSecond.toFixed(1).padStart(6)} saves/s  ${percentiles(turn.every, [50, 95, 99])}` +
            `  (${turn.saves.length.toLocaleString('en-US')} saves, ${turn.errors.length} errors)`,
        );
      }
      const [alone, both] = turns as [(typeof turns)[number], (typeof turns)[number]];
      console.log(
        `2 servers / 1 server = ${(both.savesPerSecond / alone.savesPerSecond).toFixed(2)}x the saves a second, ` +
          `${(percentile(both.every, 95) / percentile(alone.every, 95)).toFixed(2)}x the p95 ` +
          '(the teachers pause between saves: the saves a second are what they ask, the p95 is what the servers give)',
      );
      // Every teacher of the second turn loaded their grid as the first turn left it: its cells are
      // every mark's last value. The history holds both turns' changes.
      const check = await checkMarks(name, two.desks, place);
      check.historyExpected = [...one.desks, ...two.desks].reduce((sum, desk) => sum + desk.marksWritten, 0);
      const errors = alone.errors.length + both.errors.length;
      console.log(`\nerrors = ${errors}  (target 0: ${met(errors === 0)})`);
      const allThere =
        check.present === check.expected && check.missing + check.wrong + check.extra === 0 && check.history === check.historyExpected;
      console.log(
        `every mark saved in the database, both turns: ${check.present.toLocaleString('en-US')} of ${check.expected.toLocaleString('en-US')}, ` +
          `${check.history.toLocaleString('en-US')} changes of ${check.historyExpected.toLocaleString('en-US')}  (${met(allThere)})`,
      );
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await drop();
  }
}

/** Prints the lines of `npm run bench` for the installation at scale. */
export async function reportScale(quick: boolean): Promise<void> {
  console.log('\nScale: an installation of app servers and workers on PostgreSQL and Redis (docs/DEPLOY.md)');
  if (!(await postgresReachable())) {
    console.log(`skipped: no PostgreSQL at ${POSTGRES.host} (TEST_DATABASE_URL)`);
    return;
  }
  if (spawnSync('redis-server', ['--version']).status !== 0 || !postgresBinDir()) {
    console.log(
      'the cards with 1 and 2 workers skipped: no redis-server or PostgreSQL binaries (initdb) to start a private installation with',
    );
  } else {
    await reportPrinting(quick);
  }
  await reportServers(quick);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportScale(process.argv.includes('--quick'));
