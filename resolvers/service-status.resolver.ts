import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../src/context';
import { Access } from './access';
import { DateScalar } from './date.scalar';

export const ATTRIBUTION = 'Contains Parliamentary information licensed under the Open Parliament Licence v3.0.';

@ObjectType('ServiceStatus', { description: 'What the service serves, for anyone' })
export class ServiceStatusType {
  @Field(() => DateScalar, { description: 'the service’s today: what nowcasts default to' })
  today: string;

  @Field(() => Boolean, { description: 'true when data (and later models) are loaded' })
  ready: boolean;

  @Field(() => [String], { description: 'what the service still waits for' })
  pending: string[];

  @Field(() => Int, { description: 'bills in the database' })
  billCount: number;

  @Field(() => String, { description: 'the attribution the data licence asks for' })
  attribution: string;
}

@Resolver(() => ServiceStatusType)
export class ServiceStatusResolver {
  @Query(() => ServiceStatusType)
  @Access('public')
  async serviceStatus(@Ctx() { services }: RequestContext): Promise<ServiceStatusType> {
    return {
      today: services.clock.today(),
      ready: services.readiness.isReady(),
      pending: services.readiness.reasons(),
      billCount: await services.bills.count(),
      attribution: ATTRIBUTION,
    };
  }
}
