/**
 * What a trained model's networks answer, read the same way wherever a model is run (serving,
 * the training's calibration, the evaluation): the mean of an ensemble (the ETA networks' outputs
 * are read by next-stage.ts).
 */
import type { NeuralNetwork } from 'brain.js';

export type BrainNet = NeuralNetwork<number[], number[]>;

/** The mean output of an ensemble's networks. */
export const ensembleRun = (nets: readonly BrainNet[], features: number[]) => nets.reduce((sum, net) => sum + net.run(features)[0], 0) / nets.length;
/** The mean of every output of an ensemble's networks. */
export function ensembleRunAll(nets: readonly BrainNet[], features: number[]): number[] {
  const sums = [...nets[0].run(features)];
  for (const net of nets.slice(1)) net.run(features).forEach((x, i) => (sums[i] += x));
  return sums.map((x) => x / nets.length);
}
