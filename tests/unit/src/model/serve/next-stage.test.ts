import { ETA_BIN_EDGES } from '../../../../../src/model/serve/model-artifact';
import { ETA_INTERVALS, nextStageOf, scheduledAt } from '../../../../../src/model/serve/next-stage';
import type { Nowcast } from '../../../../../src/model/serve/predictor';
import { timelineEtaExplanation, withScheduledEta } from '../../../../../src/services/scheduled-eta';
import { expectOneDistribution } from '../../../../support/next-stage';

/** ETA network outputs: a share for each interval of ETA_BIN_EDGES, then one for no next stage. */
const outputs = (shares: Record<number, number>, none: number) => [...Array.from({ length: ETA_INTERVALS }, (_, i) => shares[i] ?? 0), none];
const at = (days: number) => ETA_BIN_EDGES.indexOf(days);

describe('next_stage_30d and the ETA read from one distribution of the days to the next stage', () => {
  it('keeps the calibrated probability within 30 days, and reads the ETA as the median given that the bill moves', () => {
    // the networks put most of the moving mass within 30 days; the calibrated probability says only 13.5% move that soon
    const next = nextStageOf(0.135145, outputs({ [at(21)]: 0.6, [at(60)]: 0.1 }, 0.3));
    expect(next.within30).toBe(0.135145);
    // the rest (86.5%) splits 1 : 3 between a later stage and none
    expect(next.atAll).toBeCloseTo(0.135145 + 0.864855 / 4, 6);
    // 38% of the moving bills move within 30 days: the median is past it, in (60, 90]
    expect(next.etaDays).toBeGreaterThan(60);
    expect(next.etaDays).toBeLessThanOrEqual(90);
    expectOneDistribution({ probabilities: { next_stage_30d: next.within30 } as Nowcast['probabilities'], timelineEtaDays: next.etaDays, nextStageAtAll: next.atAll });
  });

  it('puts the ETA within 30 days when most bills that move do so within them, however few move at all', () => {
    const next = nextStageOf(0.2, outputs({ [at(14)]: 0.5, [at(90)]: 0.05 }, 0.9));
    expect(next.within30 / next.atAll).toBeGreaterThanOrEqual(0.5);
    // all of it in (14, 21], where the median given that the bill moves falls
    expect(next.etaDays).toBeGreaterThan(14);
    expect(next.etaDays).toBeLessThanOrEqual(21);
  });

  it('never rounds a median just past 30 days to 30.0, nor one at 30 days past it', () => {
    // the moving mass within 30 days is a hair under half: the median sits a hair past 30 days
    const past = nextStageOf(0.499999, outputs({ [at(30)]: 1 }, 1e-12));
    expect(past.within30 / past.atAll).toBeLessThan(0.5);
    expect(past.etaDays).toBe(30.1);
    const exactly = nextStageOf(0.5, outputs({ [at(30)]: 1 }, 1e-12));
    expect(exactly.etaDays).toBe(30);
  });

  it('holds the invariant over a grid of probabilities and network outputs', () => {
    for (const p of [0, 0.000001, 0.01, 0.2, 0.37, 0.5, 0.63, 0.9, 0.999999, 1]) {
      for (const none of [0, 0.01, 0.5, 0.99]) {
        for (const spread of [{ [at(7)]: 1 }, { [at(30)]: 0.2, [at(45)]: 0.2 }, { [at(365)]: 0.4 }, {}]) {
          const next = nextStageOf(p, outputs(spread, none));
          expectOneDistribution({ probabilities: { next_stage_30d: next.within30 } as Nowcast['probabilities'], timelineEtaDays: next.etaDays, nextStageAtAll: next.atAll });
        }
      }
    }
  });

  it('moves both when the next stage is scheduled: the ETA to the sitting, next_stage_30d to the chance the bill moves at all if it is within 30 days', () => {
    expect(scheduledAt(0.4, 12)).toEqual({ within30: 0.4, atAll: 0.4, etaDays: 12 });
    expect(scheduledAt(0.4, 31)).toEqual({ within30: 0, atAll: 0.4, etaDays: 31 });
    const model: Nowcast = {
      billId: 2900,
      referenceDate: '2026-10-10',
      status: 'live',
      probabilities: { royal_assent: 0.4, next_stage_30d: 0.1, stall_risk: 0.6, withdrawal_risk: 0.6, amendment_risk: 0.3, close_vote: 0 },
      timelineEtaDays: 80.2,
      nextStageAtAll: 0.45,
      controversyScore: 0,
      momentumScore: 0.5,
      lastStage: null,
      table: null,
    };
    const scheduled = withScheduledEta(model, [{ stage: 'committee', scheduledFor: '2026-10-21', firstSeenDay: '2026-10-05', supersededDay: null, stageFirstSat: null }]);
    expect(scheduled.timelineEtaDays).toBe(11);
    expect(scheduled.probabilities.next_stage_30d).toBe(0.45);
    expect(scheduled.probabilities.royal_assent).toBe(0.4);
    expectOneDistribution(scheduled);
    expect(timelineEtaExplanation(scheduled)).toBe('scheduled for 2026-10-21: the days to that sitting, if it is held; a 45% chance of a next main stage at all, 45% within 30 days');
    expect(timelineEtaExplanation({ ...model, timelineEtaScheduledFor: null })).toBe(
      "estimated by the model from the bill's history: the median wait if the bill moves (22% of its moving within 30 days, if it moves); a 45% chance of a next main stage at all, 10% within 30 days",
    );
  });
});
