import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Helpers for the operational tests: the real `mustard` command and the real server run as
 * child processes, as an operator runs them. Every child is tracked and killed at the end of
 * its test file (stopChildren), and every wait is bounded.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
/** A 40-character JWT secret for the child processes; the in-process app uses the same bytes. */
export const CHILD_JWT_SECRET = 'operations-test-secret-0123456789abcdefg';
export const CHILD_JWT_SECRET_BYTES = new Uint8Array(Buffer.from(CHILD_JWT_SECRET, 'utf8'));
/** The sealing key of a child's stored secrets (SECRETS_KEY), given as the JWT secret is: a fresh install's data directory stays empty until the database is made there. */
export const CHILD_SECRETS_KEY = 'operations-test-sealing-key-0123456789abcdef';

export async function makeDataDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'mustard-ops-'));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/**
 * A minimal environment: nothing of the test runner's (no DATABASE_URL, no MUSTARD_TEST_DB)
 * leaks into the child, so it behaves as a fresh install would.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    TMPDIR: os.tmpdir(),
    JWT_SECRET: CHILD_JWT_SECRET,
    SECRETS_KEY: CHILD_SECRETS_KEY,
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Starts a TypeScript entry point with the tsx command, as `npm run mustard` and `npm start`
 * (scripts/start.mjs) do: tsx runs the script in a child node process and relays signals to it.
 * In its own process group so it can be killed whole.
 */
export function spawnTsx(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return track(spawn(TSX, [script, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
}

/** Starts a TypeScript entry point in a single node process (tsx as a loader only, no relay). */
export function spawnNode(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return track(
    spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
}

/** The pids of a process's children (Linux /proc). */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...; comm may hold spaces and parentheses, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Kills one child and its process group (tsx runs the script in a grandchild). */
export function killChild(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  children.delete(child);
}

/** For afterAll: kills every child this test file started that is still running. */
export function stopChildren(): void {
  for (const child of [...children]) killChild(child);
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ code, signal });
    };
    child.once('exit', onExit);
  });
}

/** Collects a child's stdout and stderr as text. */
export function collectOutput(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Runs `mustard <args>` (apps/server/src/cli.ts under tsx) to completion, at most timeoutMs. */
export async function runMustard(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawnTsx('apps/server/src/cli.ts', args, env);
  const output = collectOutput(child);
  try {
    const exit = await waitForExit(child, timeoutMs);
    return { ...exit, stdout: output.stdout(), stderr: output.stderr() };
  } catch (error) {
    killChild(child);
    throw new Error(`mustard ${args[0]}: ${(error as Error).message}\nstdout: ${output.stdout()}\nstderr: ${output.stderr()}`);
  }
}

/** A TCP port nobody listens on right now (asked from the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined, or fails after timeoutMs. */
export async function waitUntil<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

/** Starts a program that is not TypeScript (redis-server), tracked and killed as spawnTsx's children are. */
export function spawnProgram(command: string, args: string[], env: NodeJS.ProcessEnv = childEnv({})): ChildProcess {
  return track(spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
}

/** Whether a child is still running (neither exited nor killed by a signal). */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
