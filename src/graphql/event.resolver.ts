import { ArrayMaxSize, IsOptional } from 'class-validator';
import { Args, ArgsType, Field, Int, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { AppError } from '../errors';
import type { ServiceEvent } from '../events/event';
import { eventStream, type EventFilter } from '../events/event-stream';
import { Access } from './access';
import { EventType, PredictionEventType, PredictionValuesType, StageChangedEventType, StageScheduledEventType, ThresholdCrossedEventType } from './event.type';

@ArgsType()
class EventsArgs {
  @Field(() => [String], { nullable: true, description: 'event types wanted (all your tier receives when absent)' })
  @IsOptional()
  @ArrayMaxSize(20)
  types?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'bills wanted, among those on your watchlists (all of them when absent)' })
  @IsOptional()
  @ArrayMaxSize(1000)
  billIds?: number[] | null;
}

@ArgsType()
class BillFilterArgs {
  @Field(() => [Int], { nullable: true, description: 'bills wanted, among those on your watchlists (all of them when absent)' })
  @IsOptional()
  @ArrayMaxSize(1000)
  billIds?: number[] | null;
}

/** The events a subscriber receives: those a webhook of the same user with the same filters receives. */
function subscribeTo(fixedTypes?: string[]) {
  return ({ args, context }: SubscribeResolverData<unknown, EventFilter, RequestContext>): AsyncIterable<ServiceEvent> => {
    const user = context.user;
    // the door admits only authenticated connections; this guards a schema used elsewhere
    if (!user) throw new AppError('UNAUTHENTICATED', 'An API key is required in the connection_init payload');
    return eventStream(context.services.events.bus, context.services.dataSource, user, { types: fixedTypes ?? args.types, billIds: args.billIds });
  };
}

const values = (v: any): PredictionValuesType => ({
  referenceDate: v.reference_date,
  royalAssent: v.royal_assent.probability,
  nextStage30d: v.next_stage_30d.probability,
  timelineEtaDays: v.timeline_eta.days,
});

const predictionEvent = (e: ServiceEvent): PredictionEventType => {
  const data = e.data as any;
  return { id: e.id, type: e.type, timestamp: e.timestamp, billId: e.data.bill_id, current: values({ ...data.predictions, reference_date: data.reference_date }), previous: values(data.previous) };
};

/** GraphQL subscriptions over graphql-ws on /graphql: every event, or one typed field per event type. */
@Resolver()
export class EventResolver {
  @Subscription(() => EventType, { subscribe: subscribeTo(), description: 'Events of the bills on your watchlists (Pro-only types need Pro), as webhooks carry them' })
  @Access('authenticated')
  events(@Root() event: ServiceEvent, @Args(() => EventsArgs) _args: EventsArgs): EventType {
    return { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data };
  }

  @Subscription(() => StageChangedEventType, { subscribe: subscribeTo(['bill.stage_changed']), description: 'bill.stage_changed events' })
  @Access('authenticated')
  billStageChanged(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): StageChangedEventType {
    const d = e.data as unknown as { stage: string; house: string; date: string };
    return { id: e.id, timestamp: e.timestamp, billId: e.data.bill_id, stage: d.stage, house: d.house, date: d.date };
  }

  @Subscription(() => StageScheduledEventType, { subscribe: subscribeTo(['bill.stage_scheduled']), description: 'bill.stage_scheduled events' })
  @Access('authenticated')
  billStageScheduled(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): StageScheduledEventType {
    const d = e.data as unknown as { title: string; stage: string; house: string; scheduled_for: string; first_seen: string; previously_scheduled_for: string | null };
    return { id: e.id, timestamp: e.timestamp, billId: e.data.bill_id, title: d.title, stage: d.stage, house: d.house, scheduledFor: d.scheduled_for, firstSeen: d.first_seen, previouslyScheduledFor: d.previously_scheduled_for };
  }

  @Subscription(() => PredictionEventType, { subscribe: subscribeTo(['prediction.updated']), description: 'prediction.updated events' })
  @Access('authenticated')
  predictionUpdated(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): PredictionEventType {
    return predictionEvent(e);
  }

  @Subscription(() => PredictionEventType, { subscribe: subscribeTo(['prediction.imminent_stage_change']), description: 'prediction.imminent_stage_change events' })
  @Access('authenticated')
  predictionImminentStageChange(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): PredictionEventType {
    return predictionEvent(e);
  }

  @Subscription(() => PredictionEventType, { subscribe: subscribeTo(['prediction.high_probability']), description: 'prediction.high_probability events' })
  @Access('authenticated')
  predictionHighProbability(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): PredictionEventType {
    return predictionEvent(e);
  }

  @Subscription(() => PredictionEventType, { subscribe: subscribeTo(['prediction.probability_spike']), description: 'prediction.probability_spike events (Pro)' })
  @Access('pro')
  predictionProbabilitySpike(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): PredictionEventType {
    return predictionEvent(e);
  }

  @Subscription(() => PredictionEventType, { subscribe: subscribeTo(['prediction.trending_up']), description: 'prediction.trending_up events (Pro)' })
  @Access('pro')
  predictionTrendingUp(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): PredictionEventType {
    return predictionEvent(e);
  }

  @Subscription(() => ThresholdCrossedEventType, { subscribe: subscribeTo(['prediction.crossed_threshold']), description: 'prediction.crossed_threshold events: your thresholds (Pro)' })
  @Access('pro')
  predictionCrossedThreshold(@Root() e: ServiceEvent, @Args(() => BillFilterArgs) _args: BillFilterArgs): ThresholdCrossedEventType {
    const d = e.data as any;
    return { id: e.id, timestamp: e.timestamp, billId: e.data.bill_id, thresholdId: d.threshold_id, triggerId: d.trigger_id, alertType: d.alert_type, thresholdValue: d.threshold_value, value: d.value, referenceDate: d.reference_date };
  }
}
