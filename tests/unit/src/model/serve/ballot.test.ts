import type { BillFacts, SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { assignBallotRanks, ballotRank } from '../../../../../src/model/serve/ballot';
import { explain } from '../../../../../src/model/serve/explain';
import { FEATURE_NAMES, featureVector } from '../../../../../src/model/serve/features';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';
import { pushTo } from '../../../../../src/common/multimap';

let bills: TrainingBill[];
let sessions: SessionFact[];

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const bill = (id: number) => bills.find((b) => b.facts.billId === id)!.facts;
const ballot = (over: Partial<BillFacts>): BillFacts => ({
  billId: 1,
  kind: 'pmb_ballot',
  originatingHouse: 'Commons',
  introducedDate: '2014-07-02',
  introducedSessionId: 27,
  leadSponsorPartyInGovernment: false,
  stages: [{ seq: 1, stage: 'first_reading', house: 'Commons', dates: ['2014-07-02'] }],
  divisions: [],
  withdrawnDate: null,
  ...over,
});

describe('ballot rank: a ballot bill’s place in the order its session’s ballot bills were presented', () => {
  it('is read into the real data: 2014-15, presented in the order of the draw', () => {
    // Affordable Homes Bill (Andrew George, drawn first); Self-build and Custom Housebuilding Bill (Richard Bacon, fourth)
    expect(bill(1412).ballotRank).toBe(1);
    expect(bill(1415).ballotRank).toBe(4);
    // every session's twenty (or so) ballot bills get the ranks 1, 2, 3 … once each
    const bySession = new Map<number, number[]>();
    for (const { facts } of bills) if (facts.kind === 'pmb_ballot') pushTo(bySession, facts.introducedSessionId, facts.ballotRank!);
    expect(bySession.size).toBeGreaterThan(10);
    for (const ranks of bySession.values()) expect([...ranks].sort((a, b) => a - b)).toEqual(ranks.map((_, i) => i + 1));
    expect(bills.filter((b) => b.facts.kind !== 'pmb_ballot').every((b) => b.facts.ballotRank === null)).toBe(true);
  });

  it('counts only ballot bills of the same session presented before it: never a later one', () => {
    const me = ballot({ billId: 10 });
    const others = [
      ballot({ billId: 5 }),
      ballot({ billId: 7, introducedDate: '2014-07-01' }),
      ballot({ billId: 12 }), // presented after it the same day
      ballot({ billId: 3, introducedDate: '2014-09-01' }), // a later day, whatever its id
      ballot({ billId: 4, introducedSessionId: 26 }),
      { ...ballot({ billId: 6 }), kind: 'pmb_presentation' as const },
    ];
    expect(ballotRank(me, others)).toBe(3);
    expect(ballotRank({ ...me, kind: 'government' }, others)).toBeNull();
    expect(assignBallotRanks([ballot({ billId: 12 }), me, ballot({ billId: 5 })]).map((b) => b.ballotRank)).toEqual([3, 2, 1]);
  });

  it('is a feature: the same ballot bill presented first or fifteenth gives the network different inputs', () => {
    const known = [{ id: 27, startDate: '2014-06-04', endDate: null }];
    const calendar = new SittingCalendar([]);
    const at = (rank: number) => featureVector(billAsOf(ballot({ ballotRank: rank }), '2014-08-01', known), known, calendar);
    const position = FEATURE_NAMES.indexOf('ballot_position');
    const firstFridays = FEATURE_NAMES.indexOf('ballot_first_fridays');
    expect([at(1)[position], at(1)[firstFridays]]).toEqual([0.05, 1]);
    expect([at(15)[position], at(15)[firstFridays]]).toEqual([0.75, 0]);
    // and explained in words, against the same bill presented fifteenth
    const model = (_: string, x: number[]) => 0.1 + 0.3 * x[firstFridays];
    const features = (bill: ReturnType<typeof billAsOf>) => featureVector(bill, known, calendar);
    expect(explain(billAsOf(ballot({ ballotRank: 3 }), '2014-08-01', known), ballot({ ballotRank: 15 }), known, features, model).royal_assent).toEqual([
      { factor: "presented 3rd of its session's ballot bills", effect: 0.3 },
    ]);
  });
});
