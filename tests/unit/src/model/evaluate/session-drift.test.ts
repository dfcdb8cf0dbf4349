import type { BillFacts, BillKind, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { kindsBySession } from '../../../../../src/model/evaluate/session-drift';
import type { TrainingData } from '../../../../../src/model/train/train';
import { royalAssentNowcast } from '../../../../support/scored-nowcast';

const SESSIONS = [
  { id: 1, startDate: '2014-06-04', endDate: '2015-03-26' },
  { id: 2, startDate: '2015-05-27', endDate: '2016-04-28' },
  { id: 3, startDate: '2016-05-18', endDate: '2017-04-27' },
];
const FOLD = { session: { id: 3, name: '2016-17' }, cutoff: '2016-05-17' };

const bill = (billId: number, kind: BillKind, sessionId: number, royalAssentDate: string | null): TrainingBill => ({
  facts: { billId, kind, introducedSessionId: sessionId } as BillFacts,
  outcome: { outcome: royalAssentDate ? 'royal_assent' : 'fell', royalAssentDate, finalSessionId: sessionId, stageHistoryCompleteUntil: null },
});

const nowcast = (billId: number, kind: string, model: number, table: number, y: 0 | 1, date: string) => royalAssentNowcast(billId, kind, model, table, y, date, FOLD.session.id);

describe('each test session’s watched kinds beside the sessions its model learned from', () => {
  const data: TrainingData = {
    sessions: SESSIONS,
    bills: [
      // session 1: 10 government bills, 9 enacted in it
      ...Array.from({ length: 10 }, (_, i) => bill(i, 'government', 1, i < 9 ? '2015-03-20' : null)),
      // session 2: 6 government bills, all enacted, one only after the fold's cutoff (carried over): not counted
      ...Array.from({ length: 6 }, (_, i) => bill(20 + i, 'government', 2, i < 5 ? '2016-04-20' : '2016-06-30')),
      // session 2: too few ballot bills to say anything of their pass rate
      ...Array.from({ length: 4 }, (_, i) => bill(40 + i, 'pmb_ballot', 2, i < 2 ? '2016-03-11' : null)),
      // the test session's own bills: never counted among the earlier sessions
      ...Array.from({ length: 4 }, (_, i) => bill(60 + i, 'government', 3, i < 1 ? '2017-04-27' : null)),
    ],
  };
  // the model expects the government bills of the test session to pass; one of the four does
  const nowcasts = [
    ...[60, 61, 62, 63].flatMap((id) => [nowcast(id, 'government', 0.9, 0.8, id === 60 ? 1 : 0, '2016-06-01'), nowcast(id, 'government', 0.7, 0.8, id === 60 ? 1 : 0, '2016-06-15')]),
    nowcast(70, 'pmb_ballot', 0.2, 0.3, 1, '2016-06-01'),
    nowcast(80, 'pmb_presentation', 0.01, 0.02, 0, '2016-06-01'),
  ];

  it('counts bills enacted, the bill-weighted mean forecasts and the calibration error of the session alone', () => {
    const [government, ballot] = kindsBySession(data, [FOLD], nowcasts);
    expect(government).toMatchObject({ session: '2016-17', kind: 'government', bills: 4, enacted: 1 });
    expect(government.modelMean).toBeCloseTo(0.8, 10);
    expect(government.tableMean).toBeCloseTo(0.8, 10);
    expect(government.modelEce).toBeCloseTo(0.55, 10);
    expect(ballot).toMatchObject({ kind: 'pmb_ballot', bills: 1, enacted: 1 });
  });

  it('reads the earlier sessions’ enacted shares from Royal Assents dated by the cutoff, in sessions with enough bills', () => {
    const [government, ballot] = kindsBySession(data, [FOLD], nowcasts);
    expect(government.earlier).toEqual({ sessions: 2, lowestShare: 5 / 6, highestShare: 0.9 });
    expect(ballot.earlier).toBeNull();
  });

  it('reports only the watched kinds', () => {
    expect(kindsBySession(data, [FOLD], nowcasts).map((r) => r.kind)).toEqual(['government', 'pmb_ballot']);
  });
});
