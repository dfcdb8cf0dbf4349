import { parentPort, workerData } from 'node:worker_threads';
import { type TrainingData, trainModel, type TrainingOptions } from '../../model/train';

/** Runs brain.js training (synchronous, CPU-bound) off the server's event loop. */
const { data, options } = workerData as { data: TrainingData; options: Omit<TrainingOptions, 'onProgress'> };
const started = Date.now();
const artifact = trainModel(data, { ...options, onProgress: (message) => parentPort!.postMessage({ type: 'progress', message }) });
parentPort!.postMessage({ type: 'done', artifact, durationMs: Date.now() - started });
