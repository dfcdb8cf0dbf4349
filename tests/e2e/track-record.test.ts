import { parse } from 'csv-parse/sync';
import { addDays } from '../../src/common/dates';
import { startTestApp, type TestApp } from '../support/test-app';

// The public track record (issue 35, items 2 and 3): the forecasts of record scored as outcomes
// arrive, for anyone, and every resolved forecast as CSV; the figures are exactly what the file gives.

let t: TestApp;
let recorded = 0;
beforeAll(async () => {
  t = await startTestApp();
  // forecasts of record of our own, in the stored shape: each sample bill 10 and 100 days after its introduction
  const bills = (await t.db.dataSource.query(`SELECT id, introduced_date::text AS introduced FROM bill WHERE introduced_date IS NOT NULL ORDER BY id`)) as { id: number; introduced: string }[];
  let i = 0;
  for (const b of bills) {
    for (const after of [10, 100]) {
      const day = addDays(b.introduced, after);
      for (const [output, value, table] of [['royal_assent', 0.2 + 0.07 * (i % 9), 0.4], ['next_stage_30d', 0.1 + 0.08 * (i % 10), 0.3], ['timeline_eta', 10 + i, 30], ['stall_risk', 0.5, 0.5]] as const) {
        await t.db.dataSource.query(
          `INSERT INTO forecast_of_record (bill_id, forecast_date, output, value, table_value, model_version, trained_through, source) VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`,
          [b.id, day, output, value, table, addDays(day, -1), i % 2 ? 'live' : 'backfilled'],
        );
        if (output !== 'stall_risk') recorded += 1;
      }
      i += 1;
    }
  }
});
afterAll(() => t.close());

type Row = { bill_id: string; kind: string; forecast_date: string; output: string; value: string; table_value: string; source: string; outcome: string; resolved_on: string };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

describe('GET /api/v1/track-record', () => {
  it('answers without a key, and its figures are a plain recomputation of forecasts.csv', async () => {
    const res = await t.http().get('/api/v1/track-record');
    expect(res.status).toBe(200);
    const record = res.body;
    expect(record).toMatchObject({ as_of: '2021-12-31', from: null, to: null, recorded });
    expect(record.sets.map((s: { source: string }) => s.source)).toEqual(['all', 'backfilled', 'live']);

    const csv = await t.http().get('/api/v1/track-record/forecasts.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(csv.text, { columns: true }) as Row[];
    expect(Object.keys(rows[0])).toEqual(['bill_id', 'kind', 'forecast_date', 'output', 'value', 'table_value', 'model_version', 'trained_through', 'source', 'outcome', 'resolved_on']);
    expect(rows.length).toBe(record.recorded - record.open);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.some((r) => r.output === 'stall_risk')).toBe(false);

    for (const set of record.sets as { source: string; resolved: number; outputs: { output: string; overall: any; by_kind: Record<string, any> }[] }[]) {
      const mine = rows.filter((r) => set.source === 'all' || r.source === set.source);
      expect(set.resolved).toBe(mine.length);
      for (const o of set.outputs) {
        const of = mine.filter((r) => r.output === o.output);
        if (o.output === 'timeline_eta') {
          const moved = of.filter((r) => r.outcome !== '');
          expect(o.overall.count).toBe(moved.length);
          expect(o.overall.no_next_stage).toBe(of.length - moved.length);
          if (moved.length) expect(o.overall.median_absolute_error_days.value).toBeCloseTo(median(moved.map((r) => Math.abs(Number(r.value) - Number(r.outcome)))), 10);
          continue;
        }
        expect(o.overall.count).toBe(of.length);
        if (!of.length) continue;
        expect(o.overall.brier.value).toBeCloseTo(mean(of.map((r) => (Number(r.value) - Number(r.outcome)) ** 2)), 10);
        expect(o.overall.table_brier.value).toBeCloseTo(mean(of.map((r) => (Number(r.table_value) - Number(r.outcome)) ** 2)), 10);
        for (const [kind, scores] of Object.entries(o.by_kind)) {
          const ofKind = of.filter((r) => r.kind === kind);
          expect(scores.count).toBe(ofKind.length);
          expect(scores.brier.value).toBeCloseTo(mean(ofKind.map((r) => (Number(r.value) - Number(r.outcome)) ** 2)), 10);
        }
      }
    }
  });

  it('covers the forecasts of a period, and refuses a period that is not one with a 400 naming it', async () => {
    const all = (await t.http().get('/api/v1/track-record')).body;
    const part = await t.http().get('/api/v1/track-record?from=2015-01-01&to=2019-12-31');
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ from: '2015-01-01', to: '2019-12-31' });
    expect(part.body.recorded).toBeLessThan(all.recorded);
    const rows = parse((await t.http().get('/api/v1/track-record/forecasts.csv?from=2015-01-01&to=2019-12-31')).text, { columns: true }) as Row[];
    for (const r of rows) expect(r.forecast_date >= '2015-01-01' && r.forecast_date <= '2019-12-31').toBe(true);
    for (const [query, detail] of [
      ['from=2021-13-01', 'from must be a date (YYYY-MM-DD)'],
      ['from=2020-01-02&to=2020-01-01', 'from (2020-01-02) is after to (2020-01-01)'],
      ['since=2020-01-01', 'unknown query parameter since: GET /track-record takes from, to'],
    ]) {
      const res = await t.http().get(`/api/v1/track-record?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail });
    }
  });

  it('is the same record through GraphQL, without a key, in one request but not two copies', async () => {
    const rest = (await t.http().get('/api/v1/track-record')).body;
    const full = `trackRecord { asOf recorded open sets { source resolved outputs { output
      overall { count skill { value low high } brier { value low high } tableBrier { value low high } reliability { lower upper meanForecast observedFrequency count } calibrationIntercept calibrationSlope noNextStage medianAbsoluteErrorDays { value low high } tableMedianAbsoluteErrorDays { value low high } }
      byKind { key scores { count skill { value low high } brier { value low high } tableBrier { value low high } reliability { lower upper meanForecast observedFrequency count } calibrationIntercept calibrationSlope noNextStage medianAbsoluteErrorDays { value low high } tableMedianAbsoluteErrorDays { value low high } } }
      byHorizon { key scores { count skill { value low high } brier { value low high } tableBrier { value low high } reliability { lower upper meanForecast observedFrequency count } calibrationIntercept calibrationSlope noNextStage medianAbsoluteErrorDays { value low high } tableMedianAbsoluteErrorDays { value low high } } } } } }`;
    const res = await t.graphql(`{ ${full} }`);
    expect(res.body.errors).toBeUndefined();
    const record = res.body.data.trackRecord;
    expect(record.recorded).toBe(rest.recorded);
    const royal = record.sets[0].outputs.find((o: { output: string }) => o.output === 'royal_assent');
    expect(royal.overall.brier).toEqual(rest.sets[0].outputs.find((o: { output: string }) => o.output === 'royal_assent').overall.brier);
    expect(royal.byKind.map((g: { key: string }) => g.key)).toEqual(Object.keys(rest.sets[0].outputs[0].by_kind));
    const twice = await t.graphql(`{ a: ${full} b: ${full} }`);
    expect(twice.body.errors[0].message).toMatch(/over the limit of 600 for a request without an API key/);
  });
});

describe('the kept record', () => {
  it('takes in a forecast backfilled after it was computed, whatever its id', async () => {
    const before = (await t.http().get('/api/v1/track-record')).body;
    await t.db.dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO forecast_backfill_day (day, forecasts) VALUES ('2017-01-02', 1)`);
      await manager.query(`INSERT INTO forecast_of_record (bill_id, forecast_date, output, value, table_value, model_version, trained_through, source) VALUES (2900, '2017-01-02', 'royal_assent', 0.5, 0.5, 1, '2017-01-01', 'backfilled')`);
    });
    const after = (await t.http().get('/api/v1/track-record')).body;
    expect(after.recorded).toBe(before.recorded + 1);
  });
});
