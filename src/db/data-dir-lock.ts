import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  hostname: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The data directory ${dir} is in use by process ${holder.pid} (since ${holder.since}). ` +
        'Only one process may open an embedded database: stop that process, or point DATA_DIR elsewhere.',
    );
  }
}

const LOCK_FILE = 'bill-progress.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process holding the lock on `dir`, or null when it is free or its holder has died. */
export function lockHolder(dir: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as LockHolder;
    if (holder.hostname === os.hostname() && !isAlive(holder.pid)) return null;
    return holder;
  } catch {
    return null;
  }
}

/**
 * An exclusive, cross-process lock on a data directory: PGlite has none of its own, and two
 * processes opening one directory corrupt it. A lock left by a dead process is taken over;
 * one held by a live process never is.
 */
export class DataDirLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(private readonly file: string) {
    process.once('exit', this.onExit);
  }

  static acquire(dir: string): DataDirLock {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, LOCK_FILE);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        const holder: LockHolder = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString() };
        writeSync(fd, JSON.stringify(holder));
        closeSync(fd);
        return new DataDirLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = lockHolder(dir);
        if (holder) throw new DataDirLockedError(dir, holder);
        try {
          unlinkSync(file);
        } catch {
          // another process removed the stale lock first; the next attempt decides
        }
      }
    }
    const holder = lockHolder(dir);
    throw new DataDirLockedError(dir, holder ?? { pid: -1, hostname: 'unknown', since: 'unknown' });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener('exit', this.onExit);
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}
