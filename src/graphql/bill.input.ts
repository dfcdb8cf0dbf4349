import { IsOptional, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../services/bill.service';
import { BillKind, BillOrder, BillOutcome, House } from './enums';

@InputType('BillFilter', { description: 'All given conditions must hold' })
export class BillFilterInput {
  @Field(() => Int, { nullable: true, description: 'session the bill was introduced in (Bills API session id)' })
  @IsOptional()
  @Min(1, { message: 'filter.sessionId must be a positive integer' })
  sessionId?: number;

  @Field(() => BillKind, { nullable: true })
  kind?: BillKind;

  @Field(() => House, { nullable: true })
  originatingHouse?: House;

  @Field(() => BillOutcome, { nullable: true })
  outcome?: BillOutcome;

  @Field(() => String, { nullable: true, description: 'case-insensitive text in the short title' })
  @IsOptional()
  @Length(1, 200, { message: 'filter.titleContains must be 1 to 200 characters' })
  titleContains?: string;
}

@ArgsType()
export class BillsArgs {
  @Field(() => BillFilterInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  filter?: BillFilterInput;

  @Field(() => BillOrder, { defaultValue: 'id', description: 'ID (the default): ascending id; NEWEST_FIRST: the newest session first' })
  order: BillOrder;

  @Field(() => Int, { defaultValue: 20, description: `page size, 1 to ${MAX_PAGE_SIZE}` })
  @Min(1, { message: `first must be between 1 and ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `first must be between 1 and ${MAX_PAGE_SIZE}` })
  first: number;

  @Field(() => String, { nullable: true, description: 'cursor of the last bill of the previous page' })
  @IsOptional()
  @MaxLength(100, { message: 'after is not a cursor this API issued' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'after is not a cursor this API issued' })
  after?: string;
}
