import { trainInWorker } from '../../../../src/services/train-in-worker';
import { loadSnapshotTrainingData } from '../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../support/fixtures';

const CUTOFF = '2008-12-31';
const options = { cutoff: CUTOFF, iterations: 2, ensembleSize: 1, hiddenLayers: [4] };

describe('a training in worker threads', () => {
  it.each([1, 2])('with %i worker(s), does not start when the shutdown has already begun', async (workers) => {
    const { bills, sessions } = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR);
    const data = { bills: bills.filter((b) => b.facts.introducedDate! <= CUTOFF), sessions };
    await expect(trainInWorker(data, options, undefined, AbortSignal.abort(), workers)).rejects.toThrow('training was stopped');
  });
});
