/**
 * The GraphQL operations the REST routes run, by name. Parsed and validated once at start-up
 * (see operations.ts): a REST request costs one execution against the schema, nothing more.
 */

const RISK_INDICATOR_FIELDS = `fragment RiskIndicatorFields on RiskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel }`;

/** Which model answered: the X-Model-* headers of predict, batch and imminent. */
const MODEL_FIELDS = `fragment ModelFields on PredictionModel { version trainedThrough outOfSample }`;

const PREDICTION_FIELDS = `
fragment PredictionFields on Prediction {
  billId billTitle originatingHouse referenceDate status royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk
  riskIndicators { ...RiskIndicatorFields }
  lastStage { stage house date }
  model { ...ModelFields }
}
${MODEL_FIELDS}
${RISK_INDICATOR_FIELDS}`;

export const DOCUMENTS = {
  PredictOne: `
query PredictOne($billId: Int!, $referenceDate: Date) {
  prediction(billId: $billId, referenceDate: $referenceDate) { ...PredictionFields }
}
${PREDICTION_FIELDS}`,

  PredictOneExplained: `
query PredictOneExplained($billId: Int!, $referenceDate: Date) {
  prediction(billId: $billId, referenceDate: $referenceDate) {
    ...PredictionFields
    explanations { royalAssent { factor effect } nextStage30d { factor effect } reference { description royalAssent nextStage30d } }
    timelineEtaExplanation
  }
}
${PREDICTION_FIELDS}`,

  PredictBatch: `
query PredictBatch($billIds: [Int!]!, $referenceDate: Date) {
  predictions(billIds: $billIds, referenceDate: $referenceDate) {
    items { billId status detail prediction { ...PredictionFields } }
    summary { total success errors blocked }
    executionTimeMs
    model { ...ModelFields }
  }
}
${PREDICTION_FIELDS}`,

  Imminent: `
query Imminent($daysAhead: Int!, $minProbability: Float!) {
  imminentBills(daysAhead: $daysAhead, minProbability: $minProbability) {
    count
    bills {
      billId timelineEtaDays royalAssentProbability nextStageProbability predictedDate urgencyLevel countdownDays timeBucket urgencyScore
      stallRisk amendmentRisk closeVote withdrawalRisk riskIndicators { ...RiskIndicatorFields }
    }
    model { ...ModelFields }
  }
}
${RISK_INDICATOR_FIELDS}
${MODEL_FIELDS}`,
} as const;


const WATCHLIST_FIELDS = `fragment WatchlistFields on Watchlist { id name description billCount createdAt updatedAt calendarUrl feedUrl }`;
const THRESHOLD_FIELDS = `fragment ThresholdFields on AlertThreshold { id watchlistId billId alertType thresholdValue comparison createdAt lastTriggeredAt armed quietBillIds active inactiveReason }`;
const TRIGGER_FIELDS = `fragment TriggerFields on AlertTrigger { id thresholdId watchlistId watchlistName billId alertType comparison thresholdValue valueSeen referenceDate triggeredAt source }`;
const WATCHLIST_WITH_BILLS = `{ ...WatchlistFields bills { billId addedAt bill { title } } }`;

/** Specification 4.4 and 4.5: watchlists and alert thresholds. */
export const WATCHLIST_DOCUMENTS = {
  ListWatchlists: `query ListWatchlists { watchlists { ...WatchlistFields } } ${WATCHLIST_FIELDS}`,
  GetWatchlist: `query GetWatchlist($id: Int!) {
  watchlist(id: $id) { ...WatchlistFields bills { billId addedAt bill { title } prediction { ...PredictionFields } predictionDetail } }
} ${WATCHLIST_FIELDS} ${PREDICTION_FIELDS}`,
  // ?predictions=false: the bills alone, so a client can list them without spending a prediction per bill
  GetWatchlistBills: `query GetWatchlistBills($id: Int!) { watchlist(id: $id) ${WATCHLIST_WITH_BILLS} } ${WATCHLIST_FIELDS}`,
  CreateWatchlist: `mutation CreateWatchlist($input: CreateWatchlistInput!) { createWatchlist(input: $input) ${WATCHLIST_WITH_BILLS} } ${WATCHLIST_FIELDS}`,
  DeleteWatchlist: `mutation DeleteWatchlist($id: Int!) { deleteWatchlist(id: $id) }`,
  AddWatchlistBills: `mutation AddWatchlistBills($id: Int!, $billIds: [Int!]!) { addBillsToWatchlist(id: $id, billIds: $billIds) ${WATCHLIST_WITH_BILLS} } ${WATCHLIST_FIELDS}`,
  RemoveWatchlistBill: `mutation RemoveWatchlistBill($id: Int!, $billId: Int!) { removeBillFromWatchlist(id: $id, billId: $billId) ${WATCHLIST_WITH_BILLS} } ${WATCHLIST_FIELDS}`,
  CreateThreshold: `mutation CreateThreshold($input: CreateAlertThresholdInput!) { createAlertThreshold(input: $input) { ...ThresholdFields } } ${THRESHOLD_FIELDS}`,
  ListThresholds: `query ListThresholds { alertThresholds { ...ThresholdFields } } ${THRESHOLD_FIELDS}`,
  DeleteThreshold: `mutation DeleteThreshold($id: Int!) { deleteAlertThreshold(id: $id) }`,
  CheckAlerts: `mutation CheckAlerts { checkAlerts { checkedAt thresholdsChecked billsChecked billsBlocked triggered { ...TriggerFields } } } ${TRIGGER_FIELDS}`,
  AlertHistory: `query AlertHistory($filter: AlertHistoryFilter, $first: Int!, $after: String) {
  alertHistory(filter: $filter, first: $first, after: $after) {
    totalCount nextCursor triggers { ...TriggerFields }
    analytics { byType { key count } byBill { key count } byDay { key count } }
  }
} ${TRIGGER_FIELDS}`,
} as const;

const WEBHOOK_FIELDS = `fragment WebhookFields on WebhookEndpoint { id url format events description allBills active disabledReason inactiveEvents inactiveReason createdAt }`;

/** Webhook endpoints (issue 10; specification 4.6 shows none). */
export const WEBHOOK_DOCUMENTS = {
  ListWebhooks: `query ListWebhooks { webhooks { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  GetWebhook: `query GetWebhook($id: Int!) { webhook(id: $id) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  CreateWebhook: `mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { secret endpoint { ...WebhookFields } } } ${WEBHOOK_FIELDS}`,
  UpdateWebhook: `mutation UpdateWebhook($id: Int!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ...WebhookFields } } ${WEBHOOK_FIELDS}`,
  DeleteWebhook: `mutation DeleteWebhook($id: Int!) { deleteWebhook(id: $id) }`,
  RotateWebhookSecret: `mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } } ${WEBHOOK_FIELDS}`,
  TestWebhook: `mutation TestWebhook($id: Int!) { testWebhook(id: $id) { eventId eventType } }`,
  WebhookDeliveries: `query WebhookDeliveries($id: Int!, $first: Int!) {
  webhookDeliveries(id: $id, first: $first) { eventId eventType format status attempt statusCode error durationMs attemptedAt nextAttemptAt createdAt attempts { attempt statusCode error durationMs attemptedAt } }
}`,
  RecoverWebhookDeliveries: `mutation RecoverWebhookDeliveries($id: Int!, $since: DateTimeISO!) { recoverWebhookDeliveries(id: $id, since: $since) }`,
} as const;

/** Issue 33: the CSV exports (webhook deliveries reuse WebhookDeliveries) and the watchlists' feed addresses. */
export const CHANNEL_DOCUMENTS = {
  // Bill.prediction, not WatchlistBill.prediction: it takes a reference date, and fails the export
  // as a whole (charging nothing) rather than leaving rows empty
  ExportWatchlist: `query ExportWatchlist($id: Int!, $referenceDate: Date) {
  watchlist(id: $id) { id bills { billId bill { title prediction(referenceDate: $referenceDate) { ...PredictionFields } } } }
} ${PREDICTION_FIELDS}`,
  ExportPredictionHistory: `query ExportPredictionHistory($billId: Int!) {
  bill(id: $billId) { id title predictionHistory { referenceDate status royalAssent nextStage30d model { version outOfSample } } }
}`,
  RotateFeedToken: `mutation RotateFeedToken($id: Int!) { rotateWatchlistFeedToken(id: $id) { ...WatchlistFields } } ${WATCHLIST_FIELDS}`,
  RevokeFeedToken: `mutation RevokeFeedToken($id: Int!) { revokeWatchlistFeedToken(id: $id) }`,
} as const;

/** Issue 33, email: the calling account with its email status, its local mailbox, a new verification link, a test email. */
export const ACCOUNT_DOCUMENTS = {
  GetAccount: `query GetAccount { me { id email tier emailStatus } }`,
  GetOutbox: `query GetOutbox { me { outbox { id to subject text messageId eventId deliveredAt } } }`,
  GetDigestPreview: `query GetDigestPreview { me { nextDigest { at slot watchlistIds subject text html } } }`,
  ResendVerificationEmail: `mutation ResendVerificationEmail { resendVerificationEmail }`,
  SendTestEmail: `mutation SendTestEmail { sendTestEmail { to eventId } }`,
  GetWatchlistNotifications: `query GetWatchlistNotifications($id: Int!) { watchlistNotifications(id: $id) { watchlistId email time day events } }`,
  SetWatchlistNotifications: `mutation SetWatchlistNotifications($id: Int!, $input: WatchlistNotificationsInput!) {
  setWatchlistNotifications(id: $id, input: $input) { watchlistId email time day events }
}`,
} as const;

export const ALL_DOCUMENTS = { ...DOCUMENTS, ...WATCHLIST_DOCUMENTS, ...WEBHOOK_DOCUMENTS, ...CHANNEL_DOCUMENTS, ...ACCOUNT_DOCUMENTS };
export type OperationName = keyof typeof ALL_DOCUMENTS;
