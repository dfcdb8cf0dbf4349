import { riseWithin, spikeRise, type PredictionPoint } from '../../../../src/events/prediction-point';

const point = (referenceDate: string, royalAssent: number, nextStage30d = 0): PredictionPoint => ({ referenceDate, modelVersion: 1, royalAssent, nextStage30d, timelineEtaDays: null });

describe('riseWithin', () => {
  it('is the last value less the lowest in effect during the window', () => {
    expect(riseWithin([point('2021-11-01', 0.5), point('2021-11-03', 0.2), point('2021-11-05', 0.6)], 'royalAssent')).toBeCloseTo(0.4);
    expect(riseWithin([point('2021-11-01', 0.5), point('2021-11-05', 0.4)], 'royalAssent')).toBe(0);
    expect(riseWithin([point('2021-11-05', 0.4)], 'royalAssent')).toBe(0);
  });

  it('counts a value set before the window while it was still in effect at its start', () => {
    expect(riseWithin([point('2021-10-01', 0.1), point('2021-11-08', 0.3)], 'royalAssent')).toBeCloseTo(0.2);
    expect(riseWithin([point('2021-10-01', 0.1), point('2021-10-31', 0.25), point('2021-11-08', 0.3)], 'royalAssent')).toBeCloseTo(0.05);
  });

  it('spikeRise takes the larger of the Royal Assent and next-30-day rises', () => {
    expect(spikeRise([point('2021-11-01', 0.5, 0.1), point('2021-11-02', 0.55, 0.4)])).toBeCloseTo(0.3);
  });
});
