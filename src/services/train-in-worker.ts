import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ModelArtifact } from '../model/serve/model-artifact';
import type { TrainingOptions } from '../model/train/train';
import { mergeTrainedParts, partitionOutputs } from '../model/train/train-parts';
import type { VersionScores } from '../model/train/challenger';
import type { TrainingInput } from './training-pages';

/** The compiled worker script: beside this file when built, under dist/ when this file runs as TypeScript (tests). */
function workerScript(): string {
  const beside = path.join(__dirname, 'train-worker.js');
  if (existsSync(beside)) return beside;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'src', 'services', 'train-worker.js');
  if (existsSync(built)) return built;
  throw new Error(`the training worker is not built (${built}): run npm run build`);
}

export interface TrainingResult {
  artifact: ModelArtifact;
  durationMs: number;
}

/**
 * Trains in a worker thread so the server keeps answering while brain.js runs; in `workers`
 * threads side by side when asked (each trains some outputs: src/model/train/train-parts.ts), for the same
 * model sooner. Aborting stops the workers at once (a shutdown must not wait for a training of tens
 * of seconds) and rejects; so does one worker failing. Stored data goes as its pages
 * (training-pages.ts): each worker parses them, and this thread only copies the strings.
 */
export async function trainInWorker(data: TrainingInput, options: Omit<TrainingOptions, 'onProgress'>, onProgress?: (message: string) => void, signal?: AbortSignal, workers = 1): Promise<TrainingResult> {
  const parts = partitionOutputs(workers, options.ensembleSize);
  if (parts.length === 1) return runWorker<TrainingResult>({ data, options }, onProgress, signal);
  const started = Date.now();
  const stopAll = new AbortController();
  const stop = () => stopAll.abort();
  // a signal aborted already never fires 'abort' again
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const results = await Promise.all(
      parts.map((outputs) =>
        runWorker<TrainingResult>({ data, options: { ...options, outputs } }, onProgress, stopAll.signal).catch((error: Error) => {
          stopAll.abort();
          throw error;
        }),
      ),
    );
    return { artifact: mergeTrainedParts(results.map((r) => r.artifact)), durationMs: Date.now() - started };
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** Versions scored side by side: on outcomes resolved after the latest of their cutoffs, or on every outcome resolved (`everyOutcome`). */
export interface ScoredComparison {
  artifacts: ModelArtifact[];
  everyOutcome?: boolean;
}

/**
 * Scores each comparison's versions on recent resolved nowcasts (src/model/train/challenger.ts) in
 * one worker thread, which reads the data once: a second or more of CPU per version for the whole history.
 */
export async function scoreInWorker(data: TrainingInput, comparisons: ScoredComparison[], asOf: string, signal?: AbortSignal): Promise<VersionScores[][]> {
  return (await runWorker<{ scores: VersionScores[][] }>({ task: 'score', data, comparisons, asOf }, undefined, signal)).scores;
}

function runWorker<T>(workerData: object, onProgress?: (message: string) => void, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('training was stopped'));
    const worker = new Worker(workerScript(), { workerData });
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('exit', () => signal?.removeEventListener('abort', stop));
    let result: T | null = null;
    worker.on('message', (message: { type: 'progress'; message: string } | ({ type: 'done' } & T)) => {
      if (message.type === 'progress') onProgress?.(message.message);
      else result = message as T;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(signal?.aborted ? 'training was stopped' : `the training worker exited with code ${code}`));
    });
  });
}
