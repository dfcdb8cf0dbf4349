import { commonErrors, deleted, error, idParam, ok, rateLimitHeaders, referenceDateParameter } from './common';

// Issue 33, "alerts where people work": CSV exports, and each watchlist's calendar and Atom feed at
// its secret address (docs/api-channels.md: "CSV exports", "Calendar feeds", "Atom feeds").

const notYours = error('no such watchlist of yours (another account’s answers the same)', 'watchlist 7 does not exist');

const CSV_NOTE =
  'RFC 4180: UTF-8, a header row, CRLF after every row. A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `\'` (against CSV injection); numbers are written as the JSON answers write them, never quoted or prefixed, so a negative number stays a number. Empty cell: null.';

/** A 200 CSV download with the rate-limit headers. */
const csv = (description: string, example: string) => ({
  description,
  headers: { ...rateLimitHeaders, 'Content-Disposition': { description: 'attachment, with the file name to save it under', schema: { type: 'string' } } },
  content: { 'text/csv': { schema: { type: 'string' }, example } },
});

const WATCHLIST_CSV =
  'bill_id,title,stage,royal_assent,next_stage_30d,timeline_eta_days,stall_risk,amendment_risk,close_vote,withdrawal_risk,reference_date,model_version\r\n' +
  '2900,Marriage and Civil Partnership (Minimum Age) Bill,second_reading,0.411152,0.106807,33.6,0.660565,0.295045,0.003157,0.618487,2021-12-31,12\r\n';
const HISTORY_CSV = 'bill_id,title,reference_date,status,royal_assent,next_stage_30d,model_version,out_of_sample\r\n2900,Marriage and Civil Partnership (Minimum Age) Bill,2021-06-16,live,0.082,0.051,3,true\r\n';
const DELIVERIES_CSV =
  'event_id,event_type,status,attempt,status_code,error,duration_ms,attempted_at,next_attempt_at,created_at\r\nevt_0d9c8b7a6f5e4d3c2b1a0f,webhook.test,delivered,2,200,,12,2026-11-23T09:30:05.000Z,,2026-11-23T09:30:00.000Z\r\n';

const ICS_EXAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Bill Progress//Watchlist calendar//EN',
  'NAME:Bill Progress: Marriage law',
  'BEGIN:VEVENT',
  'UID:7-next-stage-2900@bill-progress',
  'SEQUENCE:2',
  'DTSTAMP:20261122T120000Z',
  'DTSTART;VALUE=DATE:20220126',
  'SUMMARY:Predicted next stage: Marriage and Civil Partnership (Minimum Age) Bill (14% within 30 days)',
  'STATUS:TENTATIVE',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const ATOM_EXAMPLE = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:bill-progress:watchlist:7</id>
  <title>Bill Progress: Marriage law</title>
  <updated>2026-11-22T12:00:00.000Z</updated>
  <entry>
    <title type="html"><![CDATA[Marriage and Civil Partnership (Minimum Age) Bill: second reading (Commons) on 2021-11-26]]></title>
    <id>urn:bill-progress:event:evt_0d9c8b7a6f5e4d3c2b1a0f</id>
    <updated>2021-11-26T09:00:00.000Z</updated>
  </entry>
</feed>`;

const tokenParam = { name: 'token', in: 'path', required: true, description: 'the watchlist’s secret feed token, from its `calendar_url` or `feed_url`', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } };

/** What a feed address answers besides 200: the token is the credential, so there is no 401. */
const feedResponses = (media: string, description: string, example: string) => ({
  '200': {
    description,
    headers: {
      ETag: { description: 'the text’s validator: send it back as If-None-Match to get a 304 while nothing changed', schema: { type: 'string' } },
      'Last-Modified': { description: 'when the text last changed (If-Modified-Since works too)', schema: { type: 'string' } },
      'Cache-Control': { description: '`private, max-age=300`', schema: { type: 'string' } },
    },
    content: { [media]: { schema: { type: 'string' }, example } },
  },
  '304': { description: 'not modified since the ETag or date the client sent' },
  '400': error('a query parameter the address does not take (it takes none)', 'unknown query parameter x: GET /calendar/{token}.ics takes none'),
  '403': error('the watchlist’s owner is on the free tier (the refusal their key gets)', 'The free tier has no API access: upgrade to pilot or pro'),
  '404': error('the address opens nothing: an unknown token, or one rotated or revoked (the same answer for each)', 'No feed at this address: it is unknown, or was rotated or revoked'),
  '429': commonErrors['429'],
  '503': commonErrors['503'],
});

export const CHANNEL_PATHS = {
  '/dashboard/watchlists/{id}/predictions.csv': {
    get: {
      operationId: 'exportWatchlistPredictions',
      summary: 'The watchlist’s bills with their predictions as CSV, one row per bill (pilot and above); each row is one prediction charged, as GET /dashboard/watchlists/{id} charges',
      description: `${CSV_NOTE} The numbers are those of GET /predict/{bill_id} for the same date. All or nothing: past the daily prediction limit, or with a reference_date before a bill on it was introduced (the detail names it), the export is refused and charges no prediction.`,
      parameters: [idParam('id'), referenceDateParameter],
      responses: { '200': csv('the export', WATCHLIST_CSV), '404': notYours, ...commonErrors },
    },
  },
  '/predict/{bill_id}/history.csv': {
    get: {
      operationId: 'exportPredictionHistory',
      summary: 'A bill’s nowcasts over its life as CSV (GraphQL `Bill.predictionHistory`), charged as one prediction',
      description: `${CSV_NOTE} \`out_of_sample\` false marks a point made by a model that had learned from later facts.`,
      parameters: [idParam('bill_id', 'UK Parliament bill id')],
      responses: { '200': csv('the history', HISTORY_CSV), '404': error('no such bill', 'bill 999999 does not exist'), ...commonErrors },
    },
  },
  '/webhooks/{id}/deliveries.csv': {
    get: {
      operationId: 'exportWebhookDeliveries',
      summary: 'The endpoint’s deliveries as CSV, newest first, each with its last attempt (GET /webhooks/{id}/deliveries has every attempt)',
      description: CSV_NOTE,
      parameters: [idParam('id', 'the webhook endpoint'), { name: 'limit', in: 'query', required: false, description: 'how many (default 50)', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
      responses: { '200': csv('the deliveries', DELIVERIES_CSV), '404': error('no such endpoint of yours', 'webhook 3 does not exist'), ...commonErrors },
    },
  },
  '/dashboard/watchlists/{id}/feed-token/rotate': {
    post: {
      operationId: 'rotateWatchlistFeedToken',
      summary: 'A new secret address for the watchlist’s calendar and Atom feed (answered in `calendar_url` and `feed_url`); the old one answers 404 at once',
      parameters: [idParam('id')],
      responses: {
        '200': ok('#/components/schemas/Watchlist', 'the watchlist with its new addresses', {
          id: 7,
          name: 'Marriage law',
          description: 'PMBs on marriage',
          bill_count: 1,
          created_at: '2026-11-22T12:00:00.000Z',
          updated_at: '2026-11-22T12:00:00.000Z',
          calendar_url: 'http://localhost:4000/api/v1/calendar/q3V9cJx2mW8bN4kT7yH1rD5sF0aL6pE2uG9iO3zX1cB.ics',
          feed_url: 'http://localhost:4000/api/v1/feeds/q3V9cJx2mW8bN4kT7yH1rD5sF0aL6pE2uG9iO3zX1cB.atom',
        }),
        '404': notYours,
        ...commonErrors,
      },
    },
  },
  '/dashboard/watchlists/{id}/feed-token': {
    delete: {
      operationId: 'revokeWatchlistFeedToken',
      summary: 'Revoke the watchlist’s secret address: its calendar and feed answer 404 at once, and `calendar_url` and `feed_url` are null until rotated',
      parameters: [idParam('id')],
      responses: { '200': deleted('feed token'), '404': notYours, ...commonErrors },
    },
  },
  '/calendar/{token}.ics': {
    get: {
      operationId: 'watchlistCalendar',
      summary: 'The watchlist’s calendar (iCalendar, RFC 5545): its bills’ sittings as all-day events, and each live bill’s predicted next stage as a tentative one',
      description:
        'No API key: the token is the credential, for calendar apps that send no headers. Nothing is charged. UIDs are stable and SEQUENCE rises when an event changes, so apps update events rather than add them again. Conditional requests (If-None-Match, If-Modified-Since) are answered 304 while nothing changed.',
      security: [],
      parameters: [tokenParam],
      responses: feedResponses('text/calendar', 'the calendar', ICS_EXAMPLE),
    },
  },
  '/feeds/{token}.atom': {
    get: {
      operationId: 'watchlistAtomFeed',
      summary: 'The events of the watchlist’s bills as an Atom feed (RFC 4287), newest first, at most 50; each entry’s id carries the event’s id',
      description: 'No API key: the token is the credential. The events are those the owner’s webhooks and subscriptions receive (Pro-only types on Pro only). Conditional requests are answered 304 while nothing changed.',
      security: [],
      parameters: [tokenParam],
      responses: feedResponses('application/atom+xml', 'the feed', ATOM_EXAMPLE),
    },
  },
};
