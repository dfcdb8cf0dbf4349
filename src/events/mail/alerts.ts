/**
 * Instant alert emails as an EventSink (issue 33): in the emitter's transaction, beside the
 * webhook outbox, one mail_message per event per account with a watchlist set to `instant` that
 * holds the event's bill and asks for its type, whose address is VERIFIED and whose tier receives
 * it (`receivesEvent`, the rule of every channel). An event on several of an account's watchlists
 * is one email. Past DAILY_EMAIL_LIMIT emails (alerts and digests) in the account’s UTC day, the event is recorded in
 * `mail_deferred_event` instead, for the next digest.
 */
import type { EntityManager } from 'typeorm';
import type { Tier } from '../../vocabulary';
import { receivesEvent } from '../audience';
import type { EventSink, ServiceEvent } from '../event';
import { eventBody } from '../webhooks/outbox';
import { billPageUrl } from '../event-words';
import { alertContent } from './alert-content';
import { watchlistMailLinks } from './links';
import type { MailKind } from '../../db/entities/mail-message.entity';
import type { OutgoingMail } from './outbox';
import type { UnsubscribeTokens } from './unsubscribe';

/** Emails one account is sent in a UTC day at most (alerts and digests; the verification mail is not counted). Digests are never held back: they are where held-back alerts go. */
export const DAILY_EMAIL_LIMIT = 50;
/**
 * The kinds DAILY_EMAIL_LIMIT counts: the mail the service sends by itself. A verification or test
 * email is sent because the person asked for it, under its own hourly limit, so asking never holds
 * back an alert.
 */
export const DAILY_LIMIT_KINDS = ['alert', 'digest'] as const satisfies readonly MailKind[];
/** What a watchlist's instant email sends unless its settings name other types. */
export const DEFAULT_EMAIL_EVENTS = ['bill.stage_changed', 'bill.stage_scheduled', 'prediction.imminent_stage_change'] as const;

interface Subscriber {
  watchlist_id: number;
  name: string;
  account_id: number;
  email: string;
  tier: Tier;
  events: string[];
  bills: number[];
}

export interface MailAlertsOptions {
  from: string;
  publicUrl: string;
  tokens: UnsubscribeTokens;
  enqueue: (manager: Pick<EntityManager, 'query'>, mails: readonly OutgoingMail[]) => Promise<number>;
  now: () => Date;
}

/** The start of `at`'s UTC day. */
const utcDayStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export function mailAlertsSink(options: MailAlertsOptions): EventSink {
  const { publicUrl, tokens } = options;
  return async (manager, events) => {
    if (!events.length) return;
    const billIds = [...new Set(events.map((e) => e.data.bill_id))];
    const types = [...new Set(events.map((e) => e.type))];
    const subscribers = (await manager.query(
      `SELECT n.watchlist_id, w.name, w.account_id, a.email, a.tier, n.events, array_agg(wb.bill_id) AS bills
         FROM watchlist_notification n JOIN watchlist w ON w.id = n.watchlist_id JOIN account a ON a.id = w.account_id
         JOIN watchlist_bill wb ON wb.watchlist_id = w.id AND wb.bill_id = ANY($1::int[])
        WHERE n.email = 'instant' AND a.email_status = 'VERIFIED' AND n.events && $2::text[]
        GROUP BY n.watchlist_id, w.name, w.account_id, a.email, a.tier, n.events
        ORDER BY n.watchlist_id`,
      [billIds, types],
    )) as Subscriber[];
    if (!subscribers.length) return;
    const titles = new Map(((await manager.query(`SELECT id, title FROM bill WHERE id = ANY($1::int[])`, [billIds])) as { id: number; title: string }[]).map((b) => [b.id, b.title]));

    // each account's first watchlist that asks for the event: one email per account and event
    const chosen = new Map<string, { event: ServiceEvent; subscriber: Subscriber }>();
    for (const event of events) {
      for (const s of subscribers) {
        const key = `${s.account_id} ${event.id}`;
        if (chosen.has(key) || !s.events.includes(event.type)) continue;
        if (receivesEvent(event, { accountId: s.account_id, tier: s.tier, bills: new Set(s.bills) })) chosen.set(key, { event, subscriber: s });
      }
    }
    if (!chosen.size) return;

    const now = options.now();
    const accounts = [...new Set([...chosen.values()].map((c) => c.subscriber.account_id))];
    const sentToday = new Map(
      ((await manager.query(`SELECT account_id, count(*)::int AS n FROM mail_message WHERE account_id = ANY($1::int[]) AND kind = ANY($3::text[]) AND created_at >= $2 GROUP BY account_id`, [accounts, utcDayStart(now), DAILY_LIMIT_KINDS])) as { account_id: number; n: number }[]).map((r) => [r.account_id, r.n]),
    );
    const mails: OutgoingMail[] = [];
    const deferred: { event: ServiceEvent; subscriber: Subscriber }[] = [];
    for (const c of chosen.values()) {
      const count = sentToday.get(c.subscriber.account_id) ?? 0;
      if (count >= DAILY_EMAIL_LIMIT) {
        deferred.push(c);
        continue;
      }
      sentToday.set(c.subscriber.account_id, count + 1);
      const billId = c.event.data.bill_id;
      mails.push({
        accountId: c.subscriber.account_id,
        to: c.subscriber.email,
        kind: 'alert',
        eventId: c.event.id,
        content: alertContent(c.event, titles.get(billId) ?? `Bill ${billId}`, c.subscriber.name, {
          billUrl: billPageUrl(publicUrl, billId),
          ...watchlistMailLinks(publicUrl, options.from, tokens, c.subscriber.watchlist_id),
        }),
      });
    }
    if (mails.length) await options.enqueue(manager, mails);
    for (const { event, subscriber } of deferred) {
      await manager.query(
        `INSERT INTO mail_deferred_event (account_id, watchlist_id, event_id, event_type, bill_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, event_id) DO NOTHING`,
        [subscriber.account_id, subscriber.watchlist_id, event.id, event.type, event.data.bill_id, eventBody(event), now],
      );
    }
  };
}
