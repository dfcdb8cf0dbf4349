import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../src/context';
import { Access } from './access';
import { AccountType } from './account.type';
import type { Tier } from './enums';

@Resolver(() => AccountType)
export class AccountResolver {
  @Query(() => AccountType, { nullable: true, description: 'The calling account' })
  @Access('authenticated')
  me(@Ctx() { user }: RequestContext): AccountType {
    return { id: user!.accountId, email: user!.email, tier: user!.tier as Tier };
  }
}
