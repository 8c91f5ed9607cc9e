/**
 * Printing report cards, as people meet it (issue 15 benchmarks), beside report-cards.ts:
 *
 *   (c) The HTML preview of the same 60 cards (`renderReportHtml`, what `html=1` answers), beside
 *       the PDF baseline of this run. Target: <= 0.1 s.
 *   (d) A whole school printing through the API on the embedded database: the demo (both demo
 *       schools, every class on the old curriculum: the secondary's S1 to S4 have the new
 *       curriculum's cards) as PDFs, every class asked at once, while a
 *       signed-in user keeps calling GET /api/users/profile one call after another. Targets: every
 *       card in < 10 s, and that user's p95 < 100 ms meanwhile (the model is read on the server's
 *       thread, the PDFs drawn in the worker pool).
 *
 *   tsx bench/report-api.ts   (measurement d alone; the whole school is measured once, quick or not)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTermDates, localDay, renderReportHtml, TENANT_HEADER } from '@mustard/shared';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { withTenant, withTenantTx } from '../apps/server/src/db/tenant.js';
import { closeReportPdfPool } from '../apps/server/src/modules/reports/pdf/index.js';
import { curriculumSettings } from '../apps/server/src/modules/settings/class-curricula.repository.js';
import { DEMO_ADMIN_EMAIL, seedDemo } from '../apps/server/src/seed/demo.js';
import { marksTerm } from '../apps/server/src/seed/demo-marks.js';
import { login, testConfig } from '../apps/server/src/test/test-app.js';
import { percentile, percentiles } from './latency.js';
import type { ReportCardsContext } from './report-cards.js';

const TARGET_PREVIEW_SECONDS = 0.1;
const TARGET_SCHOOL_SECONDS = 10;
const TARGET_P95_MS = 100;
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

/** (c) The preview of the 60-card stream: median of runs, as the baseline was taken. */
export async function reportPreview(context: ReportCardsContext): Promise<void> {
  const runs = context.quick ? 10 : 40;
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs + 3; run++) {
    const started = performance.now();
    const html = renderReportHtml(context.stream.model, context.layout);
    if (run >= 3) times.push(performance.now() - started);
    bytes = html.length;
  }
  const median = percentile(times, 50);
  console.log(
    `\nThe HTML preview of the same 60 cards: ${median.toFixed(1)} ms, ${(bytes / 1024).toFixed(0)} KB  (${(median / context.baselineMs).toFixed(2)}x the PDF baseline; target <= ${TARGET_PREVIEW_SECONDS} s: ${met(median / 1000 <= TARGET_PREVIEW_SECONDS)})`,
  );
}

/** (d) The demo school printing every class through the API while someone else works. */
export async function reportSchoolThroughApi(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-reports-'));
  const config = testConfig({ dataDir });
  const database = await openDatabase(config, { migrate: true });
  const app = await buildApp(config, database, { logger: false });
  try {
    await seedDemo(database, config.demoPassword);
    const token = await login(app, DEMO_ADMIN_EMAIL, config.demoPassword);
    const { term, year } = marksTerm(localDay(), defaultTermDates);
    // Every old-curriculum class of the two demo schools that has learners, with how many (the
    // secondary demo's S1 to S4 are on the new curriculum: their cards are not these).
    const schools = await database.db
      .selectFrom('tenants')
      .select(['id', 'tenantcode'])
      .where('tenantcode', 'in', ['demo-primary', 'demo-secondary'])
      .execute();
    const requests: Array<{ tenantcode: string; url: string }> = [];
    let learnerCount = 0;
    for (const school of schools) {
      const classes = await withTenant(database.db, { tenantId: school.id }, (trx) =>
        trx
          .selectFrom('students')
          .select(['form', (eb) => eb.fn.countAll<number>().as('count')])
          .where('status', '=', 'active')
          .groupBy('form')
          .execute(),
      );
      const { isNew } = await withTenantTx(database.db, { tenantId: school.id }, (tx) => curriculumSettings(tx, year));
      for (const { form, count } of classes) {
        if (isNew(form)) continue;
        learnerCount += Number(count);
        requests.push({ tenantcode: school.tenantcode, url: `/api/school/terminalreport?form=${form}&term=${term}&year=${year}` });
      }
    }
    const headers = (tenantcode: string) => ({ authorization: `Bearer ${token}`, [TENANT_HEADER]: tenantcode });
    // Real HTTP, as browsers call: in-process injection never waits on a socket, so a loop of
    // injected calls would starve the event loop that the reports need.
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const get = async (url: string, tenantcode: string) => {
      const response = await fetch(`${base}${url}`, { headers: headers(tenantcode) });
      const body = Buffer.from(await response.arrayBuffer());
      return { status: response.status, body };
    };
    // Warm: the pool's first file and the app's first report.
    await get(requests[0]?.url ?? '', requests[0]?.tenantcode ?? '');

    const latencies: number[] = [];
    let printing = true;
    const someoneElse = (async () => {
      while (printing) {
        const started = performance.now();
        const response = await get('/api/users/profile', 'demo-primary');
        if (response.status !== 200) throw new Error(`profile: ${response.status}`);
        latencies.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(
      requests.map(async ({ tenantcode, url }) => {
        const response = await app.inject({ method: 'GET', url, headers: headers(tenantcode) });
        return {
          url,
          status: response.statusCode,
          bytes: response.rawPayload.length,
          body: response.statusCode === 200 ? '' : response.body.slice(0, 200),
        };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    printing = false;
    await someoneElse;
    const printed = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    console.log(
      `\nThe demo printing through the API (embedded database): ${printed.length} classes, ${learnerCount} learners, every class asked at once`,
    );
    for (const answer of refused) console.log(`  refused ${answer.url}: ${answer.status} ${answer.body}`);
    console.log(
      `${'every class as a PDF'.padEnd(58)} ${(seconds * 1000).toFixed(0).padStart(5)} ms  ${(printed.reduce((sum, a) => sum + a.bytes, 0) / 1024 / 1024).toFixed(2)} MB`,
    );
    console.log(
      `${`GET /api/users/profile meanwhile (${latencies.length} calls, one at a time)`.padEnd(58)} ${percentiles(latencies, [50, 95, 99])}`,
    );
    const p95 = percentile(latencies, 95);
    console.log(
      `\nThe school's cards: ${seconds.toFixed(2)} s (target < ${TARGET_SCHOOL_SECONDS} s: ${met(seconds < TARGET_SCHOOL_SECONDS)}); the API's p95 meanwhile ${p95.toFixed(1)} ms (target < ${TARGET_P95_MS} ms: ${met(p95 < TARGET_P95_MS)})`,
    );
    if (refused.length > 0) throw new Error(`${refused.length} classes refused`);
  } finally {
    await app.close();
    await closeReportPdfPool();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportSchoolThroughApi();
