import { parseArgs } from 'node:util';
import { TenantNewSchema, UserCreateSchema } from '@mustard/shared';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { z } from 'zod';
import { revokeUserSessions } from './access/sessions.repository.js';
import { type Config, loadConfig } from './config.js';
import { type Database, openDatabase } from './db/connect.js';
import { newId } from './db/ids.js';
import { migrateToLatest } from './db/migrate.js';
import { withTenantTx } from './db/tenant.js';
import { closeDocumentPool } from './documents/pool.js';
import { type JobWorker, startJobWorker } from './jobs/worker-process.js';
import { hashPassword } from './modules/auth/password.js';
import { isDemoTenantCode } from './modules/tenants/demo-confinement.js';
import { addMember, insertTenantWithRoles, startWithDefaults } from './modules/tenants/tenants.service.js';
import { rolesByName } from './modules/users/users.repository.js';
import { seedDemo } from './seed/demo.js';
import { removeDemo, removedText } from './seed/demo-removal.js';

/**
 * The `mustard` command (`npm run mustard -- <command>`), for whoever installs and runs a
 * Mustard server. It works on the same database as the server, under the same rules.
 */
const USAGE = `Usage: npm run mustard -- <command> [options]

Commands:
  migrate                       apply pending database migrations
  create-tenant --code C --name N [--category School] [--schooltype primary|secondary]
                [--defaults none|primary|secondary]
                                create a school or business with its default roles;
                                --defaults starts a school with the Ugandan primary or
                                secondary settings (subjects, mark types, grade sets, ...)
  create-user --email E --name N --password P [--admin] [--tenant C --role R]
                                create a sign-in; --admin makes a platform administrator,
                                --tenant and --role make the user a member of a tenant
  disable-user --email E        stop a user signing in and end their sessions
  seed-demo                     add the demo schools and accounts (safe to run again)
  reset-demo                    delete the demo and seed it afresh
  remove-demo                   delete the demo tenants and accounts, in one transaction
  worker                        run a job worker (documents, e-mail) for the app servers;
                                needs REDIS_URL and DATABASE_URL; stops on SIGTERM or
                                SIGINT, finishing or handing back the jobs in hand`;

class UsageError extends Error {}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.') || 'value'}: ${issue.message}`).join('\n');
}

export async function createTenant(database: Database, values: Record<string, unknown>) {
  const parsed = TenantNewSchema.safeParse({
    tenantcode: values.code,
    name: values.name,
    category: values.category ?? 'School',
    schooltype: values.schooltype ?? 'primary',
    defaults: values.defaults,
  });
  if (!parsed.success) throw new UsageError(`The tenant is not valid:\n${formatIssues(parsed.error)}`);
  const { defaults, ...input } = parsed.data;
  const { id, summary } = await database.db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('tenants').select('id').where(sql`lower(tenantcode)`, '=', input.tenantcode).executeTakeFirst();
    if (taken || isDemoTenantCode(input.tenantcode)) throw new UsageError(`The tenant code ${input.tenantcode} is already taken.`);
    const { row, tx } = await insertTenantWithRoles(trx, input);
    return { id: row.id, summary: await startWithDefaults(tx, input, defaults) };
  });
  const created = `Created tenant ${input.tenantcode} (${input.name}), id ${id}`;
  if (!summary) return created;
  return (
    `${created}, with the Ugandan ${defaults} defaults: ${summary.subjects} subjects, ${summary.markTypes} mark types, ` +
    `${summary.grades} grade bands, ${summary.proportions} proportions, ${summary.remarkTypes} remark types, ` +
    `${summary.autoComments} automatic comments, ${summary.footers} report footers`
  );
}

async function createUser(database: Database, values: Record<string, unknown>) {
  const parsed = UserCreateSchema.safeParse({ email: values.email, name: values.name, password: values.password, roles: [] });
  if (!parsed.success) throw new UsageError(`The user is not valid:\n${formatIssues(parsed.error)}`);
  const input = parsed.data;
  if ((values.tenant === undefined) !== (values.role === undefined)) throw new UsageError('Give --tenant and --role together.');
  const db = database.db;
  const hash = await hashPassword(input.password);
  const userId = newId();
  await db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('users').select('id').where(sql`lower(email)`, '=', input.email).executeTakeFirst();
    if (taken) throw new UsageError(`A user with the email ${input.email} already exists.`);
    await trx
      .insertInto('users')
      .values({ id: userId, email: input.email, name: input.name, password_hash: hash, is_admin: Boolean(values.admin) })
      .execute();
  });
  if (values.tenant !== undefined) {
    const tenant = await db
      .selectFrom('tenants')
      .select('id')
      .where(sql`lower(tenantcode)`, '=', String(values.tenant).toLowerCase())
      .executeTakeFirst();
    if (!tenant) throw new UsageError(`No tenant has the code ${values.tenant}.`);
    await withTenantTx(db, { tenantId: tenant.id, userId }, async (tx) => {
      const roles = await rolesByName(tx, [String(values.role)]);
      const roleId = roles.get(String(values.role).toLowerCase());
      if (!roleId) throw new UsageError(`The tenant ${values.tenant} has no role ${values.role}.`);
      await addMember(tx, userId, [roleId]);
    });
  }
  return `Created user ${input.email}${values.admin ? ' (platform administrator)' : ''}${values.tenant ? ` as ${values.role} in ${values.tenant}` : ''}`;
}

async function disableUser(database: Database, values: Record<string, unknown>) {
  const email = z.email().safeParse(String(values.email ?? '').toLowerCase());
  if (!email.success) throw new UsageError('Give --email with a valid email address.');
  const db = database.db;
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where(sql`lower(email)`, '=', email.data)
      .returning('id')
      .executeTakeFirst();
    if (!user) throw new UsageError(`No user has the email ${email.data}.`);
    await revokeUserSessions(trx, user.id);
    return `Disabled ${email.data}; their sessions have ended.`;
  });
}

/** `postgres://owner:secret@db:5432/mustard` -> `mustard on db:5432`: what to name, never the password. */
function databaseName(url: string): string {
  const parsed = new URL(url);
  return `"${decodeURIComponent(parsed.pathname.slice(1)) || parsed.username}" on ${parsed.host || 'the local socket'}`;
}

function migratedText(where: string, applied: string[]): string {
  return applied.length > 0
    ? `Migrated ${where}: applied ${applied.join(', ')}. The database schema is up to date.`
    : `${where[0]?.toUpperCase()}${where.slice(1)}: the database schema is up to date.`;
}

/**
 * `migrate` works where the operator points it, and says where: PostgreSQL through
 * DATABASE_MIGRATE_URL (the schema owner: the app role may not change the schema), else the
 * embedded database in DATA_DIR. With only DATABASE_URL set it refuses rather than quietly
 * migrating the embedded database instead.
 */
async function migrate(config: Config): Promise<string> {
  if (config.databaseMigrateUrl) {
    const owner = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.databaseMigrateUrl, max: 1 }) }),
    });
    try {
      return migratedText(`the PostgreSQL database ${databaseName(config.databaseMigrateUrl)}`, await migrateToLatest(owner));
    } finally {
      await owner.destroy();
    }
  }
  if (config.databaseUrl) {
    throw new UsageError(
      'migrate changes the schema, which the app role of DATABASE_URL may not do: set DATABASE_MIGRATE_URL to the schema owner (README, "PostgreSQL").',
    );
  }
  const database = await openDatabase(config, { migrate: true, listen: false });
  await database.close();
  return migratedText(`the embedded database in ${config.dataDir}`, database.migrated ?? []);
}

/**
 * `worker`: a job worker process (jobs/worker-process.ts) on the installation's PostgreSQL and
 * Redis, until SIGTERM or SIGINT. Either unreachable at start: a one-line reason and exit code 1,
 * for its supervisor to start it again. Its log lines (JSON, on stdout) name it (hostname:pid)
 * and every job it finishes.
 */
async function runWorker(config: Config): Promise<string> {
  if (!config.redisUrl) throw new Error('The worker needs REDIS_URL: the jobs it runs are queued in Redis (README, "Several servers").');
  if (!config.databaseUrl)
    throw new Error("The worker needs DATABASE_URL: it works on the installation's PostgreSQL, as the app servers do.");
  const log = pino({ level: config.logLevel, base: { process: 'worker' } });
  let database: Database;
  try {
    database = await openDatabase(config, { migrate: false, listen: false });
  } catch (error) {
    throw new Error(`The worker cannot use the database: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}.`);
  }
  let worker: JobWorker;
  try {
    worker = await startJobWorker(config, database, log);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log.info({ worker: worker.id }, `${signal}: taking no more jobs, finishing those in hand`);
  await worker.close();
  await closeDocumentPool();
  await database.close();
  // Whatever handle is left (a connection closing slowly) does not hold the exit.
  setTimeout(() => process.exit(0), 1000).unref();
  return `Worker ${worker.id} stopped.`;
}

export async function runCli(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      schooltype: { type: 'string' },
      defaults: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
      tenant: { type: 'string' },
      role: { type: 'string' },
    },
    strict: true,
  });
  if (!command || command === 'help' || command === '--help') return USAGE;
  const known = ['migrate', 'create-tenant', 'create-user', 'disable-user', 'seed-demo', 'reset-demo', 'remove-demo', 'worker'];
  if (!known.includes(command)) throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);

  const config = loadConfig();
  if (command === 'migrate') return migrate(config);
  if (command === 'worker') return runWorker(config);
  if (config.databaseMigrateUrl && !config.databaseUrl) {
    throw new UsageError(
      'DATABASE_MIGRATE_URL is set but DATABASE_URL is not: this command works as the app role on PostgreSQL. ' +
        'Set DATABASE_URL too (README, "PostgreSQL"), or unset DATABASE_MIGRATE_URL to use the embedded database.',
    );
  }
  const database = await openDatabase(config, { migrate: !config.databaseUrl, listen: false });
  try {
    switch (command) {
      case 'create-tenant':
        return await createTenant(database, values);
      case 'create-user':
        return await createUser(database, values);
      case 'disable-user':
        return await disableUser(database, values);
      case 'remove-demo':
        return removedText(await removeDemo(database));
      case 'reset-demo': {
        const removed = await removeDemo(database);
        const summary = await seedDemo(database, config.demoPassword, { secretsKey: config.secretsKey });
        return `Demo reset: removed ${removed.tenants.length} tenants and ${removed.accounts} accounts; seeded ${summary.tenants.join(', ')} afresh.`;
      }
      default: {
        const summary = await seedDemo(database, config.demoPassword, { secretsKey: config.secretsKey });
        return `Demo ready: tenants ${summary.tenants.join(', ')}; accounts ${summary.accounts.map((account) => account.email).join(', ')}`;
      }
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2)).then(
    (message) => console.log(message),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
    },
  );
}
