import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type Database, openDatabase } from '../db/connect.js';
import { APP_ROLE, migrateToLatest } from '../db/migrate.js';
import { seedDemo } from '../seed/demo.js';
import {
  childEnv,
  collectOutput,
  type Exit,
  freePort,
  isRunning,
  killChild,
  makeDataDir,
  removeDir,
  spawnProgram,
  spawnTsx,
  waitForExit,
  waitUntil,
} from './helpers.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

/*
 * An installation of several machines, on one: a PostgreSQL and a Redis of its own (private, so
 * a test may stop and start them; the shared ones are never touched), app servers and job
 * workers, each a real process started as an operator starts it (`npm start`'s server.ts,
 * `npm run mustard -- worker`), all with one environment. The topology test and the benchmark
 * start it; `stop()` ends every process and removes every directory, whatever state it is in.
 */

/** A Redis of the test's own on a free port, which can be stopped and started again on that port. */
export interface PrivateRedis {
  port: number;
  url: string;
  /**
   * Stops it as a Redis with persistence stops (systemd's SIGTERM): what it holds is written to
   * its dump first, and the next `start` loads it back. `{ keep: false }` loses it all.
   */
  stop(options?: { keep?: boolean }): Promise<void>;
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await makeDataDir();
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    // No save points and no append-only file: nothing is written behind the test's back. The dump
    // is written once, by a stop that keeps the data (SHUTDOWN SAVE), and read back on start.
    const started = spawnProgram('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
    ]);
    child = started;
    const output = collectOutput(started);
    await waitUntil('the private Redis to answer', 10_000, async () => {
      if (!isRunning(started)) throw new Error(`redis-server exited: ${output.stdout()}${output.stderr()}`);
      return (await answers(url)) ? true : undefined;
    });
  };

  const stop = async ({ keep = true }: { keep?: boolean } = {}) => {
    const running = child;
    if (!running || !isRunning(running)) return;
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      // Redis closes the connection as it ends: the command has no answer to wait for.
      await client.call('SHUTDOWN', keep ? 'SAVE' : 'NOSAVE').catch(() => undefined);
    } catch {
      killChild(running);
    } finally {
      client.disconnect();
    }
    await waitForExit(running, 10_000).catch(() => killChild(running));
  };

  await start();
  return {
    port,
    url,
    stop,
    start,
    destroy: async () => {
      if (child) killChild(child);
      await removeDir(dir);
    },
  };
}

/** Whether a Redis answers PING at `url` now (one try, half a second). */
async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  // A refused connection is the answer "not yet", not an error to report.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** One process of the topology: an app server or a job worker. */
export interface TopologyProcess {
  /** `server-1`, `worker-2`, … in the order they were started. */
  name: string;
  child: ChildProcess;
  output: { stdout(): string; stderr(): string };
  running(): boolean;
  /** How it ended; null while it runs. */
  exit(): Exit | null;
}

export interface AppServer extends TopologyProcess {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

export interface JobWorker extends TopologyProcess {
  /** hostname:pid, as the worker's log lines and Redis (which worker drew which job) name it. */
  id: string;
}

/** The line a worker logs once it takes jobs (jobs/worker-process.ts), with its id. */
const WORKER_STARTED = /job worker (\S+:\d+) started/;

export interface TopologyOptions {
  servers: number;
  workers: number;
  /** How long a job's lock lasts without its worker renewing it (JOB_LOCK_SECONDS): a dead worker's job is taken over after it. */
  jobLockSeconds?: number;
  /** What the database holds before any process starts: the demo schools, or what the function makes (as the app role). */
  seed?: 'demo' | ((database: Database) => Promise<void>);
  /** More environment for every process (a server's or worker's LOG_LEVEL, PDF_QUEUE_TOTAL, …). */
  env?: Record<string, string>;
  /** More environment for the workers alone (their LOG_LEVEL is info unless given here: the started line is read). */
  workerEnv?: Record<string, string>;
  /** What a worker prints once it takes jobs (it is not counted as started before); default: its "job worker <id> started". */
  workerReady?: RegExp;
}

export interface Topology {
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  /** The app role's connection string (what every process is given as DATABASE_URL). */
  databaseUrl: string;
  /** The installation's key prefix in its Redis (REDIS_PREFIX). */
  redisPrefix: string;
  /** The data directory every process shares (photos, badges), as a shared volume would be. */
  dataDir: string;
  /** Every process's environment: the servers' and workers' one configuration. */
  env: NodeJS.ProcessEnv;
  servers: AppServer[];
  workers: JobWorker[];
  /** Starts one more app server, resolved once its /readyz answers 200. */
  startServer(): Promise<AppServer>;
  /** Starts one more worker, resolved once it says it is ready. */
  startWorker(): Promise<JobWorker>;
  /** A query as PostgreSQL's superuser on the installation's database (no row-level security): what the test counts. */
  query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Kills a server or worker at once (SIGKILL to its process group: a machine lost) and drops it from the lists. */
  kill(each: TopologyProcess): void;
  /** A throw naming every server or worker of the lists that is no longer running, with the end of its output. */
  assertAllRunning(): void;
  /** Kills every process, then the databases, and removes every directory. Safe to call twice, or after a failed start. */
  stop(): Promise<void>;
}

const DATABASE = 'mustard';

/**
 * PostgreSQL (migrated, the app role able to log in, seeded), Redis, then the servers and the
 * workers, all at once. If any part fails to start, whatever started is stopped before the error
 * is thrown, so a failed beforeAll leaves nothing behind.
 */
export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const servers: AppServer[] = [];
  const workers: JobWorker[] = [];
  const dataDir = await makeDataDir();
  let postgres: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let superuser: pg.Pool | undefined;
  let stopped = false;
  // Names go on counting after a kill: the replacement of worker-1 is worker-3, never a second worker-2.
  let serversStarted = 0;
  let workersStarted = 0;

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const each of [...servers, ...workers]) killChild(each.child);
    await superuser?.end().catch(() => undefined);
    await Promise.all([redis?.destroy(), postgres?.destroy()]);
    await removeDir(dataDir);
  };

  try {
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    const cluster = postgres;
    superuser = new pg.Pool({ connectionString: cluster.url(DATABASE), max: 2 });
    // A restart of the private PostgreSQL cuts this pool's idle connections too: not an error of the test's.
    superuser.on('error', () => undefined);
    await prepareDatabase(cluster, options.seed);
    const databaseUrl = cluster.url(DATABASE, APP_ROLE);
    const redisPrefix = `mustard-topology-${randomBytes(4).toString('hex')}`;
    const env = childEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redisPrefix,
      JOB_LOCK_SECONDS: String(options.jobLockSeconds ?? 30),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      ...options.env,
    });

    const startServer = async (): Promise<AppServer> => {
      const port = await freePort();
      const started = describe(spawnTsx('apps/server/src/server.ts', [], { ...env, PORT: String(port) }), `server-${++serversStarted}`);
      const server = { ...started, port, url: `http://127.0.0.1:${port}` };
      servers.push(server);
      await waitUntil(`${server.name} to be ready`, 60_000, async () => {
        if (!server.running()) throw new Error(ended(server));
        const ready = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } }).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      });
      return server;
    };

    const startWorker = async (): Promise<JobWorker> => {
      // At info: a worker logs that it started, with its id, and each job it finishes.
      const child = spawnTsx('apps/server/src/cli.ts', ['worker'], { ...env, LOG_LEVEL: 'info', ...options.workerEnv });
      const worker: JobWorker = { ...describe(child, `worker-${++workersStarted}`), id: '' };
      workers.push(worker);
      const ready = options.workerReady ?? WORKER_STARTED;
      await waitUntil(`${worker.name} to start`, 60_000, async () => {
        if (!worker.running()) throw new Error(ended(worker));
        return ready.test(worker.output.stdout()) ? true : undefined;
      });
      worker.id = WORKER_STARTED.exec(worker.output.stdout())?.[1] ?? '';
      return worker;
    };

    // Started together: each spends its first seconds compiling the sources (tsx).
    await Promise.all([
      ...Array.from({ length: options.servers }, () => startServer()),
      ...Array.from({ length: options.workers }, () => startWorker()),
    ]);
    const pool = superuser;
    return {
      postgres: cluster,
      redis,
      databaseUrl,
      redisPrefix,
      dataDir,
      env,
      servers,
      workers,
      startServer,
      startWorker,
      query: async (text, values = []) => (await pool.query(text, values)).rows,
      kill: (each) => {
        killChild(each.child);
        for (const list of [servers, workers] as TopologyProcess[][]) {
          const index = list.indexOf(each);
          if (index >= 0) list.splice(index, 1);
        }
      },
      assertAllRunning: () => {
        const gone = [...servers, ...workers].filter((each) => !each.running());
        if (gone.length > 0) throw new Error(gone.map(ended).join('\n'));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function describe(child: ChildProcess, name: string): TopologyProcess {
  const output = collectOutput(child);
  return {
    name,
    child,
    output,
    running: () => isRunning(child),
    exit: () => (isRunning(child) ? null : { code: child.exitCode, signal: child.signalCode }),
  };
}

/** What a process that ended said last: for the failure's message. */
function ended(each: TopologyProcess): string {
  const tail = (text: string) => text.split('\n').slice(-15).join('\n');
  return `${each.name} exited (${each.child.exitCode ?? each.child.signalCode}):\n${tail(each.output.stdout())}\n${tail(each.output.stderr())}`;
}

/**
 * The database as an installation makes it: created, migrated by the schema's owner, the app
 * role allowed to log in (README, "PostgreSQL"), then seeded as the app role, as `mustard
 * seed-demo` does (in this process: the same code, without another start of the sources).
 */
async function prepareDatabase(cluster: PrivatePostgres, seed: TopologyOptions['seed']): Promise<void> {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const owner = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.url(DATABASE), max: 1 }) }),
  });
  try {
    await migrateToLatest(owner);
    await sql.raw(`ALTER ROLE ${APP_ROLE} LOGIN`).execute(owner);
  } finally {
    await owner.destroy();
  }
  if (!seed) return;
  const database = await openDatabase(
    { dataDir: '', databaseUrl: cluster.url(DATABASE, APP_ROLE), databaseMigrateUrl: undefined },
    { migrate: false, listen: false },
  );
  try {
    if (seed === 'demo') await seedDemo(database, DEMO_PASSWORD);
    else await seed(database);
  } finally {
    await database.close();
  }
}

/** The demo accounts' password in a topology (the config's default, MUSTARD_DEMO_PASSWORD). */
export const DEMO_PASSWORD = 'Mustard@2026';
