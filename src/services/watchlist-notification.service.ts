/**
 * Each watchlist's email setting (issue 33): off, instant, or a daily or weekly digest at a local
 * time (Europe/London), and the event types it mails. Only the owner reads or changes it (another
 * account's watchlist is 404); the one-click unsubscribe link turns it off without a log-in.
 */
import type { DataSource } from 'typeorm';
import { tierReceives } from '../events/audience';
import { DEFAULT_EMAIL_EVENTS } from '../events/mail/alerts';
import type { UnsubscribeTokens } from '../events/mail/unsubscribe';
import { badInput } from '../errors';
import { EVENT_TYPES, type EventType, isOneOf, type Tier } from '../vocabulary';
import type { WatchlistService } from './watchlist.service';

export const EMAIL_DELIVERIES = ['off', 'instant', 'daily', 'weekly'] as const;
export type EmailDelivery = (typeof EMAIL_DELIVERIES)[number];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface NotificationSettings {
  watchlistId: number;
  email: EmailDelivery;
  /** HH:MM, Europe/London */
  time: string;
  day: Weekday;
  events: EventType[];
}

/** A change: any of the fields; the others stay as they were. */
export interface NotificationChange {
  email?: unknown;
  time?: unknown;
  day?: unknown;
  events?: unknown;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DEFAULTS = { email: 'off' as EmailDelivery, time: '08:00', day: 'monday' as Weekday, events: [...DEFAULT_EMAIL_EVENTS] as EventType[] };

/** Checks a change field by field; the detail names the field in the API's words. */
export function parseNotificationChange(change: NotificationChange, tier: Tier): Partial<Omit<NotificationSettings, 'watchlistId'>> {
  const parsed: Partial<Omit<NotificationSettings, 'watchlistId'>> = {};
  if (change.email !== undefined) {
    if (!isOneOf(EMAIL_DELIVERIES, change.email)) throw badInput(`email must be one of ${EMAIL_DELIVERIES.join(', ')}`);
    parsed.email = change.email;
  }
  if (change.time !== undefined) {
    if (typeof change.time !== 'string' || !TIME.test(change.time)) throw badInput('time must be HH:MM (00:00 to 23:59, Europe/London)');
    parsed.time = change.time;
  }
  if (change.day !== undefined) {
    if (!isOneOf(WEEKDAYS, change.day)) throw badInput(`day must be one of ${WEEKDAYS.join(', ')}`);
    parsed.day = change.day;
  }
  if (change.events !== undefined) {
    if (!Array.isArray(change.events) || !change.events.length || change.events.length > EVENT_TYPES.length) throw badInput(`events must be a non-empty array of event types (${EVENT_TYPES.join(', ')})`);
    for (const type of change.events) {
      if (!isOneOf(EVENT_TYPES, type)) throw badInput(`events: ${JSON.stringify(type)} is not an event type (${EVENT_TYPES.join(', ')})`);
      if (!tierReceives(tier, type)) throw badInput(`events: ${type} needs the pro tier`);
    }
    parsed.events = [...new Set(change.events as EventType[])];
  }
  return parsed;
}

export class WatchlistNotificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly watchlists: WatchlistService,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  private async read(watchlistId: number): Promise<NotificationSettings> {
    const rows = (await this.dataSource.query(`SELECT email, time, day, events FROM watchlist_notification WHERE watchlist_id = $1`, [watchlistId])) as Omit<NotificationSettings, 'watchlistId'>[];
    return { watchlistId, ...DEFAULTS, ...rows[0] };
  }

  /** The setting of one of the caller's watchlists (404 for another account's). */
  async settingsOf(accountId: number, watchlistId: number): Promise<NotificationSettings> {
    await this.watchlists.owned(accountId, watchlistId);
    return this.read(watchlistId);
  }

  /** Changes the fields given; validated whole before anything is written. */
  async update(accountId: number, tier: Tier, watchlistId: number, change: NotificationChange): Promise<NotificationSettings> {
    const parsed = parseNotificationChange(change, tier);
    await this.watchlists.owned(accountId, watchlistId);
    const next = { ...(await this.read(watchlistId)), ...parsed };
    await this.write(next);
    return next;
  }

  /**
   * A move between daily and weekly, or to another time or day, keeps `digests_since`: the
   * watchlist's next digest starts where its last one ended. Switching digests on from off or
   * instant sets it, so what happened before (mailed instantly, or not wanted) is not listed.
   */
  private async write(s: NotificationSettings): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO watchlist_notification (watchlist_id, email, time, day, events, digests_since) VALUES ($1, $2, $3, $4, $5, CASE WHEN $2 IN ('daily', 'weekly') THEN now() END)
       ON CONFLICT (watchlist_id) DO UPDATE SET email = EXCLUDED.email, time = EXCLUDED.time, day = EXCLUDED.day, events = EXCLUDED.events, updated_at = now(),
         digests_since = CASE WHEN EXCLUDED.email NOT IN ('daily', 'weekly') THEN NULL WHEN watchlist_notification.email IN ('daily', 'weekly') THEN COALESCE(watchlist_notification.digests_since, now()) ELSE now() END`,
      [s.watchlistId, s.email, s.time, s.day, s.events],
    );
  }

  /** The one-click unsubscribe: the token's watchlist's email off; its name, or null for a token this server never made (or a watchlist gone). */
  async unsubscribe(token: string): Promise<{ watchlistName: string } | null> {
    const watchlistId = this.tokens.watchlistOf(token);
    if (watchlistId === null) return null;
    const rows = (await this.dataSource.query(`SELECT name FROM watchlist WHERE id = $1`, [watchlistId])) as { name: string }[];
    if (!rows[0]) return null;
    await this.dataSource.query(
      `INSERT INTO watchlist_notification (watchlist_id, email, time, day, events) VALUES ($1, 'off', $2, $3, $4)
       ON CONFLICT (watchlist_id) DO UPDATE SET email = 'off', updated_at = now(), digests_since = NULL`,
      [watchlistId, DEFAULTS.time, DEFAULTS.day, DEFAULTS.events],
    );
    return { watchlistName: rows[0].name };
  }

  /** Whether a token opens an unsubscribe page (the GET, which changes nothing). */
  async watchlistNameOf(token: string): Promise<string | null> {
    const watchlistId = this.tokens.watchlistOf(token);
    if (watchlistId === null) return null;
    const rows = (await this.dataSource.query(`SELECT name FROM watchlist WHERE id = $1`, [watchlistId])) as { name: string }[];
    return rows[0]?.name ?? null;
  }
}
