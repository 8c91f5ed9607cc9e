import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database serves one process only: two PGlite instances writing one data
 * directory would corrupt it. A lock file names the holder; a lock left by a process that no
 * longer runs (a crash, a power cut) is taken over.
 *
 * A pid alone does not name a process for long: after a reboot or in a container, the pid of a
 * crashed server is soon another program's (a shell, PostgreSQL, `sleep`), and a lock that only
 * asked "is this pid alive?" blocked every start. So the lock holds the pid and the moment that
 * process started (Linux: /proc/<pid>/stat), and a live pid that started at another moment is
 * not the holder.
 */
export class DataDirLockedError extends Error {}

export interface DataDirLock {
  release(): void;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or
 * undefined where there is no /proc (then a live pid is trusted to be the holder).
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so count after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** A lock written by a version that recorded the pid only: a Mustard server is a node process. */
function looksLikeNode(pid: number): boolean {
  try {
    return /node|tsx/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether the process named by a lock file's text still holds the lock. */
export function holderIsRunning(pid: number, recordedStart: string | undefined): boolean {
  if (!processIsAlive(pid)) return false;
  const start = processStartTime(pid);
  if (start === undefined) return true;
  if (recordedStart === undefined) return looksLikeNode(pid);
  return start === recordedStart;
}

/** The lock file's text: `<pid> <start time>` (the start time only where /proc tells it). */
export function lockText(pid: number): string {
  const start = processStartTime(pid);
  return start === undefined ? String(pid) : `${pid} ${start}`;
}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'mustard.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, lockText(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const [pidText, recordedStart] = readFileSync(file, 'utf8').trim().split(/\s+/);
      const holder = Number.parseInt(pidText ?? '', 10);
      if (holder === process.pid) {
        throw new DataDirLockedError(`The data directory ${dataDir} is already open in this process.`);
      }
      if (Number.isInteger(holder) && holder > 0 && holderIsRunning(holder, recordedStart)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Mustard process (pid ${holder}). ` +
            'Stop that process first, or set DATA_DIR to another directory.',
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone, or the pid is another program's now
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}
