/**
 * Saving a grid of marks (issue 14): a class of 60 learners by three mark types, 180 marks a
 * save, through the real route (POST /api/school/marks, app.inject) by a head teacher, beside one
 * plain multi-row INSERT of the same 180 rows into the marks table, committed (and deleted again
 * outside the clock), in the same process, round after round. Two kinds of save: a new grid
 * (180 new marks, a fresh subject each time) and the same grid saved again with every mark
 * changed (180 updates, from the versions of the previous answer). Also the grid's load, for
 * the record. Target: both saves' p95 <= 100 ms, on the embedded database and on PostgreSQL.
 *
 *   tsx bench/marks-save.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MarksSaved, TENANT_HEADER } from '@mustard/shared';
import { buildApp } from '../apps/server/src/app.js';
import type { Config } from '../apps/server/src/config.js';
import { type Database, openDatabase } from '../apps/server/src/db/connect.js';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import { makeUser } from '../apps/server/src/test/factories.js';
import { login, testConfig } from '../apps/server/src/test/test-app.js';
import { percentile, percentiles } from './latency.js';
import { makeGridSchool, markingTerm } from './marks-school.js';
import { benchDatabase, POSTGRES, postgresReachable } from './postgres.js';

const LEARNERS = 60;
const TARGET_P95_MS = 100;
/** Rounds before the measured ones, not counted (the first requests warm up the app and the database). */
const WARM_UP = 3;

export interface MarksSaveResult {
  rounds: number;
  insertMs: number[];
  loadMs: number[];
  newGridMs: number[];
  changedMs: number[];
}

/** `rounds` measured rounds of: the plain insert, the grid's load, a new grid's save, every mark of one grid changed. */
export async function measureMarksSave(config: Config, database: Database, rounds: number): Promise<MarksSaveResult> {
  const app = await buildApp(config, database, { logger: false });
  try {
    const { term, year } = markingTerm();
    // One subject for every new grid, one saved again and again, one for the plain inserts.
    const school = await makeGridSchool(database, {
      name: 'Bench Primary School',
      classes: [{ form: 'P5', stream: 'East' }],
      learners: LEARNERS,
      subjects: WARM_UP + rounds + 2,
    });
    const [again, inserted, ...fresh] = school.subjects as [string, string, ...string[]];
    const learners = school.classes[0]?.learners ?? [];
    const head = await makeUser(database, { name: 'Head Teacher', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const headers = { authorization: `Bearer ${await login(app, head.email)}`, [TENANT_HEADER]: school.tenantcode };
    const place = { form: 'P5', stream: 'East', term, year, paper: 'I' as const };

    const post = async (url: string, payload: object) => {
      const started = performance.now();
      const response = await app.inject({ method: 'POST', url, headers, payload });
      const ms = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`POST ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      return { ms, answer: response.json() };
    };
    /** Every cell of the grid a value of round `round`: each round changes all 180. */
    const values = (round: number) =>
      Object.fromEntries(
        school.marktypes.map((marktype, t) => [
          marktype,
          Object.fromEntries(learners.map((learner, l) => [learner, (round * 7 + (t * LEARNERS + l) * 13) % 101])),
        ]),
      );
    let base: Record<string, Record<string, number>> = {};
    const save = async (subject: string, round: number, withBase: Record<string, Record<string, number>>) => {
      const { ms, answer } = await post('/api/school/marks', {
        ...place,
        subject_id: subject,
        save_id: crypto.randomUUID(),
        marks: values(round),
        base: withBase,
      });
      const saved = answer as MarksSaved;
      if (saved.saved !== school.marktypes.length * LEARNERS) throw new Error(`a save wrote ${saved.saved} marks, not 180`);
      return { ms, saved };
    };
    const insert = async (round: number) => {
      const rows = Object.entries(values(round)).flatMap(([marktype, byLearner]) =>
        Object.entries(byLearner).map(([learner, mark]) => ({
          tenant_id: school.id,
          id: newId(),
          student_id: learner,
          subject_id: inserted,
          marktype_id: marktype,
          ...place,
          mark,
          topic_id: null,
          user_id: head.id,
        })),
      );
      const started = performance.now();
      await withTenant(database.db, { tenantId: school.id, userId: head.id }, (trx) => trx.insertInto('marks').values(rows).execute());
      const ms = performance.now() - started;
      await withTenant(database.db, { tenantId: school.id }, (trx) =>
        trx.deleteFrom('marks').where('tenant_id', '=', school.id).where('subject_id', '=', inserted).execute(),
      );
      return ms;
    };

    const result: MarksSaveResult = { rounds, insertMs: [], loadMs: [], newGridMs: [], changedMs: [] };
    for (let round = 0; round < WARM_UP + rounds; round++) {
      const counted = round >= WARM_UP;
      const insertMs = await insert(round);
      const load = await post('/api/school/marks/grid', { ...place, subject_id: again, marktypes: school.marktypes });
      if (load.answer.students?.length !== LEARNERS) throw new Error(`the grid has ${load.answer.students?.length} learners, not 60`);
      const created = await save(fresh[round] as string, round, {});
      const changed = await save(again, round, base);
      base = Object.fromEntries(
        Object.entries(changed.saved.marks).map(([marktype, byLearner]) => [
          marktype,
          Object.fromEntries(Object.entries(byLearner).map(([learner, cell]) => [learner, cell.version])),
        ]),
      );
      if (!counted) continue;
      result.insertMs.push(insertMs);
      result.loadMs.push(load.ms);
      result.newGridMs.push(created.ms);
      // The first save of `again` added its marks; every later one changes them all.
      result.changedMs.push(changed.ms);
    }
    return result;
  } finally {
    await app.close();
  }
}

function report(where: string, result: MarksSaveResult): void {
  console.log(`\nSaving a 60 × 3 grid (180 marks a save), ${where}, ${result.rounds} rounds`);
  const insertP95 = percentile(result.insertMs, 95);
  const line = (title: string, ms: number[], versus = true) =>
    console.log(
      `${title.padEnd(52)} ${percentiles(ms)}${versus ? `  (p95 ${(percentile(ms, 95) / insertP95).toFixed(1)}x the insert)` : ''}`,
    );
  line('one plain multi-row INSERT of 180 marks (baseline)', result.insertMs, false);
  line('POST /api/school/marks/grid (loading the grid)', result.loadMs);
  line('POST /api/school/marks, a new grid (180 new marks)', result.newGridMs);
  line('POST /api/school/marks, every mark changed', result.changedMs);
  const p95 = Math.max(percentile(result.newGridMs, 95), percentile(result.changedMs, 95));
  console.log(`\nsave p95 = ${p95.toFixed(1)} ms  (target <= ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? 'met' : 'NOT MET'})`);
}

/** Prints the lines of `npm run bench` for the grid's save, on the embedded database and on PostgreSQL. */
export async function reportMarksSave(quick: boolean): Promise<void> {
  // Twenty in a quick run: its p95 is then the second slowest, not the one slowest save of a busy moment.
  const rounds = quick ? 20 : 40;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-marks-'));
  try {
    const config = testConfig({ dataDir });
    const database = await openDatabase(config, { migrate: true });
    try {
      report('embedded database', await measureMarksSave(config, database, rounds));
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (!(await postgresReachable())) {
    console.log(`\nSaving a 60 × 3 grid on PostgreSQL skipped: no PostgreSQL at ${POSTGRES.host} (TEST_DATABASE_URL)`);
    return;
  }
  const { appUrl, drop } = await benchDatabase(`mustard_bench_marks_save_${process.pid}`);
  try {
    const config = testConfig({ databaseUrl: appUrl });
    const database = await openDatabase(config, { migrate: false });
    try {
      report('PostgreSQL', await measureMarksSave(config, database, rounds));
    } finally {
      await database.close();
    }
  } finally {
    await drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportMarksSave(process.argv.includes('--quick'));
