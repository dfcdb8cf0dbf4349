import { OUTPUT_WORDS, PREDICTION_OUTPUTS, type PredictionValues } from '../vocabulary';

/**
 * The `predictions` object of a batch item (specification 2.4), which event payloads carry too,
 * so a client parses one shape wherever a prediction reaches it: each output holds its measure.
 */
export function predictionsPayload(values: PredictionValues) {
  return Object.fromEntries(OUTPUT_WORDS.map((output) => [output, { [PREDICTION_OUTPUTS[output].measure]: values[output] }]));
}
