/**
 * GraphQL results → the JSON shapes of the interface specification (sections 2.1–2.6). The only
 * place camelCase becomes snake_case. Field names, nesting and types follow the specification
 * exactly; where it leaves a value open (timeline_eta of a settled bill) the README says what we send.
 */
import { WithHeaders } from '../src/gateway/answer-cache';
import type { ModelProvenance } from '../src/services/model-vintages';
import { predictionsPayload } from '../src/events/prediction-payload';
import type { ImminentData, PredictBatchData, PredictionFields, PredictOneExplainedData, RiskIndicatorFields } from './generated/document-data';

/** Which model answered, as headers: the specification's bodies keep their exact shapes. */
export const withModelHeaders = (body: unknown, model: ModelProvenance) =>
  new WithHeaders(body, { 'X-Model-Version': String(model.version), 'X-Model-Trained-Through': model.trainedThrough, 'X-Model-Out-Of-Sample': String(model.outOfSample) });

const level = (value: string) => value.toLowerCase();

/** 2.1–2.3: the single-bill result; its risk indicators carry only the stall and withdrawal levels. */
export function singlePrediction(p: PredictionFields) {
  const id = String(p.billId);
  const probability = (prediction: string, value: number, withDate: boolean) => ({
    bill_id: id,
    prediction,
    probability: value,
    ...(withDate ? { reference_date: p.referenceDate } : {}),
  });
  return {
    bill_id: id,
    mode: 'nowcast',
    reference_date: p.referenceDate,
    predictions: {
      royal_assent: probability('royal_assent', p.royalAssent, true),
      next_stage_30d: probability('next_stage_30d', p.nextStage30d, true),
      timeline_eta: { bill_id: id, prediction: 'timeline_eta', days: p.timelineEtaDays, reference_date: p.referenceDate },
      stall_risk: probability('stall_risk', p.stallRisk, false),
      amendment_risk: probability('amendment_risk', p.amendmentRisk, false),
      close_vote: probability('close_vote', p.closeVote, false),
      withdrawal_risk: probability('withdrawal_risk', p.withdrawalRisk, false),
    },
    risk_indicators: {
      controversy_score: p.riskIndicators.controversyScore,
      momentum_score: p.riskIndicators.momentumScore,
      stall_risk_level: level(p.riskIndicators.stallRiskLevel),
      withdrawal_risk_level: level(p.riskIndicators.withdrawalRiskLevel),
    },
  };
}

/** `?explain=true`: the factors of the two headline predictions, the reference they are measured from, and what the ETA rests on, under their REST names. */
export const explanationsBody = ({ royalAssent, nextStage30d, reference }: PredictOneExplainedData['prediction']['explanations'], timelineEtaExplanation: string | null) => ({
  royal_assent: royalAssent,
  next_stage_30d: nextStage30d,
  reference: reference && { description: reference.description, royal_assent: reference.royalAssent, next_stage_30d: reference.nextStage30d },
  timeline_eta: timelineEtaExplanation,
});

/** 2.3 with all four levels, as batch and imminent results carry them. */
function fullRiskIndicators(p: { riskIndicators: RiskIndicatorFields }) {
  return {
    controversy_score: p.riskIndicators.controversyScore,
    momentum_score: p.riskIndicators.momentumScore,
    stall_risk_level: level(p.riskIndicators.stallRiskLevel),
    withdrawal_risk_level: level(p.riskIndicators.withdrawalRiskLevel),
    amendment_risk_level: level(p.riskIndicators.amendmentRiskLevel),
    close_vote_level: level(p.riskIndicators.closeVoteLevel),
  };
}

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
        predictions: predictionsPayload(p),
        risk_indicators: fullRiskIndicators(p),
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
    bills: imminent.bills.map((b) => ({
      bill_id: b.billId,
      timeline_eta_days: b.timelineEtaDays,
      royal_assent_probability: b.royalAssentProbability,
      next_stage_probability: b.nextStageProbability,
      predicted_date: b.predictedDate,
      urgency_level: b.urgencyLevel.toLowerCase(),
      countdown_days: b.countdownDays,
      time_bucket: b.timeBucket?.toLowerCase() ?? null,
      urgency_score: b.urgencyScore,
      stall_risk: b.stallRisk,
      amendment_risk: b.amendmentRisk,
      close_vote: b.closeVote,
      withdrawal_risk: b.withdrawalRisk,
      risk_indicators: fullRiskIndicators(b),
    })),
    count: imminent.count,
  };
}
