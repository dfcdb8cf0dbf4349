import type { BillFacts } from '../../../model/bill-facts';
import { explain, MAX_FACTORS } from '../../../model/explain';
import { FEATURE_NAMES } from '../../../model/features';
import { billAsOf } from '../../../model/truncate';

const facts: BillFacts = {
  billId: 1,
  kind: 'government',
  originatingHouse: 'Commons',
  introducedDate: '2020-01-08',
  introducedSessionId: 35,
  leadSponsorPartyInGovernment: true,
  stages: [
    { seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2020-01-08'] },
    { seq: 2, stage: 'second_reading', house: 'Commons', dates: ['2020-01-27'] },
  ],
  divisions: [],
  withdrawnDate: null,
};
const bill = billAsOf(facts, '2020-02-01', [{ id: 35, startDate: '2019-12-19', endDate: null }]);
const at = (name: string) => FEATURE_NAMES.indexOf(name);
const features = FEATURE_NAMES.map((n) => (n === 'kind_government' ? 1 : 0.5));
const typical = FEATURE_NAMES.map(() => 0.5);

describe('explanations', () => {
  it('are the change in the prediction when a factor is set to its typical value', () => {
    // a model that reads only whether the bill is a government bill
    const model = (_: string, x: number[]) => 0.2 + 0.6 * x[at('kind_government')];
    const result = explain(bill, features, typical, model);
    expect(result.royal_assent).toEqual([{ factor: 'government bill', effect: 0.3 }]);
    expect(result.next_stage_30d).toEqual([{ factor: 'government bill', effect: 0.3 }]);
  });

  it('give at most five factors, largest first, in plain words', () => {
    // every feature matters, each by its own weight, some pulling down
    const model = (_: string, x: number[]) => 0.5 + x.reduce((sum, v, i) => sum + (i % 3 === 0 ? -1 : 1) * 0.004 * (i + 1) * v, 0) / 10;
    const moved = FEATURE_NAMES.map((_, i) => (i % 2 ? 1 : 0));
    const factors = explain(bill, moved, typical, model).royal_assent;
    expect(factors).toHaveLength(MAX_FACTORS);
    const sizes = factors.map((f) => Math.abs(f.effect));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(factors.some((f) => f.effect < 0)).toBe(true);
    for (const f of factors) expect(f.factor).toMatch(/^[a-z0-9 ',:%()-]+$/i);
  });

  it("name only what each output's networks read: the session's days left for Royal Assent, not for the next stage", () => {
    // a model whose every output moves with the session features (the networks of next_stage_30d see the days left as 0)
    const model = (_: string, x: number[]) => 0.3 + 0.2 * x[at('session_after_election')] + 0.2 * x[at('session_days_left_expected')];
    const session = features.map((v, i) => (i === at('session_after_election') ? 0 : v));
    const result = explain(bill, session, typical, model);
    expect(result.royal_assent[0].factor).toMatch(/^a session not after an election: about \d+ days of it usually left$/);
    expect(result.next_stage_30d[0].factor).toBe('a session not after an election');
  });

  it('say nothing of a ballot place for a bill that is not a ballot bill, and name the place of one that is', () => {
    // a model that reads only the ballot features
    const model = (_: string, x: number[]) => 0.2 + 0.3 * x[at('ballot_position')] + 0.1 * x[at('ballot_first_fridays')];
    const unballoted = features.map((v, i) => (FEATURE_NAMES[i].startsWith('ballot_') ? 0 : v));
    expect(explain(bill, unballoted, typical, model).royal_assent).toEqual([]);
    const drawn = billAsOf({ ...facts, kind: 'pmb_ballot', ballotRank: 3 }, '2020-02-01', [{ id: 35, startDate: '2019-12-19', endDate: null }]);
    const placed = features.map((v, i) => (FEATURE_NAMES[i].startsWith('ballot_') ? 0.9 : v));
    expect(explain(drawn, placed, typical, model).royal_assent[0].factor).toBe("drawn 3rd in the private members' bill ballot");
  });

  it('describe the bill as known on the date', () => {
    const model = (_: string, x: number[]) => 0.1 + 0.5 * x[at('progress')];
    const early = features.map((v, i) => (i === at('progress') ? 2 / 12 : v));
    const stage = explain(bill, early, typical, model).royal_assent[0];
    expect(stage.factor).toBe('stage reached: second reading');
  });
});
