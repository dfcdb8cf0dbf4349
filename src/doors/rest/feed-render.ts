/**
 * The watchlist feeds' text (issue 33): its calendar as iCalendar (RFC 5545, ical-generator) and
 * its events as Atom (RFC 4287, feed), from the read models in src/services.
 */
import { Feed } from 'feed';
import ical, { ICalEventStatus } from 'ical-generator';
import type { WatchlistCalendar } from '../../services/watchlist-calendar';
import type { FeedEntry } from '../../services/watchlist-events-feed';
import { escapeHtml } from '../../common/html';

const ATTRIBUTION = 'Contains Parliamentary information licensed under the Open Parliament Licence v3.0.';
/** REFRESH-INTERVAL and X-PUBLISHED-TTL: a hint to poll hourly, as often as the data can change on the live Bills API (every sync) */
const POLL_SECONDS = 3600;

/** An all-day date as the UTC midnight ical-generator writes as that date (VALUE=DATE). */
const dayOf = (date: string) => new Date(`${date}T00:00:00Z`);

export function calendarText(calendar: WatchlistCalendar): string {
  const cal = ical({
    name: `Bill Progress: ${calendar.name}`,
    description: `The sittings of the bills on the watchlist “${calendar.name}”, and each live bill’s predicted next stage (tentative). ${ATTRIBUTION}`,
    prodId: { company: 'Bill Progress', product: 'Watchlist calendar', language: 'EN' },
    ttl: POLL_SECONDS,
  });
  for (const e of calendar.entries) {
    cal.createEvent({
      id: e.uid,
      start: dayOf(e.date),
      allDay: true,
      summary: e.summary,
      description: e.description,
      url: e.url,
      status: e.tentative ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
      sequence: e.sequence,
      // the time the event's content last changed, from stored state: the same text on every fetch and instance until it changes
      stamp: e.changedAt,
      lastModified: e.changedAt,
    });
  }
  const text = cal.toString();
  // every content line ends with CRLF, the last too (RFC 5545 3.1)
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}


export interface AtomFeedOptions {
  name: string;
  watchlistId: number;
  /** the feed's own address (its secret one) */
  selfUrl: string;
  /** the dashboard */
  homeUrl: string;
  /** when the feed's entries last changed */
  updated: Date;
}

/**
 * Newest entry first, each id the event's own (`urn:bill-progress:event:evt_…`, an IRI as Atom
 * wants), so a reader never shows an event twice. The feed library writes entries' titles and
 * content as HTML in CDATA sections; both are escaped first, which also keeps a `]]>` out of them.
 */
export function atomText(options: AtomFeedOptions, entries: readonly FeedEntry[]): string {
  const feed = new Feed({
    // plain text elements, which the library escapes itself
    title: `Bill Progress: ${options.name}`,
    description: `Events of the bills on the watchlist “${options.name}”`,
    id: `urn:bill-progress:watchlist:${options.watchlistId}`,
    link: options.homeUrl,
    updated: options.updated,
    generator: 'Bill Progress',
    copyright: ATTRIBUTION,
    feedLinks: { atom: options.selfUrl },
    author: { name: 'Bill Progress' },
  });
  for (const e of entries) {
    const [sentence, ...rest] = e.content.split('\n\n');
    feed.addItem({
      id: `urn:bill-progress:event:${e.eventId}`,
      title: escapeHtml(e.title),
      link: e.url,
      date: e.occurredAt,
      content: `<p>${escapeHtml(sentence)}</p>${rest.length ? `<pre>${escapeHtml(rest.join('\n\n'))}</pre>` : ''}`,
      category: [{ name: e.type, term: e.type }],
    });
  }
  return feed.atom1();
}
