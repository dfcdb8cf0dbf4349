import { registerEnumType } from 'type-graphql';
import {
  ALERT_TYPES,
  BATCH_ITEM_STATUSES,
  BILL_KINDS,
  BILL_ORDERS,
  BILL_OUTCOMES,
  BILL_STATUSES,
  COMPARISONS,
  EVENT_TYPES,
  HOUSES,
  MAIN_STAGES,
  RISK_LEVELS,
  STAGE_PHASES,
  TIERS,
  TIME_BUCKETS,
  URGENCY_LEVELS,
  WEBHOOK_FORMATS,
} from '../vocabulary';
import type * as Words from '../vocabulary';


/** A GraphQL enum whose names are the upper-cased words and whose values are the words themselves. */
export type GraphQLEnumOf<V extends string> = { readonly [K in V as Uppercase<K>]: K };

/**
 * Registers a vocabulary as a GraphQL enum. Its values are the strings the database stores and
 * REST sends, so entities pass through unchanged; GraphQL clients see the upper-case names.
 */
function graphqlEnum<const V extends string>(values: readonly V[], name: string, description?: string): GraphQLEnumOf<V> {
  // a GraphQL name has no dots: prediction.updated is PREDICTION_UPDATED
  const enumObject = Object.fromEntries(values.map((value) => [value.toUpperCase().replace(/\./g, '_'), value])) as GraphQLEnumOf<V>;
  registerEnumType(enumObject, { name, description });
  return enumObject;
}

export const BillKind = graphqlEnum(BILL_KINDS, 'BillKind', 'Normalised bill type: government, the kinds of Private Members’ Bill, private, hybrid, consolidation');
export type BillKind = Words.BillKind;
export const House = graphqlEnum(HOUSES, 'House', 'House of Parliament (Royal Assent and some private-bill steps are Unassigned)');
export type House = Words.House;
export const BillOutcome = graphqlEnum(BILL_OUTCOMES, 'BillOutcome', 'What had become of the bill when the data was read: PENDING while still before Parliament');
export type BillOutcome = Words.BillOutcome;
export const MainStageEnum = graphqlEnum(MAIN_STAGES, 'MainStage', 'A main stage of a bill’s passage; procedural motions are not among them');
export type MainStageEnum = Words.MainStage;

export const StagePhase = graphqlEnum(STAGE_PHASES, 'StagePhase', 'Position of a stage in the passage of the bill');
export type StagePhase = Words.StagePhase;
export const Tier = graphqlEnum(TIERS, 'Tier', 'Subscription tier');
export type Tier = Words.Tier;
export const RiskLevel = graphqlEnum(RISK_LEVELS, 'RiskLevel', 'low below 0.3, medium from 0.3 to 0.7, high above 0.7');
export type RiskLevel = Words.RiskLevel;
export const BillOrder = graphqlEnum(BILL_ORDERS, 'BillOrder', 'ID: ascending bill id, the default; NEWEST_FIRST: the newest session first, then the newest bill');
export type BillOrder = Words.BillOrder;
export const BillStatusAsOf = graphqlEnum(BILL_STATUSES, 'BillStatusAsOf', 'Where the bill stood on the reference date, from the facts known then');
export type BillStatusAsOf = Words.BillStatus;
export const BatchItemStatus = graphqlEnum(
  BATCH_ITEM_STATUSES,
  'BatchItemStatus',
  'success; error (e.g. the bill does not exist: see detail); blocked (the daily prediction quota was used up before this bill)',
);
export type BatchItemStatus = Words.BatchItemStatus;
export const UrgencyLevel = graphqlEnum(URGENCY_LEVELS, 'UrgencyLevel', 'critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30, else none');
export type UrgencyLevel = Words.UrgencyLevel;
export const TimeBucket = graphqlEnum(TIME_BUCKETS, 'TimeBucket', 'today < 1 day, week ≤ 7, two_weeks ≤ 14, month ≤ 30; null beyond');
export type TimeBucket = Words.TimeBucket;
export const AlertTypeEnum = graphqlEnum(
  ALERT_TYPES,
  'AlertType',
  'timeline_eta (days to the next stage), probability (Royal Assent), the four risks (probabilities), and for Pro trend (rise over recent snapshots) and spike (jump between two snapshots)',
);
export type AlertTypeEnum = Words.AlertType;
export const ComparisonEnum = graphqlEnum(COMPARISONS, 'Comparison');
export type ComparisonEnum = Words.Comparison;
export const EventTypeEnum = graphqlEnum(EVENT_TYPES, 'EventType', 'Event types of webhooks and subscriptions; PREDICTION_PROBABILITY_SPIKE, PREDICTION_TRENDING_UP and PREDICTION_CROSSED_THRESHOLD need the pro tier');
export type EventTypeEnum = Words.EventType;
export const WebhookFormatEnum = graphqlEnum(
  WEBHOOK_FORMATS,
  'WebhookFormat',
  'What an endpoint’s deliveries look like: STANDARD, the event’s JSON signed (Standard Webhooks); SLACK, a Slack incoming-webhook message; TEAMS, a Teams Workflows message with an Adaptive Card. SLACK and TEAMS are unsigned, need https and a host on the service’s CHAT_WEBHOOK_HOSTS',
);
export type WebhookFormatEnum = Words.WebhookFormat;
