import { parentPort, workerData } from 'node:worker_threads';
import { scoreOnRecentOutcomes } from '../model/train/challenger';
import type { ModelArtifact } from '../model/serve/model-artifact';
import { Predictor } from '../model/serve/predictor';
import { type TrainingData, trainModel, type TrainingOptions } from '../model/train/train';

/** Runs brain.js training, or the champion/challenger scoring of versions (both CPU-bound), off the server's event loop. */
const task = workerData as
  | { task?: 'train'; data: TrainingData; options: Omit<TrainingOptions, 'onProgress'> }
  | { task: 'score'; data: TrainingData; artifacts: ModelArtifact[]; asOf: string };
const started = Date.now();
if (task.task === 'score') {
  const scores = task.artifacts.map((artifact) => scoreOnRecentOutcomes(new Predictor(artifact), task.data, task.asOf));
  parentPort!.postMessage({ type: 'done', scores, durationMs: Date.now() - started });
} else {
  const artifact = trainModel(task.data, { ...task.options, onProgress: (message) => parentPort!.postMessage({ type: 'progress', message }) });
  parentPort!.postMessage({ type: 'done', artifact, durationMs: Date.now() - started });
}
