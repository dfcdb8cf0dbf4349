// Generated from schema/schema.graphql by `npm run schema` (src/cli/web-schema-types.ts): do not edit.

/** The calling account */
export interface Account {
  email: string;
  /** Whether alerts are emailed to the address: only once VERIFIED (see docs/api-channels.md, "Email") */
  emailStatus: EmailStatus;
  id: number;
  /** The next digest email of the account’s daily and weekly watchlists, as it would be if sent now: the soonest slot with something changed; null when none has (no digest is sent then) */
  nextDigest: DigestPreview | null;
  /** The local mailbox’s newest 100 emails to the account, newest first: what would have been sent (empty when the service sends over SMTP) */
  outbox: OutboxMessage[];
  tier: Tier;
}

export interface AlertAnalytics {
  byBill: CountByKey[];
  /** by UTC day, YYYY-MM-DD */
  byDay: CountByKey[];
  byType: CountByKey[];
}

export interface AlertCheckResult {
  /** bills not evaluated: the daily prediction limit was reached (each bill evaluated is one prediction) */
  billsBlocked: number[];
  billsChecked: number;
  checkedAt: string;
  thresholdsChecked: number;
  /** what fired now */
  triggered: AlertTrigger[];
}

export interface AlertHistory {
  /** counts over everything the filter matches */
  analytics: AlertAnalytics;
  /** pass as `after` for the next page; null on the last */
  nextCursor: string | null;
  /** triggers matching the filter, across all pages */
  totalCount: number;
  /** newest first */
  triggers: AlertTrigger[];
}

export interface AlertHistoryFilter {
  alertType?: AlertType | null;
  billId?: number | null;
  /** first UTC day included */
  from?: string | null;
  /** last UTC day included */
  to?: string | null;
}

export interface AlertThreshold {
  /** false when the tier no longer lets it fire (after a downgrade from Pro): kept, and firing again after an upgrade */
  active: boolean;
  alertType: AlertType;
  /** false while it has fired for some bill and waits for the condition to end */
  armed: boolean;
  /** null: every bill of the watchlist */
  billId: number | null;
  comparison: Comparison;
  createdAt: string;
  id: number;
  /** why it is inactive (a Pro-only type, or beyond the oldest 5 of its watchlist below Pro); null when active */
  inactiveReason: string | null;
  lastTriggeredAt: string | null;
  /** bills it fired for and is quiet about until the condition ends */
  quietBillIds: number[];
  thresholdValue: number;
  watchlistId: number;
}

export interface AlertTrigger {
  alertType: AlertType;
  billId: number;
  comparison: Comparison;
  id: number;
  referenceDate: string;
  /** manual or scheduled */
  source: string;
  thresholdId: number;
  thresholdValue: number;
  triggeredAt: string;
  /** the value that met the condition */
  valueSeen: number;
  watchlistId: number;
  watchlistName: string;
}

/** timeline_eta (days to the next stage), probability (Royal Assent), the four risks (probabilities), and for Pro trend (rise over recent snapshots) and spike (jump between two snapshots) */
export type AlertType = 'AMENDMENT_RISK' | 'CLOSE_VOTE' | 'PROBABILITY' | 'SPIKE' | 'STALL_RISK' | 'TIMELINE_ETA' | 'TREND' | 'WITHDRAWAL_RISK';

/** An API key as its owner sees it: never the key itself */
export interface ApiKey {
  createdAt: string;
  lastUsedAt: string | null;
  name: string | null;
  /** the key’s first characters, e.g. bp_0123abcd */
  prefix: string;
  /** null while the key works */
  revokedAt: string | null;
}

/** success; error (e.g. the bill does not exist: see detail); blocked (the daily prediction quota was used up before this bill) */
export type BatchItemStatus = 'BLOCKED' | 'ERROR' | 'SUCCESS';

export interface BatchPredictionItem {
  /** the bill, when it exists */
  bill: Bill | null;
  billId: number;
  /** why the item is not a success */
  detail: string | null;
  prediction: Prediction | null;
  status: BatchItemStatus;
}

export interface BatchPredictions {
  executionTimeMs: number;
  /** in the order of billIds */
  items: BatchPredictionItem[];
  /** the model that answers the batch’s reference date (every item’s) */
  model: PredictionModel;
  summary: BatchSummary;
}

export interface BatchSummary {
  blocked: number;
  errors: number;
  success: number;
  total: number;
}

/** A UK Parliament bill (Bills API bill id) */
export interface Bill {
  /** the Bills API’s type name */
  billType: string;
  /** true when the bill was carried over into a later session */
  carriedOver: boolean;
  /** Public or Private */
  category: string;
  /** Commons divisions on the bill (data to July 2018 only) */
  divisions: Division[];
  id: number;
  introducedDate: string | null;
  introducedSession: ParliamentarySession | null;
  introducedSessionId: number;
  isAct: boolean;
  kind: BillKind;
  longTitle: string | null;
  originatingHouse: House;
  outcome: BillOutcome;
  /** The bill’s nowcast on a reference date (default: today); batched across the bills of a page */
  prediction: Prediction;
  /** Nowcasts over the bill’s life, for a chart: each uses only the facts known on its date (an honest backtest), with a point on each stage date and the day before; charged as one prediction */
  predictionHistory: PredictionPoint[];
  royalAssentDate: string | null;
  /** stage sittings set down for a day after today, soonest first; a date that moved shows only where it is now */
  scheduledSittings: ScheduledSitting[];
  /** every session the bill existed in (more than one: carried over) */
  sessionIds: number[];
  /** sponsoring organisations where no member is named */
  sponsorOrganisations: string[];
  /** lead sponsor first */
  sponsors: Sponsor[];
  /** the stage history in the API’s order */
  stages: Stage[];
  /** HTML, as the Bills API gives it */
  summary: string | null;
  /** short title */
  title: string;
  /** the bill’s page on bills.parliament.uk */
  url: string;
  withdrawnDate: string | null;
}

/** A page of bills, in the order asked for */
export interface BillConnection {
  edges: BillEdge[];
  /** the bills of the edges, for clients that do not need cursors */
  nodes: Bill[];
  pageInfo: PageInfo;
  /** bills matching the filter, across all pages */
  totalCount: number;
}

export interface BillEdge {
  cursor: string;
  node: Bill;
}

/** what every typed event has */
export interface BillEvent {
  billId: number;
  /** "evt_…", the same on every channel and retry */
  id: string;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
}

/** All given conditions must hold */
export interface BillFilter {
  kind?: BillKind | null;
  originatingHouse?: House | null;
  outcome?: BillOutcome | null;
  /** session the bill was introduced in (Bills API session id) */
  sessionId?: number | null;
  /** case-insensitive text in the short title */
  titleContains?: string | null;
}

/** Normalised bill type: government, the kinds of Private Members’ Bill, private, hybrid, consolidation */
export type BillKind = 'CONSOLIDATION' | 'GOVERNMENT' | 'HYBRID' | 'PMB_BALLOT' | 'PMB_LORDS' | 'PMB_PRESENTATION' | 'PMB_TEN_MINUTE_RULE' | 'PRIVATE';

/** ID: ascending bill id, the default; NEWEST_FIRST: the newest session first, then the newest bill */
export type BillOrder = 'ID' | 'NEWEST_FIRST';

/** What had become of the bill when the data was read: PENDING while still before Parliament */
export type BillOutcome = 'FELL' | 'PENDING' | 'ROYAL_ASSENT' | 'WITHDRAWN';

/** Where the bill stood on the reference date, from the facts known then */
export type BillStatusAsOf = 'ENACTED' | 'FELL' | 'LIVE' | 'WITHDRAWN';

export type Comparison = 'GREATER_THAN' | 'LESS_THAN';

export interface CountByKey {
  count: number;
  key: string;
}

export interface CreateAlertThresholdInput {
  alertType: AlertType;
  /** null: every bill of the watchlist */
  billId?: number | null;
  /** default: less_than for timeline_eta, greater_than for the others */
  comparison?: Comparison | null;
  thresholdValue: number;
  watchlistId: number;
}

export interface CreatedApiKey {
  /** the key: shown this once, never stored */
  apiKey: string;
  key: ApiKey;
}

export interface CreateWatchlistInput {
  billIds?: number[] | null;
  description?: string | null;
  name: string;
}

export interface CreateWebhookInput {
  /** default false: only the bills on your watchlists */
  allBills?: boolean | null;
  description?: string | null;
  events: EventType[];
  /** default STANDARD (signed JSON); SLACK or TEAMS for a chat channel’s incoming webhook */
  format?: WebhookFormat | null;
  /** http or https; private, loopback and link-local addresses are refused; SLACK and TEAMS need https and a host on CHAT_WEBHOOK_HOSTS */
  url: string;
}

export interface Credentials {
  email: string;
  password: string;
}

/** A CSV export: RFC 4180 text (CRLF, a header row, formula-like text cells neutralised) and the name to save it under */
export interface CsvFile {
  /** the file’s text, UTF-8 once saved */
  csv: string;
  filename: string;
  /** rows after the header */
  rows: number;
}

/** The account dashboard’s signed-in browser */
export interface DashboardSession {
  /** The account signed in */
  account: Account;
}

/** How fresh the served data is (also in GET /readyz) */
export interface DataFreshness {
  /** the date the data is complete up to: the snapshot’s date, or the day of the last successful live sync */
  asOf: string | null;
  /** the last sync that completed, by any instance */
  lastSuccessAt: string | null;
  /** the last sync started, by any instance */
  lastSyncAt: string | null;
  /** sessions whose dates are the service’s inference: a session newer than its built-in table, or an end inferred when a later one appeared */
  sessionsInferred: InferredSession[];
  /** "live" (the UK Parliament Bills API, synced every SYNC_INTERVAL) or "snapshot" (a data folder) */
  source: string;
  /** no successful sync for 3 sync intervals: the data may be behind Parliament */
  stale: boolean;
}

/** The account’s next digest email as it would be if sent now (issue 33; docs/api-channels.md, "Email") */
export interface DigestPreview {
  /** when it goes (its slot’s next time, Europe/London) */
  at: string;
  /** the HTML part */
  html: string;
  /** `daily 08:00` or `weekly monday 08:00` (Europe/London) */
  slot: string;
  subject: string;
  /** the plain-text part */
  text: string;
  /** the watchlists set to that slot */
  watchlistIds: number[];
}

/** A House of Commons division on the bill (The Public Whip, to July 2018) */
export interface Division {
  /** ayes including tellers */
  ayes: number;
  date: string;
  house: House;
  /** noes including tellers */
  noes: number;
  /** the division’s number on its day */
  number: number;
  stage: string | null;
  /** title written by The Public Whip (publicwhip.org.uk) */
  title: string;
}

/** How a watchlist’s events are emailed: OFF; INSTANT as they happen; a DAILY or WEEKLY digest at its time (Europe/London) */
export type EmailDelivery = 'DAILY' | 'INSTANT' | 'OFF' | 'WEEKLY';

/** UNVERIFIED until a verification link is opened (only the verification email is sent meanwhile); VERIFIED; SUPPRESSED after the address was refused for good (a 5xx), until verified again */
export type EmailStatus = 'SUPPRESSED' | 'UNVERIFIED' | 'VERIFIED';

/** An event in the payload every channel carries (webhooks too): docs/api-events.md#events */
export interface Event {
  /** the payload's data, as a webhook receives it: {"bill_id": …, …} */
  data: Record<string, unknown>;
  /** "evt_…", the same on every channel and retry */
  id: string;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
  /** e.g. "bill.stage_changed" */
  type: string;
}

/** Event types of webhooks and subscriptions; PREDICTION_PROBABILITY_SPIKE, PREDICTION_TRENDING_UP and PREDICTION_CROSSED_THRESHOLD need the pro tier */
export type EventType = 'BILL_STAGE_CHANGED' | 'BILL_STAGE_SCHEDULED' | 'PREDICTION_CROSSED_THRESHOLD' | 'PREDICTION_HIGH_PROBABILITY' | 'PREDICTION_IMMINENT_STAGE_CHANGE' | 'PREDICTION_PROBABILITY_SPIKE' | 'PREDICTION_TRENDING_UP' | 'PREDICTION_UPDATED';

/** One reason for a prediction */
export interface ExplanationFactor {
  /** its share of the prediction minus the reference’s, in probability (signed; 0.31 = 31 points): a Shapley value, so a prediction’s effects add up to that difference */
  effect: number;
  /** the fact about the bill, in plain words */
  factor: string;
}

/** What the factors are measured from: a typical bill of the same kind, introduced the same day in the same house, at its kind’s median pace */
export interface ExplanationReference {
  /** the reference bill and where it stands on the reference date, in plain words */
  description: string;
  /** the model’s probability of the reference bill’s next main stage within 30 days */
  nextStage30d: number;
  /** the model’s probability of Royal Assent for the reference bill */
  royalAssent: number;
}

/** Why the headline probabilities are what they are: every factor, largest effect first, adding up to the prediction minus the reference’s; none for a settled bill */
export interface Explanations {
  nextStage30d: ExplanationFactor[];
  /** null for a settled bill, whose probabilities follow from its status */
  reference: ExplanationReference | null;
  royalAssent: ExplanationFactor[];
}

/** House of Parliament (Royal Assent and some private-bill steps are Unassigned) */
export type House = 'COMMONS' | 'LORDS' | 'UNASSIGNED';

export interface ImminentBill {
  /** probability of significant amendment (a report stage after committee, or ping-pong, still to come) */
  amendmentRisk: number;
  billId: number;
  /** the bill’s short title */
  billTitle: string;
  /** probability of a later Commons division closer than 10% of votes cast (experimental) */
  closeVote: number;
  /** days until the next stage */
  countdownDays: number;
  /** probability of a main stage within 30 days */
  nextStageProbability: number;
  originatingHouse: House;
  /** today + the ETA, rounded to whole days */
  predictedDate: string;
  /** the full nowcast as of today, with its explanations on request: charged as one prediction */
  prediction: Prediction | null;
  riskIndicators: RiskIndicators;
  royalAssentProbability: number;
  /** probability of no main stage in the next 200 days */
  stallRisk: number;
  timeBucket: TimeBucket | null;
  timelineEtaDays: number;
  urgencyLevel: UrgencyLevel;
  /** next-stage probability × (1 − days/30), floored at 0 */
  urgencyScore: number;
  /** probability the bill is withdrawn or never reaches another main stage */
  withdrawalRisk: number;
}

export interface ImminentBills {
  /** most urgent first */
  bills: ImminentBill[];
  count: number;
  /** the model that made today’s nowcasts the list is drawn from (the serving one) */
  model: PredictionModel;
}

/** A session whose dates the service worked out itself rather than knew (also in GET /readyz) */
export interface InferredSession {
  /** its end (the prorogation), inferred when a later session appeared; null while it runs */
  endDate: string | null;
  /** when its end was inferred; null while it runs */
  endInferredAt: string | null;
  /** the first sitting seen of a session newer than the built-in table */
  firstSittingDate: string | null;
  /** when this service first recorded the session */
  learnedAt: string | null;
  /** its name, e.g. "2024-26"; its id while the service knows no name */
  name: string;
  /** the Bills API session id */
  sessionId: number;
}

/** The last main stage that sat on or before the reference date */
export interface LastStage {
  date: string;
  house: string;
  stage: MainStage;
}

/** A main stage of a bill’s passage; procedural motions are not among them */
export type MainStage = 'COMMITTEE' | 'CONSIDERATION_OF_AMENDMENTS' | 'FIRST_READING' | 'REPORT' | 'ROYAL_ASSENT' | 'SECOND_READING' | 'THIRD_READING';

/** An email the service would have sent, kept in the local mailbox (the service has no SMTP server configured) */
export interface OutboxMessage {
  deliveredAt: string;
  /** its X-Bill-Progress-Event-Id header: the event it tells of, or the email’s own id (mail_…) */
  eventId: string;
  id: number;
  /** its Message-ID header */
  messageId: string;
  subject: string;
  /** the plain-text part */
  text: string;
  /** the address it was for */
  to: string;
}

export interface PageInfo {
  /** pass as `after` to get the next page */
  endCursor: string | null;
  hasNextPage: boolean;
}

/** A session of the UK Parliament (Bills API session id) */
export interface ParliamentarySession {
  /** null while the session is running */
  endDate: string | null;
  /** the session's first day: its official start (State Opening or first sitting) where known, else the first sitting seen in the data */
  firstSittingDate: string | null;
  id: number;
  /** last sitting date seen in the data */
  lastSittingDate: string | null;
  /** e.g. "2017-19" */
  name: string;
}

/** A nowcast: what the facts known on the reference date say of the bill’s future */
export interface Prediction {
  /** probability of significant amendment (a report stage after committee, or ping-pong, still to come) */
  amendmentRisk: number;
  billId: number;
  /** the bill’s short title */
  billTitle: string;
  /** probability of a later Commons division closer than 10% of votes cast (experimental) */
  closeVote: number;
  /** Why the probabilities are what they are; computed from the model on request only */
  explanations: Explanations;
  lastStage: LastStage | null;
  /** always "nowcast": computed only from facts dated on or before referenceDate */
  mode: string;
  /** the model that made it: its version, the last date it learned from, and whether that is on or before referenceDate */
  model: PredictionModel;
  /** the model version that made it (the same as model.version) */
  modelVersion: number;
  /** probability of a main stage sitting within 30 days: of the same distribution of the days to the next stage as timelineEtaDays, which is within 30 days exactly when this is at least half the chance the bill moves at all */
  nextStage30d: number;
  originatingHouse: House;
  referenceDate: string;
  riskIndicators: RiskIndicators;
  /** probability of Royal Assent */
  royalAssent: number;
  /** probability of no main stage in the next 200 days */
  stallRisk: number;
  status: BillStatusAsOf;
  /** days to the next main stage if the bill moves: the median of the model’s distribution of the wait given that it moves (the days to its sitting when one is scheduled); null when there will be none */
  timelineEtaDays: number | null;
  /** what the ETA rests on and means, in words: "scheduled for YYYY-MM-DD: …" or "estimated by the model from the bill’s history: …", with the chance of a next stage at all and within 30 days; null when there is no next stage */
  timelineEtaExplanation: string | null;
  /** the scheduled sitting of the next main stage the ETA counts to, as known on referenceDate; null when the ETA is the model’s estimate */
  timelineEtaScheduledFor: string | null;
  /** How far to trust royalAssent and nextStage30d, from the model card’s evaluation; empty for a settled bill, whose figures follow from its status */
  trust: PredictionTrust[];
  /** probability the bill is withdrawn or never reaches another main stage */
  withdrawalRisk: number;
}

/** a prediction event (prediction.updated, …): the new values and those compared against */
export interface PredictionEvent {
  billId: number;
  current: PredictionValues;
  /** "evt_…", the same on every channel and retry */
  id: string;
  previous: PredictionValues;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
  /** e.g. "prediction.updated" */
  type: string;
}

/** Which model made an answer (REST: the X-Model-* headers) */
export interface PredictionModel {
  /** true when trainedThrough is on or before the reference date: the model saw nothing dated after it (a fair backtest). false: no model that old exists yet, so the serving model answered, having learned from later facts (in sample) */
  outOfSample: boolean;
  /** the last date whose facts it learned from */
  trainedThrough: string;
  /** the model version (npm run admin -- models lists them) */
  version: number;
}

/** A nowcast at a past date of a bill’s life: a point of its chart */
export interface PredictionPoint {
  /** the model that made the point; outOfSample false marks a point made by a model that learned from later facts */
  model: PredictionModel;
  /** probability of a main stage sitting within 30 days of referenceDate */
  nextStage30d: number;
  referenceDate: string;
  /** probability of Royal Assent, as known on referenceDate */
  royalAssent: number;
  status: BillStatusAsOf;
}

/** How far to trust a probability: how the model card’s held-out nowcasts like it turned out (the same kind of bill, the same furthest stage, the probability in the same tenth; each bill weighing 1) */
export interface PredictionTrust {
  /** the held-out bills in that tenth, each bill weighing 1 across its nowcasts */
  bills: number;
  /** the tenth of probability the figure falls in: its lower end (0.9 for 0.9–1.0) */
  binLower: number;
  binUpper: number;
  /** their mean predicted probability */
  meanPredicted: number | null;
  /** the held-out nowcasts in that tenth */
  nowcasts: number;
  /** the share of them that came true; null when fewer than 10 bills: too few to say */
  observedRate: number | null;
  /** "royal_assent" or "next_stage_30d" */
  output: string;
  /** "kind_and_stage": bills of the same kind at the same stage; "kind": of the same kind at any stage, where too few were at its stage */
  scope: string;
  /** the sessions the evaluation held out, e.g. "2017-19" */
  testSessions: string[];
}

/** the headline numbers an event compares */
export interface PredictionValues {
  nextStage30d: number;
  referenceDate: string;
  royalAssent: number;
  timelineEtaDays: number | null;
}

/** The scores of the forecasts of one kind of bill, or of one horizon */
export interface RecordGroup {
  /** a kind (government, ballot, presentation, lords, ten_minute_rule, other) or a horizon in days from forecast to answer (0-30, 31-90, 91-180, 181-365, over_365) */
  key: string;
  scores: RecordScores;
}

/** A figure and its 90% interval over sessions resampled (a session’s forecasts shift together); the ends are null with one session or too few forecasts */
export interface RecordInterval {
  high: number | null;
  low: number | null;
  value: number | null;
}

/** One output’s track record */
export interface RecordOutput {
  byHorizon: RecordGroup[];
  byKind: RecordGroup[];
  /** royal_assent, next_stage_30d or timeline_eta */
  output: string;
  overall: RecordScores;
}

/** How one group of resolved forecasts scored, each forecast weighing one. For a probability: the Brier score, the kind × stage table’s on the same forecasts, the skill (1 − Brier / table’s), reliability and calibration. For the ETA: the median absolute error in days, the table’s, and the skill from them; the reliability and calibration fields are empty. */
export interface RecordScores {
  brier: RecordInterval | null;
  /** α of outcome ~ σ(α + logit(forecast)): 0 when right on average */
  calibrationIntercept: number | null;
  /** β of outcome ~ σ(α + β·logit(forecast)): 1 when neither too bold nor too timid */
  calibrationSlope: number | null;
  /** forecasts scored (for the ETA: those whose bill had a next stage) */
  count: number;
  medianAbsoluteErrorDays: RecordInterval | null;
  /** ETA only: forecasts whose bill had no next stage (its fate came first) */
  noNextStage: number | null;
  /** ten equal bins of the forecast; empty for the ETA */
  reliability: ReliabilityRow[];
  /** above 0, the model beat the kind × stage table */
  skill: RecordInterval;
  tableBrier: RecordInterval | null;
  tableMedianAbsoluteErrorDays: RecordInterval | null;
}

/** The figures of backfilled forecasts, of live ones, or of both together */
export interface RecordSet {
  outputs: RecordOutput[];
  /** resolved forecasts scored, of every output */
  resolved: number;
  /** "all", "backfilled" (made after the day by a model trained only on facts dated before it) or "live" (published on the day) */
  source: string;
}

/** One tenth of the forecasts’ range: the forecasts in it, their mean and how often they came true */
export interface ReliabilityRow {
  count: number;
  lower: number;
  meanForecast: number | null;
  observedFrequency: number | null;
  upper: number;
}

export interface RiskIndicators {
  amendmentRiskLevel: RiskLevel;
  closeVoteLevel: RiskLevel;
  /** how contested the bill has been so far, 0–1 (see the model card) */
  controversyScore: number;
  /** how fast the bill is moving now, 0–1 (see the model card) */
  momentumScore: number;
  stallRiskLevel: RiskLevel;
  withdrawalRiskLevel: RiskLevel;
}

/** low below 0.3, medium from 0.3 to 0.7, high above 0.7 */
export type RiskLevel = 'HIGH' | 'LOW' | 'MEDIUM';

/** A sitting of a stage set down for a day after today, as the service first saw it */
export interface ScheduledSitting {
  /** the day the stage is set down to sit */
  date: string;
  /** the service’s day when a sync first saw this date: it was announced by then (the Bills API keeps no history of announcements) */
  firstSeen: string;
  house: House;
  /** normalised stage, e.g. second_reading */
  stage: string;
}

/** What the service serves, for anyone */
export interface ServiceStatus {
  /** the attribution the data licence asks for */
  attribution: string;
  /** bills in the database */
  billCount: number;
  data: DataFreshness;
  /** what the service still waits for */
  pending: string[];
  /** true when data (and later models) are loaded */
  ready: boolean;
  /** the service’s today: what nowcasts default to */
  today: string;
}

export interface Sponsor {
  houseAtIntroduction: string | null;
  /** UK Parliament Members API id */
  memberId: number | null;
  name: string;
  /** party on the day the bill was introduced */
  partyAtIntroduction: string | null;
}

/** A stage of a bill and the days it sat */
export interface Stage {
  abbreviation: string | null;
  /** the first sitting date; null when the stage never sat */
  date: string | null;
  /** every sitting date, in order; empty when the stage never sat */
  dates: string[];
  /** dates recorded after the session ended, which never happened (PMB set-down Fridays) */
  datesAfterSessionEnd: string[];
  /** the API’s name for the stage, e.g. "Committee of the whole House" */
  description: string;
  house: House;
  /** Bills API bill-stage id */
  id: number;
  phase: StagePhase | null;
  /** order in the bill’s passage, 1 = first */
  seq: number;
  sessionId: number | null;
  /** normalised stage, e.g. first_reading, second_reading, committee, report, third_reading, consideration_of_amendments, royal_assent */
  stage: string;
  /** Bills API stage-type id */
  stageId: number;
}

/** bill.stage_changed: a stage record first sat */
export interface StageChangedEvent {
  billId: number;
  /** the first sitting, YYYY-MM-DD */
  date: string;
  /** Commons, Lords, or Unassigned (Royal Assent) */
  house: string;
  /** "evt_…", the same on every channel and retry */
  id: string;
  /** the normalised stage name, e.g. second_reading */
  stage: string;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
}

/** Position of a stage in the passage of the bill */
export type StagePhase = 'FIRST_HOUSE' | 'PING_PONG' | 'ROYAL_ASSENT' | 'SECOND_HOUSE';

/** bill.stage_scheduled: a sitting of a stage dated after the day it was first seen, new or moved */
export interface StageScheduledEvent {
  billId: number;
  /** the service’s day when it first saw that date, YYYY-MM-DD */
  firstSeen: string;
  /** Commons, Lords, or Unassigned (Royal Assent) */
  house: string;
  /** "evt_…", the same on every channel and retry */
  id: string;
  /** the stage’s date this one replaced (a move); null for a first date */
  previouslyScheduledFor: string | null;
  /** the sitting’s date, YYYY-MM-DD */
  scheduledFor: string;
  /** the normalised stage name, e.g. third_reading */
  stage: string;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
  /** the bill’s short title */
  title: string;
}

/** A test email queued in the mail outbox, sent as alerts are (over SMTP, or into the local mailbox) */
export interface TestEmail {
  /** its X-Bill-Progress-Event-Id header (mail_…), as the outbox lists it */
  eventId: string;
  /** the verified address it goes to */
  to: string;
}

/** prediction.crossed_threshold: one of your alert thresholds fired */
export interface ThresholdCrossedEvent {
  alertType: string;
  billId: number;
  /** "evt_…", the same on every channel and retry */
  id: string;
  referenceDate: string;
  thresholdId: number;
  thresholdValue: number;
  /** ISO 8601 of the service day and the time of the refresh */
  timestamp: string;
  /** the trigger recorded in the alert history */
  triggerId: number;
  /** the value seen */
  value: number;
}

/** Subscription tier */
export type Tier = 'FREE' | 'PILOT' | 'PRO';

/** today < 1 day, week ≤ 7, two_weeks ≤ 14, month ≤ 30; null beyond */
export type TimeBucket = 'MONTH' | 'TODAY' | 'TWO_WEEKS' | 'WEEK';

/** The service’s forecasts of record scored as their outcomes arrived: anyone may read it, and download every resolved forecast it is made of (GET /api/v1/track-record/forecasts.csv) */
export interface TrackRecord {
  /** the data’s today: forecasts resolved by then are scored */
  asOf: string;
  /** the first forecast day covered; null: from the first */
  from: string | null;
  /** of them, still open (their answer not known yet) */
  open: number;
  /** forecasts of record of the scored outputs in the period */
  recorded: number;
  sets: RecordSet[];
  /** the last forecast day covered; null: to the last */
  to: string | null;
}

export interface UpdateWebhookInput {
  /** true re-enables an endpoint (also one the service disabled) */
  active?: boolean | null;
  allBills?: boolean | null;
  description?: string | null;
  events?: EventType[] | null;
  /** the format stays as registered: only the same format is accepted (a different one is BAD_USER_INPUT; register a new endpoint) */
  format?: WebhookFormat | null;
  url?: string | null;
}

/** critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30, else none */
export type UrgencyLevel = 'CRITICAL' | 'NONE' | 'SOON' | 'TRACKING' | 'URGENT';

/** Today’s use of one daily limit (per account, per UTC day) */
export interface Usage {
  /** calls (API calls), batches (batch requests) or predictions */
  kind: string;
  /** the tier’s daily limit (a fair-use ceiling for unlimited) */
  limit: number;
  /** the next midnight UTC */
  resetsAt: string;
  used: number;
}

export interface Watchlist {
  billCount: number;
  /** its bills, oldest first, each with today’s nowcast */
  bills: WatchlistBill[];
  /** the watchlist’s calendar (iCalendar) at its secret address, for calendar apps to subscribe to; null once revoked (rotateWatchlistFeedToken makes a new one) */
  calendarUrl: string | null;
  createdAt: string;
  description: string | null;
  /** the watchlist’s events as an Atom feed at its secret address; null once revoked */
  feedUrl: string | null;
  id: number;
  name: string;
  updatedAt: string;
}

export interface WatchlistBill {
  addedAt: string;
  bill: Bill | null;
  billId: number;
  /** today’s nowcast; null when it cannot be given (see predictionDetail) */
  prediction: Prediction | null;
  /** why prediction is null, e.g. the daily prediction limit is used up */
  predictionDetail: string | null;
}

/** How a watchlist’s events reach its owner by email (see docs/api-channels.md, "Email") */
export interface WatchlistNotifications {
  /** a weekly digest’s day */
  day: Weekday;
  email: EmailDelivery;
  /** the event types emailed */
  events: EventType[];
  /** HH:MM, Europe/London: a digest’s time */
  time: string;
  watchlistId: number;
}

/** The fields to change; the others stay as they are */
export interface WatchlistNotificationsInput {
  day?: Weekday | null;
  email?: EmailDelivery | null;
  /** at least one; the Pro-only types need the pro tier */
  events?: EventType[] | null;
  /** HH:MM, 00:00 to 23:59, Europe/London */
  time?: string | null;
}

/** One attempt of a delivery, as it ended */
export interface WebhookAttempt {
  /** its number in the retry schedule: 1 is the first (a recovery starts the count again) */
  attempt: number;
  attemptedAt: string;
  durationMs: number;
  /** why it failed; null when delivered */
  error: string | null;
  /** the HTTP status answered; null when none came (timeout, connection error, address not allowed) */
  statusCode: number | null;
}

export interface WebhookDelivery {
  /** attempts made so far */
  attempt: number;
  /** when the last attempt was made */
  attemptedAt: string | null;
  /** every attempt made, newest first (kept as long as the delivery is) */
  attempts: WebhookAttempt[];
  createdAt: string;
  durationMs: number | null;
  /** why the last attempt failed */
  error: string | null;
  /** the event id, sent as webhook-id on every attempt (standard format) */
  eventId: string;
  eventType: string;
  /** the format its body was built in when it was queued (its endpoint’s) */
  format: WebhookFormat;
  /** when the next attempt is due; null once delivered or failed */
  nextAttemptAt: string | null;
  /** pending (queued or waiting for a retry), delivered, or failed (retries exhausted) */
  status: string;
  /** the HTTP status of the last attempt; null when it got none */
  statusCode: number | null;
}

/** Where events are POSTed: signed JSON (Standard Webhooks; its secret is shown only when created or rotated), or unsigned Slack or Teams messages */
export interface WebhookEndpoint {
  /** false when disabled by its owner or by the service (see disabledReason); re-enable with active: true */
  active: boolean;
  /** true: every bill in the data; false: the bills on the owner’s watchlists */
  allBills: boolean;
  createdAt: string;
  description: string | null;
  /** why the service disabled it (every attempt failing for 3 days) */
  disabledReason: string | null;
  events: EventType[];
  /** chosen at registration; a different format is a new endpoint */
  format: WebhookFormat;
  id: number;
  /** its event types the account’s tier does not receive now (Pro-only types after a downgrade): kept, and sent again after an upgrade */
  inactiveEvents: EventType[];
  /** why inactiveEvents are not sent; null when every event type is */
  inactiveReason: string | null;
  url: string;
}

/** What an endpoint’s deliveries look like: STANDARD, the event’s JSON signed (Standard Webhooks); SLACK, a Slack incoming-webhook message; TEAMS, a Teams Workflows message with an Adaptive Card. SLACK and TEAMS are unsigned, need https and a host on the service’s CHAT_WEBHOOK_HOSTS */
export type WebhookFormat = 'SLACK' | 'STANDARD' | 'TEAMS';

export interface WebhookTest {
  eventId: string;
  eventType: string;
}

export interface WebhookWithSecret {
  endpoint: WebhookEndpoint;
  /** `whsec_` + base64 of 32 random bytes: shown only now; verify deliveries with it (e.g. the standardwebhooks package). It signs the STANDARD format only: SLACK and TEAMS deliveries are unsigned */
  secret: string;
}

/** A day of the week (a weekly digest’s) */
export type Weekday = 'FRIDAY' | 'MONDAY' | 'SATURDAY' | 'SUNDAY' | 'THURSDAY' | 'TUESDAY' | 'WEDNESDAY';
