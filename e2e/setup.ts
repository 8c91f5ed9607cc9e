import { afterAll, afterEach } from 'vitest';
import { closeOpenContexts, describeOpenPages } from './harness.js';

// A failed test says what its pages showed (address, text, errors): a failure seen only in CI,
// on a loaded machine, can then be understood from the log alone.
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') console.error(await describeOpenPages());
});

// Every file leaves the run's browser as it found it: a context a failed test left open closes
// with its file, instead of running on beside the next file's tests.
afterAll(closeOpenContexts);
