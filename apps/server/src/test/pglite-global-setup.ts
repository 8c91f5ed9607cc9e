import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/connect.js';

/**
 * Once per test run: an embedded database migrated in a data directory, which each test file
 * copies (test-database.ts) instead of creating and migrating its own; creating one is most of
 * the cost of opening it.
 */
let template: string | undefined;

export async function setup(project: TestProject) {
  template = mkdtempSync(path.join(tmpdir(), 'mustard-test-template-'));
  const database = await openDatabase({ dataDir: template, databaseUrl: undefined, databaseMigrateUrl: undefined }, { migrate: true });
  await database.close();
  project.provide('pgliteTemplate', template);
}

export function teardown() {
  if (template) rmSync(template, { recursive: true, force: true });
}
