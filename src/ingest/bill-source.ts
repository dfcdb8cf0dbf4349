import type { BillRecord, SessionRecord } from './bill-record';

/** Where bills come from: a snapshot folder or the live UK Parliament Bills API. Both feed the same ingest writer. */
export interface BillSource {
  /** for logs and the sync state, e.g. `snapshot:/path` or `bills-api:https://…` */
  readonly name: string;
  /** the date the source's facts are complete up to (a snapshot's `asOf`); null for a live source */
  asOf(): Promise<string | null>;
  sessions(): Promise<SessionRecord[]>;
  /**
   * Bills in batches of at most `batchSize`. With `since` (an ISO date-time), a source that can
   * tell may yield only bills updated after it; yielding more is allowed (the writer skips unchanged bills).
   */
  bills(options: BillBatchOptions): AsyncIterable<BillRecord[]>;
  /** bills this run could not read and left out (reported; the sync cursor stays so the next run tries them again) */
  skipped?(): readonly SkippedBill[];
}

export interface SkippedBill {
  billId: number;
  reason: string;
}

export interface BillBatchOptions {
  since: string | null;
  batchSize: number;
  /** told how many bills the source expects to yield, when it knows, for progress reporting */
  onTotal?: (total: number) => void;
}
