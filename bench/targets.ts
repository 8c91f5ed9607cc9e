/**
 * The servers under measurement, in their own process so the load generator does not share
 * their event loop: the real app with a signed-in user and a class of 80 learners, on an
 * embedded database (a temporary data directory) or, given `--database-url=<url>`, on that
 * PostgreSQL database; and a bare Fastify route as the baseline. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { makeStudents, makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { login, testConfig } from '../apps/server/src/test/test-app.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-'));
const databaseUrl = process.argv.find((arg) => arg.startsWith('--database-url='))?.slice('--database-url='.length);
const config = testConfig({ dataDir, databaseUrl });
const database = await openDatabase(config, { migrate: true });
const app = await buildApp(config, database, { logger: false });
const school = await makeTenant(database, { name: 'Bench Primary' });
await makeStudents(database, school.id, 'P4', 80);
const teacher = await makeUser(database, { memberOf: [{ tenantId: school.id, roles: ['teacher', 'headteacher'] }] });
const token = await login(app, teacher.email);
await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (server: { server: { address(): unknown } }) => (server.server.address() as { port: number }).port;
console.log(JSON.stringify({ app: port(app), bare: port(bare), token, tenantcode: school.tenantcode }));

const stop = async () => {
  await app.close();
  await bare.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
