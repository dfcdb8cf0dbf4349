import { BINARY_OUTPUTS } from '../serve/labels';
import type { ModelArtifact } from '../serve/model-artifact';
import { ensembleSizeOf, TRAINED_OUTPUTS, type TrainedOutput } from './train';

/**
 * A training cut into parts that run side by side (one worker thread a core): each part trains
 * the networks of some outputs on the same data and options, and the parts are put back together
 * into the artifact one training of every output makes. Each network draws from its own seed, so
 * the result is the same however many parts there were.
 */

/** The outputs in `parts` groups of about the same number of networks to train, the largest ensembles placed first. */
export function partitionOutputs(parts: number, ensembleSize?: number): TrainedOutput[][] {
  const groups = Array.from({ length: Math.max(1, Math.floor(parts)) }, () => ({ outputs: [] as TrainedOutput[], networks: 0 }));
  const bySize = [...TRAINED_OUTPUTS].sort((a, b) => ensembleSizeOf(b, ensembleSize) - ensembleSizeOf(a, ensembleSize));
  for (const output of bySize) {
    const lightest = groups.reduce((min, group) => (group.networks < min.networks ? group : min));
    lightest.outputs.push(output);
    lightest.networks += ensembleSizeOf(output, ensembleSize);
  }
  return groups.map((group) => group.outputs).filter((outputs) => outputs.length > 0);
}

/** The artifact of a training of every output, from the artifacts of its parts (disjoint outputs, the same data and options). */
export function mergeTrainedParts(parts: readonly ModelArtifact[]): ModelArtifact {
  const [first] = parts;
  if (!first) throw new Error('no trained parts to merge');
  const ownerOf = (output: TrainedOutput) => {
    const owner = parts.find((part) => (output === 'timeline_eta' ? part.eta.length > 0 : output in part.networks));
    if (!owner) throw new Error(`no part trained ${output}`);
    return owner;
  };
  const pick = <T>(of: (part: ModelArtifact) => Record<string, T>) => Object.fromEntries(BINARY_OUTPUTS.map((output) => [output, of(ownerOf(output))[output]]));
  // in the order one training writes them: the sample sets' sizes, then each output's
  const outputs = new Set<string>(TRAINED_OUTPUTS);
  const sampleCounts = Object.fromEntries([
    ...Object.entries(first.sampleCounts).filter(([name]) => !outputs.has(name)),
    ...TRAINED_OUTPUTS.map((output) => [output, ownerOf(output).sampleCounts[output]]),
  ]) as ModelArtifact['sampleCounts'];
  return {
    ...first,
    networks: pick((part) => part.networks) as ModelArtifact['networks'],
    calibration: pick((part) => part.calibration) as ModelArtifact['calibration'],
    calibrationPeriodMetrics: pick((part) => part.calibrationPeriodMetrics) as ModelArtifact['calibrationPeriodMetrics'],
    eta: ownerOf('timeline_eta').eta,
    sampleCounts,
  };
}
