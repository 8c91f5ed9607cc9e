import { beforeAll, describe, it } from 'vitest';
import { checkSignedInPages, PHONE } from './axe.js';
import { type Harness, useHarness } from './harness.js';

/* Issue 24 point 8: no serious or critical axe-core violation on any signed-in page on a phone (360 px). */
let h: Harness;
beforeAll(async () => {
  h = await useHarness();
});

describe('every signed-in page passes axe on a phone (360 px)', () => {
  it('has no serious or critical violation on any signed-in page at 360 px', { timeout: 300_000 }, () => checkSignedInPages(h, PHONE));
});
