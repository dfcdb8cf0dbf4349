/**
 * Every GraphQL document the dashboard sends, and nothing else: the server runs a request that
 * carries the session cookie only when its document is one of these, character for character
 * (src/gateway/website-documents.ts reads this module when it is built and compares SHA-256
 * hashes). A page that needs another document adds it here; changing one here is all it takes.
 * Plain strings, no imports: the server compiles this file too.
 */

const BILL_FIELDS = 'id title kind originatingHouse outcome introducedSession { id name } stages { stage house date }';
const ENDPOINT_FIELDS = 'id url format description events allBills active disabledReason inactiveReason createdAt';
/** The next digest as the page shows it: its plain-text part only, the page never renders a mail's HTML. */
const DIGEST_FIELDS = 'at slot watchlistIds subject text';
const DELIVERY_FIELDS = 'eventId eventType status attempt statusCode error durationMs attemptedAt nextAttemptAt createdAt attempts { attempt statusCode error durationMs attemptedAt }';

// signing in and out
/** Who is signed in: null for a signed-out visitor (no error, so a first visit logs none). */
export const SESSION = 'query Session { session { account { email tier } } serviceStatus { data { source asOf lastSuccessAt stale } } }';
export const SIGN_UP = 'mutation SignUp($input: Credentials!) { signUp(input: $input) }';
export const LOG_IN = 'mutation LogIn($input: Credentials!) { logIn(input: $input) { email tier } }';
export const LOG_OUT = 'mutation LogOut { logOut }';
export const CHANGE_PASSWORD = 'mutation ChangePassword($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
// email (issue 33): the address's status, a new verification link, a change of address, the local mailbox
export const EMAIL_STATUS = 'query EmailStatus { me { email emailStatus } }';
export const RESEND_VERIFICATION = 'mutation ResendVerification { resendVerificationEmail }';
export const CHANGE_EMAIL = 'mutation ChangeEmail($email: String!, $c: String!) { changeEmail(email: $email, currentPassword: $c) { email } }';
export const OUTBOX = `query Outbox { me { outbox { id to subject text messageId eventId deliveredAt } nextDigest { ${DIGEST_FIELDS} } } }`;
export const SEND_TEST_EMAIL = 'mutation SendTestEmail { sendTestEmail { to eventId } }';
/** The account's next digest as it would be sent now (null: nothing to send yet), read again after a setting changes or on "Refresh preview". */
export const NEXT_DIGEST = `query NextDigest { me { nextDigest { ${DIGEST_FIELDS} } } }`;

// bills
export const BILL_BY_ID = `query BillById($id: Int!) { bill(id: $id) { ${BILL_FIELDS} } }`;
/** Newest session first: of five look-alike titles, the one before Parliament now is the one people mean. */
export const BILL_SEARCH = `query BillSearch($text: String, $session: Int) { bills(first: 25, order: NEWEST_FIRST, filter: { titleContains: $text, sessionId: $session }) { totalCount nodes { ${BILL_FIELDS} } } }`;
export const SESSIONS = 'query Sessions { sessions { id name } }';
export const BILL = `query Bill($id: Int!) { bill(id: $id) { id title longTitle kind originatingHouse outcome introducedDate royalAssentDate url stages { stage house date } scheduledSittings { stage house date firstSeen } } }`;
/** One request for the predictions and the chart: the website charges them together as one prediction, once a day per bill. */
export const BILL_PREDICTIONS = `query BillPredictions($id: Int!) { bill(id: $id) {
  prediction { referenceDate status royalAssent nextStage30d timelineEtaDays timelineEtaScheduledFor stallRisk amendmentRisk closeVote withdrawalRisk modelVersion lastStage { stage house }
    riskIndicators { stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel controversyScore momentumScore }
    explanations { royalAssent { factor effect } nextStage30d { factor effect } reference { description royalAssent nextStage30d } }
    trust { output scope binLower binUpper bills observedRate testSessions } }
  predictionHistory { referenceDate royalAssent nextStage30d model { outOfSample } } } }`;
export const IMMINENT = `query Imminent($days: Int!, $min: Float!) { imminentBills(daysAhead: $days, minProbability: $min) { count bills {
  billId timelineEtaDays nextStageProbability royalAssentProbability predictedDate urgencyLevel billTitle originatingHouse } } }`;

// watchlists and alerts
export const WATCHLISTS = 'query Watchlists { watchlists { id name description billCount updatedAt } }';
export const WATCHLIST_NAMES = 'query WatchlistNames { watchlists { id name } }';
export const WATCHLIST = `query Watchlist($id: Int!) { watchlist(id: $id) { id name bills { billId bill { title } predictionDetail
  prediction { referenceDate royalAssent nextStage30d timelineEtaDays timelineEtaScheduledFor stallRisk lastStage { stage house } riskIndicators { stallRiskLevel } } } } }`;
export const CREATE_WATCHLIST = 'mutation CreateWatchlist($input: CreateWatchlistInput!) { createWatchlist(input: $input) { id } }';
export const RENAME_WATCHLIST = 'mutation RenameWatchlist($id: Int!, $name: String!) { renameWatchlist(id: $id, name: $name) { id } }';
export const DELETE_WATCHLIST = 'mutation DeleteWatchlist($id: Int!) { deleteWatchlist(id: $id) }';
export const ADD_BILLS_TO_WATCHLIST = 'mutation AddBillsToWatchlist($id: Int!, $bills: [Int!]!) { addBillsToWatchlist(id: $id, billIds: $bills) { id name } }';
export const REMOVE_BILL_FROM_WATCHLIST = 'mutation RemoveBillFromWatchlist($id: Int!, $bill: Int!) { removeBillFromWatchlist(id: $id, billId: $bill) { id } }';
// a watchlist's channels (issue 33): its email setting with the address's status and the next digest, its feed addresses, its CSV
export const WATCHLIST_CHANNELS =
  `query WatchlistChannels($id: Int!) { me { email emailStatus nextDigest { ${DIGEST_FIELDS} } } watchlist(id: $id) { id calendarUrl feedUrl } watchlistNotifications(id: $id) { watchlistId email time day events } }`;
export const SET_WATCHLIST_NOTIFICATIONS =
  'mutation SetWatchlistNotifications($id: Int!, $input: WatchlistNotificationsInput!) { setWatchlistNotifications(id: $id, input: $input) { watchlistId email time day events } }';
export const ROTATE_FEED_TOKEN = 'mutation RotateFeedToken($id: Int!) { rotateWatchlistFeedToken(id: $id) { id calendarUrl feedUrl } }';
export const REVOKE_FEED_TOKEN = 'mutation RevokeFeedToken($id: Int!) { revokeWatchlistFeedToken(id: $id) }';
/** The watchlist's predictions as CSV text, built by the server (the cookie never opens REST's predictions.csv); the page saves it as a file. */
export const WATCHLIST_CSV = 'query WatchlistCsv($id: Int!) { watchlistPredictionsCsv(id: $id) { filename csv rows } }';
export const ALERT_THRESHOLDS = 'query AlertThresholds { alertThresholds { id watchlistId billId alertType comparison thresholdValue active inactiveReason lastTriggeredAt } }';
export const ALERT_HISTORY =
  'query AlertHistory { alertHistory(first: 20) { totalCount triggers { id billId alertType valueSeen thresholdValue triggeredAt watchlistName } analytics { byType { key count } byBill { key count } } } }';
export const CREATE_ALERT_THRESHOLD = 'mutation CreateAlertThreshold($input: CreateAlertThresholdInput!) { createAlertThreshold(input: $input) { id } }';
export const DELETE_ALERT_THRESHOLD = 'mutation DeleteAlertThreshold($id: Int!) { deleteAlertThreshold(id: $id) }';
export const CHECK_ALERTS =
  'mutation CheckAlerts { checkAlerts { billsChecked thresholdsChecked billsBlocked triggered { id billId alertType valueSeen thresholdValue triggeredAt watchlistName } } }';

// webhooks
export const WEBHOOKS = `query Webhooks { webhooks { ${ENDPOINT_FIELDS} } }`;
export const WEBHOOK_DELIVERIES = `query WebhookDeliveries($id: Int!) { webhookDeliveries(id: $id, first: 20) { ${DELIVERY_FIELDS} } }`;
export const CREATE_WEBHOOK = `mutation CreateWebhook($input: CreateWebhookInput!) { createWebhook(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`;
export const UPDATE_WEBHOOK = `mutation UpdateWebhook($id: Int!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${ENDPOINT_FIELDS} } }`;
export const TEST_WEBHOOK = 'mutation TestWebhook($id: Int!) { testWebhook(id: $id) { eventId } }';
export const ROTATE_WEBHOOK_SECRET = 'mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret } }';
export const RECOVER_WEBHOOK_DELIVERIES = 'mutation RecoverWebhookDeliveries($id: Int!, $since: DateTimeISO!) { recoverWebhookDeliveries(id: $id, since: $since) }';
export const DELETE_WEBHOOK = 'mutation DeleteWebhook($id: Int!) { deleteWebhook(id: $id) }';

// the account
export const ACCOUNT = 'query Account { usage { kind used limit resetsAt } apiKeys { prefix name createdAt lastUsedAt revokedAt } }';
export const CREATE_API_KEY = 'mutation CreateApiKey($name: String) { createApiKey(name: $name) { apiKey } }';
export const REVOKE_API_KEY = 'mutation RevokeApiKey($prefix: String!) { revokeApiKey(prefix: $prefix) { prefix } }';
