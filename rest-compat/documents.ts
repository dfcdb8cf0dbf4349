/**
 * The GraphQL operations the REST routes run, by name. Parsed and validated once at start-up
 * (see operations.ts): a REST request costs one execution against the schema, nothing more.
 */

const PREDICTION_FIELDS = `
fragment PredictionFields on Prediction {
  billId billTitle originatingHouse referenceDate status royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk
  riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel }
  lastStage { stage house date }
}`;

export const DOCUMENTS = {
  PredictOne: `
query PredictOne($billId: Int!, $referenceDate: Date) {
  prediction(billId: $billId, referenceDate: $referenceDate) { ...PredictionFields }
}
${PREDICTION_FIELDS}`,

  PredictBatch: `
query PredictBatch($billIds: [Int!]!, $referenceDate: Date) {
  predictions(billIds: $billIds, referenceDate: $referenceDate) {
    items { billId status detail prediction { ...PredictionFields } }
    summary { total success errors blocked }
    executionTimeMs
  }
}
${PREDICTION_FIELDS}`,

  Imminent: `
query Imminent($daysAhead: Int!, $minProbability: Float!) {
  imminentBills(daysAhead: $daysAhead, minProbability: $minProbability) {
    count
    bills {
      billId timelineEtaDays royalAssentProbability nextStageProbability predictedDate urgencyLevel countdownDays timeBucket urgencyScore
      prediction { ...PredictionFields }
    }
  }
}
${PREDICTION_FIELDS}`,
} as const;

export type OperationName = keyof typeof DOCUMENTS;
