import { groupSkill, type ScoredNowcast, skillByKind } from '../../../../../src/model/evaluate/skill-by-kind';
import { royalAssentNowcast as nowcast } from '../../../../support/scored-nowcast';

describe('skill by kind', () => {
  // Government bills: the model is sharp, the table flat. Ballot bills: the model says no to bills that pass.
  const government = Array.from({ length: 20 }, (_, i) => nowcast(i, 'government', i % 2 ? 0.9 : 0.1, 0.5, i % 2 ? 1 : 0));
  const ballot = Array.from({ length: 20 }, (_, i) => nowcast(100 + i, 'pmb_ballot', 0.05, 0.3, i % 2 === 0 ? 1 : 0));
  const skill = skillByKind([...government, ...ballot], { replicates: 300 });

  it('splits the figures by kind and keeps every bill in the pooled ones', () => {
    expect(Object.keys(skill.byKind)).toEqual(['government', 'pmb_ballot']);
    expect(skill.pooled.bills).toBe(40);
    expect(skill.byKind.government.outputs.royal_assent).toMatchObject({ bills: 20, nowcasts: 20, positiveBills: 10 });
    expect(skill.byKind.pmb_ballot.outputs.royal_assent).toMatchObject({ bills: 20, positiveBills: 10 });
  });

  it('shows the model beating the table for one kind and losing to it for another, where pooling hides it', () => {
    const gov = skill.byKind.government.outputs.royal_assent;
    const pmb = skill.byKind.pmb_ballot.outputs.royal_assent;
    expect(gov.model.brier.value).toBeCloseTo(0.01, 12);
    expect(gov.table.brier.value).toBeCloseTo(0.25, 12);
    expect(gov.brierRatio.high!).toBeLessThan(1);
    expect(pmb.brierRatio.value!).toBeGreaterThan(1);
    expect(pmb.brierRatio.low!).toBeGreaterThan(1);
    // the ballot bills' calibration gap: forecast 0.05, 10 of 20 passed
    expect(pmb.model.ece.value).toBeCloseTo(10 / 20 - 0.05, 12);
    expect(skill.pooled.outputs.royal_assent.brierRatio.value!).toBeLessThan(1);
  });

  it('weighs a bill with many nowcasts as one bill', () => {
    // a government bill seen 30 times, wrongly, beside one seen once, rightly: per bill the mean of 0.81 and 0.01
    const nowcasts = [...Array.from({ length: 30 }, (_, k) => nowcast(1, 'government', 0.1, 0.5, 1, `2020-01-${String(1 + (k % 28)).padStart(2, '0')}`)), nowcast(2, 'government', 0.1, 0.5, 0)];
    expect(groupSkill(nowcasts, { replicates: 0 }).outputs.royal_assent.model.brier.value).toBeCloseTo(0.41, 12);
  });

  it('reports ETA errors by bill beside the baseline’s', () => {
    const withEta = (billId: number, model: number, baseline: number, actual: number): ScoredNowcast => ({ ...nowcast(billId, 'government', 0.5, 0.5, 1), eta: { actual, model, baseline } });
    const g = groupSkill([withEta(1, 10, 30, 12), withEta(2, 40, 10, 50), withEta(3, 7, 7, 7)], { replicates: 100 });
    expect(g.eta.model.median.value).toBe(2);
    expect(g.eta.baseline.median.value).toBe(18);
    expect(g.eta.medianRatio.value).toBeCloseTo(2 / 18, 12);
    expect(g.eta).toMatchObject({ bills: 3, nowcasts: 3 });
  });
});
