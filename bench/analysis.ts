/**
 * End-of-term analysis (issue 28): a whole school's term (13 classes of 77 learners, 10
 * subjects, BOT and EOT) on the embedded database, each part beside the terminal report's load
 * and grading of the same data measured in the same run:
 *
 *   - the result analysis of all classes, read and built (one pass of the loader);
 *   - every statistics category of all classes (the whole school's term read once, each category
 *     built from it as the page's "All classes" does; progress read with its term before);
 *   - the average mark sheet of the largest class, read and built.
 *
 * Time is the median of the rounds; memory is how far the process's peak resident size rose
 * during the part (getrusage's maxRSS), so a part that holds more than the baseline shows it.
 * Aims (not budgets: the machine is shared): the whole-school analysis within 3x the baseline's
 * load and grading, and no part raising the peak by more than 300 MB.
 *
 *   tsx bench/analysis.ts [--quick]
 */
import { fileURLToPath } from 'node:url';
import {
  AnalysisQuerySchema,
  AvgMarksheetQuerySchema,
  gradeClass,
  type StatisticsCategory,
  StatisticsQuerySchema,
  schoolTermScope,
  statisticsCategoriesFor,
} from '@mustard/shared';
import { type Database, openDatabase } from '../apps/server/src/db/connect.js';
import { withTenant, withTenantTx } from '../apps/server/src/db/tenant.js';
import { analysisKind } from '../apps/server/src/modules/reports/analysis.kind.js';
import { avgMarksheetKind } from '../apps/server/src/modules/reports/avg-marksheet/avg-marksheet.kind.js';
import { readKind } from '../apps/server/src/modules/reports/pipeline/kind.js';
import { gradingInputsOf, loadGradingInputs } from '../apps/server/src/modules/reports/pipeline/loader.js';
import { makeMarkedSchool } from '../apps/server/src/modules/reports/pipeline/school-fixture.js';
import { buildSchoolStatistics, statisticsKind } from '../apps/server/src/modules/reports/statistics/statistics.kind.js';

const CLASSES = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6'];
const LEARNERS_PER_CLASS = 77;
const SUBJECTS = 10;
/** Classes of the old curriculum's divisions (the analysis and statistics of O level). */
const OLD_CURRICULUM = ['S1', 'S2', 'S3', 'S4'];
const AIM_RATIO = 3;
const AIM_PEAK_MB = 300;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
/** The process's peak resident size so far, in MB (getrusage reports kilobytes). */
const peakMb = () => process.resourceUsage().maxRSS / 1024;

/** Runs `work` `rounds` times after one warm-up: the median ms, and how far the peak rose over all of them. */
async function timed(rounds: number, work: () => Promise<unknown>) {
  const before = peakMb();
  const times: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now();
    await work();
    if (round > 0) times.push(performance.now() - started);
  }
  return { ms: median(times), peakRise: peakMb() - before };
}

const line = (label: string, result: { ms: number; peakRise: number }, note = '') =>
  console.log(
    `${label.padEnd(56)} ${result.ms.toFixed(0).padStart(6)} ms  peak +${result.peakRise.toFixed(0).padStart(4)} MB${note ? `  ${note}` : ''}`,
  );

async function measure(database: Database, quick: boolean): Promise<void> {
  const rounds = quick ? 2 : 7;
  const school = await makeMarkedSchool(database, {
    name: 'Analysis Bench School',
    classes: CLASSES,
    learners: LEARNERS_PER_CLASS,
    subjects: SUBJECTS,
  });
  // S1-S4 graded by divisions here, this year and last (progress looks back a term): a secondary school's default is the new curriculum for them.
  await withTenant(database.db, { tenantId: school.id }, (trx) =>
    trx
      .insertInto('class_curricula')
      .values(
        [school.year - 1, school.year].flatMap((year) =>
          OLD_CURRICULUM.map((form) => ({ tenant_id: school.id, year, form, curriculum: 'old' as const })),
        ),
      )
      .execute(),
  );
  const inTx = <T>(work: Parameters<typeof withTenantTx<T>>[2]) => withTenantTx(database.db, { tenantId: school.id }, work);
  const at = { term: school.term, year: school.year };

  const baseline = await timed(rounds, () =>
    inTx(async (tx) => {
      const load = await loadGradingInputs(tx, schoolTermScope(CLASSES, at.term, at.year));
      for (const inputs of load.classes) gradeClass(inputs.learners, inputs.marks, gradingInputsOf(load, inputs, { rawmark: true }));
    }),
  );
  line(
    'baseline: the terminal report’s load and grading',
    baseline,
    `(${CLASSES.length} classes, ${CLASSES.length * LEARNERS_PER_CLASS} learners)`,
  );

  const analysisQuery = AnalysisQuerySchema.parse({ ...at, json: '1' });
  const analysis = await timed(rounds, () => inTx(async (tx) => analysisKind.build(await readKind(tx, analysisKind, analysisQuery))));
  const ratio = analysis.ms / baseline.ms;
  line(
    'result analysis of all classes, read and built',
    analysis,
    `ratio ${ratio.toFixed(2)} (aim <= ${AIM_RATIO}: ${ratio <= AIM_RATIO ? 'met' : 'NOT MET'}; peak aim <= ${AIM_PEAK_MB} MB: ${analysis.peakRise <= AIM_PEAK_MB ? 'met' : 'NOT MET'})`,
  );

  const categories = statisticsCategoriesFor('secondary');
  // The whole school's term read once, every category built from it (progress reads its term before as well).
  const statistics = await timed(quick ? 1 : 2, () =>
    inTx(async (tx) => {
      const query = (category: StatisticsCategory) => StatisticsQuerySchema.parse({ ...at, category, json: '1' });
      const read = await readKind(tx, statisticsKind, query('division'));
      for (const category of categories) if (category !== 'progress') buildSchoolStatistics({ ...read, query: query(category) });
      buildSchoolStatistics(await readKind(tx, statisticsKind, query('progress')));
    }),
  );
  line(
    'every statistics category of the whole school',
    statistics,
    `ratio ${(statistics.ms / baseline.ms).toFixed(2)} (${categories.length} categories x ${CLASSES.length} classes)`,
  );

  const avgQuery = AvgMarksheetQuerySchema.parse({ form: 'S4', year: at.year, json: '1' });
  const avg = await timed(rounds, () => inTx(async (tx) => avgMarksheetKind.build(await readKind(tx, avgMarksheetKind, avgQuery))));
  line('average mark sheet of a largest class (S4, 77 learners)', avg, `ratio ${(avg.ms / baseline.ms).toFixed(2)}`);
}

export async function reportAnalysis(quick: boolean): Promise<void> {
  console.log('\nEnd-of-term analysis: a whole school’s term (issue 28)');
  const embedded = await openDatabase(
    { dataDir: '', databaseUrl: undefined, databaseMigrateUrl: undefined },
    { migrate: true, inMemory: true },
  );
  try {
    await measure(embedded, quick);
  } finally {
    await embedded.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportAnalysis(process.argv.includes('--quick'));
