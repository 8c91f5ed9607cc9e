import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The API test projects (and the unit project) load the app's modules once a worker and run many files on them
 * (isolate: false in vitest.config.ts). A file that mocked one of the app's modules would then
 * either find it loaded already, unmocked, or leave its mock to the files after it. So no server
 * test mocks a module: a test that needs a failure plants it in its own database (asOwner in
 * test-database.ts: a trigger that refuses a write, a revoked grant). It reads the source files
 * and opens no database.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The calls that swap a module or a global for the rest of a worker's files. */
const SHARED_STATE_CALLS = /\bvi\.(mock|doMock|stubGlobal|stubEnv|resetModules)\(/;

describe('the server tests share their worker (isolate: false)', () => {
  it('mock no module and stub no global or environment variable', () => {
    const files = testFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) => SHARED_STATE_CALLS.test(readFileSync(file, 'utf8'))).map((file) => path.relative(SRC, file));
    expect(offenders).toEqual([]);
  });
});

/** The unit files that mock a module, each run in a module graph of its own (UNIT_ISOLATED in vitest.config.ts). */
const UNIT_ISOLATED = ['apps/web/src/lib/messages.test.ts'];

describe('the unit tests share their worker too (isolate: false)', () => {
  it('mock no module and stub no global, but for the files run apart', () => {
    const root = path.resolve(SRC, '../../..');
    const files = ['packages/shared/src', 'apps/web/src', 'bench'].flatMap((dir) => testFiles(path.join(root, dir)));
    expect(files.length).toBeGreaterThan(40);
    const offenders = files
      .filter((file) => SHARED_STATE_CALLS.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file))
      .filter((file) => !UNIT_ISOLATED.includes(file));
    expect(offenders).toEqual([]);
    // The files run apart still need it: one that no longer mocks joins the unit project.
    for (const file of UNIT_ISOLATED) expect(SHARED_STATE_CALLS.test(readFileSync(path.join(root, file), 'utf8')), file).toBe(true);
  });
});
