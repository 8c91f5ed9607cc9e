import { execFile } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, makeDataDir, removeDir } from './helpers.js';

const run = promisify(execFile);

/**
 * A PostgreSQL server of a test's own, made with the installed binaries (initdb, pg_ctl) in a
 * temporary directory on a free port: the shared test server must never be stopped, and a real
 * restart (the postmaster going away, every backend told to end) can only be tried on a server
 * the test owns. PostgreSQL refuses to run as root, so under root it runs as an ordinary user.
 */
export interface PrivatePostgres {
  port: number;
  /** The superuser's connection string to database `database` (default postgres). */
  url(database?: string, user?: string): string;
  /** A fast shutdown, as `systemctl stop postgresql` does: every backend is told to end. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (immediately) and removes its directory. */
  destroy(): Promise<void>;
}

/** The directory of initdb and pg_ctl: POSTGRES_BIN_DIR, or the newest of Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string | undefined {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** The uid and gid PostgreSQL runs as: ours, or under root the `postgres` (else `nobody`) account's. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const accounts = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length > 3);
  const account = accounts.find((fields) => fields[0] === 'postgres') ?? accounts.find((fields) => fields[0] === 'nobody');
  if (!account) throw new Error('Running as root, and neither a postgres nor a nobody account exists to run PostgreSQL as.');
  return { uid: Number(account[2]), gid: Number(account[3]) };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('No PostgreSQL binaries (initdb, pg_ctl) found: install PostgreSQL or set POSTGRES_BIN_DIR.');
  const dir = await makeDataDir();
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const options = { ...user, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, timeout: 60_000 };
  const pgCtl = (...args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args], options);

  await run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], options);
  // fsync off: the test restarts the database server, never the machine, and the operating
  // system keeps what was written; the server stays on its own port and directory alone.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => void (await pgCtl('start', '-w', '-t', '30', '-l', path.join(dir, 'log'), '-o', serverOptions));
  await start();
  return {
    port,
    url: (database = 'postgres', role = 'postgres') => `postgres://${role}@127.0.0.1:${port}/${database}`,
    stop: async () => void (await pgCtl('stop', '-w', '-t', '30', '-m', 'fast')),
    start,
    destroy: async () => {
      await pgCtl('stop', '-w', '-t', '30', '-m', 'immediate').catch(() => undefined);
      await removeDir(dir);
    },
  };
}
