import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FakeBillsApi as FakeApi, readBillsApiFolder } from '../../src/ingest/bills-api/fake-bills-api';

export type { Scripted } from '../../src/ingest/bills-api/fake-bills-api';

export const FIXTURES = path.resolve(__dirname, '../fixtures/bills-api');
export const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T;

/** The fake Bills API serving the fixtures of tests/fixtures/bills-api. */
export class FakeBillsApi extends FakeApi {
  constructor() {
    super(readBillsApiFolder(FIXTURES));
  }
}
