import type { Nowcast } from '../../src/model/serve/predictor';

/**
 * The invariant one distribution of the days to the next stage guarantees, of the numbers as
 * served: the ETA (the median wait given that the bill moves) is 30 days or less exactly when
 * next_stage_30d is at least half the chance of a next stage at all, i.e. when a bill that moves
 * more likely than not moves within 30 days. And next_stage_30d never exceeds that chance.
 */
export function expectOneDistribution(n: Pick<Nowcast, 'probabilities' | 'timelineEtaDays' | 'nextStageAtAll'>): void {
  const within = n.probabilities.next_stage_30d;
  expect(within).toBeLessThanOrEqual(n.nextStageAtAll);
  expect(n.nextStageAtAll).toBeLessThanOrEqual(1);
  expect(n.timelineEtaDays! <= 30).toBe(within >= 0.5 * n.nextStageAtAll);
}

