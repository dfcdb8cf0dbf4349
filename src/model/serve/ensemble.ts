/**
 * What a trained model's networks answer, read the same way wherever a model is run (serving,
 * the training's calibration, the evaluation): the mean of an ensemble, and the ETA read off the
 * distribution the ETA networks give over the intervals of ETA_BIN_EDGES.
 */
import type { NeuralNetwork } from 'brain.js';
import { ETA_BIN_EDGES } from './model-artifact';

export type BrainNet = NeuralNetwork<number[], number[]>;

/**
 * The ETA in days: the median of the distribution the networks' outputs give over the intervals
 * of ETA_BIN_EDGES (normalised to sum to 1, spread evenly within an interval). Median absolute
 * error is what the evaluation scores, and a median is what minimises it; a regression of
 * log1p(days) with squared error would give the mean of the log wait, which the long waits of
 * private members' bills pull away from the median.
 */
export function etaFromOutputs(outputs: readonly number[]): number {
  const weights = outputs.map((x) => Math.max(0, x));
  const total = weights.reduce((sum, x) => sum + x, 0);
  if (!(total > 0)) return ETA_BIN_EDGES[ETA_BIN_EDGES.length - 1];
  let below = 0;
  for (let i = 0; i < weights.length; i++) {
    const share = weights[i] / total;
    if (share > 0 && below + share >= 0.5) return ETA_BIN_EDGES[i] + ((ETA_BIN_EDGES[i + 1] - ETA_BIN_EDGES[i]) * (0.5 - below)) / share;
    below += share;
  }
  return ETA_BIN_EDGES[ETA_BIN_EDGES.length - 1];
}

/** The mean output of an ensemble's networks. */
export const ensembleRun = (nets: readonly BrainNet[], features: number[]) => nets.reduce((sum, net) => sum + net.run(features)[0], 0) / nets.length;
/** The mean of every output of an ensemble's networks. */
export function ensembleRunAll(nets: readonly BrainNet[], features: number[]): number[] {
  const sums = [...nets[0].run(features)];
  for (const net of nets.slice(1)) net.run(features).forEach((x, i) => (sums[i] += x));
  return sums.map((x) => x / nets.length);
}
