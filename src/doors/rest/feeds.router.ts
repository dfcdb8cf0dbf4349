/**
 * A watchlist's calendar (`GET /calendar/{token}.ics`) and Atom feed (`GET /feeds/{token}.atom`) at
 * its secret address, and the owner's operations on that address (rotate, revoke) (issue 33).
 */
import { createHash } from 'node:crypto';
import type express from 'express';
import type { RouteTable } from './route-table';
import { LRUCache } from 'lru-cache';
import { AppError, notFound } from '../../errors';
import type { Gateway } from '../../gateway/pipeline';
import type { RequestContext } from '../../request/context';
import { contentHash, versionsOf } from '../../services/watchlist-calendar';
import type { FeedOwner } from '../../services/watchlist-feed.service';
import { gatewayRequest } from '../http/gateway-request';
import { heldToDocument } from './documented-operations';
import { atomText, calendarText } from './feed-render';
import { deleted, idParam } from './params';
import { type Handler, route } from './route';
import type { RunOperation } from './run-operation';
import { watchlistSummary } from './watchlist.mapper';

/** A feed as sent: its text and validators. */
interface FeedAnswer {
  text: string;
  etag: string;
  lastModified: Date;
}

/** Bytes of calendars kept: a calendar of 500 bills' sittings is some 300 KB. */
const CALENDAR_CACHE_BYTES = 16 * 1024 * 1024;
/** Clients may keep a copy this long; after it they ask again, conditionally (304 when unchanged). */
const CACHE_CONTROL = 'private, max-age=300';

// One answer for every address that opens nothing (unknown, malformed, rotated away, revoked), so
// an answer never tells a token that once worked from one that never did.
const NO_FEED = 'No feed at this address: it is unknown, or was rotated or revoked';

const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

export function addFeedRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const { services } = gateway;
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));
  const { publicUrl } = services.feeds.calendar;

  // the calendar's text is kept per watchlist for the state it was made in (model, data, day,
  // bills, name, tier): polls between two changes cost the token's lookup alone
  const calendars = new LRUCache<number, FeedAnswer & { state: string }>({ maxSize: CALENDAR_CACHE_BYTES, sizeCalculation: (a) => a.text.length + 200 });

  /** The document's Last-Modified: when its text last changed, kept with the event versions (`@calendar`, `@atom`). */
  const changedAt = async (owner: FeedOwner, document: string, text: string) => (await versionsOf(services.dataSource, owner.watchlistId, new Map([[document, contentHash(text)]]))).get(document)!.changedAt;

  async function calendar(owner: FeedOwner): Promise<FeedAnswer> {
    const served = await services.predictions.servingState();
    const state = [served, services.clock.today(), owner.tier, owner.name, owner.billIds.join(',')].join('|');
    const kept = calendars.get(owner.watchlistId);
    if (served !== null && kept?.state === state) return kept;
    const text = calendarText(await services.feeds.calendar.calendarOf(owner));
    const answer = { text, etag: etagOf(text), lastModified: await changedAt(owner, '@calendar', text), state };
    if (served !== null) calendars.set(owner.watchlistId, answer);
    return answer;
  }

  async function atom(owner: FeedOwner, token: string): Promise<FeedAnswer> {
    const { name, entries } = await services.feeds.events.entriesOf(owner);
    // the feed's <updated> is when its entries last changed: a bill taken off the list changes them as a new event does
    const updated = await changedAt(owner, '@atom', JSON.stringify([name, entries.map((e) => [e.eventId, e.title])]));
    const text = atomText({ name, watchlistId: owner.watchlistId, selfUrl: `${publicUrl}/api/v1/feeds/${token}.atom`, homeUrl: `${publicUrl}/`, updated }, entries);
    return { text, etag: etagOf(text), lastModified: updated };
  }

  /**
   * The token is the credential (calendar apps send no headers), so no key is read and nothing is
   * charged: the calendar shows what the free imminent list shows. A request that opens a feed
   * never counts against its address's limit of key-less requests, as a valid key's never do; one
   * that opens nothing does, as an unknown key's does, which slows a scan of addresses.
   */
  const serve = (kind: 'calendar' | 'atom', contentType: string) => async (req: express.Request, res: express.Response, next: express.NextFunction) => {
    try {
      const token = String(req.params.token);
      const owner = await services.feeds.tokens.resolve(token);
      if (!owner) throw notFound(NO_FEED);
      // the same refusal as the owner's key gets on its watchlists
      if (owner.tier === 'free') throw new AppError('FORBIDDEN', 'The free tier has no API access: upgrade to pilot or pro');
      // a query parameter the document does not list is a 400 naming it, as everywhere on /api/v1
      await heldToDocument(async () => undefined)(req, null as unknown as RequestContext);
      const answer = kind === 'calendar' ? await calendar(owner) : await atom(owner, token);
      res.set({ 'Content-Type': contentType, ETag: answer.etag, 'Last-Modified': answer.lastModified.toUTCString(), 'Cache-Control': CACHE_CONTROL, 'Referrer-Policy': 'no-referrer' });
      if (req.fresh) return void res.status(304).end();
      res.status(200).send(answer.text);
    } catch (error) {
      next(error);
      gateway.finish(gatewayRequest(req), null, res.statusCode);
    }
  };

  router.get('/calendar/:token.ics', serve('calendar', 'text/calendar; charset=utf-8'));
  router.get('/feeds/:token.atom', serve('atom', 'application/atom+xml; charset=utf-8'));

  router.post(
    '/dashboard/watchlists/:id/feed-token/rotate',
    handle(async (req, context) => watchlistSummary((await run('RotateFeedToken', { id: idParam(req.params.id, 'id') }, context)).rotateWatchlistFeedToken)),
  );

  router.delete(
    '/dashboard/watchlists/:id/feed-token',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      await run('RevokeFeedToken', { id }, context);
      return deleted(id);
    }),
  );
}
