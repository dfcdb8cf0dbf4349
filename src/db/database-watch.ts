import type { DataSource } from 'typeorm';
import type { DependencyHealth } from '../health/dependency-health';
import { isConnectionFailure } from '../common/connection-failure';

/** How often PostgreSQL is asked `SELECT 1`: how soon /readyz follows an outage and a recovery. */
export const DATABASE_PROBE_INTERVAL_MS = 2_000;

/**
 * Follows a PostgreSQL connection that was lost after start-up: a probe every interval marks the
 * database down on a connection failure and up on the next success. Requests meanwhile fail on their
 * own queries (a refused connection fails at once, `connectionTimeoutMillis` bounds the others) and
 * answer 503; node-postgres opens new connections by itself, so nothing else is needed to recover.
 */
export function watchDatabase(dataSource: DataSource, health: DependencyHealth, intervalMs = DATABASE_PROBE_INTERVAL_MS): { stop(): void } {
  let probing = false;
  const timer = setInterval(() => {
    if (probing) return;
    probing = true;
    dataSource
      .query('SELECT 1')
      .then(
        () => health.up(),
        (error: unknown) => {
          if (isConnectionFailure(error)) health.down(error);
        },
      )
      .finally(() => (probing = false));
  }, intervalMs).unref();
  return { stop: () => clearInterval(timer) };
}
