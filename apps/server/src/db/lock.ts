import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database serves one process only: two PGlite instances writing one data
 * directory would corrupt it. A lock file holding our pid guards it; a lock left by a process
 * that no longer runs (a crash, a power cut) is taken over.
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

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'mustard.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
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
      const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Mustard process (pid ${holder}). ` +
            'Stop that process first, or set DATA_DIR to another directory.',
        );
      }
      if (holder === process.pid) {
        throw new DataDirLockedError(`The data directory ${dataDir} is already open in this process.`);
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}
