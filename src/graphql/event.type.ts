import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, Int, InterfaceType, ObjectType } from 'type-graphql';

@ObjectType('Event', { description: 'An event in the payload every channel carries (webhooks too): docs/api-events.md#events', simpleResolvers: true })
export class EventType {
  @Field(() => String, { description: '"evt_…", the same on every channel and retry' })
  id: string;

  @Field(() => String, { description: 'e.g. "bill.stage_changed"' })
  type: string;

  @Field(() => String, { description: 'ISO 8601 of the service day and the time of the refresh' })
  timestamp: string;

  @Field(() => GraphQLJSONObject, { description: 'the payload\'s data, as a webhook receives it: {"bill_id": …, …}' })
  data: Record<string, unknown>;
}

/** What every typed event has: its id (the same on every channel), when, and its bill. */
@InterfaceType('BillEvent', { description: 'what every typed event has' })
export abstract class BillEventType {
  @Field(() => String, { description: '"evt_…", the same on every channel and retry' })
  id: string;

  @Field(() => String, { description: 'ISO 8601 of the service day and the time of the refresh' })
  timestamp: string;

  @Field(() => Int)
  billId: number;
}

@ObjectType('StageChangedEvent', { description: 'bill.stage_changed: a stage record first sat', simpleResolvers: true, implements: BillEventType })
export class StageChangedEventType extends BillEventType {
  @Field(() => String, { description: 'the normalised stage name, e.g. second_reading' })
  stage: string;

  @Field(() => String, { description: 'Commons, Lords, or Unassigned (Royal Assent)' })
  house: string;

  @Field(() => String, { description: 'the first sitting, YYYY-MM-DD' })
  date: string;
}

@ObjectType('StageScheduledEvent', { description: 'bill.stage_scheduled: a sitting of a stage dated after the day it was first seen, new or moved', simpleResolvers: true, implements: BillEventType })
export class StageScheduledEventType extends BillEventType {
  @Field(() => String, { description: 'the bill’s short title' })
  title: string;

  @Field(() => String, { description: 'the normalised stage name, e.g. third_reading' })
  stage: string;

  @Field(() => String, { description: 'Commons, Lords, or Unassigned (Royal Assent)' })
  house: string;

  @Field(() => String, { description: 'the sitting’s date, YYYY-MM-DD' })
  scheduledFor: string;

  @Field(() => String, { description: 'the service’s day when it first saw that date, YYYY-MM-DD' })
  firstSeen: string;

  @Field(() => String, { nullable: true, description: 'the stage’s date this one replaced (a move); null for a first date' })
  previouslyScheduledFor: string | null;
}

@ObjectType('PredictionValues', { description: 'the headline numbers an event compares', simpleResolvers: true })
export class PredictionValuesType {
  @Field(() => String)
  referenceDate: string;

  @Field(() => Float)
  royalAssent: number;

  @Field(() => Float)
  nextStage30d: number;

  @Field(() => Float, { nullable: true })
  timelineEtaDays: number | null;
}

@ObjectType('PredictionEvent', { description: 'a prediction event (prediction.updated, …): the new values and those compared against', simpleResolvers: true, implements: BillEventType })
export class PredictionEventType extends BillEventType {
  @Field(() => String, { description: 'e.g. "prediction.updated"' })
  type: string;

  @Field(() => PredictionValuesType)
  current: PredictionValuesType;

  @Field(() => PredictionValuesType)
  previous: PredictionValuesType;
}

@ObjectType('ThresholdCrossedEvent', { description: 'prediction.crossed_threshold: one of your alert thresholds fired', simpleResolvers: true, implements: BillEventType })
export class ThresholdCrossedEventType extends BillEventType {
  @Field(() => Int)
  thresholdId: number;

  @Field(() => Int, { description: 'the trigger recorded in the alert history' })
  triggerId: number;

  @Field(() => String)
  alertType: string;

  @Field(() => Float)
  thresholdValue: number;

  @Field(() => Float, { description: 'the value seen' })
  value: number;

  @Field(() => String)
  referenceDate: string;
}
