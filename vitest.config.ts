import net from 'node:net';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test` runs every suite: unit tests (shared, web, and the server's that need no database),
 * the browser tests (Debian's Chromium driven by Playwright), and the API tests on the embedded
 * database and again on the PostgreSQL server. The PostgreSQL pass needs a server at
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); without one it is
 * skipped with a notice, except in CI, where a missing server fails the run.
 *
 * CI (`npm run test:ci`, MUSTARD_PGLITE_TESTS=ci) runs every API test on PostgreSQL and, on the
 * embedded database, PGLITE_IN_CI below: what only the embedded database does and what differs
 * on it, listed file by file with the reason.
 *
 * The unit and PostgreSQL projects run two test files at a time (API_WORKERS): on a 2-core
 * machine a file waiting on PostgreSQL or on a child server leaves the other core to the next
 * file. The embedded database's files run after them, two at a time too (PGLITE_WORKERS): its
 * longest files wait on child processes (the command, the server, shutdown), leaving a core to
 * the next file; CI's pass took 238 s one at a time and 158 s two at a time on a quiet 2-core
 * machine (issue 31; one at a time had measured faster on a machine loaded by other sessions,
 * where nothing runs faster two at a time). The API projects load the app's modules
 * once a worker, not once a file (isolate: false), which halved the PostgreSQL pass: a test
 * file therefore mocks no module (a failure is planted in its own database instead, asOwner in
 * test/test-database.ts). The browser tests run last, two files at a time, each worker with
 * its own server, database and browser (sequence.groupOrder). MUSTARD_TEST_WORKERS sets every
 * count. docs/ARCHITECTURE.md, "Keeping the test suite fast", has the numbers.
 */
const postgresUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
/**
 * The PostgreSQL pass runs every API test as an installation of several servers runs: with a
 * Redis (limits, document admissions and job queues shared; a job worker beside each test app,
 * test/test-app.ts). The embedded database's pass stays in-process, as `npm start` runs. Without a
 * Redis at TEST_REDIS_URL the PostgreSQL pass runs in-process too, with a notice; CI needs one.
 */
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Server test files by the database they need (paths from the repository's root). */
const server = (files: string[]) => files.map((file) => `apps/server/src/${file}`);
/** They open none (the configuration, the upload gate, the web app's files): run once, with the shared tests. */
const NO_DATABASE = server([
  'config.test.ts',
  'resources/work-gate.test.ts',
  'plugins/web.test.ts',
  'modules/reports/report-model.test.ts',
  'modules/students/upload-register.test.ts',
  // The catalogue's pure parts: amounts against a currency's decimals, the countries, the business defaults' data.
  'modules/catalogue/catalogue-rules.test.ts',
  // The rules between routes, services and repositories, and between modules and layers: they read the source files.
  'route-service-rules.test.ts',
  'module-imports.test.ts',
  // That every join between tenant tables compares tenant_id (PostgreSQL distributable by school): it reads the source files.
  'security/tenant-joins.test.ts',
  // That no server test mocks a module, since the API projects share them between files.
  'test/test-rules.test.ts',
  // The document pool and its queue: threads and turns, no database.
  'documents/pool.test.ts',
  // Reading turns: how many admitted documents read their data at once.
  'documents/reading.test.ts',
  // The registry of report kinds: what it holds and that the app serves each.
  'modules/reports/kinds.test.ts',
  // The cumulative report's pure parts: its layout and grade points.
  'modules/reports/cumulative/cumulative-report.test.ts',
  // The mail templates: every language has every template and value; rendering and refusals.
  'mail/templates.test.ts',
  // The document jobs' rules: priority between schools, retries and locks, the drawer a job may name.
  'jobs/queues.test.ts',
  // compose.yaml against the code: the variables the server reads, the commands, the files.
  'compose.test.ts',
]);
/** Of the embedded database alone: its data directory, the command and the server on it, migrations over old data. */
const PGLITE_ONLY = server([
  'operations/data-dir.test.ts',
  'operations/cli.test.ts',
  'operations/shutdown.test.ts',
  'operations/hardening.test.ts',
  'db/migrations.test.ts',
]);
/** Of PostgreSQL alone: the README's setup steps, a restart under the server. */
const POSTGRES_ONLY = server([
  'operations/postgres-setup.test.ts',
  'operations/database-restart.test.ts',
  'operations/two-servers.test.ts',
  // Documents as BullMQ jobs on the shared Redis, two app servers on one database.
  'jobs/documents.test.ts',
  'jobs/mail.test.ts',
  'jobs/worker-command.test.ts',
  // Two app servers' limits shared through Redis, and a Redis of the test's own stopped and restarted.
  'security/shared-limits.test.ts',
  // Two app servers and two job workers as processes on a PostgreSQL and a Redis of the test's own, both restarted.
  'operations/topology.test.ts',
]);
/**
 * The embedded database's part of CI (`npm run test:ci`), by what differs there; every API test
 * runs on PostgreSQL, and `npm test` runs every file on both. A file joins this list for a reason
 * below, not for its name: a new module's tests run on PostgreSQL only unless they test one of
 * these. (It replaced "each module's own test file", which ran files that test nothing of the
 * embedded database and left out ones that do.)
 */
const PGLITE_IN_CI = [
  // Of the embedded database alone.
  ...PGLITE_ONLY,
  ...server([
    // The seeded copy of the demo the tests that read it start from (a data directory there, a
    // database here). The demo's seeding itself on an embedded database is already here without
    // operations/demo-seed.test.ts (what the demo holds, on PostgreSQL): the server's first start
    // on an empty data directory seeds it (operations/hardening.test.ts), the copy's first file
    // seeds it, fees.test.ts seeds it again over itself, and cli.test.ts's reset-demo afresh.
    'test/demo-template.test.ts',
    // The sign-in cache, on by default there (no database notices to keep it exact elsewhere).
    'security/tokens.test.ts',
    'security/access.test.ts',
    'security/sign-in-state.test.ts',
    // The role it works as (SET ROLE on its one session) and row-level security under it; every
    // route once, where a query outside the request's transaction would wait on the one
    // connection for ever instead of taking a second one.
    // (security/tenant-isolation.test.ts, the members' roles on the tenant and user routes, is
    // not: route-isolation asks each of its routes here, with the code's filter and without.)
    'security/catalog.test.ts',
    'security/route-isolation.test.ts',
    // Which database errors are outages: PGlite raises its own, and must be read as PostgreSQL's are.
    'plugins/errors.test.ts',
    // Its one connection under parallel requests and locks: the same save twice at once, big
    // uploads and writes in one transaction, the rate limit's counters.
    'security/rate-limit.test.ts',
    'modules/students/upload.test.ts',
    'modules/students/upload-mapping.test.ts',
    'modules/students/promotion.test.ts',
    'modules/marks/entry.test.ts',
    'modules/marks/bulk-writes.test.ts',
    'modules/comments/attack.test.ts',
    'modules/users/users.test.ts',
    // A password reset's row lock, 50 requests and 50 redemptions at once, and its work after the answer.
    'modules/auth/password-reset.test.ts',
    // A sign-up's link followed three times at once: one claim of the row, one school, on its one connection.
    'modules/tenants/registration.test.ts',
    // The cards by e-mail twice at once: each a read, drawing with its progress written, then the outbox's write.
    'modules/reports/card-mail.test.ts',
    // Values as its own parsers answer them: days (birth dates, term dates, payment dates) as
    // strings, marks with decimals, counts, JSON settings. The report and mark sheet numbers are
    // summed and ranked in SQL.
    'modules/students/students.test.ts',
    'modules/settings/calendar.test.ts',
    'modules/settings/settings.test.ts',
    'modules/fees/fees.test.ts',
    'modules/report-settings/report-settings.test.ts',
    'modules/reports/reports.test.ts',
    'modules/reports/marksheet/marksheet.test.ts',
    // The set-based loader of every report (issue 25 point 1), asked of both databases.
    'modules/reports/pipeline/loader.test.ts',
    // A shop's documents (issue 32 asks both databases): numbers taken under a row lock by parallel
    // issues on its one connection, the journal's deferred balance check and the frozen-document
    // guards (PL/pgSQL triggers), exact numerics read back, and EFRIS's outbox under SKIP LOCKED.
    'modules/accounts/postings.test.ts',
    'modules/sales/sales.test.ts',
    'modules/payments/payments.test.ts',
    'modules/vouchers/vouchers.test.ts',
    'modules/efris/efris.test.ts',
  ]),
];

/**
 * The unit project, too, loads modules once a worker (isolate: false): its 70-odd files took 52 s
 * to run isolated and 12 s so, most of it loading the same modules again (measured on the 2-core
 * machine, issue 31). A unit file that mocks a module runs in a module graph of its own instead
 * (unit-isolated below); test/test-rules.test.ts holds that no other does.
 */
const UNIT_ISOLATED = ['apps/web/src/lib/messages.test.ts'];

/** Test files run at once: of the unit and PostgreSQL projects, of the embedded database's, of the browser's. */
const API_WORKERS = Number(process.env.MUSTARD_TEST_WORKERS) || 2;
const PGLITE_WORKERS = Number(process.env.MUSTARD_TEST_WORKERS) || 2;
const E2E_WORKERS = Number(process.env.MUSTARD_TEST_WORKERS) || 2;

export default defineConfig(async () => {
  const postgres = await reachable(postgresUrl.hostname, Number(postgresUrl.port || 5432));
  if (!postgres) {
    const message = `PostgreSQL is not reachable at ${postgresUrl.host}: the PostgreSQL pass of the API tests is skipped.`;
    if (process.env.CI) throw new Error(`${message} CI needs it.`);
    console.warn(message);
  }
  const redis = await reachable(redisUrl.hostname, Number(redisUrl.port || 6379));
  if (!redis) {
    const message = `Redis is not reachable at ${redisUrl.host}: the PostgreSQL pass of the API tests runs without it.`;
    if (process.env.CI) throw new Error(`${message} CI needs it.`);
    console.warn(message);
  }
  const api = {
    include: ['apps/server/src/**/*.test.ts'],
    testTimeout: 30_000,
    // The first file that reads the demo seeds it for the run in its beforeAll (test-database.ts).
    hookTimeout: 120_000,
    maxWorkers: API_WORKERS,
    // One load of the app's modules a worker, for every file it runs (see above).
    isolate: false,
    sequence: { groupOrder: 0 },
  };
  return {
    test: {
      projects: [
        {
          test: {
            name: 'unit',
            include: ['packages/shared/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'bench/**/*.test.ts', ...NO_DATABASE],
            exclude: [...configDefaults.exclude, ...UNIT_ISOLATED],
            maxWorkers: API_WORKERS,
            isolate: false,
            sequence: { groupOrder: 0 },
          },
        },
        {
          test: {
            name: 'unit-isolated',
            include: UNIT_ISOLATED,
            maxWorkers: API_WORKERS,
            sequence: { groupOrder: 0 },
          },
        },
        {
          test: {
            ...api,
            ...(process.env.MUSTARD_PGLITE_TESTS === 'ci' ? { include: PGLITE_IN_CI } : {}),
            name: 'api-pglite',
            maxWorkers: PGLITE_WORKERS,
            sequence: { groupOrder: 1 },
            exclude: [...configDefaults.exclude, ...NO_DATABASE, ...POSTGRES_ONLY],
            env: { MUSTARD_TEST_DB: 'pglite' },
            globalSetup: ['apps/server/src/test/pglite-global-setup.ts'],
          },
        },
        {
          test: {
            name: 'e2e',
            include: ['e2e/**/*.test.ts'],
            globalSetup: ['e2e/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // One server, database and browser a worker (e2e/harness.ts, useHarness), kept for the
            // files that worker runs one after another and closed with it (e2e/environment.ts).
            maxWorkers: E2E_WORKERS,
            isolate: false,
            // After the unit and API files, alone: two workers beside the browser would starve it.
            sequence: { groupOrder: 2 },
            environment: './e2e/environment.ts',
            setupFiles: ['e2e/setup.ts'],
          },
        },
        ...(postgres
          ? [
              {
                test: {
                  ...api,
                  name: 'api-postgres',
                  exclude: [...configDefaults.exclude, ...NO_DATABASE, ...PGLITE_ONLY],
                  env: { MUSTARD_TEST_DB: 'postgres', ...(redis ? { MUSTARD_TEST_REDIS_URL: redisUrl.href } : {}) },
                  globalSetup: ['apps/server/src/test/postgres-global-setup.ts'],
                },
              },
            ]
          : []),
      ],
    },
  };
});
