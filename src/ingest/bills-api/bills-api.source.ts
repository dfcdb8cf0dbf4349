/**
 * The live UK Parliament Bills API as a `BillSource`.
 *
 * Incremental sync: `/Bills` is read newest update first (`SortOrder=DateUpdatedDescending`) and
 * paging stops at the first bill whose `lastUpdate` is at or before `since`. The API's date-times
 * are UK local time without a zone; records carry them with the offset made explicit
 * (`withLondonOffset`), and comparisons keep their sub-millisecond digits, so passing back the newest
 * `lastUpdate` seen is exact (a `since` cut to milliseconds repeats at most the bills of that
 * millisecond, which the writer skips as unchanged). A bill re-updated while the list is being walked moves
 * to the top and may be missed by this run, but its new `lastUpdate` makes the next run pick it up;
 * the shift it causes can only repeat a bill, and repeats are dropped.
 *
 * When the API fails: a list page that is malformed, or a request still failing after the client's
 * retries (timeouts, 5xx, network), stops the sync; the bills already written stay (each whole)
 * and the next run carries on. A single bill whose responses are malformed, that the
 * API refuses (4xx) or that cannot be normalised is skipped and reported (`skipped()`).
 *
 * Sessions: the Bills API has no sessions endpoint. `sessions()` answers from `KNOWN_SESSIONS`
 * (names, end dates) plus every session id seen in the bills read so far, with the first and last
 * sitting dates seen in each; an unknown session is named by its id and has a null end date.
 */
import type { BillRecord, SessionRecord } from '../bill-record';
import type { BillBatchOptions, BillSource, SkippedBill } from '../bill-source';
import { assertWellFormed, billSchema, listPageSchema, stagesSchema } from './api-schemas';
import type { ApiBill, ApiBillSummary, ApiBillType, ApiStageSummary } from './api-types';
import { BillsApiClient, type BillsApiClientOptions, BillsApiError } from './bills-api-client';
import { timeKey } from './api-dates';
import { FALLBACK_BILL_TYPES } from './bill-types';
import { normaliseBill } from './normalise';
import { DEFAULT_MEMBERS_API_URL, MEMBERS_API_CLIENT, MemberPartyHistory } from './party-history';
import { type KnownSession, KNOWN_SESSIONS, SessionLedger } from './sessions';

export const DEFAULT_BILLS_API_URL = 'https://bills-api.parliament.uk/api/v1';

export interface BillsApiSourceOptions extends Partial<BillsApiClientOptions> {
  /** an already built client (its options win over the ones here) */
  client?: BillsApiClient;
  /** `Take` for `/Bills` (default 50) */
  listPageSize?: number;
  /** `Take` for `/Bills/{id}/Stages` (default 50; the API may return fewer, paging copes) */
  stagesPageSize?: number;
  /** sessions whose names and end dates are known (default `KNOWN_SESSIONS`) */
  knownSessions?: readonly KnownSession[];
  /** the Members API, for sponsors' dated party histories (default `DEFAULT_MEMBERS_API_URL`), read through the Bills API client's options and limit */
  membersApiUrl?: string;
}

export class BillsApiSource implements BillSource {
  readonly name: string;
  private readonly client: BillsApiClient;
  private readonly listPageSize: number;
  private readonly stagesPageSize: number;
  private readonly ledger: SessionLedger;
  private readonly parties: MemberPartyHistory;
  private billTypesPromise: Promise<Map<number, ApiBillType>> | null = null;
  private readonly skippedBills: SkippedBill[] = [];

  constructor(options: BillsApiSourceOptions = {}) {
    this.client = options.client ?? new BillsApiClient({ ...options, baseUrl: options.baseUrl ?? DEFAULT_BILLS_API_URL });
    this.name = `bills-api:${this.client.baseUrl}`;
    this.listPageSize = options.listPageSize ?? 50;
    this.stagesPageSize = options.stagesPageSize ?? 50;
    this.ledger = new SessionLedger(options.knownSessions ?? KNOWN_SESSIONS);
    // a short wait and one retry: a bill's sponsors fall back to the Bills API's parties when the Members API cannot answer
    this.parties = new MemberPartyHistory(this.client.withBaseUrl(options.membersApiUrl ?? DEFAULT_MEMBERS_API_URL, MEMBERS_API_CLIENT));
  }

  skipped(): readonly SkippedBill[] {
    return this.skippedBills;
  }

  async asOf(): Promise<string | null> {
    return null;
  }

  async sessions(): Promise<SessionRecord[]> {
    // Called before any bills were read, one page of the most recently updated bills reveals the current session ids.
    if (this.ledger.latestSessionId() === null) {
      const first = await this.client.getJson<{ items: ApiBillSummary[] | null }>('/Bills', {
        SortOrder: 'DateUpdatedDescending',
        Skip: 0,
        Take: this.listPageSize,
      });
      for (const bill of first.items ?? []) this.ledger.noteSessionIds(sessionIdsOf(bill));
    }
    return this.ledger.records();
  }

  async *bills(options: BillBatchOptions): AsyncGenerator<BillRecord[]> {
    const batchSize = Math.max(1, Math.floor(options.batchSize));
    const since = options.since === null ? null : timeKey(options.since);
    const billTypes = await this.billTypes();
    const seen = new Set<number>();
    let queue: ApiBillSummary[] = [];
    let totalReported = false;

    for await (const page of this.client.pages<ApiBillSummary>('/Bills', { SortOrder: 'DateUpdatedDescending' }, this.listPageSize)) {
      // nothing of a malformed page is used: the sync stops before it, with what came before written whole
      assertWellFormed(listPageSchema, { items: page.items, totalResults: page.totalResults }, `/Bills page at Skip=${page.skip}`);
      if (!totalReported && options.since === null) {
        options.onTotal?.(page.totalResults);
        totalReported = true;
      }
      // Noted before normalising so a bill of a session that has since been followed by another counts as fallen;
      // the first page is the most recently updated bills overall, whatever `since` says, so it shows the current session.
      for (const bill of page.items) this.ledger.noteSessionIds(sessionIdsOf(bill));

      let reachedSince = false;
      for (const bill of page.items) {
        if (since !== null && isAtOrBefore(bill.lastUpdate, since)) {
          reachedSince = true;
          break;
        }
        if (seen.has(bill.billId)) continue;
        seen.add(bill.billId);
        queue.push(bill);
        while (queue.length >= batchSize) {
          const batch = queue.slice(0, batchSize);
          queue = queue.slice(batchSize);
          yield await this.fetchBatch(batch, billTypes);
        }
      }
      if (reachedSince) break;
    }
    if (queue.length > 0) yield await this.fetchBatch(queue, billTypes);
  }

  /** Detail and stages of every bill of the batch, concurrently (the client bounds requests in flight). */
  private async fetchBatch(batch: readonly ApiBillSummary[], billTypes: Map<number, ApiBillType>): Promise<BillRecord[]> {
    // allSettled, not all: a failure must not leave sibling requests running after the iteration has thrown.
    const settled = await Promise.allSettled(batch.map((summary) => this.fetchBill(summary, billTypes)));
    const stopping = settled.findIndex((s) => s.status === 'rejected' && stopsTheSync(s.reason));
    if (stopping >= 0) {
      const reason = (settled[stopping] as PromiseRejectedResult).reason;
      throw new Error(`Bills API: could not read bill ${batch[stopping]!.billId}: ${messageOf(reason)}`, { cause: reason });
    }
    const records: BillRecord[] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') records.push(s.value);
      else this.skippedBills.push({ billId: batch[i]!.billId, reason: messageOf(s.reason) });
    });
    for (const record of records) this.ledger.observe(record);
    return records;
  }

  private async fetchBill(summary: ApiBillSummary, billTypes: Map<number, ApiBillType>): Promise<BillRecord> {
    const [detailResult, stagesResult] = await Promise.allSettled([
      this.client.getJson<ApiBill>(`/Bills/${summary.billId}`),
      this.client.getAll<ApiStageSummary>(`/Bills/${summary.billId}/Stages`, {}, this.stagesPageSize),
    ]);
    if (detailResult.status === 'rejected') throw detailResult.reason;
    if (stagesResult.status === 'rejected') throw stagesResult.reason;
    const detail = detailResult.value;
    const stages = stagesResult.value;
    assertWellFormed(billSchema, detail, `/Bills/${summary.billId}`);
    if (detail.billId !== summary.billId) throw new Error(`malformed /Bills/${summary.billId}: it describes bill ${detail.billId}`);
    assertWellFormed(stagesSchema, stages, `/Bills/${summary.billId}/Stages`);
    this.ledger.noteSessionIds(sessionIdsOf(detail));
    // the sponsors' parties on the introduction day, as training reads them (not the parties of today)
    await this.parties.load((detail.sponsors ?? []).flatMap((s) => (typeof s.member?.memberId === 'number' ? [s.member.memberId] : [])));
    return normaliseBill({
      summary,
      detail,
      stages,
      billType: billTypes.get(detail.billTypeId ?? summary.billTypeId),
      sessions: this.ledger,
      partyOn: (memberId, date) => this.parties.on(memberId, date),
    });
  }

  /** `/BillTypes` once per source; the built-in table covers ids 1–8 when the endpoint cannot be read. */
  private billTypes(): Promise<Map<number, ApiBillType>> {
    if (!this.billTypesPromise) {
      this.billTypesPromise = this.client
        .getAll<ApiBillType>('/BillTypes')
        .then((types) => {
          const map = new Map<number, ApiBillType>(FALLBACK_BILL_TYPES.map((t) => [t.id, t]));
          for (const t of types) map.set(t.id, t);
          return map;
        })
        .catch(() => {
          // Not cached, so the next run tries the endpoint again.
          this.billTypesPromise = null;
          return new Map<number, ApiBillType>(FALLBACK_BILL_TYPES.map((t) => [t.id, t]));
        });
    }
    return this.billTypesPromise;
  }
}

/** The API unreachable or failing after retries stops the sync; a bill it refuses or describes badly is skipped. */
const stopsTheSync = (error: unknown) => error instanceof BillsApiError && error.retryable;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function sessionIdsOf(bill: ApiBillSummary): number[] {
  const ids = [bill.introducedSessionId, ...(bill.includedSessionIds ?? [])];
  if (bill.currentStage && typeof bill.currentStage.sessionId === 'number') ids.push(bill.currentStage.sessionId);
  return ids.filter((id): id is number => typeof id === 'number' && Number.isFinite(id));
}

/** An unreadable `lastUpdate` is never "old": yielding a bill too many is allowed, missing one is not. */
function isAtOrBefore(lastUpdate: string | null | undefined, since: bigint): boolean {
  if (typeof lastUpdate !== 'string') return false;
  const key = timeKey(lastUpdate);
  return key !== null && key <= since;
}
