import type { BillFacts, SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { FEATURE_NAMES, featureVector } from '../../../../../src/model/serve/features';
import { billAsOf } from '../../../../../src/model/serve/truncate';
import { labelsAt } from '../../../../../src/model/serve/labels';
import { Predictor } from '../../../../../src/model/serve/predictor';
import { ETA_BIN_EDGES } from '../../../../../src/model/serve/model-artifact';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { DEFAULT_CALIBRATION_DAYS, FATE_CALIBRATION_DAYS, sessionsKnownAt, sittingDatesUpTo, trainModel } from '../../../../../src/model/train/train';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];
let calendar: SittingCalendar;

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
  calendar = new SittingCalendar(sittingDatesUpTo(bills, '2015-12-31'));
});

/** The bill as it was known on `date`: every stage sitting, division and withdrawal after it removed. */
function knownOn(facts: BillFacts, date: string): BillFacts {
  return {
    ...facts,
    stages: facts.stages.map((s) => ({ ...s, dates: s.dates.filter((d) => d <= date) })),
    divisions: facts.divisions.filter((d) => d.date <= date),
    withdrawnDate: facts.withdrawnDate && facts.withdrawnDate <= date ? facts.withdrawnDate : null,
  };
}

/** Real bills with long histories, seen at dates in the middle of their lives. */
function midLifeCases(count: number): { bill: TrainingBill; date: string }[] {
  const cases: { bill: TrainingBill; date: string }[] = [];
  for (const bill of bills) {
    const dates = bill.facts.stages.flatMap((s) => s.dates).sort();
    if (dates.length < 6) continue;
    cases.push({ bill, date: dates[Math.floor(dates.length / 2)] });
    if (cases.length === count) break;
  }
  return cases;
}

describe('a nowcast uses only facts dated on or before its reference date', () => {
  it('gives the same features whether or not later facts exist', () => {
    const cases = midLifeCases(150);
    expect(cases.length).toBe(150);
    let differentAfterwards = 0;
    for (const { bill, date } of cases) {
      const full = featureVector(billAsOf(bill.facts, date, sessions), sessions, calendar);
      const truncated = knownOn(bill.facts, date);
      expect(featureVector(billAsOf(truncated, date, sessions), sessions, calendar)).toEqual(full);
      if (bill.facts.stages.some((s) => s.dates.some((d) => d > date))) differentAfterwards++;
    }
    // the check means something only if the bills did have later facts
    expect(differentAfterwards).toBeGreaterThan(100);
  });

  it('does not read a session end that lies after the reference date', () => {
    const { bill, date } = midLifeCases(1)[0];
    const unknownEnds = sessions.map((s) => ({ ...s, endDate: s.endDate && s.endDate <= date ? s.endDate : null }));
    expect(featureVector(billAsOf(bill.facts, date, unknownEnds), unknownEnds, calendar)).toEqual(
      featureVector(billAsOf(bill.facts, date, sessions), sessions, calendar),
    );
  });

  it('never sees the outcome: bills alike in their facts get the same nowcast whatever their fate', () => {
    const model = new Predictor(trainModel({ bills: bills.slice(0, 300), sessions }, { cutoff: '2010-12-31', iterations: 2, hiddenLayers: [4] }));
    const { bill, date } = midLifeCases(1)[0];
    const a = model.nowcast(bill.facts, date, sessions);
    const relabelled: TrainingBill = { ...bill, outcome: { ...bill.outcome, outcome: 'fell', royalAssentDate: null } };
    expect(model.nowcast(relabelled.facts, date, sessions)).toEqual(a);
    expect(model.nowcast(knownOn(bill.facts, date), date, sessions)).toEqual(a);
  });
});

describe('training', () => {
  it('gives the same model from the same data, in whatever order it is read, and the seed matters', () => {
    const data = { bills: bills.slice(0, 400), sessions };
    const options = { cutoff: '2009-12-31', iterations: 3, hiddenLayers: [4] };
    const first = trainModel(data, { ...options, seed: 7 });
    // the same data read in another order (a database returns rows in no fixed order)
    const again = trainModel({ bills: [...data.bills].reverse(), sessions: [...sessions].reverse() }, { ...options, seed: 7 });
    const other = trainModel(data, { ...options, seed: 8 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(other.networks)).not.toBe(JSON.stringify(first.networks));
  });

  it('averages seeded networks of 6 hidden units per output by default, each from its own seed: three, and nine for Royal Assent', () => {
    const artifact = trainModel({ bills: bills.slice(0, 300), sessions }, { cutoff: '2009-12-31', iterations: 1 });
    for (const [output, nets] of [...Object.entries(artifact.networks), ['timeline_eta', artifact.eta] as const]) {
      const size = output === 'royal_assent' ? 9 : 3;
      expect(nets).toHaveLength(size);
      // the ETA networks give one probability per interval of days (ETA_BIN_EDGES), and one for no next stage
      const outputs = output === 'timeline_eta' ? ETA_BIN_EDGES.length : 1;
      expect(nets.map((n) => (n as { sizes: number[] }).sizes)).toEqual(nets.map(() => [FEATURE_NAMES.length, 6, outputs]));
      expect(new Set(nets.map((n) => JSON.stringify(n))).size).toBe(size);
    }
    // an explicit size is every output's
    const small = trainModel({ bills: bills.slice(0, 300), sessions }, { cutoff: '2009-12-31', iterations: 1, ensembleSize: 2 });
    expect([...Object.values(small.networks), small.eta].map((nets) => nets.length)).toEqual([...Object.values(small.networks), small.eta].map(() => 2));
  });

  it('calibrates the fate outputs on the sessions ended in the last eight years or so, next_stage_30d on the last two, and never trains on a bill it calibrates on', () => {
    const data = { bills: bills.filter((b) => b.facts.introducedDate! <= '2015-12-31'), sessions };
    const options = { cutoff: '2015-12-31', iterations: 1, hiddenLayers: [2], ensembleSize: 1 };
    const byDefault = trainModel(data, options);
    const recent = trainModel(data, { ...options, calibrationDays: DEFAULT_CALIBRATION_DAYS });
    const eight = trainModel(data, { ...options, calibrationDays: FATE_CALIBRATION_DAYS });
    const pick = (a: typeof byDefault, outputs: string[]) => outputs.map((o) => [a.networks[o as 'royal_assent'], a.calibration[o as 'royal_assent'], a.calibrationPeriodMetrics[o as 'royal_assent']]);
    const fate = ['royal_assent', 'stall_risk', 'withdrawal_risk', 'amendment_risk', 'close_vote'];
    expect(pick(byDefault, ['next_stage_30d'])).toEqual(pick(recent, ['next_stage_30d']));
    expect(pick(byDefault, fate)).toEqual(pick(eight, fate));
    expect(eight.calibrationPeriodMetrics.royal_assent.n).toBeGreaterThan(recent.calibrationPeriodMetrics.royal_assent.n);
    // a fate output's networks train on fewer samples when more bills are held out to calibrate it
    expect(byDefault.sampleCounts.royal_assent).toBe(eight.sampleCounts.royal_assent);
    expect(byDefault.sampleCounts.royal_assent).toBeLessThan(recent.sampleCounts.royal_assent);
  });

  it('learns only from sitting dates and sessions known at its cutoff', () => {
    const artifact = trainModel({ bills: bills.slice(0, 400), sessions }, { cutoff: '2009-12-31', iterations: 1, hiddenLayers: [2] });
    expect(artifact.sittingDates.at(-1)! <= '2009-12-31').toBe(true);
    expect(sessionsKnownAt(sessions, '2009-12-31').every((s) => !s.endDate || s.endDate <= '2009-12-31')).toBe(true);
  });
});

describe('labels are censored, never counted as failures, when the answer lies after the cutoff', () => {
  const pendingBill = () => bills.find((b) => b.outcome.outcome === 'pending' && b.facts.stages.some((s) => s.dates.length >= 1))!;

  it('leaves Royal Assent unknown for a bill still alive at the cutoff', () => {
    const bill = pendingBill();
    expect(labelsAt(bill, bill.facts.introducedDate!, '2021-12-31', sessions).royal_assent).toBeNull();
  });

  it('knows a bill fell once its session ended before the cutoff, and not before', () => {
    const fell = bills.find((b) => b.outcome.outcome === 'fell' && b.facts.introducedSessionId === 30)!;
    const session = sessions.find((s) => s.id === 30)!;
    expect(labelsAt(fell, fell.facts.introducedDate!, '2021-12-31', sessions).royal_assent).toBe(0);
    expect(labelsAt(fell, fell.facts.introducedDate!, session.startDate!, sessions).royal_assent).toBeNull();
  });

  it('leaves "next stage within 30 days" unknown while the window is open at the cutoff, and settles it once a stage is seen', () => {
    const bill = bills.find((b) => b.outcome.outcome === 'royal_assent' && b.outcome.stageHistoryCompleteUntil === null && b.facts.kind === 'government')!;
    const dates = bill.facts.stages.filter((s) => s.stage !== 'royal_assent').flatMap((s) => s.dates).sort();
    const d = dates[0];
    const next = dates.find((x) => x > d)!;
    const gap = (Date.parse(next) - Date.parse(d)) / 86_400_000;
    const openWindowCutoff = new Date(Date.parse(d) + Math.min(gap - 1, 10) * 86_400_000).toISOString().slice(0, 10);
    if (gap > 1) expect(labelsAt(bill, d, openWindowCutoff, sessions).next_stage_30d).toBeNull();
    expect(labelsAt(bill, d, '2021-12-31', sessions).next_stage_30d).toBe(gap <= 30 ? 1 : 0);
    expect(labelsAt(bill, d, '2021-12-31', sessions).timeline_eta).toBe(gap);
  });
});
