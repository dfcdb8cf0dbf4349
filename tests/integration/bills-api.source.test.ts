import type { BillRecord } from '../../src/ingest/bill-record';
import type { ApiBillType } from '../../src/ingest/bills-api/api-types';
import { BillsApiClient, BillsApiError } from '../../src/ingest/bills-api/bills-api-client';
import { BillsApiSource, type BillsApiSourceOptions } from '../../src/ingest/bills-api/bills-api.source';
import { FakeBillsApi } from '../support/fixture-bills-api';

let api: FakeBillsApi;
let sleeps: number[];
const noWait = async (ms: number): Promise<void> => {
  sleeps.push(ms);
};

beforeEach(async () => {
  api = new FakeBillsApi();
  sleeps = [];
  await api.start();
});
afterEach(() => api.stop());

function source(options: Partial<BillsApiSourceOptions> = {}): BillsApiSource {
  return new BillsApiSource({ baseUrl: api.baseUrl, membersApiUrl: api.membersApiUrl, sleep: noWait, random: () => 0.5, baseDelayMs: 100, ...options });
}

async function collect(src: BillsApiSource, since: string | null = null, batchSize = 100, onTotal?: (n: number) => void): Promise<BillRecord[][]> {
  const batches: BillRecord[][] = [];
  for await (const batch of src.bills({ since, batchSize, onTotal })) batches.push(batch);
  return batches;
}

const byId = (records: BillRecord[], id: number): BillRecord => {
  const found = records.find((r) => r.billId === id);
  if (!found) throw new Error(`bill ${id} not yielded`);
  return found;
};

/** seq, normalised stage, house, phase and dates of each stage, compactly. */
const stageLines = (r: BillRecord): string[] => r.stages.map((s) => `${s.seq} ${s.stage} ${s.house} ${s.phase} ${s.dates.join(',')}`);

describe('BillsApiSource against a fake Bills API', () => {
  it('walks every page of /Bills and of each bill\u2019s stages, newest update first, in batches', async () => {
    const totals: number[] = [];
    const batches = await collect(source({ listPageSize: 3, stagesPageSize: 5 }), null, 3, (n) => totals.push(n));

    expect(batches.map((b) => b.map((r) => r.billId))).toEqual([[4065, 2869, 2806], [2709, 2683, 2524], [2702]]);
    expect(totals).toEqual([7]);
    const listPages = api.requestsTo('/Bills').map((u) => [u.searchParams.get('Skip'), u.searchParams.get('Take'), u.searchParams.get('SortOrder')]);
    expect(listPages).toEqual([
      ['0', '3', 'DateUpdatedDescending'],
      ['3', '3', 'DateUpdatedDescending'],
      ['6', '3', 'DateUpdatedDescending'],
    ]);
    // 18 stages at 5 a page: four pages, and every stage arrives.
    expect(api.requestsTo('/Bills/2806/Stages').map((u) => u.searchParams.get('Skip'))).toEqual(['0', '5', '10', '15']);
    const all = batches.flat();
    expect(byId(all, 2806).stages).toHaveLength(18);
    expect(byId(all, 2709).stages.map((s) => s.seq)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    expect(api.requestsTo('/BillTypes')).toHaveLength(1);
  });

  it('normalises a government bill that went through both houses to Royal Assent', async () => {
    const bill = byId((await collect(source())).flat(), 2709);
    expect(bill).toMatchObject({
      shortTitle: 'Domestic Abuse Act 2021',
      billTypeId: 1,
      billType: 'Government Bill',
      billTypeCategory: 'Public',
      billKind: 'government',
      originatingHouse: 'Commons',
      introducedSessionId: 35,
      sessionIds: [35],
      isAct: true,
      outcome: 'royal_assent',
      introducedDate: '2020-03-03',
      royalAssentDate: '2021-04-29',
      withdrawnDate: null,
      lastUpdate: '2021-04-29T15:12:55.907+01:00',
      stageHistory: 'full',
      missingStageCount: 0,
      sponsorOrganisations: [],
      leadSponsorPartyInGovernment: true,
      divisions: [],
    });
    expect(bill.sponsors).toEqual([
      { memberId: 4066, name: 'Priti Patel', partyAtIntroduction: 'Conservative', houseAtIntroduction: 'Commons' },
      { memberId: 4311, name: 'Baroness Williams of Trafford', partyAtIntroduction: 'Conservative', houseAtIntroduction: 'Lords' },
    ]);
    expect(stageLines(bill)).toEqual([
      '1 first_reading Commons first_house 2020-03-03',
      '2 second_reading Commons first_house 2020-04-28',
      '3 money_resolution Commons first_house 2020-04-28',
      '4 committee Commons first_house 2020-06-04,2020-06-09,2020-06-10,2020-06-11,2020-06-16,2020-06-17',
      '5 report Commons first_house 2020-07-06',
      '6 third_reading Commons first_house 2020-07-06',
      '7 first_reading Lords second_house 2020-07-07',
      '8 second_reading Lords second_house 2021-01-05',
      '9 committee Lords second_house 2021-01-25,2021-01-27,2021-02-01,2021-02-03,2021-02-08,2021-02-10',
      '10 report Lords second_house 2021-03-08,2021-03-10,2021-03-15,2021-03-17',
      '11 third_reading Lords second_house 2021-03-24',
      '12 consideration_of_amendments Commons ping_pong 2021-04-15',
      '13 programme_motion Commons ping_pong 2021-04-15',
      '14 consideration_of_amendments Lords ping_pong 2021-04-21',
      '15 consideration_of_amendments Commons ping_pong 2021-04-26',
      '16 consideration_of_amendments Lords ping_pong 2021-04-27',
      '17 royal_assent Unassigned royal_assent 2021-04-29',
    ]);
    expect(bill.stages[11]).toMatchObject({
      billStageId: 12844,
      stageId: 12,
      description: 'Consideration of Lords amendments',
      abbr: 'COLA',
      sessionId: 35,
      datesAfterSessionEnd: [],
      fromCurrentStage: false,
    });
  });

  it('normalises Lords, private members\u2019, withdrawn, carried-over and still-pending bills', async () => {
    const all = (await collect(source())).flat();

    const lordsGov = byId(all, 2524);
    expect(lordsGov).toMatchObject({ originatingHouse: 'Lords', billKind: 'government', outcome: 'royal_assent', introducedDate: '2020-01-07', royalAssentDate: '2020-06-25' });
    expect(lordsGov.stages.map((s) => s.phase)).toEqual([
      ...Array(5).fill('first_house'),
      ...Array(6).fill('second_house'),
      'ping_pong',
      'royal_assent',
    ]);
    expect(lordsGov.sponsors[0]).toEqual({ memberId: 4538, name: 'Lord Keen of Elie', partyAtIntroduction: 'Conservative', houseAtIntroduction: 'Lords' });

    const tenMinuteRule = byId(all, 2702);
    expect(tenMinuteRule).toMatchObject({
      billType: "Private Members' Bill (under the Ten Minute Rule)",
      billKind: 'pmb_ten_minute_rule',
      // session 2019-21 has ended
      outcome: 'fell',
      introducedDate: '2020-02-25',
      royalAssentDate: null,
      leadSponsorPartyInGovernment: false,
    });
    expect(stageLines(tenMinuteRule)).toEqual(['1 first_reading Commons first_house 2020-02-25', '2 second_reading Commons first_house ']);
    expect(tenMinuteRule.sponsors).toEqual([{ memberId: 1442, name: 'Mr Alistair Carmichael', partyAtIntroduction: 'Liberal Democrat', houseAtIntroduction: 'Commons' }]);

    const lordsPmb = byId(all, 2869);
    expect(lordsPmb).toMatchObject({ billKind: 'pmb_lords', originatingHouse: 'Lords', outcome: 'fell', leadSponsorPartyInGovernment: false });
    expect(lordsPmb.sponsors.map((s) => s.partyAtIntroduction)).toEqual(['Crossbench', 'Conservative']);
    expect(lordsPmb.stages.map((s) => s.stage)).toEqual(['first_reading', 'second_reading', 'order_of_commitment_discharged']);

    expect(byId(all, 2683)).toMatchObject({ billKind: 'pmb_presentation', outcome: 'withdrawn', withdrawnDate: '2020-12-30', introducedDate: '2020-02-10' });

    const carried = byId(all, 2806);
    expect(carried).toMatchObject({ sessionIds: [35, 36], introducedSessionId: 35, outcome: 'royal_assent', royalAssentDate: '2021-11-17' });
    expect(carried.stages.map((s) => s.sessionId)).toEqual([...Array(7).fill(35), ...Array(11).fill(36)]);
    expect(carried.stages.filter((s) => s.stage === 'carry_over_motion').map((s) => s.dates)).toEqual([['2020-11-30']]);

    const pending = byId(all, 4065);
    expect(pending).toMatchObject({
      outcome: 'pending',
      sessionIds: [39, 40],
      introducedDate: '2026-01-22',
      royalAssentDate: null,
      summary: expect.stringMatching(/^<p>The Bill renews/),
      leadSponsorPartyInGovernment: true,
      lastUpdate: '2026-09-08T17:21:44.5803116+01:00',
    });
    expect(pending.stages.map((s) => `${s.stageId}:${s.stage}:${s.phase}`)).toEqual([
      '6:first_reading:first_house',
      '7:second_reading:first_house',
      '14:programme_motion:first_house',
      '15:money_resolution:first_house',
      '36:ways_and_means_resolution:first_house',
      '18:carry_over_motion:first_house',
      '43:select_committee:first_house',
      '21:bill_reintroduced:first_house',
      '14:programme_motion:first_house',
      '49:committee:first_house',
      '9:report:first_house',
      '10:third_reading:first_house',
      '1:first_reading:second_house',
      '2:second_reading:second_house',
      '3:committee:second_house',
    ]);
    expect(pending.stages[14]!.dates).toEqual(['2026-09-02', '2026-09-08']);
  });

  it('takes a sponsor’s party on the introduction day from the Members API’s party history, not the party the Bills API shows today', async () => {
    // the lead sponsor has since left the party: the Bills API shows the party of today, the history both
    const lead = api.details.get(2709)!.sponsors![0]!.member!;
    lead.party = 'Independent';
    api.partyHistories.set(lead.memberId, [
      { party: { name: 'Conservative' }, startDate: '2010-05-06T00:00:00', endDate: '2022-06-30T00:00:00' },
      { party: { name: 'Independent' }, startDate: '2022-07-01T00:00:00', endDate: null },
    ]);
    // a member the Members API does not list had no known affiliation that day
    api.partyHistories.delete(api.details.get(2709)!.sponsors![1]!.member!.memberId);
    const bill = byId((await collect(source())).flat(), 2709);
    expect(bill.sponsors.map((s) => s.partyAtIntroduction)).toEqual(['Conservative', null]);
    expect(bill.leadSponsorPartyInGovernment).toBe(true);
    // each member's history is asked for once, however many bills name them
    const asked = api.requests.filter((u) => u.pathname === '/api/Members/History').flatMap((u) => u.searchParams.getAll('ids'));
    expect(asked.length).toBe(new Set(asked).size);
  });

  it('reads every bill when the Members API fails, its sponsors with the parties the Bills API shows, and leaves the Members API alone for a while after', async () => {
    api.scripted.set('/api/Members/History', Array.from({ length: 100 }, () => ({ status: 503 })));
    const membersRequests = () => api.requests.filter((u) => u.pathname === '/api/Members/History').length;
    const src = source();
    const bills = (await collect(src)).flat();
    expect(bills.map((b) => b.billId).sort()).toEqual(api.summaries.map((b) => b.billId).sort());
    const lead = api.details.get(2709)!.sponsors![0]!.member!;
    expect(byId(bills, 2709).sponsors[0]).toMatchObject({ memberId: lead.memberId, partyAtIntroduction: lead.party });
    expect(src.skipped()).toEqual([]);
    // the next sync, minutes later, does not ask again
    const asked = membersRequests();
    await collect(src);
    expect(membersRequests()).toBe(asked);
  });

  it('derives sessions from the bills it has seen, with known names and end dates', async () => {
    const src = source();
    // Before any bill was read, one page of recent bills tells the current sessions.
    const early = await src.sessions();
    expect(early.find((s) => s.sessionId === 40)).toEqual({ sessionId: 40, name: '40', startDate: null, endDate: null, endAnnounced: null, firstObservedSittingDate: null, lastObservedSittingDate: null });
    expect(early.find((s) => s.sessionId === 35)).toMatchObject({ name: '2019-21', endDate: '2021-04-29' });

    await collect(src);
    const sessions = await src.sessions();
    expect(sessions.find((s) => s.sessionId === 40)).toEqual({
      sessionId: 40,
      name: '40',
      startDate: null,
      endDate: null,
      endAnnounced: null,
      firstObservedSittingDate: '2026-05-20',
      lastObservedSittingDate: '2026-09-08',
    });
    expect(sessions.find((s) => s.sessionId === 36)).toMatchObject({ name: '2021-22', startDate: '2021-05-11', endDate: '2022-04-28', lastObservedSittingDate: '2021-11-17' });
    expect(sessions.map((s) => s.sessionId)).toEqual([...sessions.map((s) => s.sessionId)].sort((a, b) => a - b));
  });

  it('retries a 500 and then succeeds, after a jittered backoff', async () => {
    api.script('/Bills/2709', { status: 500 });
    const all = (await collect(source())).flat();
    expect(byId(all, 2709).shortTitle).toBe('Domestic Abuse Act 2021');
    expect(api.requestsTo('/Bills/2709')).toHaveLength(2);
    // first retry: random 0.5 × baseDelayMs 100 × 2^0
    expect(sleeps).toEqual([50]);
  });

  it('retries a 429 after the wait its Retry-After asks for', async () => {
    api.script('/Bills/2524/Stages', { status: 429, headers: { 'retry-after': '7' } }, { status: 429, headers: { 'retry-after': '2' } });
    const all = (await collect(source())).flat();
    expect(byId(all, 2524).stages).toHaveLength(13);
    expect(api.requestsTo('/Bills/2524/Stages')).toHaveLength(3);
    expect(sleeps).toEqual([7000, 2000]);
  });

  it('gives up after maxRetries with an error naming the URL and status, keeping the batches already yielded', async () => {
    api.script('/Bills/2702', ...Array.from({ length: 10 }, () => ({ status: 503 })));
    const yielded: number[][] = [];
    let error: unknown;
    try {
      for await (const batch of source({ maxRetries: 2 }).bills({ since: null, batchSize: 2 })) yielded.push(batch.map((r) => r.billId));
    } catch (e) {
      error = e;
    }
    expect(yielded).toEqual([
      [4065, 2869],
      [2806, 2709],
      [2683, 2524],
    ]);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('bill 2702');
    expect(message).toContain(`${api.baseUrl}/Bills/2702`);
    expect(message).toContain('after 3 attempts');
    expect(message).toContain('HTTP 503');
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(BillsApiError);
    expect(cause).toMatchObject({ status: 503, attempts: 3, retryable: true });
    expect(api.requestsTo('/Bills/2702')).toHaveLength(3);
    // exponential: 0.5 × 100 × 2^0, 0.5 × 100 × 2^1
    expect(sleeps).toEqual([50, 100]);
  });

  it('does not retry a 404', async () => {
    const client = new BillsApiClient({ baseUrl: api.baseUrl, sleep: noWait });
    const failure = client.getJson('/Bills/999999');
    await expect(failure).rejects.toBeInstanceOf(BillsApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, attempts: 1, retryable: false, url: `${api.baseUrl}/Bills/999999` });
    await expect(failure).rejects.toThrow(`GET ${api.baseUrl}/Bills/999999 failed: HTTP 404`);
    expect(api.requestsTo('/Bills/999999')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('aborts a request that outlives timeoutMs and retries it', async () => {
    // the retry must answer within the timeout however busy the machine: a hang far past a timeout far past a local answer
    api.script('/BillTypes', { status: 200, hangMs: 1_500, body: { items: [], totalResults: 0, itemsPerPage: 20 } });
    const client = new BillsApiClient({ baseUrl: api.baseUrl, sleep: noWait, timeoutMs: 300 });
    const types = await client.getAll<ApiBillType>('/BillTypes');
    expect(types.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(api.requestsTo('/BillTypes')).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it.each([2, 4])('never has more than %i requests in flight', async (concurrency) => {
    api.delayMs = 25;
    const all = (await collect(source({ concurrency }), null, 7)).flat();
    expect(all).toHaveLength(7);
    expect(api.maxInFlight).toBe(concurrency);
  });

  it('syncs incrementally: stops at the first bill updated at or before `since`', async () => {
    const src = source({ listPageSize: 3 });
    const first = (await collect(src)).flat();
    const newest = first[0]!.lastUpdate!;
    expect(newest).toBe('2026-09-08T17:21:44.5803116+01:00');

    // Nothing changed since the newest update: nothing to yield, and only the first page is read.
    api.requests.length = 0;
    expect((await collect(src, newest)).flat()).toEqual([]);
    expect(api.requestsTo('/Bills').map((u) => u.searchParams.get('Skip'))).toEqual(['0']);
    expect(api.requests.filter((u) => /\/Bills\/\d+/.test(u.pathname))).toEqual([]);

    // One bill updated afterwards: only it is fetched again.
    api.summaries.find((s) => s.billId === 2524)!.lastUpdate = '2026-09-10T08:00:00.1234567';
    api.requests.length = 0;
    const resumed = await collect(src, newest);
    expect(resumed.flat().map((r) => r.billId)).toEqual([2524]);
    expect(resumed.flat()[0]!.lastUpdate).toBe('2026-09-10T08:00:00.1234567+01:00');
    expect(api.requests.filter((u) => /^\/api\/v1\/Bills\/\d+$/.test(u.pathname)).map((u) => u.pathname)).toEqual(['/api/v1/Bills/2524']);

    // A since further back reaches onto later pages. 2709's 15:12:55.907 is British Summer Time, i.e.
    // 14:12:55.907Z: read as UTC it would look newer than this `since` and be yielded.
    api.requests.length = 0;
    const fromMidList = await collect(src, '2021-04-29T14:12:55.907Z', 100);
    expect(fromMidList.flat().map((r) => r.billId)).toEqual([2524, 4065, 2869, 2806]);
    expect(api.requestsTo('/Bills').map((u) => u.searchParams.get('Skip'))).toEqual(['0', '3']);
  });

  it('yields a bill updated within the same millisecond as `since` but after it', async () => {
    // 2806 was updated at 16:40:02.1198734 UK time (GMT in November); a Date keeps only .119 of it.
    const ids = (await collect(source(), '2021-11-17T16:40:02.119Z')).flat().map((r) => r.billId);
    expect(ids).toEqual([4065, 2869, 2806]);
    const exact = (await collect(source(), '2021-11-17T16:40:02.1198734')).flat().map((r) => r.billId);
    expect(exact).toEqual([4065, 2869]);
  });
});
