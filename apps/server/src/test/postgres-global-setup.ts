import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropTestDatabases, preparePostgresTemplate } from './test-database.js';

/** Once per test run: a migrated template database that each test file clones. */
const run = `${Math.floor(Date.now() / 1000)}r${randomBytes(3).toString('hex')}`;

export async function setup(project: TestProject) {
  await dropTestDatabases(run);
  await preparePostgresTemplate(run);
  project.provide('postgresTestRun', run);
}

export async function teardown() {
  await dropTestDatabases(run);
}
