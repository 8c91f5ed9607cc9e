/**
 * The report pipeline's loader (issue 25 point 1): a whole school's term (13 classes, about
 * 1,000 learners, 10 subjects, BOT and EOT, S5 and S6 in two papers) read in one call, on
 * PostgreSQL and on the embedded database: its time (median) and its statements, beside the
 * same classes read one call each, grading the whole school (gradeClass) after it, and one
 * class's terminal report (about 80 learners: the grading inputs and every source a card
 * prints). Target: the whole school's term well under a second on PostgreSQL.
 *
 *   tsx bench/report-loader.ts [--quick]
 */
import { fileURLToPath } from 'node:url';
import { gradeClass, schoolTermScope, TerminalReportQuerySchema } from '@mustard/shared';
import { type Database, openDatabase } from '../apps/server/src/db/connect.js';
import { withTenantTx } from '../apps/server/src/db/tenant.js';
import { readKind } from '../apps/server/src/modules/reports/pipeline/kind.js';
import { gradingInputsOf, loadGradingInputs } from '../apps/server/src/modules/reports/pipeline/loader.js';
import { countingTx, makeMarkedSchool } from '../apps/server/src/modules/reports/pipeline/school-fixture.js';
import { terminalReportKind } from '../apps/server/src/modules/reports/terminal-report.kind.js';
import { testConfig } from '../apps/server/src/test/test-app.js';
import { benchDatabase, POSTGRES, postgresReachable } from './postgres.js';

const CLASSES = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6'];
const LEARNERS_PER_CLASS = 77;
const SUBJECTS = 10;
const TARGET_SCHOOL_SECONDS_POSTGRES = 0.5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Runs `work` `rounds` times after one warm-up: the median ms and the statements of one run. */
async function timed(database: Database, tenantId: string, rounds: number, work: Parameters<typeof withTenantTx>[2]) {
  const times: number[] = [];
  let statements = 0;
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now();
    await withTenantTx(database.db, { tenantId }, async (tx) => {
      const counting = countingTx(tx);
      await work(counting.tx);
      statements = counting.statements();
    });
    if (round > 0) times.push(performance.now() - started);
  }
  return { ms: median(times), statements };
}

async function measure(label: string, database: Database, quick: boolean): Promise<void> {
  const rounds = quick ? 3 : 15;
  const school = await makeMarkedSchool(database, {
    name: 'Loader Bench School',
    classes: CLASSES,
    learners: LEARNERS_PER_CLASS,
    subjects: SUBJECTS,
  });
  const scope = schoolTermScope(CLASSES, school.term, school.year);
  const whole = await timed(database, school.id, rounds, (tx) => loadGradingInputs(tx, scope));
  const perClass = await timed(database, school.id, rounds, async (tx) => {
    for (const form of CLASSES) await loadGradingInputs(tx, schoolTermScope([form], school.term, school.year));
  });
  const graded = await timed(database, school.id, rounds, async (tx) => {
    const load = await loadGradingInputs(tx, scope);
    for (const inputs of load.classes) gradeClass(inputs.learners, inputs.marks, gradingInputsOf(load, inputs, { rawmark: true }));
  });
  const query = TerminalReportQuerySchema.parse({ form: 'P7', term: school.term, year: school.year, json: '1' });
  const card = await timed(database, school.id, rounds, async (tx) =>
    terminalReportKind.build(await readKind(tx, terminalReportKind, query)),
  );
  const learners = CLASSES.length * LEARNERS_PER_CLASS;
  const target = label === 'PostgreSQL' ? TARGET_SCHOOL_SECONDS_POSTGRES * 1000 : null;
  console.log(
    `${`whole school's term, one call (${label})`.padEnd(52)} ${whole.ms.toFixed(0).padStart(6)} ms  ${String(whole.statements).padStart(4)} statements  (${CLASSES.length} classes, ${learners} learners${target ? `; target <= ${target} ms: ${whole.ms <= target ? 'met' : 'NOT MET'}` : ''})`,
  );
  console.log(
    `${`the same, one call a class (${label})`.padEnd(52)} ${perClass.ms.toFixed(0).padStart(6)} ms  ${String(perClass.statements).padStart(4)} statements`,
  );
  console.log(`${`whole school's term loaded and graded (${label})`.padEnd(52)} ${graded.ms.toFixed(0).padStart(6)} ms`);
  console.log(
    `${`one class's terminal report read and built (${label})`.padEnd(52)} ${card.ms.toFixed(0).padStart(6)} ms  ${String(card.statements).padStart(4)} statements  (${LEARNERS_PER_CLASS} learners, every source)`,
  );
}

export async function reportReportLoader(quick: boolean): Promise<void> {
  console.log('\nThe report loader: a whole school’s term (issue 25)');
  const embedded = await openDatabase(
    { dataDir: '', databaseUrl: undefined, databaseMigrateUrl: undefined },
    { migrate: true, inMemory: true },
  );
  try {
    await measure('embedded', embedded, quick);
  } finally {
    await embedded.close();
  }
  if (!(await postgresReachable())) {
    console.log(`PostgreSQL skipped: none at ${POSTGRES.host} (TEST_DATABASE_URL)`);
    return;
  }
  const bench = await benchDatabase(`mustard_bench_loader_${process.pid}`);
  try {
    const database = await openDatabase(testConfig({ databaseUrl: bench.appUrl }), { migrate: false, listen: false });
    try {
      await measure('PostgreSQL', database, quick);
    } finally {
      await database.close();
    }
  } finally {
    await bench.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportReportLoader(process.argv.includes('--quick'));
