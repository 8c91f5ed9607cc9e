/**
 * Exam week on PostgreSQL (issue 14): 200 simulated teachers, each a distinct user with the
 * teacher role and a subject assignment, each with a grid of their own (a class of 60 learners
 * by BOT, MOT and EOT in one subject), against the real server in its own process (so the load
 * does not share its event loop) on a fresh database. Every teacher signs in before the clock;
 * on the clock each arrives within the first 5 s, loads their grid, then saves 10 to 60 changed
 * marks (numbers, a few ABS, a few cleared) with the versions of the last answer, pausing 2 to
 * 5 s between saves, for 60 s. The baseline, in the same run: one more teacher saving alone,
 * with no pauses, before the others start.
 *
 * Targets: p95 < 500 ms and p99 < 1 s over every request, no errors, and afterwards every mark
 * each teacher last saved in the database with its value (none missing, none extra), every
 * change in the history. Prints the saves a second reached. Throws on errors or missing marks.
 *
 *   tsx bench/marks-load.ts [--quick]                  the report (50 teachers for 15 s with --quick)
 *   tsx bench/marks-load.ts --serve <url> <teachers>   the server, with its schools; prints one JSON line
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type MarksGrid, type MarksSaved, type MarkValue, sameMark, type TERMS } from '@mustard/shared';
import type { Insertable } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import type { DB } from '../apps/server/src/db/types.js';
import { makeUser } from '../apps/server/src/test/factories.js';
import { TEST_PASSWORD, testConfig } from '../apps/server/src/test/test-app.js';
import { percentile, percentiles } from './latency.js';
import { makeGridSchool, markingTerm, storedMark } from './marks-school.js';
import { benchDatabase, POSTGRES, postgresReachable, withAdmin } from './postgres.js';

/** A school of the load: four classes of 60 and five subjects, so 20 grids, one a teacher. */
const CLASSES = [
  { form: 'P5', stream: 'East' },
  { form: 'P5', stream: 'West' },
  { form: 'P6', stream: 'East' },
  { form: 'P6', stream: 'West' },
] as const;
const SUBJECTS = 5;
const LEARNERS = 60;
export const ARRIVAL_MS = 5000;
/** Saves sent this long after the clock started are past the arrivals' rush (printed apart, for the record). */
const SETTLED_MS = 10_000;
export const PAUSE_MS = [2000, 5000] as const;
const CHANGED = [10, 60] as const;
const SIGN_IN_AT_ONCE = 4;
const BASELINE_SAVES = 20;
const TARGET_P95_MS = 500;
const TARGET_P99_MS = 1000;
const REQUEST_TIMEOUT_MS = 30_000;

interface TeacherInfo {
  email: string;
  tenantId: string;
  tenantcode: string;
  form: string;
  stream: string;
  subject_id: string;
  marktypes: string[];
}

interface Served {
  port: number;
  term: (typeof TERMS)[number];
  year: number;
  schools: number;
  setupSeconds: number;
  teachers: TeacherInfo[];
}

/* The server's side: the schools, the teachers and their assignments, then the app listening. */

type NewSubjectTeacher = Insertable<DB['subject_teachers']>;

async function serve(databaseUrl: string, teachers: number): Promise<void> {
  const started = performance.now();
  const config = testConfig({ databaseUrl });
  const database = await openDatabase(config, { migrate: false });
  const app = await buildApp(config, database, { logger: false });
  const { term, year } = markingTerm();
  const people: TeacherInfo[] = [];
  let schools = 0;
  while (people.length < teachers) {
    const school = await makeGridSchool(database, {
      name: `Bench School ${++schools}`,
      classes: CLASSES,
      learners: LEARNERS,
      subjects: SUBJECTS,
    });
    const assignments: NewSubjectTeacher[] = [];
    for (let j = 0; j < CLASSES.length * SUBJECTS && people.length < teachers; j++) {
      const { form, stream } = school.classes[j % CLASSES.length] as { form: string; stream: string };
      const subject = school.subjects[Math.floor(j / CLASSES.length)] as string;
      const user = await makeUser(database, {
        name: `Teacher ${people.length + 1}`,
        memberOf: [{ tenantId: school.id, roles: ['teacher'] }],
      });
      assignments.push({ tenant_id: school.id, id: newId(), user_id: user.id, subject_id: subject, form, stream, term, year });
      people.push({
        email: user.email,
        tenantId: school.id,
        tenantcode: school.tenantcode,
        form,
        stream,
        subject_id: subject,
        marktypes: school.marktypes,
      });
    }
    await withTenant(database.db, { tenantId: school.id }, (trx) => trx.insertInto('subject_teachers').values(assignments).execute());
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const served: Served = { port, term, year, schools, setupSeconds: (performance.now() - started) / 1000, teachers: people };
  console.log(JSON.stringify(served));

  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

/** Starts the server (this file with --serve) and reads what it prints. */
export async function startServer(databaseUrl: string, teachers: number) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'tsx'),
    [fileURLToPath(import.meta.url), '--serve', databaseUrl, String(teachers)],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the marks load server exited with ${code}`)));
  });
  const served = JSON.parse(firstLine) as Served;
  /** Stops the server and waits until it has let go of its database. */
  const stop = async () => {
    const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    child.kill('SIGTERM');
    await exited;
  };
  return { ...served, stop };
}

/* The teachers' side. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

interface Answer {
  status: number;
  ms: number;
  text: string;
}

/** One POST as the browser sends it, timed from sending to the answer's last byte. */
async function post(origin: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  try {
    const response = await fetch(`${origin}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const answer = { status: response.status, ms: performance.now() - started, text };
    if (url === '/auth/login') answer.text = response.headers.get('authorization') ?? '';
    return answer;
  } catch (error) {
    return { status: 0, ms: performance.now() - started, text: String(error) };
  }
}

interface Cell {
  marktype: string;
  student: string;
  value: MarkValue;
  version: number;
}

/** What one teacher has: their grid's cells as last saved (or loaded), and what their requests took. */
export interface Desk {
  teacher: TeacherInfo;
  token: string;
  cells: Cell[];
  loads: number[];
  saves: number[];
  /** When each save was sent (performance.now()), beside its time in `saves`. */
  savesSent: number[];
  marksWritten: number;
  errors: string[];
  /** When the last answer to a save came (performance.now()). */
  lastAnswerAt: number;
}

/** A new value for a cell: mostly a number other than its own, now and then ABS, or cleared when it has one. */
function changed(value: MarkValue): MarkValue {
  const roll = Math.random();
  if (roll < 0.05 && value !== null) return null;
  if (roll < 0.1 && value !== 'ABS') return 'ABS';
  const mark = between(0, 100);
  return mark === value ? (mark + 1) % 101 : mark;
}

/**
 * A teacher at work: arrives after `arriveMs`, loads the grid, then until `until` (or for
 * `saves` saves) changes 10 to 60 marks and saves them, pausing `pause` between saves.
 */
export async function teach(
  origin: string,
  desk: Desk,
  place: { term: string; year: number },
  plan: { arriveMs: number; pause: readonly [number, number]; until: number; saves: number },
): Promise<void> {
  const { teacher } = desk;
  const headers = { authorization: `Bearer ${desk.token}`, tenantcode: teacher.tenantcode };
  const where = { form: teacher.form, stream: teacher.stream, ...place, paper: 'I', subject_id: teacher.subject_id };
  await sleep(plan.arriveMs);
  const load = await post(origin, '/api/school/marks/grid', { ...where, marktypes: teacher.marktypes }, headers);
  desk.loads.push(load.ms);
  if (load.status !== 200) {
    desk.errors.push(`grid ${load.status} ${load.text.slice(0, 200)}`);
    return;
  }
  const grid = JSON.parse(load.text) as MarksGrid;
  if (grid.students.length !== LEARNERS) desk.errors.push(`grid of ${grid.students.length} learners, not ${LEARNERS}`);
  desk.cells = grid.students.flatMap((row) =>
    teacher.marktypes.map((marktype) => ({
      marktype,
      student: row.student.id,
      value: row.marktypes[marktype]?.mark ?? null,
      version: row.marktypes[marktype]?.version ?? 0,
    })),
  );
  for (let save = 0; save < plan.saves && performance.now() < plan.until; save++) {
    // Distinct cells, as many as the teacher typed since the last save.
    const order = [...desk.cells];
    const count = between(...CHANGED);
    for (let i = 0; i < count; i++) {
      const j = between(i, order.length - 1);
      [order[i], order[j]] = [order[j] as Cell, order[i] as Cell];
    }
    const typed = order.slice(0, count).map((cell) => ({ cell, value: changed(cell.value) }));
    const marks: Record<string, Record<string, MarkValue>> = {};
    const base: Record<string, Record<string, number>> = {};
    for (const { cell, value } of typed) {
      marks[cell.marktype] = { ...marks[cell.marktype], [cell.student]: value };
      base[cell.marktype] = { ...base[cell.marktype], [cell.student]: cell.version };
    }
    desk.savesSent.push(performance.now());
    const answer = await post(origin, '/api/school/marks', { ...where, save_id: crypto.randomUUID(), marks, base }, headers);
    desk.saves.push(answer.ms);
    if (answer.status !== 200) desk.errors.push(`save ${answer.status} ${answer.text.slice(0, 200)}`);
    else {
      const saved = JSON.parse(answer.text) as MarksSaved;
      if (saved.saved !== typed.length) desk.errors.push(`a save of ${typed.length} changed marks wrote ${saved.saved}`);
      desk.marksWritten += saved.saved;
      for (const { cell, value } of typed) {
        const now = saved.marks[cell.marktype]?.[cell.student];
        if (!now || !sameMark(now.mark, value)) desk.errors.push(`the answer has ${now?.mark} where ${value} was sent`);
        else Object.assign(cell, { value: now.mark, version: now.version });
      }
    }
    desk.lastAnswerAt = performance.now();
    // A pause that would end after the clock ends the teacher's work here.
    const pause = between(...plan.pause);
    if (desk.lastAnswerAt + pause >= plan.until) break;
    if (pause > 0) await sleep(pause);
  }
}

/** Signs every teacher in, `SIGN_IN_AT_ONCE` at a time (each sign-in is an argon2 verification). */
export async function signIn(origin: string, teachers: readonly TeacherInfo[]): Promise<Desk[]> {
  const desks: Desk[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SIGN_IN_AT_ONCE }, async () => {
      while (next < teachers.length) {
        const teacher = teachers[next++] as TeacherInfo;
        const answer = await post(origin, '/auth/login', { user: { email: teacher.email, password: TEST_PASSWORD } });
        if (answer.status !== 200 || !answer.text) throw new Error(`sign-in of ${teacher.email}: ${answer.status}`);
        desks.push({
          teacher,
          token: answer.text.replace(/^Bearer /, ''),
          cells: [],
          loads: [],
          saves: [],
          savesSent: [],
          marksWritten: 0,
          errors: [],
          lastAnswerAt: 0,
        });
      }
    }),
  );
  return desks;
}

interface Check {
  expected: number;
  present: number;
  missing: number;
  wrong: number;
  extra: number;
  history: number;
  historyExpected: number;
}

/** Every mark in the database against what each teacher last saved: present with its value, nothing more; and the history. */
export async function checkMarks(database: string, desks: readonly Desk[], place: { term: string; year: number }): Promise<Check> {
  const key = (row: { tenant: string; subject: string; form: string; stream: string | null; marktype: string; student: string }) =>
    `${row.tenant}/${row.subject}/${row.form}/${row.stream}/${row.marktype}/${row.student}`;
  const expected = new Map<string, MarkValue>();
  for (const { teacher, cells } of desks)
    for (const cell of cells)
      if (cell.value !== null)
        expected.set(
          key({ tenant: teacher.tenantId, subject: teacher.subject_id, form: teacher.form, stream: teacher.stream, ...cell }),
          cell.value,
        );
  const { rows, history } = await withAdmin(database, async (db) => ({
    rows: await db
      .selectFrom('marks')
      .select(['tenant_id', 'subject_id', 'form', 'stream', 'marktype_id', 'student_id', 'mark', 'absent'])
      .where('term', '=', place.term)
      .where('year', '=', place.year)
      .execute(),
    history: Number(
      (
        await db
          .selectFrom('mark_history')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  }));
  const check: Check = {
    expected: expected.size,
    present: 0,
    missing: 0,
    wrong: 0,
    extra: 0,
    history,
    historyExpected: desks.reduce((sum, desk) => sum + desk.marksWritten, 0),
  };
  const seen = new Set<string>();
  for (const row of rows) {
    const at = key({
      tenant: row.tenant_id,
      subject: row.subject_id,
      form: row.form,
      stream: row.stream,
      marktype: row.marktype_id,
      student: row.student_id,
    });
    seen.add(at);
    if (!expected.has(at)) check.extra++;
    else if (sameMark(storedMark(row), expected.get(at) as MarkValue)) check.present++;
    else check.wrong++;
  }
  for (const at of expected.keys()) if (!seen.has(at)) check.missing++;
  return check;
}

/** Prints the lines of `npm run bench` for exam week; throws on errors or marks not as saved. */
export async function reportExamWeek(quick: boolean): Promise<void> {
  const teachers = quick ? 50 : 200;
  const seconds = quick ? 15 : 60;
  console.log(
    `\nExam week on PostgreSQL: ${teachers} teachers, each with a 60 × 3 grid of their own, saving ${CHANGED[0]} to ${CHANGED[1]} ` +
      `changed marks with ${PAUSE_MS[0] / 1000} to ${PAUSE_MS[1] / 1000} s pauses for ${seconds} s (the server in its own process)`,
  );
  if (!(await postgresReachable())) {
    console.log(`skipped: no PostgreSQL at ${POSTGRES.host} (TEST_DATABASE_URL)`);
    return;
  }
  const name = `mustard_bench_marks_load_${process.pid}`;
  const { appUrl, drop } = await benchDatabase(name);
  try {
    // One teacher more than the load: the baseline, saving alone before the others start.
    const server = await startServer(appUrl, teachers + 1);
    let desks: Desk[];
    let alone: Desk;
    let runSeconds: number;
    let clockStarted: number;
    let signInSeconds: number;
    const place = { term: server.term, year: server.year };
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      let started = performance.now();
      const everyone = await signIn(origin, server.teachers);
      signInSeconds = (performance.now() - started) / 1000;
      alone = everyone.find((desk) => desk.teacher === server.teachers[teachers]) as Desk;
      desks = everyone.filter((desk) => desk !== alone);
      await teach(origin, alone, place, { arriveMs: 0, pause: [0, 0], until: Number.POSITIVE_INFINITY, saves: BASELINE_SAVES });
      started = performance.now();
      clockStarted = started;
      const until = started + seconds * 1000;
      await Promise.all(
        desks.map((desk) =>
          teach(origin, desk, place, { arriveMs: between(0, ARRIVAL_MS), pause: PAUSE_MS, until, saves: Number.POSITIVE_INFINITY }),
        ),
      );
      // From the clock's start to the last answer: the saves a second over the time they took.
      runSeconds = (Math.max(...desks.map((desk) => desk.lastAnswerAt)) - started) / 1000;
    } finally {
      await server.stop();
    }

    const loads = desks.flatMap((desk) => desk.loads);
    const saves = desks.flatMap((desk) => desk.saves);
    const every = [...loads, ...saves];
    // Once every teacher has arrived and saved once: the steady state, apart from the arrivals' rush.
    const settled = desks.flatMap((desk) => desk.saves.filter((_, i) => (desk.savesSent[i] as number) - clockStarted >= SETTLED_MS));
    const errors = [...alone.errors, ...desks.flatMap((desk) => desk.errors)];
    const savesDone = saves.length - desks.reduce((sum, desk) => sum + desk.errors.filter((e) => e.startsWith('save ')).length, 0);
    const written = desks.reduce((sum, desk) => sum + desk.marksWritten, 0);
    const check = await checkMarks(name, [...desks, alone], place);

    console.log(
      `set up ${server.schools} schools of 4 classes of ${LEARNERS} and ${SUBJECTS} subjects, ${server.teachers.length} teachers: ${server.setupSeconds.toFixed(1)} s; ` +
        `every teacher signed in (${SIGN_IN_AT_ONCE} at a time, before the clock): ${signInSeconds.toFixed(1)} s`,
    );
    const which = [50, 95, 99];
    const line = (title: string, ms: number[]) => console.log(`${title.padEnd(52)} ${percentiles(ms, which)}`);
    line(`one teacher alone, ${BASELINE_SAVES} saves with no pauses (baseline)`, alone.saves);
    line(`loading a grid (${loads.length})`, loads);
    line(`saving (${saves.length.toLocaleString('en-US')})`, saves);
    line(`saving after the first ${SETTLED_MS / 1000} s (${settled.length.toLocaleString('en-US')})`, settled);
    line(`every request (${every.length.toLocaleString('en-US')})`, every);
    console.log(
      `\nsaves/s reached: ${(savesDone / runSeconds).toFixed(1)}  (${savesDone.toLocaleString('en-US')} saves in ${runSeconds.toFixed(1)} s, ` +
        `${(written / runSeconds).toFixed(0)} marks written a second)`,
    );
    console.log(
      `in the database afterwards: ${check.present.toLocaleString('en-US')} of ${check.expected.toLocaleString('en-US')} marks as last saved, ` +
        `${check.missing} missing, ${check.wrong} with another value, ${check.extra} extra; ` +
        `${check.history.toLocaleString('en-US')} changes in the history of ${check.historyExpected.toLocaleString('en-US')} written`,
    );
    const p95 = percentile(every, 95);
    const p99 = percentile(every, 99);
    console.log(`\np95 = ${p95.toFixed(1)} ms  (target < ${TARGET_P95_MS} ms: ${p95 < TARGET_P95_MS ? 'met' : 'NOT MET'})`);
    console.log(`p99 = ${p99.toFixed(1)} ms  (target < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'NOT MET'})`);
    console.log(`errors = ${errors.length}  (target 0: ${errors.length === 0 ? 'met' : 'NOT MET'})`);
    const allThere = check.present === check.expected && check.missing + check.wrong + check.extra === 0;
    const historyWhole = check.history === check.historyExpected;
    console.log(`every mark in the database as saved: ${allThere && historyWhole ? 'met' : 'NOT MET'}`);
    if (errors.length > 0)
      throw new Error(`exam week: ${errors.length} errors, the first: ${[...new Set(errors)].slice(0, 5).join(' | ')}`);
    if (!allThere || !historyWhole)
      throw new Error(`exam week: the marks in the database are not the marks saved (${JSON.stringify(check)})`);
  } finally {
    await drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--serve') await serve(process.argv[3] as string, Number(process.argv[4]));
  else await reportExamWeek(process.argv.includes('--quick'));
}
