import { scheduledNextStage, type SittingRecord } from '../../../../src/services/scheduled-eta';

const sitting = (over: Partial<SittingRecord>): SittingRecord => ({ stage: 'third_reading', scheduledFor: '2026-10-21', firstSeenDay: '2026-10-10', supersededDay: null, stageFirstSat: '2026-10-21', ...over });

describe('scheduledNextStage: the date of the next main stage as the service knew it on the reference date', () => {
  it('is the soonest standing date after the day, from the day it was first seen', () => {
    const sittings = [sitting({ scheduledFor: '2026-10-28', stageFirstSat: '2026-10-28' }), sitting({ stage: 'report', scheduledFor: '2026-10-21' })];
    expect(scheduledNextStage(sittings, '2026-10-12')).toBe('2026-10-21');
    expect(scheduledNextStage(sittings, '2026-10-09')).toBeNull();
    // on the day itself the stage sits: it is no longer ahead
    expect(scheduledNextStage([sitting({})], '2026-10-21')).toBeNull();
  });

  it('reads a moved date as it stood: the old one until the day of the move, the new one from then', () => {
    const moved = [sitting({ scheduledFor: '2026-10-21', supersededDay: '2026-10-15' }), sitting({ scheduledFor: '2026-10-28', firstSeenDay: '2026-10-15', stageFirstSat: '2026-10-28' })];
    expect(scheduledNextStage(moved, '2026-10-14')).toBe('2026-10-21');
    expect(scheduledNextStage(moved, '2026-10-15')).toBe('2026-10-28');
    // a date taken away without another leaves none
    expect(scheduledNextStage([sitting({ supersededDay: '2026-10-15' })], '2026-10-16')).toBeNull();
  });

  it('passes over a later sitting of a stage already under way, and stages that do not move a bill along', () => {
    expect(scheduledNextStage([sitting({ stage: 'committee', scheduledFor: '2026-10-20', stageFirstSat: '2026-10-06' })], '2026-10-12')).toBeNull();
    expect(scheduledNextStage([sitting({ stage: 'money_resolution' })], '2026-10-12')).toBeNull();
    // a stage record no longer in the data still counts as it was scheduled
    expect(scheduledNextStage([sitting({ stageFirstSat: null })], '2026-10-12')).toBe('2026-10-21');
  });
});
