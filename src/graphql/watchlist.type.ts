import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { AlertTypeEnum, ComparisonEnum } from './enums';
import { BillType } from './bill.type';
import { DateScalar } from './date.scalar';
import { PredictionType } from './prediction.type';

@ObjectType('WatchlistBill')
export class WatchlistBillType {
  @Field(() => Int)
  billId: number;

  @Field(() => Date)
  addedAt: Date;

  @Field(() => BillType, { nullable: true })
  bill: BillType | null;

  @Field(() => PredictionType, { nullable: true, description: 'today’s nowcast; null when it cannot be given (see predictionDetail)' })
  prediction?: PredictionType | null;

  @Field(() => String, { nullable: true, description: 'why prediction is null, e.g. the daily prediction limit is used up' })
  predictionDetail?: string | null;
}

@ObjectType('Watchlist')
export class WatchlistType {
  @Field(() => Int)
  id: number;

  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field(() => Int)
  billCount: number;

  @Field(() => Date)
  createdAt: Date;

  @Field(() => Date)
  updatedAt: Date;
}

@ObjectType('AlertThreshold')
export class AlertThresholdType {
  @Field(() => Int)
  id: number;

  @Field(() => Int)
  watchlistId: number;

  @Field(() => Int, { nullable: true, description: 'null: every bill of the watchlist' })
  billId: number | null;

  @Field(() => AlertTypeEnum)
  alertType: AlertTypeEnum;

  @Field(() => Float)
  thresholdValue: number;

  @Field(() => ComparisonEnum)
  comparison: ComparisonEnum;

  @Field(() => Date)
  createdAt: Date;

  @Field(() => Date, { nullable: true })
  lastTriggeredAt: Date | null;

  @Field(() => Boolean, { description: 'false while it has fired for some bill and waits for the condition to end' })
  armed: boolean;

  @Field(() => [Int], { description: 'bills it fired for and is quiet about until the condition ends' })
  quietBillIds: number[];

  @Field(() => Boolean, { description: 'false when the tier no longer lets it fire (after a downgrade from Pro): kept, and firing again after an upgrade' })
  active: boolean;

  @Field(() => String, { nullable: true, description: 'why it is inactive (a Pro-only type, or beyond the oldest 5 of its watchlist below Pro); null when active' })
  inactiveReason: string | null;
}

@ObjectType('AlertTrigger', { simpleResolvers: true })
export class AlertTriggerType {
  @Field(() => Int)
  id: number;

  @Field(() => Int)
  thresholdId: number;

  @Field(() => Int)
  watchlistId: number;

  @Field(() => String)
  watchlistName: string;

  @Field(() => Int)
  billId: number;

  @Field(() => AlertTypeEnum)
  alertType: AlertTypeEnum;

  @Field(() => ComparisonEnum)
  comparison: ComparisonEnum;

  @Field(() => Float)
  thresholdValue: number;

  @Field(() => Float, { description: 'the value that met the condition' })
  valueSeen: number;

  @Field(() => DateScalar)
  referenceDate: string;

  @Field(() => Date)
  triggeredAt: Date;

  @Field(() => String, { description: 'manual or scheduled' })
  source: string;
}

@ObjectType('AlertCheckResult')
export class AlertCheckResultType {
  @Field(() => Date)
  checkedAt: Date;

  @Field(() => Int)
  thresholdsChecked: number;

  @Field(() => Int)
  billsChecked: number;

  @Field(() => [Int], { description: 'bills not evaluated: the daily prediction limit was reached (each bill evaluated is one prediction)' })
  billsBlocked: number[];

  @Field(() => [AlertTriggerType], { description: 'what fired now' })
  triggered: AlertTriggerType[];
}

@ObjectType('CountByKey', { simpleResolvers: true })
export class CountByKeyType {
  @Field(() => String)
  key: string;

  @Field(() => Int)
  count: number;
}

@ObjectType('AlertAnalytics')
export class AlertAnalyticsType {
  @Field(() => [CountByKeyType])
  byType: CountByKeyType[];

  @Field(() => [CountByKeyType])
  byBill: CountByKeyType[];

  @Field(() => [CountByKeyType], { description: 'by UTC day, YYYY-MM-DD' })
  byDay: CountByKeyType[];
}

@ObjectType('AlertHistory')
export class AlertHistoryType {
  @Field(() => [AlertTriggerType], { description: 'newest first' })
  triggers: AlertTriggerType[];

  @Field(() => Int, { description: 'triggers matching the filter, across all pages' })
  totalCount: number;

  @Field(() => String, { nullable: true, description: 'pass as `after` for the next page; null on the last' })
  nextCursor: string | null;

  @Field(() => AlertAnalyticsType, { description: 'counts over everything the filter matches' })
  analytics: AlertAnalyticsType;
}

@InputType('CreateWatchlistInput')
export class CreateWatchlistInput {
  @Field(() => String)
  name: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [Int], { nullable: true })
  billIds?: number[] | null;
}

@InputType('CreateAlertThresholdInput')
export class CreateAlertThresholdInput {
  @Field(() => Int)
  watchlistId: number;

  @Field(() => Int, { nullable: true, description: 'null: every bill of the watchlist' })
  billId?: number | null;

  @Field(() => AlertTypeEnum)
  alertType: AlertTypeEnum;

  @Field(() => Float)
  thresholdValue: number;

  @Field(() => ComparisonEnum, { nullable: true, description: 'default: less_than for timeline_eta, greater_than for the others' })
  comparison?: ComparisonEnum | null;
}

@InputType('AlertHistoryFilter')
export class AlertHistoryFilterInput {
  @Field(() => Int, { nullable: true })
  billId?: number;

  @Field(() => AlertTypeEnum, { nullable: true })
  alertType?: AlertTypeEnum;

  @Field(() => DateScalar, { nullable: true, description: 'first UTC day included' })
  from?: string;

  @Field(() => DateScalar, { nullable: true, description: 'last UTC day included' })
  to?: string;
}
