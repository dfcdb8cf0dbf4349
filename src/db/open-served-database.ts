import type { Config } from '../config';
import { type Database, openDatabase } from './database';
import { DependencyHealth } from '../health/dependency-health';
import type { Logger } from '../logger';
import type { Readiness } from '../health/readiness';
import { watchDatabase } from './database-watch';
import { openDatabaseWithRetry } from './open-with-retry';

/** What answers on the service's port while the database cannot be reached, until the app takes the port over. */
export interface HeldPort {
  port: number;
  close(): Promise<void>;
}

export interface ServedDatabaseOptions {
  /** starts what answers on the service's port while PostgreSQL is unreachable (the composition passes the not-ready listener) */
  holdPort: () => Promise<HeldPort>;
  /** stops waiting for PostgreSQL */
  signal?: AbortSignal;
}

export interface ServedDatabase {
  db: Database;
  /** frees the service's port if a not-ready listener held it; returns the port the app should listen on */
  handOverPort(): Promise<number>;
  stopWatching(): void;
}

/**
 * The server's database. The embedded one opens or fails at once. PostgreSQL that cannot be
 * reached is retried with backoff, meanwhile `holdPort`'s listener answers on the service's port
 * (503 naming PostgreSQL); once open, a probe follows later outages for /readyz.
 */
export async function openServedDatabase(config: Config, logger: Logger, readiness: Readiness, { holdPort, signal }: ServedDatabaseOptions): Promise<ServedDatabase> {
  const options = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize };
  if (!config.databaseUrl) {
    return { db: await openDatabase(options), handOverPort: async () => config.port, stopWatching: () => undefined };
  }
  const health = new DependencyHealth('PostgreSQL', readiness, logger);
  let notReady: HeldPort | undefined;
  let db: Database;
  try {
    db = await openDatabaseWithRetry(options, {
      health,
      signal,
      onUnreachable: async () => {
        notReady = await holdPort();
        logger.info({ port: notReady.port, waitingFor: 'PostgreSQL' }, 'listening');
      },
    });
  } catch (error) {
    await notReady?.close();
    throw error;
  }
  const watch = watchDatabase(db.dataSource, health);
  return {
    db,
    handOverPort: async () => {
      if (!notReady) return config.port;
      await notReady.close();
      return notReady.port;
    },
    stopWatching: () => watch.stop(),
  };
}
