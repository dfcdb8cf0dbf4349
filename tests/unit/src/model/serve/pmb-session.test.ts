import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { featureVector, FEATURE_NAMES, PMB_FRIDAYS_SCALE } from '../../../../../src/model/serve/features';
import { sessionOutlook } from '../../../../../src/model/serve/session-length';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const bill = (id: number) => bills.find((b) => b.facts.billId === id)!.facts;
const feature = (id: number, date: string, name: string) => featureVector(billAsOf(bill(id), date, sessions), sessions, new SittingCalendar([]))[FEATURE_NAMES.indexOf(name)];

describe("a private member's bill's session, as known on a date", () => {
  // 2021-22: ballot bills presented 2021-06-16; the first private members' Friday was 2021-09-10
  const ballotBill = 2906;

  it('has the Fridays the session is expected to give left before the first, and fewer as they are used', () => {
    const expected = (date: string) => sessionOutlook(36, sessions, date).expectedPmbFridays!;
    expect(feature(ballotBill, '2021-09-09', 'pmb_fridays_left')).toBeCloseTo(expected('2021-09-09') / PMB_FRIDAYS_SCALE, 10);
    const fridays = bill(ballotBill).pmbSession!.fridays.filter((d) => d >= '2021-05-11');
    expect(fridays[0]).toBe('2021-09-10');
    expect(feature(ballotBill, '2021-09-10', 'pmb_fridays_left')).toBeCloseTo((expected('2021-09-10') - 1) / PMB_FRIDAYS_SCALE, 10);
    expect(feature(ballotBill, '2021-12-31', 'pmb_fridays_left')).toBeCloseTo((expected('2021-12-31') - fridays.filter((d) => d <= '2021-12-31').length) / PMB_FRIDAYS_SCALE, 10);
  });

  it('counts the ballot bills that have sat at a stage after Commons second reading, as they do', () => {
    const past = bill(ballotBill).pmbSession!.ballotPastSecondReading;
    expect(past.length).toBeGreaterThan(0);
    expect(feature(ballotBill, '2021-09-09', 'ballot_bills_past_second_reading')).toBe(0);
    expect(feature(ballotBill, past.at(-1)!, 'ballot_bills_past_second_reading')).toBeCloseTo(past.length / 20);
  });

  it('is not read for a government bill', () => {
    expect(bill(2868).pmbSession ?? null).toBeNull();
    expect(feature(2868, '2021-12-31', 'pmb_fridays_left')).toBe(0);
  });
});
