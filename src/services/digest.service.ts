/**
 * Email digests (issue 33): at each digest slot's time (Europe/London; src/services/digest-slots.ts)
 * one email per account for all its watchlists set to that slot, listing what changed since each
 * watchlist's last digest, at whatever slot (src/services/digest-changes.ts), through the mail outbox, so it has the
 * outbox's retries, fixed Message-ID and once-per-event rule. Each occurrence is recorded in
 * `mail_digest` in the transaction that enqueues its email (alone when nothing changed, so an
 * empty slot is not read again): a second tick, a restart or another instance never sends it twice.
 * Also the preview of the account's next digest, as it would be now.
 */
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../common/clock';
import type { Logger } from '../logger';
import { tierReceives } from '../events/audience';
import type { Tier } from '../vocabulary';
import type { MailContent } from '../events/mail/compose';
import { digestContent, type DigestWatchlist } from '../events/mail/digest-content';
import { watchlistMailLinks } from '../events/mail/links';
import type { Mail } from '../events/mail/mail';
import type { UnsubscribeTokens } from '../events/mail/unsubscribe';
import { CUT_OVERLAP_MS, DigestChangeReader, type DigestChanges, type PreviousDigest, type SlotWatchlist } from './digest-changes';
import { type DigestSlot, dueOccurrence, nextOccurrence, slotKey } from './digest-slots';
import type { PredictionService } from './prediction.service';
import type { Weekday } from './watchlist-notification.service';

/** One account's watchlists set to one slot. */
interface SlotGroup {
  accountId: number;
  address: string;
  slot: DigestSlot;
  key: string;
  watchlists: (SlotWatchlist & { name: string })[];
}

interface SettingRow {
  watchlist_id: number;
  name: string;
  account_id: number;
  address: string;
  delivery: 'daily' | 'weekly';
  time: string;
  day: Weekday;
  events: string[];
  digests_since: Date;
  tier: Tier;
}

/** What one look at the slots did. */
export interface DigestRun {
  /** slot occurrences due and not yet handled */
  due: number;
  /** digests enqueued */
  sent: number;
  /** occurrences recorded without an email: nothing changed */
  empty: number;
  /** occurrences left for the next look (an error, logged) */
  failed: number;
}

export interface DigestPreview {
  /** when it goes, if nothing more changes before */
  at: Date;
  slot: string;
  watchlistIds: number[];
  subject: string;
  text: string;
  html: string;
}

/** The digest email's X-Bill-Progress-Event-Id: derived from the occurrence, so a second write of it is the outbox's duplicate. */
const digestMailId = (accountId: number, key: string, at: Date) => `digest_${createHash('sha256').update(`${accountId} ${key} ${at.toISOString()}`).digest('hex').slice(0, 24)}`;

export class DigestService {
  private readonly changes: DigestChangeReader;

  constructor(
    private readonly dataSource: DataSource,
    predictions: PredictionService,
    clock: ServiceClock,
    private readonly mail: Pick<Mail, 'from' | 'enqueue' | 'queued'>,
    private readonly tokens: UnsubscribeTokens,
    /** PUBLIC_URL without its trailing slash */
    private readonly publicUrl: string,
    private readonly logger: Logger,
    /** the real time a preview looks ahead from (tests move it) */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.changes = new DigestChangeReader(dataSource, predictions, clock, publicUrl);
  }

  /** The digest settings, grouped by account and slot: every verified account's, or one account's whatever its status. */
  private async groups(only?: { accountId: number }): Promise<SlotGroup[]> {
    const rows = (await this.dataSource.query(
      `SELECT n.watchlist_id, w.name, w.account_id, a.email AS address, a.tier, n.email AS delivery, n.time, n.day, n.events,
              -- a setting from before digests_since was kept counts from its last change, never from 1970
              COALESCE(n.digests_since, n.updated_at) AS digests_since
         FROM watchlist_notification n JOIN watchlist w ON w.id = n.watchlist_id JOIN account a ON a.id = w.account_id
        WHERE n.email IN ('daily', 'weekly') AND ${only ? 'w.account_id = $1' : `a.email_status = 'VERIFIED'`}
        ORDER BY w.account_id, n.watchlist_id`,
      only ? [only.accountId] : [],
    )) as SettingRow[];
    const groups = new Map<string, SlotGroup>();
    for (const r of rows) {
      // the rule of every channel (src/events/audience.ts): an account moved to a tier without email
      // gets none, and one moved down receives only the event types its tier has
      if (r.tier === 'free') continue;
      const events = r.events.filter((type) => tierReceives(r.tier, type));
      const slot: DigestSlot = { email: r.delivery, time: r.time, day: r.day };
      const key = slotKey(slot);
      const id = `${r.account_id} ${key}`;
      if (!groups.has(id)) groups.set(id, { accountId: r.account_id, address: r.address, slot, key, watchlists: [] });
      groups.get(id)!.watchlists.push({ id: r.watchlist_id, name: r.name, events, digestsSince: new Date(r.digests_since) });
    }
    return [...groups.values()];
  }

  /** Each of the group's watchlists' last digest, at whatever slot; none for a watchlist never in one. */
  private async previous(group: SlotGroup): Promise<Map<number, PreviousDigest>> {
    const ids = group.watchlists.map((w) => w.id);
    const rows = (await this.dataSource.query(
      `WITH last AS (SELECT DISTINCT ON (w.id) w.id, d.covered_until FROM unnest($2::int[]) AS w(id) JOIN mail_digest d ON d.account_id = $1 AND w.id = ANY(d.watchlist_ids) ORDER BY w.id, d.covered_until DESC)
       SELECT d.watchlist_ids, d.covered_until, d.event_ids, d.probabilities FROM mail_digest d
        WHERE d.account_id = $1 AND d.watchlist_ids && $2::int[] AND d.covered_until >= (SELECT min(covered_until) FROM last) - $3 * interval '1 millisecond'
        ORDER BY d.covered_until`,
      [group.accountId, ids, CUT_OVERLAP_MS],
    )) as { watchlist_ids: number[]; covered_until: Date; event_ids: string[]; probabilities: Record<string, [number, number]> | string }[];
    const previous = new Map<number, PreviousDigest>();
    for (const id of ids) {
      const covering = rows.filter((r) => r.watchlist_ids.includes(id));
      const last = covering.at(-1);
      if (!last) continue;
      const coveredUntil = new Date(last.covered_until);
      // the digests that ended in the overlap the next one reads listed what it must not repeat
      const eventIds = covering.filter((r) => new Date(r.covered_until).getTime() >= coveredUntil.getTime() - CUT_OVERLAP_MS).flatMap((r) => r.event_ids);
      previous.set(id, { coveredUntil, eventIds: [...new Set(eventIds)], probabilities: typeof last.probabilities === 'string' ? JSON.parse(last.probabilities) : last.probabilities });
    }
    return previous;
  }

  /** The database's time: what changes are read up to, on the clock their recorded_at was written by. */
  private async databaseNow(): Promise<Date> {
    const rows = (await this.dataSource.query(`SELECT now() AS now`)) as { now: Date }[];
    return new Date(rows[0].now);
  }

  private content(group: SlotGroup, changes: DigestChanges): MailContent {
    const watchlists: DigestWatchlist[] = group.watchlists.map((w) => ({ id: w.id, name: w.name, links: watchlistMailLinks(this.publicUrl, this.mail.from, this.tokens, w.id) }));
    return digestContent({ slot: group.key, bills: changes.bills, watchlists });
  }

  /** Sends every digest due at `now` (the real time: tests move it) that no one has sent yet. */
  async sendDue(now: Date): Promise<DigestRun> {
    const run: DigestRun = { due: 0, sent: 0, empty: 0, failed: 0 };
    for (const group of await this.groups()) {
      const at = dueOccurrence(group.slot, now);
      if (!at) continue;
      const handled = (await this.dataSource.query(`SELECT 1 FROM mail_digest WHERE account_id = $1 AND slot = $2 AND slot_at = $3`, [group.accountId, group.key, at])) as unknown[];
      if (handled.length) continue;
      run.due++;
      try {
        const outcome = await this.send(group, at);
        if (outcome === 'sent') run.sent++;
        else if (outcome === 'empty') run.empty++;
      } catch (error) {
        // left unrecorded: the next look (within the catch-up window) tries it again
        run.failed++;
        this.logger.warn({ err: error, account: group.accountId, slot: group.key }, 'digest: could not be prepared; tried again at the next look');
      }
    }
    if (run.sent) this.mail.queued();
    if (run.due) this.logger.info({ ...run }, 'email digests');
    return run;
  }

  /** One occurrence: its record, and its email when something changed, in one transaction; `taken` when another got there first. */
  private async send(group: SlotGroup, at: Date): Promise<'sent' | 'empty' | 'taken'> {
    const until = await this.databaseNow();
    const changes = await this.changes.read(group.accountId, group.watchlists, await this.previous(group), until);
    const mailId = changes.bills.length ? digestMailId(group.accountId, group.key, at) : null;
    return this.dataSource.transaction(async (manager) => {
      const recorded = (await manager.query(
        `INSERT INTO mail_digest (account_id, slot, slot_at, covered_until, watchlist_ids, event_ids, probabilities, mail_event_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (account_id, slot, slot_at) DO NOTHING RETURNING id`,
        [group.accountId, group.key, at, until, group.watchlists.map((w) => w.id), changes.eventIds, JSON.stringify(changes.probabilities), mailId],
      )) as unknown[];
      if (!recorded.length) return 'taken';
      if (!mailId) return 'empty';
      await this.mail.enqueue(manager, [{ accountId: group.accountId, to: group.address, kind: 'digest', eventId: mailId, content: this.content(group, changes) }]);
      if (changes.deferredIds.length) await manager.query(`UPDATE mail_deferred_event SET digested_at = $2 WHERE id = ANY($1::int[]) AND digested_at IS NULL`, [changes.deferredIds, until]);
      return 'sent';
    });
  }

  /** The account's next digest as it would be if sent now: the soonest slot with something to say; null when none has. */
  async preview(accountId: number, now: Date = this.now()): Promise<DigestPreview | null> {
    const until = await this.databaseNow();
    const upcoming = (await this.groups({ accountId })).map((group) => ({ group, at: nextOccurrence(group.slot, now) })).sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const { group, at } of upcoming) {
      const changes = await this.changes.read(accountId, group.watchlists, await this.previous(group), until);
      if (!changes.bills.length) continue;
      const content = this.content(group, changes);
      return { at, slot: group.key, watchlistIds: group.watchlists.map((w) => w.id), subject: content.subject, text: content.text, html: content.html ?? '' };
    }
    return null;
  }
}
