/**
 * Every enumeration of the service, once, in the domain's spelling (the stored and REST values).
 * The GraphQL enums (src/graphql/enums.ts), the OpenAPI document (src/doors/rest/openapi/), the REST
 * validation and the services' input types are derived from these arrays; nothing else spells them.
 * Pure constants: every layer, the model included, may import this file.
 */

export type ValueOf<T extends readonly string[]> = T[number];

/** Subscription tiers (specification 1, 8). */
export const TIERS = ['free', 'pilot', 'pro'] as const;
export type Tier = ValueOf<typeof TIERS>;

/**
 * What a prediction says of a bill (2.2), in the specification's order: how each output is
 * measured (the key of its value on REST and in event payloads; days are null when no next stage
 * will come), and its GraphQL field (the domain and REST say the word itself). A risk has a level among the risk indicators (2.3), `<word>_level` on
 * REST and `<field>Level` in GraphQL: `everywhere` when the single-bill answer carries it too (2.1),
 * `batch` when only batch and imminent results do. The GraphQL types, both doors' mappers, the
 * OpenAPI document and the event payloads are built from this table or held to it by tests.
 */
export const PREDICTION_OUTPUTS = {
  royal_assent: { measure: 'probability', field: 'royalAssent' },
  next_stage_30d: { measure: 'probability', field: 'nextStage30d' },
  timeline_eta: { measure: 'days', field: 'timelineEtaDays' },
  stall_risk: { measure: 'probability', field: 'stallRisk', level: 'everywhere' },
  amendment_risk: { measure: 'probability', field: 'amendmentRisk', level: 'batch' },
  close_vote: { measure: 'probability', field: 'closeVote', level: 'batch' },
  withdrawal_risk: { measure: 'probability', field: 'withdrawalRisk', level: 'everywhere' },
} as const;
type OutputTable = typeof PREDICTION_OUTPUTS;
export type PredictionOutput = keyof OutputTable;
export type Risk = { [O in PredictionOutput]: OutputTable[O] extends { level: string } ? O : never }[PredictionOutput];
/** The outputs in the specification's order. */
export const OUTPUT_WORDS = Object.keys(PREDICTION_OUTPUTS) as PredictionOutput[];
export const isRisk = (output: PredictionOutput): output is Risk => 'level' in PREDICTION_OUTPUTS[output];
/** The four risks, in the specification's order. */
export const RISKS = OUTPUT_WORDS.filter(isRisk);
/** The risks whose levels the single-bill answer carries (2.1). */
export const SINGLE_ANSWER_RISKS = RISKS.filter((risk) => PREDICTION_OUTPUTS[risk].level === 'everywhere');
/** The risks in the order of their levels (2.3): the single-bill answer's, then those only batch and imminent results carry. */
export const LEVELLED_RISKS = [...SINGLE_ANSWER_RISKS, ...RISKS.filter((risk) => PREDICTION_OUTPUTS[risk].level === 'batch')];
/** A prediction's values by output: a probability, or days (null when no next stage will come). */
export type PredictionValues = { [O in PredictionOutput]: OutputTable[O]['measure'] extends 'days' ? number | null : number };
/** The same values by their GraphQL fields, as the Prediction type carries them. */
export type PredictionValuesByField = { [O in PredictionOutput as OutputTable[O]['field']]: PredictionValues[O] };
export type RiskField = OutputTable[Risk]['field'];
/** The GraphQL field of a risk's level among the risk indicators. */
export type RiskLevelField = `${RiskField}Level`;
export const riskLevelField = (risk: Risk): RiskLevelField => `${PREDICTION_OUTPUTS[risk].field}Level`;
/**
 * Each output's word with its GraphQL field, and each risk's with its level's field too: worked
 * out once for both doors' mappers, which run them for every prediction answered, where objects
 * built from entries and spread into one another cost microseconds a prediction; an object filled
 * in place costs little.
 */
export const OUTPUT_FIELDS: readonly (readonly [PredictionOutput, OutputTable[PredictionOutput]['field']])[] = OUTPUT_WORDS.map((output) => [output, PREDICTION_OUTPUTS[output].field]);
export const RISK_FIELDS: readonly (readonly [Risk, RiskField, RiskLevelField])[] = RISKS.map((risk) => [risk, PREDICTION_OUTPUTS[risk].field, riskLevelField(risk)]);

/** Alert threshold types (specification 4.4). */
export const ALERT_TYPES = ['timeline_eta', 'probability', 'trend', 'spike', ...RISKS] as const;
export type AlertType = ValueOf<typeof ALERT_TYPES>;
/** The types the Pro tier alone may use; they fire on a rise of at least the threshold. */
export const PRO_ALERT_TYPES = ['trend', 'spike'] as const satisfies readonly AlertType[];

/** How a threshold compares its value (2.7). */
export const COMPARISONS = ['less_than', 'greater_than'] as const;
export type Comparison = ValueOf<typeof COMPARISONS>;

/** What ran an alert check: the account's own request, or the hourly Pro check. */
export const ALERT_CHECK_SOURCES = ['manual', 'scheduled'] as const;
export type AlertCheckSource = ValueOf<typeof ALERT_CHECK_SOURCES>;

/** The stages that move a bill along its passage, in order; procedural motions are not among them. */
export const MAIN_STAGES = ['first_reading', 'second_reading', 'committee', 'report', 'third_reading', 'consideration_of_amendments', 'royal_assent'] as const;
export type MainStage = ValueOf<typeof MAIN_STAGES>;
/** The stage a bill is at, as REST spells it: its last main stage, or not_started before any. */
export const CURRENT_STAGES = ['not_started', ...MAIN_STAGES] as const;
/** Position of a stage in the passage of the bill. */
export const STAGE_PHASES = ['first_house', 'second_house', 'ping_pong', 'royal_assent'] as const;
export type StagePhase = ValueOf<typeof STAGE_PHASES>;

/** Normalised bill types: government, the kinds of Private Members' Bill, private, hybrid, consolidation. */
export const BILL_KINDS = ['government', 'pmb_ballot', 'pmb_ten_minute_rule', 'pmb_presentation', 'pmb_lords', 'private', 'hybrid', 'consolidation'] as const;
export type BillKind = ValueOf<typeof BILL_KINDS>;
/** Royal Assent and some private-bill steps sit in neither house: Unassigned. */
export const HOUSES = ['Commons', 'Lords', 'Unassigned'] as const;
export type House = ValueOf<typeof HOUSES>;
/** What had become of a bill when the data was read. */
export const BILL_OUTCOMES = ['royal_assent', 'withdrawn', 'fell', 'pending'] as const;
export type BillOutcome = ValueOf<typeof BILL_OUTCOMES>;
/** Where a bill stood on a reference date, from the facts known then. */
export const BILL_STATUSES = ['live', 'enacted', 'withdrawn', 'fell'] as const;
export type BillStatus = ValueOf<typeof BILL_STATUSES>;

/** The order of a page of bills: by id (the default), or newest session first (then newest id). */
export const BILL_ORDERS = ['id', 'newest_first'] as const;
export type BillOrder = ValueOf<typeof BILL_ORDERS>;

/** The only prediction mode (2.1). */
export const PREDICTION_MODES = ['nowcast'] as const;
/** Risk levels (2.3): low below 0.3, medium from 0.3 to 0.7, high above 0.7. */
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = ValueOf<typeof RISK_LEVELS>;
/** Outcome of one bill in a batch (2.4, 7). */
export const BATCH_ITEM_STATUSES = ['success', 'error', 'blocked'] as const;
export type BatchItemStatus = ValueOf<typeof BATCH_ITEM_STATUSES>;
/** Urgency of an imminent bill (2.6): critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30, else none. */
export const URGENCY_LEVELS = ['critical', 'urgent', 'soon', 'tracking', 'none'] as const;
export type UrgencyLevel = ValueOf<typeof URGENCY_LEVELS>;
/** Countdown bucket of an imminent bill (2.6); null beyond a month. */
export const TIME_BUCKETS = ['today', 'week', 'two_weeks', 'month'] as const;
export type TimeBucket = ValueOf<typeof TIME_BUCKETS>;

/** Webhook and subscription event types (specification 6): names only. */
export const EVENT_TYPES = [
  'prediction.updated',
  'bill.stage_changed',
  'bill.stage_scheduled',
  'prediction.imminent_stage_change',
  'prediction.high_probability',
  'prediction.probability_spike',
  'prediction.trending_up',
  'prediction.crossed_threshold',
] as const;
export type EventType = ValueOf<typeof EVENT_TYPES>;
/** The event types the Pro tier alone receives. */
export const PRO_EVENT_TYPES = ['prediction.probability_spike', 'prediction.trending_up', 'prediction.crossed_threshold'] as const satisfies readonly EventType[];

/**
 * What a webhook endpoint's deliveries look like: `standard`, the event's JSON signed the Standard
 * Webhooks way; `slack`, a Slack incoming-webhook message; `teams`, a Teams Workflows message with an
 * Adaptive Card. The chat formats are unsigned, as those services verify nothing.
 */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'teams'] as const;
export type WebhookFormat = ValueOf<typeof WEBHOOK_FORMATS>;
export type ChatFormat = Exclude<WebhookFormat, 'standard'>;
export const isChatFormat = (format: WebhookFormat): format is ChatFormat => format !== 'standard';

/** Whether a value is one of a vocabulary's words (narrowing it). */
export function isOneOf<const V extends string>(values: readonly V[], value: unknown): value is V {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
