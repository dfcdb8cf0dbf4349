import { outputsOf, riskLevel } from '../model/serve/predictor';
import type { PredictionResult } from '../services/prediction-result';
import { timelineEtaExplanation } from '../services/scheduled-eta';
import { OUTPUT_FIELDS, type PredictionValues, type PredictionValuesByField, RISK_FIELDS } from '../vocabulary';
import type { BillStatusAsOf, House } from './enums';
import type { BillRisksType, PredictionType } from './prediction.type';

/** Writes what a prediction and an item of the imminent list both say of a bill onto `target`, the risks under their GraphQL names. */
function writeBillRisks(target: Record<string, unknown>, p: PredictionResult, values: PredictionValues): void {
  const riskIndicators: Record<string, unknown> = { controversyScore: p.controversyScore, momentumScore: p.momentumScore };
  target.billTitle = p.billTitle;
  target.originatingHouse = p.originatingHouse as House;
  for (const [risk, field, levelField] of RISK_FIELDS) {
    target[field] = values[risk];
    riskIndicators[levelField] = riskLevel(values[risk]);
  }
  target.riskIndicators = riskIndicators;
}

/** What a prediction and an item of the imminent list both say of a bill. */
export function billRisksOf(p: PredictionResult): BillRisksType {
  const risks: Record<string, unknown> = {};
  writeBillRisks(risks, p, outputsOf(p));
  return risks as unknown as BillRisksType;
}

/** A nowcast as the GraphQL Prediction type; REST maps from that type in turn. */
export function toPredictionType(p: PredictionResult): PredictionType {
  const values = outputsOf(p);
  // the fields the outputs table does not give, checked here by the compiler
  const prediction: Omit<PredictionType, keyof BillRisksType | keyof PredictionValuesByField> = {
    billId: p.billId,
    mode: 'nowcast',
    referenceDate: p.referenceDate,
    status: p.status as BillStatusAsOf,
    timelineEtaScheduledFor: p.timelineEtaScheduledFor,
    timelineEtaExplanation: timelineEtaExplanation(p),
    lastStage: p.lastStage,
    modelVersion: p.model.version,
    model: p.model,
  };
  const fields = prediction as Record<string, unknown>;
  writeBillRisks(fields, p, values);
  for (const [output, field] of OUTPUT_FIELDS) fields[field] = values[output];
  return prediction as PredictionType;
}
