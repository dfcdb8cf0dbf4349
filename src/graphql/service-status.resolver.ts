import { Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { Access } from './access';
import { DateScalar } from './date.scalar';

export const ATTRIBUTION = 'Contains Parliamentary information licensed under the Open Parliament Licence v3.0.';

@ObjectType('InferredSession', { description: 'A session whose dates the service worked out itself rather than knew (also in GET /readyz)', simpleResolvers: true })
export class InferredSessionType {
  @Field(() => Int, { description: 'the Bills API session id' })
  sessionId: number;

  @Field(() => String, { description: 'its name, e.g. "2024-26"; its id while the service knows no name' })
  name: string;

  @Field(() => DateScalar, { nullable: true, description: 'the first sitting seen of a session newer than the built-in table' })
  firstSittingDate: string | null;

  @Field(() => DateScalar, { nullable: true, description: 'its end (the prorogation), inferred when a later session appeared; null while it runs' })
  endDate: string | null;

  @Field(() => Date, { nullable: true, description: 'when this service first recorded the session' })
  learnedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'when its end was inferred; null while it runs' })
  endInferredAt: Date | null;
}

@ObjectType('DataFreshness', { description: 'How fresh the served data is (also in GET /readyz)', simpleResolvers: true })
export class DataFreshnessType {
  @Field(() => String, { description: '"live" (the UK Parliament Bills API, synced every SYNC_INTERVAL) or "snapshot" (a data folder)' })
  source: string;

  @Field(() => DateScalar, { nullable: true, description: 'the date the data is complete up to: the snapshot’s date, or the day of the last successful live sync' })
  asOf: string | null;

  @Field(() => Date, { nullable: true, description: 'the last sync started, by any instance' })
  lastSyncAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'the last sync that completed, by any instance' })
  lastSuccessAt: Date | null;

  @Field(() => Boolean, { description: 'no successful sync for 3 sync intervals: the data may be behind Parliament' })
  stale: boolean;

  @Field(() => [InferredSessionType], { description: 'sessions whose dates are the service’s inference: a session newer than its built-in table, or an end inferred when a later one appeared' })
  sessionsInferred: InferredSessionType[];
}

@ObjectType('ServiceStatus', { description: 'What the service serves, for anyone' })
export class ServiceStatusType {
  @Field(() => DateScalar, { description: 'the service’s today: what nowcasts default to' })
  today: string;

  @Field(() => Boolean, { description: 'true when data (and later models) are loaded' })
  ready: boolean;

  @Field(() => [String], { description: 'what the service still waits for' })
  pending: string[];

  /** resolved by ServiceStatusResolver.billCount: a count of every bill, made only when asked */
  billCount?: number;

  @Field(() => String, { description: 'the attribution the data licence asks for' })
  attribution: string;

  @Field(() => DataFreshnessType)
  data: DataFreshnessType;
}

@Resolver(() => ServiceStatusType)
export class ServiceStatusResolver {
  @Query(() => ServiceStatusType)
  @Access('public')
  serviceStatus(@Ctx() { services }: RequestContext): ServiceStatusType {
    return {
      today: services.clock.today(),
      ready: services.readiness.isReady(),
      pending: services.readiness.reasons(),
      attribution: ATTRIBUTION,
      data: services.freshness.report(),
    };
  }

  @FieldResolver(() => Int, { description: 'bills in the database' })
  billCount(@Ctx() { services }: RequestContext): Promise<number> {
    return services.bills.count();
  }
}
