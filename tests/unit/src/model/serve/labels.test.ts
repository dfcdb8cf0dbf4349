import type { DivisionFact, SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { labelsAt } from '../../../../../src/model/serve/labels';

/** Two sessions in the data's shape: 2016-17 ended by the 2017 dissolution, 2017-19 running past the end of the division counts (2018-07-17). */
const sessions: SessionFact[] = [
  { id: 29, startDate: '2016-05-18', endDate: '2017-04-27' },
  { id: 30, startDate: '2017-06-21', endDate: '2019-10-08' },
];

const CLOSE: DivisionFact = { date: '2016-11-01', ayes: 300, noes: 290 };
const WIDE: DivisionFact = { date: '2016-11-01', ayes: 400, noes: 200 };

/** A government bill of 2016-17 with one Commons division on 2016-11-01, in the shape the snapshot loader gives. */
function bill(billId: number, division: DivisionFact, outcome: TrainingBill['outcome']): TrainingBill {
  return {
    facts: {
      billId,
      kind: 'government',
      originatingHouse: 'Commons',
      introducedDate: '2016-09-01',
      introducedSessionId: 29,
      leadSponsorPartyInGovernment: true,
      stages: [
        { seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2016-09-01'] },
        { seq: 2, stage: 'second_reading', house: 'Commons', dates: [division.date] },
      ],
      divisions: [division],
      withdrawnDate: null,
    },
    outcome,
  };
}

const enactedIn2017 = { outcome: 'royal_assent', royalAssentDate: '2017-03-16', finalSessionId: 29, fullStageHistory: true } as const;
const carriedToAfterDivisions = { outcome: 'royal_assent', royalAssentDate: '2018-12-20', finalSessionId: 30, fullStageHistory: true } as const;

describe('close_vote is labelled only where its window had closed by the cutoff, whatever the answer', () => {
  const date = '2016-10-01';

  it('counts a close vote once the bill was settled by the cutoff, and its absence alike', () => {
    expect(labelsAt(bill(1, CLOSE, enactedIn2017), date, '2017-12-31', sessions).close_vote).toBe(1);
    expect(labelsAt(bill(2, WIDE, enactedIn2017), date, '2017-12-31', sessions).close_vote).toBe(0);
  });

  it('leaves a close vote out while the bill is still alive at the cutoff, as it leaves out its absence', () => {
    // the division is known by the cutoff, but the window it answers (the rest of the bill's life) is not closed
    const cutoff = '2016-12-31';
    expect(labelsAt(bill(3, CLOSE, enactedIn2017), date, cutoff, sessions).close_vote).toBeNull();
    expect(labelsAt(bill(4, WIDE, enactedIn2017), date, cutoff, sessions).close_vote).toBeNull();
  });

  it('leaves out a bill settled after the division counts end, whether or not it had a close vote before', () => {
    const cutoff = '2021-12-31';
    expect(labelsAt(bill(5, CLOSE, carriedToAfterDivisions), date, cutoff, sessions).close_vote).toBeNull();
    expect(labelsAt(bill(6, WIDE, carriedToAfterDivisions), date, cutoff, sessions).close_vote).toBeNull();
  });
});
