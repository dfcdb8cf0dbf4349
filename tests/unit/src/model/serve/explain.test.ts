import type { BillFacts, SessionFact } from '../../../../../src/model/serve/bill-facts';
import { explain, MAX_FACTORS } from '../../../../../src/model/serve/explain';
import { FEATURE_NAMES, featureVector } from '../../../../../src/model/serve/features';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { referenceBill, type TypicalBill } from '../../../../../src/model/serve/typical-bill';

const sessions: SessionFact[] = [{ id: 35, startDate: '2019-12-19', endDate: null }];
const DATE = '2020-03-01';
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
    { seq: 3, stage: 'committee', house: 'Commons', dates: ['2020-02-04', '2020-02-06', '2020-02-11'] },
  ],
  divisions: [],
  withdrawnDate: null,
};
const bill = billAsOf(facts, DATE, sessions);
/** a kind whose bills sit for second reading after 10 days and stop there, sponsored from outside government */
const typical: TypicalBill = { daysToPosition: [0, 10, null, null, null, null, null, null, null, null, null], leadSponsorPartyInGovernment: false, ballotRank: null };
const reference = referenceBill(facts, DATE, typical);
const calendar = new SittingCalendar([]);
const features = (b: typeof bill) => featureVector(b, sessions, calendar);
const at = (name: string) => FEATURE_NAMES.indexOf(name);
const sum = (effects: { effect: number }[]) => effects.reduce((s, f) => s + f.effect, 0);

describe('explanations', () => {
  it('measure the bill against a typical bill of its kind introduced the same day, in words and probabilities', () => {
    const model = (_: string, x: number[]) => 0.1 + 0.05 * x[at('progress')] * 12;
    const result = explain(bill, reference, sessions, features, model);
    expect(result.reference).toEqual({
      description: "a typical government bill introduced the same day in the Commons, at its kind's median pace: stage reached: second reading (2 sittings, the last 43 days ago), 43 days since its last main stage; sponsor's party not in government",
      probabilities: { royal_assent: 0.2, next_stage_30d: 0.2 },
    });
    // committee (3) against second reading (2): one step
    expect(result.royal_assent).toEqual([{ factor: 'stage reached: committee stage (5 sittings, the last 19 days ago)', effect: 0.05 }]);
  });

  it('credit the pace alone when the model reads only the days since the last main stage', () => {
    const model = (_: string, x: number[]) => 0.8 - 0.5 * x[at('days_since_last_main_stage')];
    const result = explain(bill, reference, sessions, features, model);
    expect(result.royal_assent.map((f) => f.factor)).toEqual(['19 days since its last main stage']);
    expect(result.royal_assent[0].effect).toBeGreaterThan(0);
  });

  it('never squeeze a passage into its first day: a bill only introduced is measured against the reference’s own timing', () => {
    const introduced = billAsOf({ ...facts, stages: facts.stages.slice(0, 1) }, DATE, sessions);
    const seen: string[][] = [];
    const model = (_: string, x: number[]) => 0.8 - 0.5 * x[at('days_since_last_main_stage')];
    explain(introduced, referenceBill(introduced.facts, DATE, typical), sessions, (b) => {
      seen.push(b.state.mainEvents.filter((e) => e.stage !== 'first_reading').map((e) => e.date));
      return features(b);
    }, model);
    // the reference's second reading, ten days in, wherever it is run
    expect(new Set(seen.flat())).toEqual(new Set(['2020-01-18']));
  });

  it('add up to the prediction minus the reference’s, an interaction shared between the parts that make it', () => {
    // the sponsor's party counts only at committee stage or later
    const model = (_: string, x: number[]) => 0.2 + 0.4 * x[at('sponsor_party_in_government')] * (x[at('progress')] >= 3 / 12 ? 1 : 0);
    const result = explain(bill, reference, sessions, features, model);
    expect(result.royal_assent).toEqual([
      { factor: "sponsor's party in government", effect: 0.2 },
      { factor: 'stage reached: committee stage (5 sittings, the last 19 days ago)', effect: 0.2 },
    ]);
    expect(result.reference!.probabilities.royal_assent + sum(result.royal_assent)).toBeCloseTo(model('', features(bill)), 6);
  });

  it('give every factor, largest first, some pulling down, and are the same every time', () => {
    const model = (_: string, x: number[]) => 0.5 + x.reduce((s, v, i) => s + (i % 3 === 0 ? -1 : 1) * 0.004 * (i + 1) * v, 0) / 10;
    const result = explain(bill, reference, sessions, features, model);
    const factors = result.royal_assent;
    expect(factors.length).toBeLessThanOrEqual(MAX_FACTORS);
    const sizes = factors.map((f) => Math.abs(f.effect));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(result.reference!.probabilities.royal_assent + sum(factors)).toBeCloseTo(model('', features(bill)), 5);
    expect(explain(bill, reference, sessions, features, model)).toEqual(result);
  });

  it("name a ballot bill's place in the order of presentation against the kind's middle place", () => {
    const ballot = { ...facts, kind: 'pmb_ballot' as const, ballotRank: 3 };
    const known = billAsOf(ballot, DATE, sessions);
    const model = (_: string, x: number[]) => 0.1 + 0.3 * x[at('ballot_first_fridays')];
    const result = explain(known, referenceBill(ballot, DATE, { ...typical, ballotRank: 10 }), sessions, features, model);
    expect(result.royal_assent).toEqual([{ factor: "presented 3rd of its session's ballot bills", effect: 0.3 }]);
    expect(result.reference!.description).toMatch(/; presented 10th of its session's ballot bills$/);
  });
});
