import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { Access } from './access';
import { ParliamentarySessionType } from './bill.type';

@Resolver(() => ParliamentarySessionType)
export class SessionResolver {
  @Query(() => [ParliamentarySessionType], { description: 'Parliamentary sessions in the data, oldest first' })
  @Access('authenticated', { requires: ['data'] })
  sessions(@Ctx() { services }: RequestContext) {
    return services.bills.sessions();
  }
}
