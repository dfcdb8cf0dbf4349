import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FakeBillsApi as FakeApi, readBillsApiFolder } from '../../src/ingest/bills-api/fake-bills-api';
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
