import { predictionEvents, trendingUp } from '../../../../src/events/rules';
import type { PredictionPoint } from '../../../../src/events/prediction-point';

const point = (referenceDate: string, royalAssent: number, nextStage30d = 0.3, timelineEtaDays: number | null = 20): PredictionPoint => ({ referenceDate, modelVersion: 1, royalAssent, nextStage30d, timelineEtaDays });
const days = (...values: number[]) => values.map((v, i) => point(`2021-11-${String(i + 1).padStart(2, '0')}`, v));

describe('prediction event rules', () => {
  it('a bill seen for the first time emits nothing: there is nothing to compare with', () => {
    expect(predictionEvents([point('2021-11-01', 0.9, 0.9, 1)])).toEqual([]);
  });

  it('prediction.updated: only a material change: a probability moved by 0.02 or more, or the ETA changed its time bucket', () => {
    // a point or so of drift, the daily noise of a month's replay, is no event
    expect(predictionEvents([point('2021-11-01', 0.5), point('2021-11-02', 0.51)])).toEqual([]);
    expect(predictionEvents([point('2021-11-01', 0.5), point('2021-11-02', 0.519)])).toEqual([]);
    expect(predictionEvents([point('2021-11-01', 0.5), point('2021-11-02', 0.52)])).toEqual(['prediction.updated']);
    expect(predictionEvents([point('2021-11-01', 0.5), point('2021-11-02', 0.48)])).toEqual(['prediction.updated']);
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3), point('2021-11-02', 0.5, 0.32)])).toEqual(['prediction.updated']);
    // the ETA moving within its bucket (two weeks: 8 to 14 days) is no event; into another it is
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3, 14), point('2021-11-02', 0.5, 0.3, 9)])).toEqual([]);
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3, 40), point('2021-11-02', 0.5, 0.3, 31)])).toEqual([]);
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3, 20), point('2021-11-02', 0.5, 0.3, 14)])).toEqual(['prediction.updated']);
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3, 31), point('2021-11-02', 0.5, 0.3, 30)])).toEqual(['prediction.updated']);
    expect(predictionEvents([point('2021-11-01', 0.5, 0.3, 20), point('2021-11-02', 0.5, 0.3, null)])).toEqual(['prediction.updated']);
  });

  it('prediction.imminent_stage_change: entering the imminent list at its defaults (7 days, 0.5), not staying on it', () => {
    const out = point('2021-11-01', 0.5, 0.49, 5);
    const inList = point('2021-11-02', 0.5, 0.5, 7);
    expect(predictionEvents([out, inList])).toContain('prediction.imminent_stage_change');
    expect(predictionEvents([inList, { ...inList, referenceDate: '2021-11-03', timelineEtaDays: 6 }])).not.toContain('prediction.imminent_stage_change');
    expect(predictionEvents([point('2021-11-01', 0.5, 0.9, 8), point('2021-11-02', 0.5, 0.9, 7.5)])).toEqual([]);
  });

  it('prediction.high_probability: Royal Assent crossing 0.8 upward only', () => {
    expect(predictionEvents([point('2021-11-01', 0.79), point('2021-11-02', 0.8)])).toContain('prediction.high_probability');
    expect(predictionEvents([point('2021-11-01', 0.8), point('2021-11-02', 0.9)])).not.toContain('prediction.high_probability');
    expect(predictionEvents([point('2021-11-01', 0.9), point('2021-11-02', 0.7)])).not.toContain('prediction.high_probability');
  });

  it('prediction.probability_spike: a rise of 0.15 within 7 days, counted from the lowest value in effect in the window', () => {
    // 0.30 on the 1st is still in effect on the 8th (the window's start): 0.45 on the 9th is a rise of 0.15
    const slow = [point('2021-11-01', 0.3), point('2021-11-09', 0.45)];
    expect(predictionEvents(slow)).toContain('prediction.probability_spike');
    // over 8 days the 0.30 of the 1st has left the window once a later value took over
    const drift = [point('2021-11-01', 0.3), point('2021-11-02', 0.36), point('2021-11-10', 0.45)];
    expect(predictionEvents(drift)).not.toContain('prediction.probability_spike');
    expect(predictionEvents([point('2021-11-01', 0.3), point('2021-11-04', 0.4), point('2021-11-06', 0.449)])).not.toContain('prediction.probability_spike');
    // the next-30-day probability spikes alike
    expect(predictionEvents([point('2021-11-01', 0.3, 0.2), point('2021-11-02', 0.3, 0.35)])).toContain('prediction.probability_spike');
  });

  it('prediction.probability_spike fires when the spike begins, not again while it lasts', () => {
    expect(predictionEvents(days(0.3, 0.5, 0.52))).not.toContain('prediction.probability_spike');
  });

  it('prediction.trending_up: a rise at each of the last 3 refreshes, 0.05 or more in all', () => {
    expect(trendingUp(days(0.4, 0.42, 0.44, 0.45))).toBe(true);
    expect(trendingUp(days(0.4, 0.42, 0.44, 0.449))).toBe(false);
    expect(trendingUp(days(0.4, 0.46, 0.46, 0.5))).toBe(false);
    expect(trendingUp(days(0.42, 0.44, 0.45))).toBe(false);
    expect(predictionEvents(days(0.4, 0.42, 0.44, 0.45))).toContain('prediction.trending_up');
    // still rising the next day: the trend began a refresh ago, no second event
    expect(predictionEvents(days(0.4, 0.42, 0.44, 0.45, 0.46))).not.toContain('prediction.trending_up');
  });
});
