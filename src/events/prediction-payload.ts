/** A nowcast's numbers by their camelCase names (those of the GraphQL Prediction type). */
export interface PredictionNumbers {
  royalAssent: number;
  nextStage30d: number;
  timelineEtaDays: number | null;
  stallRisk: number;
  amendmentRisk: number;
  closeVote: number;
  withdrawalRisk: number;
}

/**
 * The `predictions` object of a batch item (specification 2.4), which event payloads carry too,
 * so a client parses one shape wherever a prediction reaches it.
 */
export function predictionsPayload(p: PredictionNumbers) {
  return {
    royal_assent: { probability: p.royalAssent },
    next_stage_30d: { probability: p.nextStage30d },
    timeline_eta: { days: p.timelineEtaDays },
    stall_risk: { probability: p.stallRisk },
    amendment_risk: { probability: p.amendmentRisk },
    close_vote: { probability: p.closeVote },
    withdrawal_risk: { probability: p.withdrawalRisk },
  };
}
