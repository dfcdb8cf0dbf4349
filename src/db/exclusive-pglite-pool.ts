import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGliteDriver } from 'typeorm-pglite';
import { PGlitePool } from 'typeorm-pglite/dist/pglite-pool';
import { getPGliteInstance } from 'typeorm-pglite';
import type { PGliteOptions } from '@electric-sql/pglite';

type QueryCallback = (error: unknown, result: unknown) => void;
type ConnectCallback = (error: unknown, client: PGliteSessionClient | null, release: (error?: unknown) => void) => void;

/** A FIFO mutex: `acquire` resolves with a release function once every earlier holder has released. */
export class SessionMutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let open!: () => void;
    const released = new Promise<void>((resolve) => (open = resolve));
    const turn = this.tail;
    this.tail = turn.then(() => released);
    return turn.then(() => {
      let done = false;
      return () => {
        if (!done) {
          done = true;
          open();
        }
      };
    });
  }
}

/**
 * PGlite runs a statement on this thread and answers within the caller's chain of promises, so a
 * run of statements (a transaction, a read of many slices) with the work between them would hold
 * the event loop from the first to the last, and every request with it. Each statement starts in a
 * turn of its own, as an answer from PostgreSQL arrives in one: a turn holds one statement at most.
 */
const statementTurn = () => nextTurn();

/** What a TypeORM query runner holds while it has the session: queries go to PGlite a turn at a time. */
class PGliteSessionClient extends EventEmitter {
  private released = false;

  constructor(
    private readonly session: PGlitePool,
    private readonly unlock: () => void,
  ) {
    super();
  }

  async query(sql: string, params?: unknown[] | QueryCallback, callback?: QueryCallback): Promise<unknown> {
    if (this.released) throw new Error('PGlite session used after release');
    await statementTurn();
    return this.session.query(sql, params as unknown[], callback);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.unlock();
  }
}

/** The process's one PGlite session (typeorm-pglite keeps one instance per process), shared by every pool. */
const SESSION = new SessionMutex();

/**
 * The embedded database as a gzipped tar of its data directory (PGlite's dumpDataDir), taken while
 * no query runner holds the session, after a checkpoint, so it never catches a transaction halfway.
 */
export async function dumpPGlite(): Promise<Blob> {
  const unlock = await SESSION.acquire();
  try {
    const pglite = await getPGliteInstance();
    await pglite.exec('CHECKPOINT');
    return await pglite.dumpDataDir('gzip');
  } finally {
    unlock();
  }
}

/**
 * typeorm-pglite hands every caller the same PGlite session and its release does nothing, so a
 * write from one request could run inside another's transaction and vanish with its rollback.
 * This pool checks the single session out exclusively: a query runner (and so a transaction)
 * holds it from connect to release, and everyone else waits their turn.
 */
export class ExclusivePGlitePool extends EventEmitter {
  private readonly session = new PGlitePool();
  private readonly mutex = SESSION;

  connect(callback: ConnectCallback): void {
    void this.mutex.acquire().then(async (unlock) => {
      try {
        await getPGliteInstance();
      } catch (error) {
        unlock();
        callback(error, null, () => {});
        return;
      }
      const client = new PGliteSessionClient(this.session, unlock);
      callback(null, client, () => client.release());
    });
  }

  async query(sql: string, params?: unknown[] | QueryCallback, callback?: QueryCallback): Promise<unknown> {
    const unlock = await this.mutex.acquire();
    try {
      await statementTurn();
      return await this.session.query(sql, params as unknown[], callback);
    } finally {
      unlock();
    }
  }

  end(callback: (error: unknown) => void): void {
    void this.mutex.acquire().then((unlock) =>
      this.session.end((error: unknown) => {
        unlock();
        callback(error);
      }),
    );
  }
}

/**
 * The `driver` option for TypeORM's postgres driver. typeorm-pglite keeps one PGlite instance per
 * process, so one process serves one embedded database at a time (the data-directory lock
 * enforces the same across processes).
 */
export function exclusivePGliteDriver(options: PGliteOptions): { Pool: typeof ExclusivePGlitePool } {
  new PGliteDriver(options);
  return { Pool: ExclusivePGlitePool };
}
