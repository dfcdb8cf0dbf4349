import type { SessionFact, TrainingBill } from '../../../../src/model/serve/bill-facts';
import { forecastOutcome } from '../../../../src/services/forecast-outcomes';

const sessions: SessionFact[] = [{ id: 35, startDate: '2019-12-17', endDate: '2021-04-29' }];

/** A government bill of 2019-21 read a second time on 2020-02-10 and in committee on 2020-03-20, with the given fate. */
function bill(outcome: TrainingBill['outcome'], withdrawnDate: string | null = null): TrainingBill {
  return {
    facts: {
      billId: 1,
      kind: 'government',
      originatingHouse: 'Commons',
      introducedDate: '2020-01-08',
      introducedSessionId: 35,
      leadSponsorPartyInGovernment: true,
      stages: [
        { seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2020-01-08'] },
        { seq: 2, stage: 'second_reading', house: 'Commons', dates: ['2020-02-10'] },
        { seq: 3, stage: 'committee', house: 'Commons', dates: ['2020-03-20'] },
      ],
      divisions: [],
      withdrawnDate,
    },
    outcome,
  };
}
const enacted = bill({ outcome: 'royal_assent', royalAssentDate: '2020-11-01', finalSessionId: 35, stageHistoryCompleteUntil: null });
const fell = bill({ outcome: 'fell', royalAssentDate: null, finalSessionId: 35, stageHistoryCompleteUntil: null });
const pending = bill({ outcome: 'pending', royalAssentDate: null, finalSessionId: 35, stageHistoryCompleteUntil: null });

describe('how a forecast of record resolves', () => {
  it('royal_assent: on the day of the fate, 1 if enacted, 0 if the session ended without it; open before', () => {
    expect(forecastOutcome('royal_assent', '2020-02-01', enacted, sessions, '2021-12-31')).toEqual({ outcome: 1, resolvedOn: '2020-11-01' });
    expect(forecastOutcome('royal_assent', '2020-02-01', enacted, sessions, '2020-10-31')).toBeNull();
    expect(forecastOutcome('royal_assent', '2020-02-01', fell, sessions, '2021-12-31')).toEqual({ outcome: 0, resolvedOn: '2021-04-29' });
    expect(forecastOutcome('royal_assent', '2020-02-01', pending, sessions, '2021-12-31')).toBeNull();
  });

  it('next_stage_30d: 1 on the day a main stage sat within 30 days, else 0 once the 30 days are over', () => {
    expect(forecastOutcome('next_stage_30d', '2020-02-01', enacted, sessions, '2021-12-31')).toEqual({ outcome: 1, resolvedOn: '2020-02-10' });
    // 2020-02-11 + 30 = 2020-03-12: committee sat on 03-20, after it
    expect(forecastOutcome('next_stage_30d', '2020-02-11', enacted, sessions, '2021-12-31')).toEqual({ outcome: 0, resolvedOn: '2020-03-12' });
    expect(forecastOutcome('next_stage_30d', '2020-02-11', enacted, sessions, '2020-03-01')).toBeNull();
  });

  it('timeline_eta: the days the next stage took, on its day; none (null) when the fate came first', () => {
    expect(forecastOutcome('timeline_eta', '2020-02-11', enacted, sessions, '2021-12-31')).toEqual({ outcome: 38, resolvedOn: '2020-03-20' });
    expect(forecastOutcome('timeline_eta', '2020-04-01', fell, sessions, '2021-12-31')).toEqual({ outcome: null, resolvedOn: '2021-04-29' });
    expect(forecastOutcome('timeline_eta', '2020-04-01', pending, sessions, '2021-12-31')).toBeNull();
  });

  it('a withdrawal settles royal_assent at 0 on its day', () => {
    const withdrawn = bill({ outcome: 'withdrawn', royalAssentDate: null, finalSessionId: 35, stageHistoryCompleteUntil: null }, '2020-06-01');
    expect(forecastOutcome('royal_assent', '2020-04-01', withdrawn, sessions, '2021-12-31')).toEqual({ outcome: 0, resolvedOn: '2020-06-01' });
  });
});
