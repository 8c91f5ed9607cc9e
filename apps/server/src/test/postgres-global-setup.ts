import { dropLeftoverTestDatabases, preparePostgresTemplate } from './test-database.js';

export async function setup() {
  await dropLeftoverTestDatabases();
  await preparePostgresTemplate();
}

export async function teardown() {
  await dropLeftoverTestDatabases();
}
