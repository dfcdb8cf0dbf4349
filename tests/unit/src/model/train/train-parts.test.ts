import type { SessionFact, TrainingBill } from '../../../../../src/model/serve/bill-facts';
import { trainModel, TRAINED_OUTPUTS } from '../../../../../src/model/train/train';
import { mergeTrainedParts, partitionOutputs } from '../../../../../src/model/train/train-parts';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

let bills: TrainingBill[];
let sessions: SessionFact[];

beforeAll(async () => {
  ({ bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR));
});

const CUTOFF = '2012-12-31';
const options = { cutoff: CUTOFF, iterations: 4, ensembleSize: 1, hiddenLayers: [4] };
const data = () => ({ bills: bills.filter((b) => b.facts.introducedDate! <= CUTOFF), sessions });

describe('a training cut into parts run side by side', () => {
  it('gives every output to exactly one part, the Royal Assent ensemble (the largest) alone at first', () => {
    for (const parts of [1, 2, 3]) {
      const groups = partitionOutputs(parts);
      expect(groups).toHaveLength(parts);
      expect(groups.flat().sort()).toEqual([...TRAINED_OUTPUTS].sort());
    }
    expect(partitionOutputs(2)[0][0]).toBe('royal_assent');
  });

  it('puts back together the very model one training of every output makes', () => {
    const whole = trainModel(data(), options);
    const parts = partitionOutputs(2, options.ensembleSize).map((outputs) => trainModel(data(), { ...options, outputs }));
    expect(parts.map((part) => Object.keys(part.networks).length + (part.eta.length ? 1 : 0)).reduce((a, b) => a + b, 0)).toBe(TRAINED_OUTPUTS.length);
    expect(JSON.stringify(mergeTrainedParts(parts))).toBe(JSON.stringify(whole));
  });

  it('refuses parts that leave an output untrained', () => {
    const [first] = partitionOutputs(2, options.ensembleSize);
    expect(() => mergeTrainedParts([trainModel(data(), { ...options, outputs: first })])).toThrow(/no part trained/);
  });
});
