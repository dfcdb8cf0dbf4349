import { Field, Int, ObjectType } from 'type-graphql';
import { Tier } from './enums';

@ObjectType('Account', { description: 'The account an API key belongs to' })
export class AccountType {
  @Field(() => Int)
  id: number;

  @Field(() => String)
  email: string;

  @Field(() => Tier)
  tier: Tier;
}
