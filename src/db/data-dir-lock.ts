import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  hostname: string;
  since: string;
  /** unique per acquisition: tells a lock of this process from one left by an earlier process with the same pid */
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The data directory ${dir} is in use by process ${holder.pid} on ${holder.hostname} (since ${holder.since}). ` +
        'Only one process may open an embedded database: stop that process, or point DATA_DIR elsewhere.',
    );
  }
}

const LOCK_FILE = 'bill-progress.lock';
/** The holder touches its lock this often; a lock from another host untouched for STALE_AFTER_MS is abandoned. */
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 60_000;

/** tokens of the locks this process holds */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): { holder: LockHolder; text: string } | null {
  try {
    const text = readFileSync(file, 'utf8');
    return { holder: JSON.parse(text) as LockHolder, text };
  } catch {
    return null;
  }
}

/**
 * Whether a lock's holder is gone. On this host: its process has exited, or it has this process's
 * pid without being held here (a restarted container reuses pids). On another host (a shared
 * volume, or this container before it got a new hostname): it stopped touching the lock.
 */
function isStale(file: string, holder: LockHolder): boolean {
  if (holder.hostname === os.hostname()) {
    if (holder.pid === process.pid) return !heldHere.has(holder.token);
    return !isAlive(holder.pid);
  }
  try {
    return Date.now() - statSync(file).mtimeMs > STALE_AFTER_MS;
  } catch {
    return true;
  }
}

/** The live holder of the lock on `dir`, or null when it is free or abandoned. */
export function lockHolder(dir: string): LockHolder | null {
  const file = path.join(dir, LOCK_FILE);
  const read = readHolder(file);
  return read && !isStale(file, read.holder) ? read.holder : null;
}

/**
 * An exclusive, cross-process lock on a data directory: PGlite has none of its own, and two
 * processes opening one directory corrupt it. A lock is created whole in one step (written
 * aside, then hard-linked into place), and an abandoned one is moved aside before it is replaced,
 * so a lock another process has just taken is never removed. A live holder's lock is never taken.
 */
export class DataDirLock {
  private released = false;
  private readonly onExit = () => this.release();
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    private readonly file: string,
    private readonly token: string,
  ) {
    heldHere.add(token);
    process.once('exit', this.onExit);
    this.heartbeat = setInterval(() => {
      try {
        const now = new Date();
        utimesSync(this.file, now, now);
      } catch {
        // the next acquire by anyone decides
      }
    }, HEARTBEAT_MS).unref();
  }

  static acquire(dir: string): DataDirLock {
    // The database holds accounts and key hashes: only its owner may read it.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const file = path.join(dir, LOCK_FILE);
    const holder: LockHolder = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString(), token: randomBytes(12).toString('hex') };
    const draft = `${file}.${holder.token}`;
    writeFileSync(draft, JSON.stringify(holder), { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          linkSync(draft, file);
          return new DataDirLock(file, holder.token);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const current = readHolder(file);
        if (current && !isStale(file, current.holder)) throw new DataDirLockedError(dir, current.holder);
        DataDirLock.setAside(file, current?.text ?? null);
      }
      const current = readHolder(file);
      throw new DataDirLockedError(dir, current?.holder ?? { pid: -1, hostname: 'unknown', since: 'unknown', token: '' });
    } finally {
      unlinkSync(draft);
    }
  }

  /** Moves an abandoned lock out of the way; puts it back if what was moved was not the one judged abandoned. */
  private static setAside(file: string, staleText: string | null): void {
    const aside = `${file}.stale.${randomBytes(6).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch {
      return; // someone else moved it first
    }
    let movedText: string | null = null;
    try {
      movedText = readFileSync(aside, 'utf8');
    } catch {
      // unreadable: treat as the stale one
    }
    if (staleText !== null && movedText !== null && movedText !== staleText) {
      try {
        linkSync(aside, file);
      } catch {
        // a newer lock is in place already
      }
    }
    unlinkSync(aside);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    heldHere.delete(this.token);
    process.removeListener('exit', this.onExit);
    const current = readHolder(this.file);
    if (current?.holder.token === this.token) {
      try {
        unlinkSync(this.file);
      } catch {
        // already gone
      }
    }
  }
}
