/**
 * A watchlist's calendar as data (issue 33): its bills' sittings as all-day events and each live
 * bill's predicted next stage as a tentative one, each with a stable UID and a SEQUENCE kept in
 * `calendar_event_version`. The REST door writes it out as iCalendar.
 */
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../common/clock';
import { addDays } from '../common/dates';
import { AppError } from '../errors';
import { billPageUrl } from '../events/event-words';
import type { PredictionService } from './prediction.service';
import type { FeedOwner } from './watchlist-feed.service';

export interface CalendarEntry {
  /** stable across fetches, restarts and token rotations: what calendar apps update an event by */
  uid: string;
  /** the all-day event's day, YYYY-MM-DD */
  date: string;
  /** a predicted stage: iCalendar STATUS:TENTATIVE */
  tentative: boolean;
  summary: string;
  description: string;
  url: string;
  /** raised each time the entry's content changes */
  sequence: number;
  /** when the content last changed (DTSTAMP, LAST-MODIFIED) */
  changedAt: Date;
}

export interface WatchlistCalendar {
  name: string;
  entries: CalendarEntry[];
}

type Unversioned = Omit<CalendarEntry, 'sequence' | 'changedAt'>;

// a constant, not PUBLIC_URL's host: a UID that changed with the address would make every app duplicate the events
const UID_DOMAIN = 'bill-progress';

const stageWords = (stage: string) => {
  const words = stage.replace(/_/g, ' ');
  return stage === 'royal_assent' ? 'Royal Assent' : words.charAt(0).toUpperCase() + words.slice(1);
};
const inHouse = (house: string) => (house === 'Commons' || house === 'Lords' ? ` (${house})` : '');
const where = (stage: string, house: string) => `${stageWords(stage)}${inHouse(house)}`;
/** the same within a sentence: the stage in lower case, Royal Assent and the house as they are spelt */
const whereInSentence = (stage: string, house: string) => `${stage === 'royal_assent' ? 'Royal Assent' : stage.replace(/_/g, ' ')}${inHouse(house)}`;
const percent = (p: number) => (p > 0 && p < 0.005 ? 'under 1%' : p < 1 && p > 0.995 ? 'over 99%' : `${Math.round(p * 100)}%`);

/**
 * Records what each of a watchlist's documents says (`uid` → SHA-256 of its content) and answers
 * the SEQUENCE and time of the content's last change: 0 when first seen, one more at each change,
 * in one statement, so instances writing at once agree and nothing is counted twice.
 */
export async function versionsOf(dataSource: Pick<DataSource, 'query'>, watchlistId: number, hashes: ReadonlyMap<string, string>): Promise<Map<string, { sequence: number; changedAt: Date }>> {
  const uids = [...hashes.keys()];
  const versions = new Map<string, { sequence: number; changedAt: Date }>();
  if (!uids.length) return versions;
  await dataSource.query(
    `INSERT INTO calendar_event_version (watchlist_id, uid, content_hash, sequence, changed_at)
     SELECT $1, t.uid, t.hash, 0, now() FROM unnest($2::text[], $3::text[]) AS t(uid, hash)
     ON CONFLICT (watchlist_id, uid) DO UPDATE
       SET content_hash = EXCLUDED.content_hash, sequence = calendar_event_version.sequence + 1, changed_at = now()
       WHERE calendar_event_version.content_hash <> EXCLUDED.content_hash`,
    [watchlistId, uids, uids.map((uid) => hashes.get(uid)!)],
  );
  const rows = (await dataSource.query(`SELECT uid, sequence, changed_at FROM calendar_event_version WHERE watchlist_id = $1 AND uid = ANY($2)`, [watchlistId, uids])) as {
    uid: string;
    sequence: number;
    changed_at: Date;
  }[];
  for (const r of rows) versions.set(r.uid, { sequence: Number(r.sequence), changedAt: new Date(r.changed_at) });
  return versions;
}

export const contentHash = (content: unknown) => createHash('sha256').update(JSON.stringify(content)).digest('hex');

export class WatchlistCalendarService {
  /** PUBLIC_URL without a trailing slash: the dashboard's address, for each event's link to its bill's page */
  readonly publicUrl: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly predictions: PredictionService,
    private readonly clock: ServiceClock,
    publicUrl: string,
  ) {
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  billPage(billId: number): string {
    return billPageUrl(this.publicUrl, billId);
  }

  async calendarOf(owner: FeedOwner): Promise<WatchlistCalendar> {
    const { name } = owner;
    const entries = [...(await this.sittings(owner)), ...(await this.predictedStages(owner))];
    const versions = await versionsOf(this.dataSource, owner.watchlistId, new Map(entries.map((e) => [e.uid, contentHash([e.date, e.tentative, e.summary, e.description, e.url])])));
    return { name, entries: entries.map((e) => ({ ...e, ...versions.get(e.uid)! })) };
  }

  /**
   * Every day a stage of the bills sat, and every date one is set down for and still stands
   * (`scheduled_sitting`): one event per stage record and day, so a set-down date that comes and
   * is held stays the same event. A date that moves is another event; the old one leaves the calendar.
   */
  private async sittings(owner: FeedOwner): Promise<Unversioned[]> {
    if (!owner.billIds.length) return [];
    const rows = (await this.dataSource.query(
      `SELECT s.stage_id, s.bill_id, s.stage, s.house, s.day, b.title FROM (
         SELECT bs.id AS stage_id, bs.bill_id, bs.stage, bs.house, d::text AS day
           FROM bill_stage bs, unnest(bs.sitting_dates) d WHERE bs.bill_id = ANY($1) AND NOT d = ANY(bs.dates_after_session_end)
         UNION
         SELECT ss.bill_stage_id, ss.bill_id, ss.stage, ss.house, ss.scheduled_for::text FROM scheduled_sitting ss WHERE ss.bill_id = ANY($1) AND ss.superseded_at IS NULL
       ) s JOIN bill b ON b.id = s.bill_id ORDER BY s.day, s.bill_id, s.stage_id`,
      [owner.billIds],
    )) as { stage_id: number; bill_id: number; stage: string; house: string; day: string; title: string }[];
    const seen = new Set<string>();
    return rows.flatMap((r) => {
      const uid = `${owner.watchlistId}-sitting-${r.stage_id}-${r.day}@${UID_DOMAIN}`;
      // a stage record rewritten by a sync may briefly name another stage for the same id and day
      if (seen.has(uid)) return [];
      seen.add(uid);
      const url = this.billPage(r.bill_id);
      return [{ uid, date: r.day, tentative: false, summary: `${where(r.stage, r.house)}: ${r.title}`, description: `${r.title}: ${whereInSentence(r.stage, r.house)}. ${url}`, url }];
    });
  }

  /**
   * Each live bill's next stage on today plus its ETA (rounded, as the imminent list dates it),
   * tentative, with the probability of a stage within 30 days. Today's nowcasts are the day's
   * shared ones (computed once per model, data and day), and the calendar shows what the free
   * imminent list shows, so a fetch charges no prediction; with no model serving yet the calendar
   * holds the sittings alone.
   */
  private async predictedStages(owner: FeedOwner): Promise<Unversioned[]> {
    if (!owner.billIds.length || (await this.predictions.servingState()) === null) return [];
    const today = this.clock.today();
    let results;
    try {
      results = await this.predictions.nowcasts(owner.billIds, today);
    } catch (error) {
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') return [];
      throw error;
    }
    return results.flatMap((p) => {
      if (p instanceof AppError || p.status !== 'live' || p.timelineEtaDays === null) return [];
      const url = this.billPage(p.billId);
      const chance = percent(p.probabilities.next_stage_30d);
      const after = p.lastStage ? `after ${whereInSentence(p.lastStage.stage, p.lastStage.house)}` : 'its first';
      const basis = p.timelineEtaScheduledFor ? `set down for ${p.timelineEtaScheduledFor}` : 'the model’s estimate of when it comes, if it does';
      return [
        {
          uid: `${owner.watchlistId}-next-stage-${p.billId}@${UID_DOMAIN}`,
          date: addDays(today, Math.round(p.timelineEtaDays)),
          tentative: true,
          summary: `Predicted next stage: ${p.billTitle} (${chance} within 30 days)`,
          description: `${p.billTitle}: the next main stage ${after}, ${basis}. Chance of a stage within 30 days: ${chance}. ${url}`,
          url,
        },
      ];
    });
  }
}
