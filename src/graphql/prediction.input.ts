import { IMMINENT_DEFAULTS } from '../events/prediction-point';
import { ArrayMaxSize, ArrayMinSize, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ArgsType, Field, Float, Int } from 'type-graphql';
import { DateScalar } from './date.scalar';

export const MAX_BATCH = 100;

@ArgsType()
export class BatchPredictionArgs {
  @Field(() => [Int], { description: `1 to ${MAX_BATCH} UK Parliament bill ids` })
  @ArrayMinSize(1, { message: `bill_ids must hold 1 to ${MAX_BATCH} bill ids` })
  @ArrayMaxSize(MAX_BATCH, { message: `bill_ids must hold 1 to ${MAX_BATCH} bill ids` })
  @IsInt({ each: true, message: 'bill_ids must be positive integers' })
  @Min(1, { each: true, message: 'bill_ids must be positive integers' })
  billIds: number[];

  @Field(() => DateScalar, { nullable: true, description: 'defaults to today' })
  @IsOptional()
  referenceDate?: string;
}

@ArgsType()
export class ImminentArgs {
  @Field(() => Int, { defaultValue: IMMINENT_DEFAULTS.daysAhead, description: 'how far ahead to look, 1 to 30 days' })
  @Min(1, { message: 'days_ahead must be an integer from 1 to 30' })
  @Max(30, { message: 'days_ahead must be an integer from 1 to 30' })
  daysAhead: number;

  @Field(() => Float, { defaultValue: IMMINENT_DEFAULTS.minProbability, description: 'minimum next-stage probability, 0 to 1' })
  @Min(0, { message: 'min_probability must be a number from 0 to 1' })
  @Max(1, { message: 'min_probability must be a number from 0 to 1' })
  minProbability: number;
}
