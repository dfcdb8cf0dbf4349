/**
 * GraphQL results → the JSON shapes of the interface specification (sections 2.1–2.6). The only
 * place camelCase becomes snake_case. Field names, nesting and types follow the specification
 * exactly; where it leaves a value open (timeline_eta of a settled bill) the README says what we send.
 */
import { WithHeaders } from '../../gateway/answer-cache';
import type { ModelProvenance } from '../../services/model-vintages';
import { predictionsPayload } from '../../events/prediction-payload';
import { isRisk, LEVELLED_RISKS, OUTPUT_FIELDS, PREDICTION_OUTPUTS, type PredictionValues, type PredictionValuesByField, type Risk, RISK_FIELDS, RISKS, riskLevelField, SINGLE_ANSWER_RISKS } from '../../vocabulary';
import type { ImminentData, PredictBatchData, PredictionFields, PredictOneExplainedData, RiskIndicatorFields } from './generated/document-data';

/** Which model answered, as headers: the specification's bodies keep their exact shapes. */
export const withModelHeaders = (body: unknown, model: ModelProvenance) =>
  new WithHeaders(body, { 'X-Model-Version': String(model.version), 'X-Model-Trained-Through': model.trainedThrough, 'X-Model-Out-Of-Sample': String(model.outOfSample) });

const level = (value: string) => value.toLowerCase();

// Worked out once, as OUTPUT_FIELDS and RISK_FIELDS are: this runs for every prediction answered.
const LEVEL_KEYS = new Map(RISKS.map((risk) => [risk, [`${risk}_level`, riskLevelField(risk)] as const]));

/** A prediction's outputs by their words, read from their GraphQL fields. */
function valuesOf(p: PredictionValuesByField): PredictionValues {
  const values: Record<string, unknown> = {};
  for (const [output, field] of OUTPUT_FIELDS) values[output] = p[field];
  return values as PredictionValues;
}

/** 2.3 with the levels of these risks. */
function riskIndicators({ riskIndicators: r }: { riskIndicators: RiskIndicatorFields }, risks: readonly Risk[]) {
  const indicators: Record<string, unknown> = { controversy_score: r.controversyScore, momentum_score: r.momentumScore };
  for (const risk of risks) {
    const [key, field] = LEVEL_KEYS.get(risk)!;
    indicators[key] = level(r[field]);
  }
  return indicators;
}

/** 2.1–2.3: the single-bill result: each prediction names itself, the headline ones (not the risks) carry the date, and the risk indicators give only the stall and withdrawal levels. */
export function singlePrediction(p: PredictionFields) {
  const id = String(p.billId);
  const predictions: Record<string, unknown> = {};
  for (const [output, field] of OUTPUT_FIELDS) {
    const entry: Record<string, unknown> = { bill_id: id, prediction: output, [PREDICTION_OUTPUTS[output].measure]: p[field] };
    if (!isRisk(output)) entry.reference_date = p.referenceDate;
    predictions[output] = entry;
  }
  return {
    bill_id: id,
    mode: 'nowcast',
    reference_date: p.referenceDate,
    predictions,
    risk_indicators: riskIndicators(p, SINGLE_ANSWER_RISKS),
  };
}

/** `?explain=true`: the factors of the two headline predictions, the reference they are measured from, and what the ETA rests on, under their REST names. */
export const explanationsBody = ({ royalAssent, nextStage30d, reference }: PredictOneExplainedData['prediction']['explanations'], timelineEtaExplanation: string | null) => ({
  royal_assent: royalAssent,
  next_stage_30d: nextStage30d,
  reference: reference && { description: reference.description, royal_assent: reference.royalAssent, next_stage_30d: reference.nextStage30d },
  timeline_eta: timelineEtaExplanation,
});

const HOUSE: Record<string, string> = { COMMONS: 'Commons', LORDS: 'Lords', UNASSIGNED: 'Unassigned' };

/** 2.4 and 2.5: the batch envelope; items keep the request's order. */
export function batchEnvelope(batch: PredictBatchData['predictions']) {
  return {
    results: batch.items.map((item) => {
      const status = item.status.toLowerCase();
      const p = item.prediction;
      if (!p) return { bill_id: item.billId, status, detail: item.detail };
      return {
        bill_id: item.billId,
        status,
        predictions: predictionsPayload(valuesOf(p)),
        risk_indicators: riskIndicators(p, LEVELLED_RISKS),
        metadata: {
          title: p.billTitle,
          // where the bill is now: the house of its last main stage, else where it started
          chamber: p.lastStage?.house ?? HOUSE[p.originatingHouse] ?? 'Unassigned',
          stage: p.lastStage ? level(p.lastStage.stage) : 'not_started',
        },
      };
    }),
    summary: batch.summary,
    execution_time_ms: Math.round(batch.executionTimeMs * 1000) / 1000,
  };
}

/** 2.6: the imminent envelope, with the optional risk fields filled in. */
export function imminentEnvelope(imminent: ImminentData['imminentBills']) {
  return {
    bills: imminent.bills.map((b) => {
      const bill: Record<string, unknown> = {
        bill_id: b.billId,
        timeline_eta_days: b.timelineEtaDays,
        royal_assent_probability: b.royalAssentProbability,
        next_stage_probability: b.nextStageProbability,
        predicted_date: b.predictedDate,
        urgency_level: b.urgencyLevel.toLowerCase(),
        countdown_days: b.countdownDays,
        time_bucket: b.timeBucket?.toLowerCase() ?? null,
        urgency_score: b.urgencyScore,
      };
      for (const [risk, field] of RISK_FIELDS) bill[risk] = b[field];
      bill.risk_indicators = riskIndicators(b, LEVELLED_RISKS);
      return bill;
    }),
    count: imminent.count,
  };
}
