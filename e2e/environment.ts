import type { Environment } from 'vitest/environments';

/**
 * The browser tests' environment: Node's, plus closing the run's harness (e2e/harness.ts,
 * useHarness) when the test process ends, after its last file. Vitest loads this module apart
 * from the tests', so the harness is found where useHarness keeps it, on globalThis.
 */
const HARNESS_KEY = Symbol.for('mustard.e2e.harness');

export default {
  name: 'mustard-e2e',
  viteEnvironment: 'ssr',
  setup() {
    return {
      async teardown(global: Record<symbol, Promise<{ close(): Promise<void> }> | undefined>) {
        const harness = global[HARNESS_KEY];
        delete global[HARNESS_KEY];
        // A harness that failed to start has said so in the test that asked for it.
        await harness?.then(
          (started) => started.close(),
          () => undefined,
        );
      },
    };
  },
} satisfies Environment;
