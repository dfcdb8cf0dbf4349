import { Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../src/context';
import { Access } from './access';
import { DateScalar } from './date.scalar';

export const ATTRIBUTION = 'Contains Parliamentary information licensed under the Open Parliament Licence v3.0.';

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
