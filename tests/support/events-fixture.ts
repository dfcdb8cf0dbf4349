import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ServiceClock } from '../../src/common/clock';
import type { EventSink } from '../../src/events/event';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { createServices, type Services } from '../../src/services/services';
import type { UrlPolicy } from '../../src/events/webhooks/url-safety';
import { makeSnapshot } from './fixtures';
import { TEST_TRAINING } from './test-app';
import { openTestDatabase, type TestDatabase } from './test-database';

/**
 * Real bills active in November and December 2021: two Royal Assents (Telecommunications
 * (Security) Act on 17 November, Armed Forces Act on 15 December), government bills moving
 * through both houses, and a Private Member's Bill.
 */
export const REPLAY_BILL_IDS = [2806, 2822, 3022, 3060, 2865, 2900];

export interface EventsFixture {
  db: TestDatabase;
  services: Services;
  clock: ServiceClock;
  snapshotDir: string;
  /** the fixture's stage records as the snapshot file has them */
  stages(): { billId: number; stage: string; house: string; firstDate: string | null }[];
  close(): Promise<void>;
}

/** The service's parts on their own database with the replay bills and a small trained model; the day pinned to `day`. */
export async function startEventsFixture(options: { day?: string; sinks?: EventSink[]; webhookUrlPolicy?: UrlPolicy } = {}): Promise<EventsFixture> {
  const db = await openTestDatabase();
  const snapshotDir = makeSnapshot(REPLAY_BILL_IDS);
  await ingest(db.dataSource, new SnapshotSource(snapshotDir));
  const clock = new ServiceClock(options.day);
  clock.setDataAsOf('2021-12-31');
  const logger = createLogger('warn', new Writable({ write: (_c, _e, done) => done() }) as never);
  const services = createServices({ dataSource: db.dataSource, embeddedDatabase: db.kind === 'pglite', clock, readiness: new Readiness(), logger, trainingOptions: TEST_TRAINING, eventSinks: options.sinks, webhooks: options.webhookUrlPolicy && { urlPolicy: options.webhookUrlPolicy } });
  await services.models.train();
  return {
    db,
    services,
    clock,
    snapshotDir,
    stages() {
      const bills = readFileSync(path.join(snapshotDir, 'bills.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      return bills.flatMap((b) => b.stages.map((s: { stage: string; house: string; dates: string[] }) => ({ billId: b.billId as number, stage: s.stage, house: s.house, firstDate: s.dates?.[0] ?? null })));
    },
    async close() {
      await services.events.close();
      await services.quotas.close();
      await db.close();
    },
  };
}
