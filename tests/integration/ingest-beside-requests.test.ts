import { BillEntity } from '../../src/db/entities/bill.entity';
import type { BillRecord } from '../../src/ingest/bill-record';
import type { BillSource } from '../../src/ingest/bill-source';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { REAL_SNAPSHOT_DIR } from '../support/fixtures';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

/**
 * The real snapshot's bills, read in full first and then offered in batches with nothing to wait
 * for in between: whatever turns of the event loop happen from a batch's yield to its progress
 * report happen while the writer writes it.
 */
class PreloadedSource implements BillSource {
  readonly name: string;
  constructor(
    private readonly snapshot: SnapshotSource,
    private readonly records: BillRecord[],
  ) {
    this.name = snapshot.name;
  }
  static async of(snapshot: SnapshotSource): Promise<PreloadedSource> {
    const records: BillRecord[] = [];
    for await (const batch of snapshot.bills({ since: null, batchSize: 500 })) records.push(...batch);
    return new PreloadedSource(snapshot, records);
  }
  asOf = () => this.snapshot.asOf();
  sessions = () => this.snapshot.sessions();
  async *bills({ batchSize }: { batchSize: number }): AsyncIterable<BillRecord[]> {
    for (let i = 0; i < this.records.length; i += batchSize) yield this.records.slice(i, i + batchSize);
  }
}

describe('a sync beside requests', () => {
  it('lets the event loop turn while it writes a batch, so requests and timers are not held until the batch is written', async () => {
    // on the embedded database every statement runs in this thread: a batch written in one go answers no request meanwhile
    const source = await PreloadedSource.of(new SnapshotSource(REAL_SNAPSHOT_DIR));
    let turns = 0;
    let beating = true;
    const beat = () => {
      if (!beating) return;
      turns += 1;
      setImmediate(beat);
    };
    setImmediate(beat);
    const turnsPerBatch: number[] = [];
    let turnsAtBatchStart = 0;
    const wrapped: BillSource = {
      name: source.name,
      asOf: () => source.asOf(),
      sessions: () => source.sessions(),
      bills: async function* (options) {
        for await (const batch of source.bills(options)) {
          turnsAtBatchStart = turns;
          yield batch;
        }
      },
    };
    try {
      const report = await ingest(db.dataSource, wrapped, { batchSize: 500, onProgress: () => turnsPerBatch.push(turns - turnsAtBatchStart) });
      expect(report.billsChanged).toBe(2861);
    } finally {
      beating = false;
    }
    expect(await db.dataSource.getRepository(BillEntity).count()).toBe(2861);
    // every batch of 500 bills is several statements (bills, sponsors, stages, divisions): the loop turns between them
    expect(turnsPerBatch).toHaveLength(6);
    for (const turnsWhileWriting of turnsPerBatch) expect(turnsWhileWriting).toBeGreaterThanOrEqual(4);
  });
});
