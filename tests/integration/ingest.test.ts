import { BillStageEntity } from '../../src/db/entities/bill-stage.entity';
import { BillEntity } from '../../src/db/entities/bill.entity';
import { DivisionEntity } from '../../src/db/entities/division.entity';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotFormatError, SnapshotSource } from '../../src/ingest/snapshot.source';
import { makeSnapshot, REAL_SNAPSHOT_DIR } from '../support/fixtures';
import { openTestDatabase, type TestDatabase } from '../support/test-database';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

describe('snapshot ingest', () => {
  it('loads every bill, stage and division of the real snapshot, and a second run changes nothing', async () => {
    const source = new SnapshotSource(REAL_SNAPSHOT_DIR);
    const first = await ingest(db.dataSource, source);
    expect(first).toMatchObject({ billsSeen: 2861, billsChanged: 2861, asOf: '2021-12-31', sessions: 16 });
    expect(await db.dataSource.getRepository(BillEntity).count()).toBe(2861);
    expect(await db.dataSource.getRepository(BillStageEntity).count()).toBe(11896);
    expect(await db.dataSource.getRepository(DivisionEntity).count()).toBe(1472);

    const before = await db.dataSource.query('SELECT id, ingested_at FROM bill ORDER BY id');
    const second = await ingest(db.dataSource, source);
    expect(second).toMatchObject({ billsSeen: 2861, billsChanged: 0, dataFingerprint: first.dataFingerprint });
    expect(await db.dataSource.query('SELECT id, ingested_at FROM bill ORDER BY id')).toEqual(before);
    expect(await db.dataSource.getRepository(BillStageEntity).count()).toBe(11896);
  });

  it('stores a bill as the snapshot describes it, with dates as plain YYYY-MM-DD strings', async () => {
    const bill = await db.dataSource.getRepository(BillEntity).findOneByOrFail({ id: 26 });
    expect(bill).toMatchObject({ title: 'Access To Contraceptive Services Bill', kind: 'pmb_ten_minute_rule', outcome: 'fell', introducedDate: '2007-02-06' });
    const stages = await db.dataSource.getRepository(BillStageEntity).find({ where: { billId: 26 }, order: { seq: 'ASC' } });
    expect(stages.map((s) => [s.stage, s.sittingDates])).toEqual([
      ['first_reading', ['2007-02-06']],
      ['second_reading', []],
    ]);
    const pending = await db.dataSource.getRepository(BillEntity).countBy({ outcome: 'pending' });
    expect(pending).toBe(216);
  });

  it('updates only the bills that changed, replacing their stages', async () => {
    const dir = makeSnapshot([26, 27], {
      edit: (bill) => (bill.billId === 27 ? { ...bill, stages: [...bill.stages, { ...bill.stages[0], seq: 99, billStageId: 999_999, stage: 'report', dates: ['2007-03-01'] }] } : bill),
    });
    const report = await ingest(db.dataSource, new SnapshotSource(dir));
    expect(report).toMatchObject({ billsSeen: 2, billsChanged: 1 });
    const stages = await db.dataSource.getRepository(BillStageEntity).find({ where: { billId: 27 }, order: { seq: 'ASC' } });
    expect(stages.at(-1)).toMatchObject({ id: 999_999, stage: 'report', sittingDates: ['2007-03-01'] });
  });

  it('names the file, line and field of a malformed snapshot line', async () => {
    const dir = makeSnapshot([26]);
    writeFileSync(path.join(dir, 'bills.jsonl'), '{"billId": "twenty-six"}\n');
    await expect(ingest(db.dataSource, new SnapshotSource(dir))).rejects.toThrow(SnapshotFormatError);
    await expect(ingest(db.dataSource, new SnapshotSource(dir))).rejects.toThrow(/bills\.jsonl line 1: billId/);
  });
});
