import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import type { ModelArtifact } from '../../../../../src/model/serve/model-artifact';
import { CALIBRATION_HALF_LIFE_DAYS, DEFAULT_WEIGHT_DECAY, trainModel } from '../../../../../src/model/train/train';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const CUTOFF = '2012-12-31';
const options = { cutoff: CUTOFF, iterations: 6, ensembleSize: 2 };
const data = () => ({ bills: bills.filter((b) => b.facts.introducedDate! <= CUTOFF), sessions });

/** Mean absolute weight from an input to a hidden unit, over an output's networks. */
function inputWeights(nets: ModelArtifact['networks']['royal_assent']): number {
  const weights = nets.flatMap((net) => (net as unknown as { layers: { weights: number[][] }[] }).layers[1].weights.flat());
  return weights.reduce((sum, w) => sum + Math.abs(w), 0) / weights.length;
}

/** The rolling evaluation's seed spread is in docs/model-card.md (five seeds on the whole data, too slow for a unit test). */
describe('weight decay of the input weights', () => {
  it('is on for Royal Assent only, and keeps its input weights small', () => {
    expect(DEFAULT_WEIGHT_DECAY).toEqual({ royal_assent: 1.6 });
    const decayed = trainModel(data(), options);
    const plain = trainModel(data(), { ...options, weightDecay: {} });
    expect(inputWeights(decayed.networks.royal_assent)).toBeLessThan(0.5 * inputWeights(plain.networks.royal_assent));
    // every other output's networks are exactly what they were without it
    const { royal_assent: _a, ...others } = decayed.networks;
    const { royal_assent: _b, ...plainOthers } = plain.networks;
    expect(JSON.stringify([others, decayed.eta])).toBe(JSON.stringify([plainOthers, plain.eta]));
  });
});

describe('calibration of Royal Assent by kind', () => {
  const scalings = (artifact: ModelArtifact) => artifact.calibration.royal_assent.byKind;

  it('weighs held-out bills by how recently their session ended, for Royal Assent only', () => {
    expect(CALIBRATION_HALF_LIFE_DAYS).toEqual({ royal_assent: 730 });
    const recentFirst = trainModel(data(), options);
    const alike = trainModel(data(), { ...options, calibrationHalfLifeDays: {} });
    // the same networks, calibrated differently: the held-out bills of 2006-07 to 2010-12 no longer count alike
    expect(JSON.stringify(recentFirst.networks)).toBe(JSON.stringify(alike.networks));
    const moved = Object.keys(scalings(alike)).filter((kind) => Math.abs(scalings(recentFirst)[kind].b - scalings(alike)[kind].b) > 0.01);
    expect(moved).toContain('government');
    const { royal_assent: _a, ...others } = recentFirst.calibration;
    const { royal_assent: _b, ...alikeOthers } = alike.calibration;
    expect(others).toEqual(alikeOthers);
    // a half-life far longer than the data weighs every bill alike
    const endless = trainModel(data(), { ...options, calibrationHalfLifeDays: { royal_assent: 1e9 } });
    for (const kind of Object.keys(scalings(alike))) expect(scalings(endless)[kind].b).toBeCloseTo(scalings(alike)[kind].b, 4);
  });
});
