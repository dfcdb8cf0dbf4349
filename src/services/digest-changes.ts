/**
 * What changed for one account's digest slot (issue 33), each of its watchlists since that
 * watchlist's last digest, at whatever slot it was (the first one: since its digests were switched
 * on), so moving a watchlist to another time neither drops nor repeats a change: the stage changes
 * and scheduled sittings recorded on its bills (of the types it mails), the alerts held back by the
 * daily bound (mail_deferred_event, any of the account's), and moves of DIGEST_PROBABILITY_MOVE or
 * more in a bill's Royal Assent or next-stage-30d probability, measured from what that last digest
 * saw (the first one: the bill's last snapshot before digests were switched on). Each bill that
 * changed comes with its current nowcast.
 */
import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../common/clock';
import type { ServiceEvent } from '../events/event';
import type { DigestBill } from '../events/mail/digest-content';
import { probabilityMove } from '../events/mail/digest-content';
import { billPageUrl, whatHappenedLine } from '../events/event-words';
import type { PredictionResult } from './prediction-result';
import type { PredictionService } from './prediction.service';

/** A move this large (5 percentage points) in either headline probability is a change worth a digest line. */
export const DIGEST_PROBABILITY_MOVE = 0.05;
/** The event types a digest lists (when the watchlist mails them): what happened in Parliament. */
export const DIGEST_EVENT_TYPES = ['bill.stage_changed', 'bill.stage_scheduled'] as const;
/**
 * Events are read from a little before the last digest's cut: an event's recorded_at is its
 * transaction's start, so one committed just after the cut can carry an earlier time. The ids the
 * digests ending in that overlap listed are left out, so it repeats nothing; it never reaches back
 * before digests were switched on, which the first digest did not cover either.
 */
export const CUT_OVERLAP_MS = 10 * 60_000;
const EPSILON = 1e-9;

/** One of the slot's watchlists, as the digest reads it. */
export interface SlotWatchlist {
  id: number;
  events: string[];
  /** when its digests were switched on: where its first digest starts */
  digestsSince: Date;
}

/** What a watchlist's last digest left for its next, at whatever slot. */
export interface PreviousDigest {
  coveredUntil: Date;
  /** the events listed by the digests of the watchlist that ended within CUT_OVERLAP_MS of coveredUntil */
  eventIds: string[];
  probabilities: Record<string, [number, number]>;
}

/** Where one watchlist's changes start. */
interface Window {
  watchlist: SlotWatchlist;
  bills: number[];
  since: Date;
  previous: PreviousDigest | null;
}

export interface DigestChanges {
  /** the bills that changed, in bill order; empty: no digest */
  bills: DigestBill[];
  /** the service events listed (kept with the digest) */
  eventIds: string[];
  /** the held-back alerts listed (marked digested with the digest) */
  deferredIds: number[];
  /** every watched bill's probabilities now: what the next digest measures from */
  probabilities: Record<string, [number, number]>;
}

interface EventRow {
  id: string;
  type: string;
  bill_id: number;
  data: Record<string, unknown>;
  occurred_at: Date;
}

const asEvent = (r: EventRow): ServiceEvent => ({ id: r.id, type: r.type as ServiceEvent['type'], timestamp: new Date(r.occurred_at).toISOString(), data: { ...r.data, bill_id: r.bill_id } });
const moved = (from: number, to: number) => Math.abs(to - from) >= DIGEST_PROBABILITY_MOVE - EPSILON;

export class DigestChangeReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly predictions: PredictionService,
    private readonly clock: ServiceClock,
    /** PUBLIC_URL without its trailing slash */
    private readonly publicUrl: string,
  ) {}

  /**
   * The changes for `accountId`'s slot of `watchlists` up to `until` (the database's time), each
   * from its `previous` digest (by watchlist id), unless its digests were switched on since.
   */
  async read(accountId: number, watchlists: readonly SlotWatchlist[], previous: ReadonlyMap<number, PreviousDigest>, until: Date): Promise<DigestChanges> {
    const holdings = (await this.dataSource.query(`SELECT watchlist_id, bill_id FROM watchlist_bill WHERE watchlist_id = ANY($1::int[])`, [watchlists.map((w) => w.id)])) as { watchlist_id: number; bill_id: number }[];
    const watched = [...new Set(holdings.map((h) => h.bill_id))];
    const windows = watchlists.map((watchlist): Window => {
      const last = previous.get(watchlist.id);
      // a digest from before digests were last switched on covered a time when none were wanted
      const from = last && last.coveredUntil.getTime() >= watchlist.digestsSince.getTime() ? last : null;
      return { watchlist, bills: holdings.filter((h) => h.watchlist_id === watchlist.id).map((h) => h.bill_id), since: from?.coveredUntil ?? watchlist.digestsSince, previous: from };
    });
    const found = new Map<string, ServiceEvent>();
    for (const e of (await Promise.all(windows.map((w) => this.eventsOf(accountId, w, until)))).flat()) found.set(e.id, e);
    const events = [...found.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id));
    const deferred = (await this.dataSource.query(`SELECT id, event_id, body FROM mail_deferred_event WHERE account_id = $1 AND digested_at IS NULL ORDER BY id`, [accountId])) as { id: number; event_id: string; body: string }[];
    const listed = new Set(events.map((e) => e.id));
    const held = deferred.map((d) => JSON.parse(d.body) as ServiceEvent).filter((e) => !listed.has(e.id));

    const billIds = [...new Set([...watched, ...held.map((e) => e.data.bill_id)])];
    const nowcasts = await this.nowcasts(billIds);
    const baselines = await this.baselines(windows);
    const changes = new Map<number, string[]>();
    const add = (billId: number, line: string) => changes.set(billId, [...(changes.get(billId) ?? []), line]);
    for (const e of events) add(e.data.bill_id, whatHappenedLine(e.type, e.data));
    for (const e of held) add(e.data.bill_id, whatHappenedLine(e.type, e.data));
    for (const billId of watched) {
      const now = nowcasts.get(billId);
      const before = baselines.get(billId);
      if (!now || !before) continue;
      if (moved(before[0], now.probabilities.royal_assent)) add(billId, probabilityMove('Royal Assent', before[0], now.probabilities.royal_assent));
      if (moved(before[1], now.probabilities.next_stage_30d)) add(billId, probabilityMove('Next stage within 30 days', before[1], now.probabilities.next_stage_30d));
    }
    const bills = [...changes.keys()]
      .sort((a, b) => a - b)
      .map((billId): DigestBill => {
        const now = nowcasts.get(billId);
        return {
          billId,
          title: now?.billTitle ?? `Bill ${billId}`,
          billUrl: billPageUrl(this.publicUrl, billId),
          changes: changes.get(billId)!,
          royalAssent: now?.probabilities.royal_assent ?? null,
          nextStage30d: now?.probabilities.next_stage_30d ?? null,
          etaDays: now?.timelineEtaDays ?? null,
        };
      });
    const probabilities = Object.fromEntries(watched.flatMap((id) => (nowcasts.has(id) ? [[String(id), [nowcasts.get(id)!.probabilities.royal_assent, nowcasts.get(id)!.probabilities.next_stage_30d] as [number, number]]] : [])));
    return { bills, eventIds: events.map((e) => e.id), deferredIds: deferred.map((d) => d.id), probabilities };
  }

  /** The listed events of one watchlist's window: on its bills, of the types it mails. */
  private async eventsOf(accountId: number, w: Window, until: Date): Promise<ServiceEvent[]> {
    const types = DIGEST_EVENT_TYPES.filter((type) => w.watchlist.events.includes(type));
    if (!w.bills.length || !types.length) return [];
    const rows = (await this.dataSource.query(
      `SELECT id, type, bill_id, data, occurred_at FROM service_event
        WHERE bill_id = ANY($1::int[]) AND type = ANY($2::text[]) AND (account_id IS NULL OR account_id = $3)
          AND recorded_at > $4 AND recorded_at <= $5 AND NOT (id = ANY($6::text[]))`,
      [w.bills, types, accountId, new Date(w.previous ? Math.max(w.since.getTime() - CUT_OVERLAP_MS, w.watchlist.digestsSince.getTime()) : w.since.getTime()), until, w.previous?.eventIds ?? []],
    )) as EventRow[];
    return rows.map(asEvent);
  }

  /**
   * What each watched bill's moves are measured from: the figure its watchlist's last digest saw
   * or, for a bill that digest did not hold, its snapshot then; with the bill on several of the
   * slot's watchlists, the latest of them.
   */
  private async baselines(windows: readonly Window[]): Promise<Map<number, [number, number]>> {
    const baselines = new Map<number, [number, number]>();
    for (const w of [...windows].sort((a, b) => a.since.getTime() - b.since.getTime())) {
      const seen = w.previous?.probabilities ?? {};
      for (const [id, p] of await this.snapshotsAt(w.bills.filter((id) => !seen[String(id)]), w.since)) baselines.set(id, p);
      for (const id of w.bills) if (seen[String(id)]) baselines.set(id, seen[String(id)]);
    }
    return baselines;
  }

  /** Today's nowcasts of the bills that have one (a bill gone from the data, or not yet introduced, has none). */
  private async nowcasts(billIds: readonly number[]): Promise<Map<number, PredictionResult>> {
    if (!billIds.length) return new Map();
    const results = await this.predictions.nowcasts(billIds, this.clock.today());
    return new Map(results.flatMap((r) => (r instanceof Error ? [] : [[r.billId, r] as const])));
  }

  /** Each bill's last snapshot taken at or before `at`: a first digest's baseline. */
  private async snapshotsAt(billIds: readonly number[], at: Date): Promise<Map<number, [number, number]>> {
    if (!billIds.length) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT ON (bill_id) bill_id, royal_assent, next_stage30d FROM prediction_snapshot WHERE bill_id = ANY($1::int[]) AND taken_at <= $2 ORDER BY bill_id, taken_at DESC, id DESC`,
      [billIds, at],
    )) as { bill_id: number; royal_assent: number; next_stage30d: number }[];
    return new Map(rows.map((r) => [r.bill_id, [r.royal_assent, r.next_stage30d]]));
  }
}
