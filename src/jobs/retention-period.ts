/**
 * RETENTION_DAYS's bounds, apart from the rules (src/jobs/retention-rules.ts) so the configuration
 * can check the variable without loading the services the rules name.
 */

/** RETENTION_DAYS when unset: how long finished webhook deliveries, the event log and older snapshots are kept. */
export const DEFAULT_RETENTION_DAYS = 90;
/**
 * The least RETENTION_DAYS may be: the dashboard re-sends the given-up deliveries of the last 30
 * days (`recover` with `since` 30 days back), so those must still be there, with a day to spare.
 */
export const MIN_RETENTION_DAYS = 31;
