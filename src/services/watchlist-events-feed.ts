/**
 * A watchlist's events as feed entries (issue 33): the event log (`service_event`, what webhooks
 * deliver from) read for the watchlist's bills, newest first, each with a sentence that says what
 * happened. The REST door writes it out as Atom.
 */
import type { DataSource } from 'typeorm';
import { receivesEvent } from '../events/audience';
import type { ServiceEvent } from '../events/event';
import { eventSentence } from '../events/event-words';
import type { FeedOwner } from './watchlist-feed.service';

/** Entries a feed holds: readers poll, and keep what they have seen. */
export const FEED_ENTRIES = 50;

export interface FeedEntry {
  /** the event's id (`evt_…`), the same as on every other channel */
  eventId: string;
  type: string;
  billId: number;
  title: string;
  /** what happened, in words, then the event's data as JSON */
  content: string;
  occurredAt: Date;
  url: string;
}

export class WatchlistEventsFeed {
  constructor(
    private readonly dataSource: DataSource,
    /** a bill's page on the dashboard */
    private readonly billPage: (billId: number) => string,
  ) {}

  /**
   * The newest events of the watchlist's bills that its owner receives on every other channel
   * (src/events/audience.ts: Pro-only types only on Pro); an event for one account only (a
   * threshold crossed) only when it is the owner's and about this watchlist.
   */
  async entriesOf(owner: FeedOwner): Promise<{ name: string; entries: FeedEntry[] }> {
    const { name } = owner;
    if (!owner.billIds.length) return { name, entries: [] };
    // more than a page is read, as some are the owner's to miss (another account's, a tier's)
    const rows = (await this.dataSource.query(
      `SELECT e.id, e.type, e.bill_id, e.account_id, e.occurred_at, e.data, b.title
         FROM service_event e JOIN bill b ON b.id = e.bill_id
        WHERE e.bill_id = ANY($1) AND e.type <> 'webhook.test' AND (e.account_id IS NULL OR e.account_id = $2)
        ORDER BY e.occurred_at DESC, e.id DESC LIMIT $3`,
      [owner.billIds, owner.accountId, FEED_ENTRIES * 2],
    )) as { id: string; type: string; bill_id: number; account_id: number | null; occurred_at: Date; data: Record<string, unknown>; title: string }[];
    const recipient = { accountId: owner.accountId, tier: owner.tier, bills: new Set(owner.billIds) };
    const entries = rows
      .filter((r) => {
        const event = { id: r.id, type: r.type, timestamp: '', data: { ...r.data, bill_id: r.bill_id }, ...(r.account_id === null ? {} : { accountId: r.account_id }) } as ServiceEvent;
        return receivesEvent(event, recipient) && (r.account_id === null || r.data.watchlist_id === owner.watchlistId);
      })
      .slice(0, FEED_ENTRIES)
      .map((r) => {
        const title = eventSentence(r.type, r.title, r.data);
        return { eventId: r.id, type: r.type, billId: r.bill_id, title, content: `${title}.\n\n${JSON.stringify({ id: r.id, type: r.type, data: r.data })}`, occurredAt: new Date(r.occurred_at), url: this.billPage(r.bill_id) };
      });
    return { name, entries };
  }
}
