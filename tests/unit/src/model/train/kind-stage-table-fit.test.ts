import { fitKindStageTable, MIN_CELL } from '../../../../../src/model/train/kind-stage-table-fit';
import { tableEtaDays, tableRate, tableValues } from '../../../../../src/model/serve/kind-stage-table';
import type { Labels } from '../../../../../src/model/serve/labels';
import type { Sample } from '../../../../../src/model/train/samples';

const labels = (royalAssent: 0 | 1 | null, eta: number | null = null): Labels =>
  ({ royal_assent: royalAssent, next_stage_30d: null, stall_risk: null, withdrawal_risk: null, amendment_risk: null, close_vote: null, timeline_eta: eta, no_next_stage: false }) as Labels;

let id = 0;
const sample = (kind: Sample['kind'], progress: number, lastStage: string | null, l: Labels): Sample => ({ billId: ++id, date: '2020-01-01', kind, sessionId: 1, progress, lastStage, features: [], labels: l });

describe('the kind × stage table', () => {
  // a full cell of government bills at second reading: 3 in 4 enacted; a thin cell at committee: all enacted
  const full = Array.from({ length: MIN_CELL }, (_, i) => sample('government', 3, 'second_reading', labels(i % 4 === 0 ? 0 : 1, 10 + i)));
  const thin = Array.from({ length: 3 }, () => sample('government', 5, 'committee', labels(1, 200)));
  const ballot = Array.from({ length: 4 }, (_, i) => sample('pmb_ballot', 3, 'second_reading', labels(i === 0 ? 1 : 0)));
  const unknown = Array.from({ length: 10 }, () => sample('pmb_ballot', 3, 'second_reading', labels(null)));
  const table = fitKindStageTable([...full, ...thin, ...ballot, ...unknown]);

  it('gives a cell with enough samples its own rate, and a thin cell its kind’s', () => {
    expect(tableRate(table, 'royal_assent', { kind: 'government', progress: 3, lastStage: 'second_reading' })).toBeCloseTo(15 / 20);
    expect(tableRate(table, 'royal_assent', { kind: 'government', progress: 5, lastStage: 'committee' })).toBeCloseTo(18 / 23);
  });

  it('counts only samples whose answer was known, and falls back to the overall rate for a kind it has not seen', () => {
    expect(tableRate(table, 'royal_assent', { kind: 'pmb_ballot', progress: 3, lastStage: 'second_reading' })).toBeCloseTo(1 / 4);
    expect(tableRate(table, 'royal_assent', { kind: 'pmb_lords', progress: 1, lastStage: null })).toBeCloseTo(19 / 27);
    // no sample knows next_stage_30d: an even chance
    expect(tableRate(table, 'next_stage_30d', { kind: 'government', progress: 3, lastStage: 'second_reading' })).toBe(0.5);
  });

  it('gives the ETA the median wait of the kind and last stage, else of the kind', () => {
    // waits 10..29: the middle value of an even count is the upper one
    expect(tableEtaDays(table, { kind: 'government', progress: 3, lastStage: 'second_reading' })).toBe(20);
    expect(tableEtaDays(table, { kind: 'government', progress: 5, lastStage: 'committee' })).toBe(21);
    expect(tableValues(table, { kind: 'government', progress: 3, lastStage: 'second_reading' })).toMatchObject({ royal_assent: 0.75, timeline_eta: 20 });
  });

  it('survives a round trip through JSON, as a stored model does', () => {
    expect(JSON.parse(JSON.stringify(table))).toEqual(table);
  });
});
