import { date, dateTime } from '../format';
import type { DataFreshness } from '../generated/schema';

/** How fresh the served data is (operations.ts: SESSION), typed from the schema. */
export type Freshness = Pick<DataFreshness, 'source' | 'asOf' | 'lastSuccessAt' | 'stale'>;

const SOURCE_NAMES: Record<string, string> = { live: 'the UK Parliament Bills API', snapshot: 'a snapshot' };

/** The footer's line: what the predictions are computed from. */
export function DataFreshnessNote({ freshness }: { freshness: Freshness }) {
  return (
    <span class="data-as-of">
      Data as of {date(freshness.asOf)}, from {SOURCE_NAMES[freshness.source] ?? freshness.source}.{' '}
    </span>
  );
}

/** Shown above every page while the service cannot reach its data source: what is shown may be behind Parliament. */
export function StaleDataWarning({ freshness }: { freshness: Freshness }) {
  return (
    <p class="warning" role="alert">
      The data may be out of date: the last successful update from {SOURCE_NAMES[freshness.source] ?? freshness.source} was {dateTime(freshness.lastSuccessAt)}. Stages since then are not shown yet.
    </p>
  );
}
