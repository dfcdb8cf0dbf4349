import { NeuralNetwork } from 'brain.js';
import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { ETA_BIN_EDGES } from '../../../../../src/model/serve/model-artifact';
import { Predictor } from '../../../../../src/model/serve/predictor';
import { ETA_INTERVALS, medianDays, nextStageOf } from '../../../../../src/model/serve/next-stage';
import { buildSamples, etaTarget, sessionsKnownAt, sittingDatesUpTo, trainModel } from '../../../../../src/model/train/train';
import { expectOneDistribution } from '../../../../support/next-stage';
import { SittingCalendar } from '../../../../../src/model/serve/sitting-calendar';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { makeSnapshot, REAL_SNAPSHOT_DIR, SAMPLE_BILL_IDS } from '../../../../support/fixtures';

const BINS = ETA_INTERVALS;
const only = (bin: number, share = 1, length = BINS) => Array.from({ length }, (_, i) => (i === bin ? share : 0));
const etaFromOutputs = medianDays;

describe('the ETA as the median of a distribution over intervals of days', () => {
  it('trains each wait as the interval it falls in, a wait past the last edge in the last, and no next stage as the output after them', () => {
    const target = (bin: number) => only(bin, 1, BINS + 1);
    expect(ETA_BIN_EDGES[0]).toBe(0);
    expect(etaTarget(1)).toEqual(target(0));
    expect(etaTarget(7)).toEqual(target(0));
    expect(etaTarget(8)).toEqual(target(1));
    expect(etaTarget(30)).toEqual(target(ETA_BIN_EDGES.indexOf(30) - 1));
    expect(etaTarget(31)).toEqual(target(ETA_BIN_EDGES.indexOf(30)));
    expect(etaTarget(5000)).toEqual(target(BINS - 1));
    expect(etaTarget(null)).toEqual(target(BINS));
  });

  it('reads the median, spread evenly within its interval, from outputs that need not sum to 1', () => {
    expect(etaFromOutputs(only(0, 0.2))).toBeCloseTo(3.5, 10);
    // half the mass in (0, 7], half in (7, 14]: the median is the edge between them
    expect(etaFromOutputs(only(0, 0.3).map((x, i) => (i === 1 ? 0.3 : x)))).toBeCloseTo(7, 10);
    expect(etaFromOutputs(only(0, 0).map(() => 0))).toBe(ETA_BIN_EDGES[BINS]);
  });

  it('is the median of a two-humped wait, not a compromise between the humps', () => {
    // 55% of such bills move within a week, 45% after a year: half of them within 6.4 days
    const outputs = only(0, 0.55).map((x, i) => (i === BINS - 1 ? 0.45 : x));
    expect(etaFromOutputs(outputs)).toBeCloseTo((7 * 0.5) / 0.55, 10);
    // the log-scale regression it replaced learnt the mean of log1p(days), whose answer is tens of days
    const meanLog = 0.55 * Math.log1p(3.5) + 0.45 * Math.log1p(547.5);
    expect(Math.expm1(meanLog)).toBeGreaterThan(30);
  });
});

describe('the ETA networks of a trained model', () => {
  let bills: TrainingBill[];
  let sessions: SessionFact[];
  beforeAll(async () => {
    ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
  });

  it('give one output per interval and one for no next stage, and the served ETA is read with next_stage_30d from their mean', () => {
    const cutoff = '2012-12-31';
    const data = { bills: bills.filter((b) => b.facts.introducedDate! <= cutoff), sessions };
    const artifact = trainModel(data, { cutoff, iterations: 6, ensembleSize: 2 });
    const nets = artifact.eta.map((json) => new NeuralNetwork<number[], number[]>().fromJSON(json as never));
    const predictor = new Predictor(artifact);
    const samples = buildSamples(data, cutoff, new SittingCalendar(sittingDatesUpTo(data.bills, cutoff))).filter((s) => s.labels.timeline_eta !== null);
    expect(samples.length).toBeGreaterThan(100);
    for (const s of samples.slice(0, 50)) {
      const outputs = nets.map((net) => [...net.run(s.features)]);
      expect(outputs.every((o) => o.length === BINS + 1)).toBe(true);
      const mean = outputs[0].map((_, i) => outputs.reduce((sum, o) => sum + o[i], 0) / outputs.length);
      const { etaDays: eta, probabilities } = predictor.fromFeatures(s.features, s.kind);
      expect(eta).toBe(nextStageOf(probabilities.next_stage_30d, mean).etaDays);
      expect(eta).toBeGreaterThan(0);
      expect(eta).toBeLessThanOrEqual(ETA_BIN_EDGES[BINS]);
    }
  });

  it('has the ETA within 30 days exactly when a bill that moves more likely than not moves within 30 days', () => {
    const cutoff = '2012-12-31';
    const data = { bills: bills.filter((b) => b.facts.introducedDate! <= cutoff), sessions };
    const predictor = new Predictor(trainModel(data, { cutoff, iterations: 6, ensembleSize: 2 }));
    const known = sessionsKnownAt(sessions, cutoff);
    let live = 0;
    let within = 0;
    for (const bill of data.bills.filter((_, i) => i % 3 === 0)) {
      for (const date of ['2012-03-01', '2012-07-15', '2012-12-31']) {
        if (bill.facts.introducedDate! > date) continue;
        const nowcast = predictor.nowcast(bill.facts, date, known);
        if (nowcast.status !== 'live') continue;
        live++;
        if (nowcast.timelineEtaDays! <= 30) within++;
        expectOneDistribution(nowcast);
      }
    }
    // enough live nowcasts, on both sides of 30 days, for the check to mean something
    expect(live).toBeGreaterThan(100);
    expect(within).toBeGreaterThan(0);
    expect(within).toBeLessThan(live);
  });

  it('start from the distribution of the training waits: a few passes over a few bills answer about their median, not the middle of the scale', async () => {
    // the test app's model: a handful of bills, networks of 4 hidden units trained for 3 passes
    const data = await loadSnapshotTrainingData(makeSnapshot(SAMPLE_BILL_IDS));
    const predictor = new Predictor(trainModel(data, { cutoff: data.asOf, iterations: 3, hiddenLayers: [4] }));
    const samples = buildSamples(data, data.asOf, new SittingCalendar(sittingDatesUpTo(data.bills, data.asOf))).filter((s) => s.labels.timeline_eta !== null);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const waits = median(samples.map((s) => s.labels.timeline_eta!));
    // networks starting at 0.5 for every interval answered the middle of the scale (43.5 days for a bill against a median wait of 22)
    for (const s of samples) {
      const eta = predictor.fromFeatures(s.features, s.kind).etaDays;
      expect(eta).toBeGreaterThan(waits / 1.3);
      expect(eta).toBeLessThan(waits * 1.3);
    }
  });
});
