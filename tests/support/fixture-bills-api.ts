import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../../src/common/clock';
import type { ApiStageSummary } from '../../src/ingest/bills-api/api-types';
import { FakeBillsApi as FakeApi, readBillsApiFolder } from '../../src/ingest/bills-api/fake-bills-api';
import { createLogger } from '../../src/logger';
import { Readiness } from '../../src/health/readiness';
import { createServices, type Services } from '../../src/services/services';
import { TEST_TRAINING } from './test-app';
import { openTestDatabase, type TestDatabase } from './test-database';

export type { Scripted } from '../../src/ingest/bills-api/fake-bills-api';

export const FIXTURES = path.resolve(__dirname, '../fixtures/bills-api');
export const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T;

/** The fake Bills API serving the fixtures of tests/fixtures/bills-api. */
export class FakeBillsApi extends FakeApi {
  constructor() {
    super(readBillsApiFolder(FIXTURES));
  }
}

/**
 * For a test file of syncs: before each test a fake Bills API serving the fixtures (which the test
 * may change) and an empty database of its own; both closed after it.
 */
export function fakeApiAndDatabasePerTest(): { api: FakeBillsApi; db: TestDatabase } {
  const live = {} as { api: FakeBillsApi; db: TestDatabase };
  beforeEach(async () => {
    live.api = new FakeBillsApi();
    await live.api.start();
    live.db = await openTestDatabase();
  });
  afterEach(async () => {
    await live.api.stop();
    await live.db.close();
  });
  return live;
}

/**
 * The API sets a Lords bill's third reading down for `date` (or moves it there), as a stage record
 * modelled on its Lords committee stage, and the bill's lastUpdate moves to `updatedAt`, as the
 * real API's does. A `date` on or before the service's day is a sitting the API recorded.
 */
export function setDownLordsThirdReading(api: FakeApi, billId: number, date: string, updatedAt: string): void {
  putStage(api, billId, { id: 99_100, stageId: 5, description: '3rd reading', abbreviation: '3R', sortOrder: 99, house: 'Lords' }, date, updatedAt);
}

/** The API records the bill's Royal Assent on `date` (a stage record of its own), and its lastUpdate moves to `updatedAt`. */
export function recordRoyalAssent(api: FakeApi, billId: number, date: string, updatedAt: string): void {
  putStage(api, billId, { id: 99_200, stageId: 11, description: 'Royal Assent', abbreviation: 'RA', sortOrder: 100, house: 'Unassigned' }, date, updatedAt);
}

/** The API records the Lords report stage of the bill on `date`, and its lastUpdate moves to `updatedAt`. */
export function recordLordsReport(api: FakeApi, billId: number, date: string, updatedAt: string): void {
  putStage(api, billId, { id: 99_300, stageId: 9, description: 'Report stage', abbreviation: 'RS', sortOrder: 98, house: 'Lords' }, date, updatedAt);
}

/** Adds the stage record (or replaces the one of its id) with one sitting on `date`, modelled on the bill's last stage record. */
function putStage(api: FakeApi, billId: number, stage: Pick<ApiStageSummary, 'id' | 'stageId' | 'description' | 'abbreviation' | 'sortOrder' | 'house'>, date: string, updatedAt: string): void {
  const stages = api.stages.get(billId)!;
  const record: ApiStageSummary = { ...stages.at(-1)!, ...stage, stageSittings: [{ id: stage.id + 1, stageId: stage.stageId, billStageId: stage.id, billId, date: `${date}T00:00:00` }] };
  const at = stages.findIndex((s) => s.id === record.id);
  if (at >= 0) stages.splice(at, 1, record);
  else stages.push(record);
  api.summaries.find((b) => b.billId === billId)!.lastUpdate = updatedAt;
  api.details.get(billId)!.lastUpdate = updatedAt;
}

/** An instance of the server's parts on `dataSource` (one of several sharing a PostgreSQL database, or the only one), with the test model size and a quiet log. */
export const serviceInstance = (dataSource: DataSource, embeddedDatabase: boolean, clock: ServiceClock): Services =>
  createServices({
    dataSource,
    embeddedDatabase,
    clock,
    readiness: new Readiness(),
    logger: createLogger('warn', new Writable({ write: (_c, _e, done) => done() }) as never),
    trainingOptions: TEST_TRAINING,
  });
