import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { billState } from '../../../../../src/model/serve/bill-state';
import { gridDates } from '../../../../../src/model/train/samples';
import { sessionsKnownAt } from '../../../../../src/model/train/train';
import { truncateAt } from '../../../../../src/model/serve/truncate';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];
let asOf: string;

beforeAll(async () => {
  ({ bills, sessions, asOf } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const bill = (id: number) => bills.find((b) => b.facts.billId === id)!.facts;
const today = () => sessionsKnownAt(sessions, asOf);

describe('a carried-over bill between two sessions', () => {
  // Child Maintenance and Other Payments Bill: carry-over motion 2007-07-04, session 2006-07 ended
  // 2007-10-30, session 2007-08 opened on 2007-11-06, where the bill went on to Royal Assent
  it('waits, live, in its old session until the next one has begun', () => {
    const facts = bill(121);
    for (const date of ['2007-10-30', '2007-11-01', '2007-11-05']) {
      for (const known of [today(), sessionsKnownAt(sessions, date)]) {
        const state = billState(truncateAt(facts, date), date, known);
        expect({ date, status: state.status, sessionId: state.sessionId }).toEqual({ date, status: 'live', sessionId: 20 });
      }
    }
    const begun = billState(truncateAt(facts, '2007-11-06'), '2007-11-06', today());
    expect({ status: begun.status, sessionId: begun.sessionId, carriedOver: begun.carriedOver }).toEqual({ status: 'live', sessionId: 21, carriedOver: true });
  });

  it('is in the same state whether the sessions table is today’s or the one known on the date', () => {
    const carriedOver = bills.filter((b) => b.facts.stages.some((s) => s.stage === 'carry_over_motion' && s.dates.length));
    expect(carriedOver.length).toBeGreaterThan(50);
    let compared = 0;
    for (const { facts } of carriedOver) {
      if (!facts.introducedDate) continue;
      for (const date of gridDates(facts.introducedDate, asOf, 7)) {
        const withToday = billState(truncateAt(facts, date), date, today());
        const withThen = billState(truncateAt(facts, date), date, sessionsKnownAt(sessions, date));
        expect(`${facts.billId} ${date} ${withToday.status} ${withToday.sessionId}`).toBe(`${facts.billId} ${date} ${withThen.status} ${withThen.sessionId}`);
        compared++;
        if (withToday.status !== 'live') break;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe("a session's boundary is its official start, not the first sitting seen", () => {
  // 2014-15 opened on 2014-06-04; a stage of bill 1313 labelled 2014-15 sat on 2014-04-29, in 2013-14
  it('leaves the bills of 2013-14 that sat in its last weeks in 2013-14, not carried over', () => {
    const lastWeeks = bills.filter((b) => b.facts.introducedSessionId === 26 && b.facts.stages.some((s) => s.dates.some((d) => d >= '2014-04-29' && d < '2014-06-04')));
    expect(lastWeeks.length).toBeGreaterThan(20);
    for (const { facts } of lastWeeks) {
      const state = billState(truncateAt(facts, '2014-06-03'), '2014-06-03', today());
      expect(`${facts.billId} ${state.sessionId} ${state.carriedOver}`).toBe(`${facts.billId} 26 false`);
    }
  });
});
