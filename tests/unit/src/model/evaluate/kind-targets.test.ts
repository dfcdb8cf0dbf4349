import { covers, targets } from '../../../../../src/model/evaluate/kind-targets';
import type { ScoredNowcast } from '../../../../../src/model/evaluate/skill-by-kind';

/** A nowcast in the evaluation's shape: Royal Assent forecast by the model and the table, and a stall risk beside the rate by kind. */
const nowcast = (billId: number, kind: string, session: number, model: number, table: number, y: 0 | 1, stall: { model: number; byKind: number }): ScoredNowcast => ({
  billId,
  kind,
  foldSessionId: session,
  date: '2018-01-25',
  progress: 3,
  outputs: {
    royal_assent: { y, model, byKind: table, byKindAndStage: table },
    stall_risk: { y: (1 - y) as 0 | 1, model: stall.model, byKind: stall.byKind, byKindAndStage: stall.byKind },
  },
  eta: null,
});

// government: two sessions of ten bills forecast 0.9 (table 0.8); nine pass in the first, eight in the second
const government = [30, 35].flatMap((session, s) =>
  Array.from({ length: 10 }, (_, i) => nowcast(100 * session + i, 'government', session, 0.9, 0.8, i < 9 - s ? 1 : 0, { model: 0.5, byKind: 0.15 })),
);
// ballot bills: one session, forecast 0.3, three of ten pass; the stall risk ranks them perfectly
const ballot = Array.from({ length: 10 }, (_, i) => nowcast(5000 + i, 'pmb_ballot', 35, 0.3, 0.3, i < 3 ? 1 : 0, { model: i < 3 ? 0.2 : 0.8, byKind: 0.7 }));

describe('the per-kind targets', () => {
  const t = targets([...government, ...ballot], { replicates: 200 });

  it('compares the model’s Brier with the table’s on the same bills', () => {
    const g = t.kinds.find((k) => k.kind === 'government')!;
    // model: (9 × 0.01 + 0.81)/10 = 0.09 and (8 × 0.01 + 2 × 0.81)/10 = 0.17; table: 0.10 and 0.16
    expect(g.modelBrier.value).toBeCloseTo(0.13, 12);
    expect(g.tableBrier.value).toBeCloseTo(0.13, 12);
    expect(g.brierDifference.value).toBeCloseTo(0, 12);
    expect([g.bills, g.sessions]).toEqual([20, 2]);
  });

  it('gives each session’s calibration-in-the-large: logit(observed) − logit(forecast)', () => {
    const intercept = (kind: string, session: number) => t.bySession.find((s) => s.kind === kind && s.sessionId === session)?.intercept;
    expect(intercept('government', 30)).toBeCloseTo(0, 6);
    expect(intercept('government', 35)).toBeCloseTo(Math.log(4) - Math.log(9), 6);
    expect(intercept('pmb_ballot', 35)).toBeCloseTo(0, 6);
    expect(t.bySession.find((s) => s.kind === 'pmb_ballot' && s.sessionId === 30)).toBeUndefined();
  });

  it('measures each risk against the rate by kind, for all bills and each watched kind', () => {
    const row = (group: string) => t.risks.find((r) => r.output === 'stall_risk' && r.group === group)!;
    // government: the model says 0.5 where the rate by kind says 0.15 and 3 of 20 stall: 0.25 against 0.1275
    expect(row('government').modelBrier.value).toBeCloseTo(0.25, 12);
    expect(row('government').kindBrier.value).toBeCloseTo((3 * 0.85 ** 2 + 17 * 0.15 ** 2) / 20, 12);
    expect(row('government').brierDifference.value!).toBeGreaterThan(0);
    expect(row('pmb_ballot').modelAuc.value).toBe(1);
    expect(t.risks.map((r) => `${r.output}/${r.group}`)).toEqual(['stall_risk/all', 'stall_risk/government', 'stall_risk/pmb_ballot', 'withdrawal_risk/all', 'withdrawal_risk/government', 'withdrawal_risk/pmb_ballot']);
    expect(t.risks.find((r) => r.output === 'withdrawal_risk')!.bills).toBe(0);
  });
});

describe('covers', () => {
  it('says whether an interval holds the ideal value, and null without an interval', () => {
    expect(covers({ value: 0.2, low: -0.1, high: 0.4 }, 0)).toBe(true);
    expect(covers({ value: 0.5, low: 0.2, high: 0.9 }, 0)).toBe(false);
    expect(covers({ value: 0.5, low: null, high: null }, 0)).toBeNull();
  });
});
