import net from 'node:net';
import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs every suite: shared and web unit tests, the browser tests (Debian's Chromium
 * driven by Playwright), then the API tests on the embedded database and again on the
 * PostgreSQL server. The PostgreSQL pass needs a server at TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres); without one it is skipped with a
 * notice, except in CI, where a missing server fails the run.
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
        { test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'] } },
        { test: { ...api, name: 'api-pglite', env: { MUSTARD_TEST_DB: 'pglite' } } },
        {
          test: {
            name: 'e2e',
            include: ['e2e/**/*.test.ts'],
            globalSetup: ['e2e/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // One browser at a time: Chromium and the server share two cores.
            fileParallelism: false,
          },
        },
        ...(postgres
          ? [
              {
                test: {
                  ...api,
                  name: 'api-postgres',
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
