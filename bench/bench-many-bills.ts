import path from 'node:path';
import { type BillsApiData, readBillsApiFolder } from '../src/ingest/bills-api/fake-bills-api';

/** The Bills API fixtures of the tests: seven real bills' summaries, details and stages. */
export const FIXTURES = path.resolve(__dirname, '..', '..', 'tests', 'fixtures', 'bills-api');

export const fixtures = (): BillsApiData => readBillsApiFolder(FIXTURES);

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** `count` bills made from the fixtures' shapes under new ids (100000 on), one minute of lastUpdate apart. */
export function manyBills(count: number): BillsApiData {
  const base = fixtures();
  const templates = base.summaries;
  const data: BillsApiData = { summaries: [], details: new Map(), stages: new Map(), billTypes: base.billTypes };
  const newest = Date.parse('2026-10-01T12:00:00Z');
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length];
    const billId = 100_000 + i;
    const lastUpdate = new Date(newest - i * 60_000).toISOString().replace('Z', '1234');
    data.summaries.push({ ...clone(template), billId, lastUpdate });
    data.details.set(billId, { ...clone(base.details.get(template.billId)!), billId, lastUpdate });
    // stage and sitting ids are the API's own, unique across bills
    data.stages.set(
      billId,
      clone(base.stages.get(template.billId)!).map((s, k) => {
        const id = billId * 100 + k;
        return { ...s, id, stageSittings: s.stageSittings?.map((sitting, j) => ({ ...sitting, id: id * 100 + j, billStageId: id, billId })) ?? null };
      }),
    );
  }
  return data;
}

/** Every bill renamed and updated now: the next sync rewrites them all. */
export function everyBillChanged(data: BillsApiData): void {
  const updated = new Date().toISOString().replace('Z', '1234');
  for (const summary of data.summaries) {
    summary.lastUpdate = updated;
    const detail = data.details.get(summary.billId)!;
    detail.lastUpdate = updated;
    detail.shortTitle = `${detail.shortTitle} (amended)`;
  }
}
