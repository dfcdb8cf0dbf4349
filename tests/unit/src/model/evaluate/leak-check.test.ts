import type { BillFacts, SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { Predictor } from '../../../../../src/model/serve/predictor';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { truncateAt } from '../../../../../src/model/serve/truncate';
import { checkForLeaks, DataAsOf } from '../../../../../src/model/evaluate/leak-check';
import { EVALUATION_STEP_DAYS, samplesOf, type Sample } from '../../../../../src/model/train/samples';
import { sessionsKnownAt, trainModel } from '../../../../../src/model/train/train';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

/**
 * A truncateAt that lets the session's later private members' Fridays and ballot bills' progress
 * through while `mockLeak` is set, as billAsOf (which the features read) then does too: the fault
 * the leak check must find. Every other fact is cut as ever.
 */
let mockLeak = false;
jest.mock('../../../../../src/model/serve/truncate', () => {
  const actual = jest.requireActual('../../../../../src/model/serve/truncate');
  const { billState } = jest.requireActual('../../../../../src/model/serve/bill-state');
  const truncateAt = (facts: BillFacts, date: string): BillFacts => (mockLeak ? { ...actual.truncateAt(facts, date), pmbSession: facts.pmbSession } : actual.truncateAt(facts, date));
  return {
    ...actual,
    truncateAt,
    billAsOf: (facts: BillFacts, date: string, sessions: readonly SessionFact[]) => {
      const known = truncateAt(facts, date);
      return { date, facts: known, state: billState(known, date, sessions) };
    },
  };
});

let bills: TrainingBill[];
let sessions: SessionFact[];
let predictor: Predictor;
/** the scored nowcasts of the 2017-19 session's bills, every 14 days, as the evaluation makes them */
const scored = (): Sample[] => {
  const known = sessionsKnownAt(sessions, '2021-12-31');
  const session = sessions.find((s) => s.id === 30)!;
  const calendar = new SittingCalendar(predictor.artifact.sittingDates);
  return bills
    .filter((b) => b.facts.introducedSessionId === 30)
    .flatMap((bill) => samplesOf(bill, { from: session.startDate!, until: session.endDate!, knownUntil: '2021-12-31', sessions: known, calendar, stepDays: EVALUATION_STEP_DAYS }));
};

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
  predictor = new Predictor(trainModel({ bills: bills.filter((b) => b.facts.introducedSessionId >= 27 && b.facts.introducedSessionId <= 30), sessions }, { cutoff: '2017-06-20', iterations: 1, hiddenLayers: [2], ensembleSize: 1 }));
});
afterEach(() => (mockLeak = false));

describe('the evaluation’s leak check cuts the data by code of its own', () => {
  it('finds no difference when truncateAt cuts every later fact', () => {
    const samples = scored();
    expect(samples.length).toBeGreaterThan(1000);
    expect(checkForLeaks(predictor, new DataAsOf(bills.map((b) => b.facts)), samples, sessions)).toEqual({ nowcasts: samples.length, differing: 0 });
  });

  it('finds the nowcasts a leaking truncateAt has changed, where recomputing through truncateAt again finds none', () => {
    mockLeak = true;
    const samples = scored();
    const { differing } = checkForLeaks(predictor, new DataAsOf(bills.map((b) => b.facts)), samples, sessions);
    expect(differing).toBeGreaterThan(samples.length / 20);
    // a check that cuts both sides with truncateAt agrees with itself whatever it lets through
    const byId = new Map(bills.map((b) => [b.facts.billId, b.facts]));
    const sameCut = samples.filter((s) => {
      const facts = byId.get(s.billId)!;
      return JSON.stringify(predictor.nowcast(facts, s.date, sessions)) !== JSON.stringify(predictor.nowcast(truncateAt(facts, s.date), s.date, sessionsKnownAt(sessions, s.date)));
    });
    expect(sameCut).toEqual([]);
  });
});
