import { outputsOf, riskLevel } from '../model/predictor';
import type { PredictionResult } from '../src/services/prediction-result';
import { timelineEtaExplanation } from '../src/services/scheduled-eta';
import { OUTPUT_WORDS, PREDICTION_OUTPUTS, type PredictionOutput, type PredictionValues, type PredictionValuesByField, RISKS, type RiskField, riskLevelField } from '../src/vocabulary';
import type { BillStatusAsOf, House } from './enums';
import type { BillRisksType, PredictionType, RiskIndicatorsType } from './prediction.type';

/** A nowcast's outputs (all, or some) under their GraphQL names. */
const byField = (values: PredictionValues, outputs: readonly PredictionOutput[]) => Object.fromEntries(outputs.map((output) => [PREDICTION_OUTPUTS[output].field, values[output]])) as PredictionValuesByField;

/** What a prediction and an item of the imminent list both say of a bill. */
export function billRisksOf(p: PredictionResult): BillRisksType {
  const values = outputsOf(p);
  const levels = Object.fromEntries(RISKS.map((risk) => [riskLevelField(risk), riskLevel(values[risk])]));
  return {
    billTitle: p.billTitle,
    originatingHouse: p.originatingHouse as House,
    ...(byField(values, RISKS) as Pick<PredictionValuesByField, RiskField>),
    riskIndicators: { controversyScore: p.controversyScore, momentumScore: p.momentumScore, ...levels } as RiskIndicatorsType,
  };
}

/** A nowcast as the GraphQL Prediction type; REST maps from that type in turn. */
export function toPredictionType(p: PredictionResult): PredictionType {
  return {
    ...billRisksOf(p),
    ...byField(outputsOf(p), OUTPUT_WORDS),
    billId: p.billId,
    mode: 'nowcast',
    referenceDate: p.referenceDate,
    status: p.status as BillStatusAsOf,
    timelineEtaScheduledFor: p.timelineEtaScheduledFor,
    timelineEtaExplanation: timelineEtaExplanation(p),
    lastStage: p.lastStage,
    modelVersion: p.modelVersion,
    model: p.model,
  };
}
