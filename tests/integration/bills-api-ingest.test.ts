import { BillEntity } from '../../src/db/entities/bill.entity';
import { ParliamentarySessionEntity } from '../../src/db/entities/parliamentary-session.entity';
import { SyncStateEntity } from '../../src/db/entities/sync-state.entity';
import { BillsApiSource } from '../../src/ingest/bills-api/bills-api.source';
import { ingest } from '../../src/ingest/ingest.service';
import { fakeApiAndDatabasePerTest } from '../support/fixture-bills-api';

const live = fakeApiAndDatabasePerTest();

const source = () => new BillsApiSource({ baseUrl: live.api.baseUrl, membersApiUrl: live.api.membersApiUrl, sleep: async () => {}, maxRetries: 1, listPageSize: 3 });
const newestFirst = () => [...live.api.summaries].sort((a, b) => Date.parse(b.lastUpdate!) - Date.parse(a.lastUpdate!)).map((b) => b.billId);

describe('ingest from the live Bills API', () => {
  it('stores every bill, then on the next run asks only for what changed since and rewrites nothing', async () => {
    const first = await ingest(live.db.dataSource, source(), { batchSize: 3 });
    expect(first).toMatchObject({ billsSeen: 7, billsChanged: 7, asOf: null });
    expect((await live.db.dataSource.getRepository(BillEntity).find({ order: { id: 'ASC' } })).map((b) => b.id)).toEqual([...live.api.details.keys()].sort((a, b) => a - b));
    const state = await live.db.dataSource.getRepository(SyncStateEntity).findOneByOrFail({ sourceKind: 'bills-api' });
    expect(state.cursor).not.toBeNull();
    expect(await live.db.dataSource.getRepository(ParliamentarySessionEntity).countBy({ id: 40 })).toBe(1);

    const sessionsBefore = await live.db.dataSource.getRepository(ParliamentarySessionEntity).find({ order: { id: 'ASC' } });
    expect(sessionsBefore.some((s) => s.firstSittingDate !== null)).toBe(true);
    const requestsBefore = live.api.requests.length;
    const listPagesBefore = live.api.requestsTo('/Bills').length;
    expect(listPagesBefore).toBe(3);
    const second = await ingest(live.db.dataSource, source(), { batchSize: 3 });
    expect(second.billsChanged).toBe(0);
    expect(live.api.requestsTo('/Bills').length - listPagesBefore).toBe(1);
    expect(live.api.requests.length - requestsBefore).toBeLessThan(requestsBefore / 2);
    // an incremental run sees few bills: it must not erase what the full run learned of sessions
    expect(await live.db.dataSource.getRepository(ParliamentarySessionEntity).find({ order: { id: 'ASC' } })).toEqual(sessionsBefore);
  });

  it('keeps the batches finished before a failure, and a re-run completes the rest', async () => {
    const last = newestFirst().at(-1)!;
    live.api.script(`/Bills/${last}/Stages`, { status: 500 }, { status: 500 });
    await expect(ingest(live.db.dataSource, source(), { batchSize: 3 })).rejects.toThrow(/500/);
    expect(await live.db.dataSource.getRepository(BillEntity).count()).toBe(6);
    expect(await live.db.dataSource.getRepository(SyncStateEntity).count()).toBe(0);

    const resumed = await ingest(live.db.dataSource, source(), { batchSize: 3 });
    expect(resumed).toMatchObject({ billsSeen: 7, billsChanged: 1 });
    expect(await live.db.dataSource.getRepository(BillEntity).count()).toBe(7);
  });
});

describe('when the live Bills API answers badly', () => {
  const storedBills = async () =>
    (await live.db.dataSource.getRepository(BillEntity).find({ order: { id: 'ASC' } })).map((b) => ({ id: b.id, title: b.title, contentHash: b.contentHash, ingestedAt: b.ingestedAt }));

  it('stops at a malformed list page and leaves the stored data as it was', async () => {
    await ingest(live.db.dataSource, source(), { batchSize: 3 });
    const before = await storedBills();
    const stateBefore = await live.db.dataSource.getRepository(SyncStateEntity).findOneByOrFail({ sourceKind: 'bills-api' });
    // a bill changed since, and the page that would bring it is garbage
    const changed = newestFirst()[0];
    live.api.details.get(changed)!.shortTitle = 'A title that must not be stored';
    live.api.script('/Bills', { status: 200, body: { items: [{ billId: 'not-a-number', shortTitle: 42 }], totalResults: 7 } });

    await expect(ingest(live.db.dataSource, source(), { batchSize: 3 })).rejects.toThrow(/malformed \/Bills page at Skip=0: items\.0\.billId/);
    expect(await storedBills()).toEqual(before);
    expect(await live.db.dataSource.getRepository(SyncStateEntity).findOneByOrFail({ sourceKind: 'bills-api' })).toEqual(stateBefore);
  });

  it('skips and reports a bill whose responses are malformed, stores the rest, and takes it on the next run', async () => {
    const [newest, broken] = newestFirst();
    live.api.script(`/Bills/${broken}/Stages`, { status: 200, body: { items: [{ id: 'x', stageId: null }], totalResults: 1 } });
    live.api.script(`/Bills/${newest}`, { status: 200, body: { ...live.api.details.get(newest)!, billId: 1 } });

    const first = await ingest(live.db.dataSource, source(), { batchSize: 3 });
    expect(first).toMatchObject({ billsSeen: 5, billsChanged: 5, billsSkipped: 2 });
    expect(first.skipped).toEqual([
      { billId: newest, reason: `malformed /Bills/${newest}: it describes bill 1` },
      { billId: broken, reason: expect.stringMatching(new RegExp(`^malformed /Bills/${broken}/Stages: 0\\.id `)) },
    ]);
    expect(await live.db.dataSource.getRepository(BillEntity).countBy({ id: 1 })).toBe(0);
    // the cursor did not move past them: the next (incremental) run asks for them again
    expect((await live.db.dataSource.getRepository(SyncStateEntity).findOneByOrFail({ sourceKind: 'bills-api' })).cursor).toBeNull();

    const second = await ingest(live.db.dataSource, source(), { batchSize: 3 });
    expect(second).toMatchObject({ billsChanged: 2, billsSkipped: 0, skipped: [] });
    expect(await live.db.dataSource.getRepository(BillEntity).count()).toBe(7);
  });

  it('stops, writing nothing more, when a bill still fails after the retries (a 5xx), and a re-run completes', async () => {
    const first = newestFirst()[0];
    live.api.script(`/Bills/${first}`, { status: 503 }, { status: 503 });
    await expect(ingest(live.db.dataSource, source(), { batchSize: 3 })).rejects.toThrow(new RegExp(`could not read bill ${first}: .*503`));
    expect(await live.db.dataSource.getRepository(BillEntity).count()).toBe(0);
    expect((await ingest(live.db.dataSource, source(), { batchSize: 3 })).billsChanged).toBe(7);
  });
});
