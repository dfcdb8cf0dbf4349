import { XMLParser } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { startTestApp, type TestApp } from '../support/test-app';

// A watchlist's calendar and Atom feed at its secret address (issue 33), read back with real
// iCalendar and XML parsers. The test app's today is 2021-12-31.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
});
afterAll(() => t.close());

let n = 0;
const user = async (tier: 'pilot' | 'pro') => {
  const email = `feed${++n}@example.com`;
  return { email, key: await t.userWithKey(tier, email), accountId: await t.accountIdOf(email) };
};
const api = (key: string) => ({
  get: (url: string) => t.http().get(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
  post: (url: string, body?: unknown) => t.http().post(`/api/v1${url}`).set('authorization', `Bearer ${key}`).send(body as object),
  del: (url: string) => t.http().delete(`/api/v1${url}`).set('authorization', `Bearer ${key}`),
});
/** A feed address, fetched as a calendar app does: no key, the path alone. */
const fetchFeed = (url: string, headers: Record<string, string> = {}) => t.http().get(new URL(url).pathname + new URL(url).search).set(headers).buffer(true).parse((res, done) => {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  res.on('end', () => done(null, text));
});

function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => ({
    uid: v.getFirstPropertyValue('uid') as string,
    sequence: Number(v.getFirstPropertyValue('sequence')),
    start: (v.getFirstPropertyValue('dtstart') as unknown as ICAL.Time).toString(),
    isDate: (v.getFirstPropertyValue('dtstart') as unknown as ICAL.Time).isDate,
    status: v.getFirstPropertyValue('status') as string,
    summary: v.getFirstPropertyValue('summary') as string,
    description: v.getFirstPropertyValue('description') as string,
    stamp: v.getFirstPropertyValue('dtstamp'),
  }));
}

async function watchlistWithFeeds(tier: 'pilot' | 'pro' = 'pilot', billIds = [2900, 144]) {
  const owner = await user(tier);
  const created = await api(owner.key).post('/dashboard/watchlists', { name: 'Marriage law', bill_ids: billIds });
  expect(created.status).toBe(200);
  return { ...owner, id: created.body.id as number, calendarUrl: created.body.calendar_url as string, feedUrl: created.body.feed_url as string };
}

describe('feed addresses', () => {
  it('are in every answer of the watchlist, REST and GraphQL, one token of 256 bits for both', async () => {
    const w = await watchlistWithFeeds();
    const token = w.calendarUrl.match(/^http:\/\/localhost:4000\/api\/v1\/calendar\/([A-Za-z0-9_-]{43})\.ics$/)![1];
    expect(w.feedUrl).toBe(`http://localhost:4000/api/v1/feeds/${token}.atom`);
    expect((await api(w.key).get(`/dashboard/watchlists/${w.id}`)).body).toMatchObject({ calendar_url: w.calendarUrl, feed_url: w.feedUrl });
    expect((await api(w.key).get('/dashboard/watchlists')).body.watchlists).toEqual([expect.objectContaining({ calendar_url: w.calendarUrl, feed_url: w.feedUrl })]);
    const gql = await t.graphql(`{ watchlist(id: ${w.id}) { calendarUrl feedUrl } }`, { key: w.key });
    expect(gql.body.data.watchlist).toEqual({ calendarUrl: w.calendarUrl, feedUrl: w.feedUrl });
    // stored hashed: the database holds no token
    const [row] = await t.db.dataSource.query(`SELECT salt, encode(token_hash, 'hex') AS hash FROM watchlist_feed WHERE watchlist_id = $1`, [w.id]);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('rotate to a new address, the old one answering 404 at once; revoked, none answers until rotated again', async () => {
    const w = await watchlistWithFeeds();
    expect((await fetchFeed(w.calendarUrl)).status).toBe(200);
    const rotated = await api(w.key).post(`/dashboard/watchlists/${w.id}/feed-token/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: w.id, name: 'Marriage law', calendar_url: expect.stringMatching(/\.ics$/), feed_url: expect.stringMatching(/\.atom$/) });
    expect(rotated.body.calendar_url).not.toBe(w.calendarUrl);
    const gone = await fetchFeed(w.calendarUrl);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body)).toEqual({ detail: 'No feed at this address: it is unknown, or was rotated or revoked' });
    expect((await fetchFeed(w.feedUrl)).status).toBe(404);
    expect((await fetchFeed(rotated.body.calendar_url)).status).toBe(200);
    expect((await fetchFeed(rotated.body.feed_url)).status).toBe(200);

    expect((await api(w.key).del(`/dashboard/watchlists/${w.id}/feed-token`)).body).toEqual({ id: w.id, deleted: true });
    expect((await fetchFeed(rotated.body.calendar_url)).status).toBe(404);
    expect((await fetchFeed(rotated.body.feed_url)).status).toBe(404);
    expect((await api(w.key).get(`/dashboard/watchlists/${w.id}`)).body).toMatchObject({ calendar_url: null, feed_url: null });
    const again = await t.graphql(`mutation { rotateWatchlistFeedToken(id: ${w.id}) { calendarUrl } }`, { key: w.key });
    expect((await fetchFeed(again.body.data.rotateWatchlistFeedToken.calendarUrl)).status).toBe(200);
  });

  it('answer one 404 for every token that opens nothing, and refuse another account’s rotation and revocation with 404', async () => {
    const w = await watchlistWithFeeds();
    const unknown = await t.http().get(`/api/v1/calendar/${'A'.repeat(43)}.ics`);
    const malformed = await t.http().get('/api/v1/feeds/short.atom');
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    expect(unknown.body).toEqual(malformed.body);
    const other = await user('pro');
    expect((await api(other.key).post(`/dashboard/watchlists/${w.id}/feed-token/rotate`)).status).toBe(404);
    expect((await api(other.key).del(`/dashboard/watchlists/${w.id}/feed-token`)).status).toBe(404);
    expect((await fetchFeed(w.calendarUrl)).status).toBe(200);
    const unknownParameter = await fetchFeed(`${w.calendarUrl}?x=1`);
    expect(unknownParameter.status).toBe(400);
    expect(JSON.parse(unknownParameter.body).detail).toBe('unknown query parameter x: GET /calendar/{token}.ics takes none');
  });

  it('follow the owner’s tier: a Free owner’s feeds get the refusal a Free key gets', async () => {
    const w = await watchlistWithFeeds();
    await t.services.accounts.setTier(w.email, 'free');
    const refused = await fetchFeed(w.calendarUrl);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ detail: 'The free tier has no API access: upgrade to pilot or pro' });
    expect((await fetchFeed(w.feedUrl)).status).toBe(403);
    await t.services.accounts.setTier(w.email, 'pilot');
    expect((await fetchFeed(w.calendarUrl)).status).toBe(200);
  });
});

describe('the calendar', () => {
  it('holds the bills’ sittings as all-day events and the predicted next stage as a tentative one, in valid iCalendar', async () => {
    const w = await watchlistWithFeeds();
    await t.db.dataSource.query(
      `INSERT INTO scheduled_sitting (bill_id, bill_stage_id, stage, house, scheduled_for, first_seen_at, first_seen_day) VALUES (2900, 990001, 'committee', 'Commons', '2022-01-21', now(), '2021-12-28')`,
    );
    const res = await fetchFeed(w.calendarUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const text = res.body as string;
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:/);
    const all = events(text);
    for (const e of all) {
      expect(e.uid).toMatch(new RegExp(`^${w.id}-.+@bill-progress$`));
      expect(e.stamp).toBeTruthy();
      expect(e.isDate).toBe(true);
    }
    expect(new Set(all.map((e) => e.uid)).size).toBe(all.length);
    // a sitting held, and one set down ahead
    const secondReading = all.find((e) => e.summary === 'Second reading (Commons): Marriage and Civil Partnership (Minimum Age) Bill');
    expect(secondReading).toMatchObject({ status: 'CONFIRMED', sequence: 0 });
    expect(secondReading!.description).toContain('http://localhost:4000/#/bills/2900');
    expect(all.find((e) => e.start === '2022-01-21')).toMatchObject({ summary: 'Committee (Commons): Marriage and Civil Partnership (Minimum Age) Bill', uid: `${w.id}-sitting-990001-2022-01-21@bill-progress` });
    // the predicted next stage, on today plus the ETA REST gives, with its 30-day probability
    const rest = (await api(w.key).get('/predict/2900')).body.predictions;
    const tentative = all.filter((e) => e.status === 'TENTATIVE');
    expect(tentative).toHaveLength(1); // bill 144 is an Act: no next stage
    const expected = new Date(Date.UTC(2021, 11, 31 + Math.round(rest.timeline_eta.days))).toISOString().slice(0, 10);
    expect(tentative[0]).toMatchObject({ uid: `${w.id}-next-stage-2900@bill-progress`, start: expected });
    expect(tentative[0].summary).toBe(`Predicted next stage: Marriage and Civil Partnership (Minimum Age) Bill (${Math.round(rest.next_stage_30d.probability * 100)}% within 30 days)`);
  });

  it('is the same text on a second fetch, answered 304 to a conditional request, and raises SEQUENCE (same UID) when an event changes', async () => {
    const w = await watchlistWithFeeds('pro');
    const first = await fetchFeed(w.calendarUrl);
    const second = await fetchFeed(w.calendarUrl);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(events(second.body).map((e) => e.uid)).toEqual(events(first.body).map((e) => e.uid));
    expect((await fetchFeed(w.calendarUrl, { 'If-None-Match': first.headers.etag })).status).toBe(304);
    expect((await fetchFeed(w.calendarUrl, { 'If-Modified-Since': first.headers['last-modified'] })).status).toBe(304);
    expect(first.headers['cache-control']).toBe('private, max-age=300');

    // a sync renames the bill: its events say so, under the same UIDs, one SEQUENCE up
    await t.db.dataSource.query(`UPDATE bill SET title = 'Marriage (Minimum Age) Bill' WHERE id = 2900`);
    await t.db.dataSource.query(`UPDATE sync_state SET data_fingerprint = data_fingerprint || '-renamed'`);
    await t.services.predictions.checkDataState();
    try {
      const after = await fetchFeed(w.calendarUrl, { 'If-None-Match': first.headers.etag });
      expect(after.status).toBe(200);
      const before = new Map(events(first.body).map((e) => [e.uid, e]));
      const changed = events(after.body).filter((e) => e.summary.includes('Marriage (Minimum Age) Bill'));
      expect(changed.length).toBeGreaterThan(1);
      for (const e of changed) expect(e.sequence).toBe(before.get(e.uid)!.sequence + 1);
      expect(events(after.body).map((e) => e.uid).sort()).toEqual([...before.keys()].sort());
    } finally {
      await t.db.dataSource.query(`UPDATE bill SET title = 'Marriage and Civil Partnership (Minimum Age) Bill' WHERE id = 2900`);
      await t.db.dataSource.query(`UPDATE sync_state SET data_fingerprint = replace(data_fingerprint, '-renamed', '')`);
      await t.services.predictions.checkDataState();
    }
  });
});

describe('the Atom feed', () => {
  const insertEvent = (id: string, type: string, billId: number, occurredAt: string, data: Record<string, unknown> = {}, accountId: number | null = null) =>
    t.db.dataSource.query(`INSERT INTO service_event (id, type, bill_id, account_id, service_day, occurred_at, data) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      id,
      type,
      billId,
      accountId,
      occurredAt.slice(0, 10),
      occurredAt,
      JSON.stringify({ bill_id: billId, ...data }),
    ]);

  it('holds the events its owner receives, newest first, each id the event’s own, the same on every fetch', async () => {
    const w = await watchlistWithFeeds();
    const other = await user('pilot');
    await insertEvent('evt_feedtest_stage_a', 'bill.stage_changed', 2900, '2021-11-26T09:00:00Z', { stage: 'second_reading', house: 'Commons', date: '2021-11-26' });
    await insertEvent('evt_feedtest_update_b', 'prediction.updated', 2900, '2021-12-10T09:00:00Z', { predictions: { royal_assent: { probability: 0.41 }, next_stage_30d: { probability: 0.13 } } });
    await insertEvent('evt_feedtest_sched_c', 'bill.stage_scheduled', 2900, '2021-12-28T09:00:00Z', { stage: 'committee', house: 'Commons', scheduled_for: '2022-01-21' });
    // not for this feed: a bill not on it, a Pro-only type on Pilot, another account's threshold
    await insertEvent('evt_feedtest_other_bill', 'bill.stage_changed', 26, '2021-12-29T09:00:00Z', { stage: 'first_reading', house: 'Commons', date: '2021-12-29' });
    await insertEvent('evt_feedtest_pro_only', 'prediction.trending_up', 2900, '2021-12-29T09:00:00Z');
    await insertEvent('evt_feedtest_theirs', 'prediction.crossed_threshold', 2900, '2021-12-30T09:00:00Z', { watchlist_id: w.id }, other.accountId);

    const res = await fetchFeed(w.feedUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' }).parse(res.body).feed;
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe(`urn:bill-progress:watchlist:${w.id}`);
    const entries = feed.entry as { id: string; updated: string; title: { '#text': string } }[];
    expect(entries.map((e) => e.id)).toEqual(['evt_feedtest_sched_c', 'evt_feedtest_update_b', 'evt_feedtest_stage_a'].map((id) => `urn:bill-progress:event:${id}`));
    const times = entries.map((e) => Date.parse(e.updated));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(entries[2].title['#text']).toBe('Marriage and Civil Partnership (Minimum Age) Bill: second reading (Commons) on 2021-11-26');

    const again = await fetchFeed(w.feedUrl);
    expect(again.body).toBe(res.body);
    expect((await fetchFeed(w.feedUrl, { 'If-None-Match': res.headers.etag })).status).toBe(304);

    // a newer event comes first, and the older entries keep their ids
    await insertEvent('evt_feedtest_newest_d', 'prediction.high_probability', 2900, '2021-12-31T09:00:00Z', { predictions: { royal_assent: { probability: 0.81 } } });
    const later = new XMLParser({ isArray: (name) => name === 'entry' }).parse((await fetchFeed(w.feedUrl, { 'If-None-Match': res.headers.etag })).body).feed.entry as { id: string }[];
    expect(later.map((e) => e.id)).toEqual(['evt_feedtest_newest_d', 'evt_feedtest_sched_c', 'evt_feedtest_update_b', 'evt_feedtest_stage_a'].map((id) => `urn:bill-progress:event:${id}`));
  });
});
