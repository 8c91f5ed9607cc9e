import { beforeAll, describe, it } from 'vitest';
import { checkSignedInPages, LAPTOP } from './axe.js';
import { type Harness, useHarness } from './harness.js';

/* Issue 24 point 8: no serious or critical axe-core violation on any signed-in page on a laptop (1366 px). */
let h: Harness;
beforeAll(async () => {
  h = await useHarness();
});

describe('every signed-in page passes axe on a laptop (1366 px)', () => {
  it('has no serious or critical violation on any signed-in page at 1366 px', { timeout: 300_000 }, () => checkSignedInPages(h, LAPTOP));
});
