import { readdirSync } from 'node:fs';
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
 * embedded database, PGLITE_IN_CI below: what only the embedded database does, what differs on
 * it, and each module's own test file.
 */
const postgresUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

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
]);
/**
 * Each module's own test file, modules/<name>/<name>.test.ts, or all of a module's test files
 * when it has no such file: every module with tests runs on both databases in CI.
 */
const MODULES = new URL('apps/server/src/modules/', import.meta.url);
const MODULE_FILES = readdirSync(MODULES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap(({ name }) => {
    const files = readdirSync(new URL(`${name}/`, MODULES)).filter((file) => file.endsWith('.test.ts'));
    return (files.includes(`${name}.test.ts`) ? [`${name}.test.ts`] : files).map((file) => `apps/server/src/modules/${name}/${file}`);
  });
/**
 * The embedded database's part of CI: the files of it alone, the demo seed every empty embedded
 * database gets, the tests of what differs there (the sign-in cache, on by default: tokens,
 * access; the role it works as and row-level security: catalog, tenant isolation, every route's isolation; its one
 * connection under parallel requests and locks: rate limit, upload, promotion), and each
 * module's own file. `npm test` runs every file.
 */
const PGLITE_IN_CI = [
  ...PGLITE_ONLY,
  ...server([
    'operations/demo-seed.test.ts',
    'security/tokens.test.ts',
    'security/access.test.ts',
    'security/sign-in-state.test.ts',
    'security/catalog.test.ts',
    'security/tenant-isolation.test.ts',
    'security/route-isolation.test.ts',
    'security/rate-limit.test.ts',
    // Which database errors are outages: PGlite raises its own, and must be read as PostgreSQL's are.
    'plugins/errors.test.ts',
    'modules/students/upload.test.ts',
    'modules/students/upload-mapping.test.ts',
    'modules/students/promotion.test.ts',
    'modules/reports/marksheet/marksheet.test.ts',
  ]),
  ...MODULE_FILES,
];

export default defineConfig(async () => {
  const postgres = await reachable(postgresUrl.hostname, Number(postgresUrl.port || 5432));
  if (!postgres) {
    const message = `PostgreSQL is not reachable at ${postgresUrl.host}: the PostgreSQL pass of the API tests is skipped.`;
    if (process.env.CI) throw new Error(`${message} CI needs it.`);
    console.warn(message);
  }
  const api = {
    include: ['apps/server/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  return {
    test: {
      projects: [
        {
          test: {
            name: 'unit',
            include: ['packages/shared/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', ...NO_DATABASE],
          },
        },
        {
          test: {
            ...api,
            ...(process.env.MUSTARD_PGLITE_TESTS === 'ci' ? { include: PGLITE_IN_CI } : {}),
            name: 'api-pglite',
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
            // One server, database and browser for the run (e2e/harness.ts, useHarness): the files
            // run one after another in one process, which e2e/environment.ts closes it with.
            fileParallelism: false,
            isolate: false,
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
                  env: { MUSTARD_TEST_DB: 'postgres' },
                  globalSetup: ['apps/server/src/test/postgres-global-setup.ts'],
                },
              },
            ]
          : []),
      ],
    },
  };
});
