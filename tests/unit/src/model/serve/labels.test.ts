import type { DivisionFact, SessionFact, StageFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { labelsAt } from '../../../../../src/model/serve/labels';
import { stageHistoryCompleteUntil } from '../../../../../src/model/serve/bill-facts';

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

const enactedIn2017 = { outcome: 'royal_assent', royalAssentDate: '2017-03-16', finalSessionId: 29, stageHistoryCompleteUntil: null } as const;
const carriedToAfterDivisions = { outcome: 'royal_assent', royalAssentDate: '2018-12-20', finalSessionId: 30, stageHistoryCompleteUntil: null } as const;

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

describe('a stage history that lost stages is censored where the loss begins, not dropped for it', () => {
  // a government bill in the shape of the snapshot's truncated ones: its first stages, the stages lost, its Royal Assent appended
  const stages: StageFact[] = [
    { seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2017-07-13'] },
    { seq: 2, stage: 'second_reading', house: 'Commons', dates: ['2017-09-11'] },
    { seq: 3, stage: 'committee', house: 'Commons', dates: ['2017-11-14', '2017-11-15'] },
    { seq: 4, stage: 'report', house: 'Commons', dates: ['2018-01-16'] },
    { seq: 9, stage: 'royal_assent', house: 'Unassigned', dates: ['2018-06-26'] },
  ];
  const truncated: TrainingBill = {
    facts: { billId: 2110, kind: 'government', originatingHouse: 'Commons', introducedDate: '2017-07-13', introducedSessionId: 30, leadSponsorPartyInGovernment: true, stages, divisions: [], withdrawnDate: null },
    outcome: { outcome: 'royal_assent', royalAssentDate: '2018-06-26', finalSessionId: 30, stageHistoryCompleteUntil: stageHistoryCompleteUntil('truncated', 4, stages, '2017-07-13') },
  };

  it('is whole up to the first sitting of the last stage before the gap', () => {
    expect(truncated.outcome.stageHistoryCompleteUntil).toBe('2018-01-16');
    expect(stageHistoryCompleteUntil('full', 0, stages, '2017-07-13')).toBeNull();
    // more than twenty stages, none of them lost
    expect(stageHistoryCompleteUntil('truncated', 0, stages, '2017-07-13')).toBeNull();
  });

  it('labels the next stage and its wait before the gap, as for a bill with its whole history', () => {
    const labels = labelsAt(truncated, '2017-11-01', '2021-12-31', sessions);
    expect(labels.next_stage_30d).toBe(1);
    expect(labels.timeline_eta).toBe(13);
    expect(labels.stall_risk).toBe(0);
    expect(labels.amendment_risk).toBe(1);
    expect(labelsAt(truncated, '2017-09-20', '2021-12-31', sessions).next_stage_30d).toBe(0);
  });

  it('after the gap begins, counts a stage it saw but not the absence of one it may have lost', () => {
    // Royal Assent 20 days later proves a main stage within 30 days; lost stages may have come sooner, so no wait
    const late = labelsAt(truncated, '2018-06-06', '2021-12-31', sessions);
    expect(late.next_stage_30d).toBe(1);
    expect(late.timeline_eta).toBeNull();
    // no stage seen in the 30 days after 2018-02-01: one may have been lost
    const gap = labelsAt(truncated, '2018-02-01', '2021-12-31', sessions);
    expect(gap.next_stage_30d).toBeNull();
    expect(gap.timeline_eta).toBeNull();
  });
});
