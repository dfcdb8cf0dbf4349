import type { DependencyHealth } from '../health/dependency-health';
import { type Database, type DatabaseOptions, openDatabase } from './database';
import { isConnectionFailure } from '../common/connection-failure';

/** Waits between attempts: 0.5 s doubling to at most 10 s. */
export const openRetryDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 10_000);

export interface OpenWithRetryOptions {
  /** PostgreSQL's state (one log line per change, /readyz) */
  health: DependencyHealth;
  /** told once, at the first failure: the caller can start answering 503 meanwhile */
  onUnreachable?: () => Promise<void> | void;
  /** stops waiting (shutdown during start-up) */
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });

/**
 * Opens PostgreSQL, retrying with backoff for as long as it cannot be reached (any other failure,
 * such as a wrong password or a failed migration, is thrown at once: waiting will not mend it).
 */
export async function openDatabaseWithRetry(options: DatabaseOptions, { health, onUnreachable, signal, sleep = abortableSleep }: OpenWithRetryOptions): Promise<Database> {
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    try {
      const db = await openDatabase(options);
      health.up();
      return db;
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      health.down(error);
      if (attempt === 0) await onUnreachable?.();
    }
    await sleep(openRetryDelay(attempt), signal);
  }
}
