import type { BillFacts, SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { referenceBill, typicalBills } from '../../../../../src/model/serve/typical-bill';

const sessions: SessionFact[] = [{ id: 1, startDate: '2019-01-01', endDate: '2019-12-31' }];
const outcome = { outcome: 'fell', royalAssentDate: null, finalSessionId: 1, stageHistoryCompleteUntil: null } as const;
/** a ballot bill introduced on 10 January that sat for second reading after `secondReading` days, if at all */
function ballotBill(billId: number, secondReading: number | null, party: boolean | null, rank: number): TrainingBill {
  const stages = [{ seq: 1, stage: 'first_reading', house: 'Commons' as const, dates: ['2019-01-10'] }];
  if (secondReading !== null) stages.push({ seq: 2, stage: 'second_reading', house: 'Commons', dates: [`2019-01-${String(10 + secondReading).padStart(2, '0')}`] });
  const facts: BillFacts = {
    billId,
    kind: 'pmb_ballot',
    originatingHouse: 'Commons',
    introducedDate: '2019-01-10',
    introducedSessionId: 1,
    leadSponsorPartyInGovernment: party,
    stages,
    divisions: [],
    withdrawnDate: null,
    ballotRank: rank,
  };
  return { facts, outcome };
}

describe('the typical bill of a kind', () => {
  // five ballot bills of an ended session: three reached second reading (after 5, 9 and 20 days)
  const bills = [ballotBill(1, 5, false, 1), ballotBill(2, 9, null, 2), ballotBill(3, 20, false, 3), ballotBill(4, null, true, 4), ballotBill(5, null, null, 5)];
  const typical = typicalBills(bills, sessions, '2020-01-01').pmb_ballot;

  it('reaches each position at the median day of its kind’s settled bills, never where most never did', () => {
    expect(typical.daysToPosition.slice(0, 3)).toEqual([0, 20, null]);
  });

  it('has the commonest known sponsor party and the median ballot place', () => {
    expect([typical.leadSponsorPartyInGovernment, typical.ballotRank]).toEqual([false, 3]);
  });

  it('is a live bill introduced the same day as the bill it explains, on its kind’s timetable up to the date', () => {
    const explained = billAsOf(ballotBill(9, 2, true, 17).facts, '2019-02-15', sessions);
    const reference = referenceBill(explained.facts, '2019-02-15', typical);
    const state = billAsOf(reference, '2019-02-15', sessions).state;
    expect([state.status, state.lastMain?.stage, state.lastMain?.date, reference.introducedDate, reference.ballotRank]).toEqual(['live', 'second_reading', '2019-01-30', '2019-01-10', 3]);
    // before its kind's day for second reading, only introduced
    expect(billAsOf(referenceBill(explained.facts, '2019-01-20', typical), '2019-01-20', sessions).state.lastMain?.stage).toBe('first_reading');
  });
});
