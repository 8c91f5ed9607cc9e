import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { databaseIsEmpty, demoAccounts, seedDemo } from './seed/demo.js';

/** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

export async function start(config: Config = loadConfig()) {
  const database = await openDatabase(config, {
    migrate: true,
    log: {
      info: (message) => console.log(message),
      // Only the error's code and message: a pg error object carries connection internals.
      error: (obj, message) => {
        const err = (obj as { err?: { code?: string; message?: string } }).err;
        console.error(`${message}${err ? ` (${err.code ?? 'error'}: ${err.message ?? ''})` : ''}`);
      },
    },
  });
  const app = await buildApp(config, database);

  let demo: Awaited<ReturnType<typeof seedDemo>> | undefined;
  if (config.seedDemo && (await databaseIsEmpty(database))) {
    app.log.info('Empty database: seeding the demo schools');
    demo = await seedDemo(database, config.demoPassword, { secretsKey: config.secretsKey });
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing requests in flight, then stopping`);
    const force = setTimeout(() => {
      app.log.error('Shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close(); // new requests get 503 while in-flight ones finish
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const shown = `http://localhost:${(app.server.address() as { port: number }).port}`;
  const lines = [
    '',
    `Mustard is running at ${shown}`,
    `  database: ${database.kind === 'pglite' ? `embedded (${config.dataDir})` : 'PostgreSQL'}`,
  ];
  const accounts = demo?.accounts ?? (config.seedDemo ? demoAccounts(config.demoPassword) : []);
  if (accounts.length > 0) {
    lines.push('  Demo accounts, with a published password, for trying Mustard only (they see the demo tenants alone):');
    for (const account of accounts) lines.push(`    ${account.email} / ${account.password}  (${account.role})`);
  }
  console.log(lines.join('\n'));
  return { app, database, address };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
