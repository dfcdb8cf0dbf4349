import { parentPort, workerData } from 'node:worker_threads';
import { judgedAfter, scoreOnRecentOutcomes } from '../model/train/challenger';
import type { ScoredComparison } from './train-in-worker';
import { Predictor } from '../model/serve/predictor';
import { trainModel, type TrainingOptions } from '../model/train/train';
import { trainingDataOf, type TrainingInput } from './training-pages';

/**
 * Runs brain.js training, or the champion/challenger scoring of versions (both CPU-bound), off the
 * server's event loop; the stored data comes as pages of JSON rows, parsed and joined here too.
 */
const task = workerData as
  | { task?: 'train'; data: TrainingInput; options: Omit<TrainingOptions, 'onProgress'> }
  | { task: 'score'; data: TrainingInput; comparisons: ScoredComparison[]; asOf: string };
const started = Date.now();
const data = trainingDataOf(task.data);
if (task.task === 'score') {
  const scores = task.comparisons.map(({ artifacts, everyOutcome }) => {
    const resolvedAfter = everyOutcome ? null : judgedAfter(artifacts);
    return artifacts.map((artifact) => scoreOnRecentOutcomes(new Predictor(artifact), data, task.asOf, resolvedAfter));
  });
  parentPort!.postMessage({ type: 'done', scores, durationMs: Date.now() - started });
} else {
  const artifact = trainModel(data, { ...task.options, onProgress: (message) => parentPort!.postMessage({ type: 'progress', message }) });
  parentPort!.postMessage({ type: 'done', artifact, durationMs: Date.now() - started });
}
