import { riskLevel } from '../model/predictor';
import type { PredictionResult } from '../src/services/prediction.service';
import { timelineEtaExplanation } from '../src/services/scheduled-eta';
import type { BillStatusAsOf, House, RiskLevel } from './enums';
import type { PredictionType } from './prediction.type';

/** A nowcast as the GraphQL Prediction type; REST maps from that type in turn. */
export function toPredictionType(p: PredictionResult): PredictionType {
  const probabilities = p.probabilities;
  return {
    billId: p.billId,
    mode: 'nowcast',
    billTitle: p.billTitle,
    originatingHouse: p.originatingHouse as House,
    referenceDate: p.referenceDate,
    status: p.status as BillStatusAsOf,
    royalAssent: probabilities.royal_assent,
    nextStage30d: probabilities.next_stage_30d,
    timelineEtaDays: p.timelineEtaDays,
    timelineEtaScheduledFor: p.timelineEtaScheduledFor,
    timelineEtaExplanation: timelineEtaExplanation(p),
    stallRisk: probabilities.stall_risk,
    amendmentRisk: probabilities.amendment_risk,
    closeVote: probabilities.close_vote,
    withdrawalRisk: probabilities.withdrawal_risk,
    riskIndicators: {
      controversyScore: p.controversyScore,
      momentumScore: p.momentumScore,
      stallRiskLevel: riskLevel(probabilities.stall_risk) as RiskLevel,
      withdrawalRiskLevel: riskLevel(probabilities.withdrawal_risk) as RiskLevel,
      amendmentRiskLevel: riskLevel(probabilities.amendment_risk) as RiskLevel,
      closeVoteLevel: riskLevel(probabilities.close_vote) as RiskLevel,
    },
    lastStage: p.lastStage,
    modelVersion: p.modelVersion,
    model: p.model,
  };
}

