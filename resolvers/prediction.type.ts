import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateScalar } from './date.scalar';

export enum RiskLevel {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}
registerEnumType(RiskLevel, { name: 'RiskLevel', description: 'low below 0.3, medium from 0.3 to 0.7, high above 0.7' });

export enum BillStatusAsOf {
  LIVE = 'live',
  ENACTED = 'enacted',
  WITHDRAWN = 'withdrawn',
  FELL = 'fell',
}
registerEnumType(BillStatusAsOf, { name: 'BillStatusAsOf', description: 'Where the bill stood on the reference date, from the facts known then' });

@ObjectType('RiskIndicators')
export class RiskIndicatorsType {
  @Field(() => Float, { description: 'how contested the bill has been so far, 0–1 (see the model card)' })
  controversyScore: number;

  @Field(() => Float, { description: 'how fast the bill is moving now, 0–1 (see the model card)' })
  momentumScore: number;

  @Field(() => RiskLevel)
  stallRiskLevel: RiskLevel;

  @Field(() => RiskLevel)
  withdrawalRiskLevel: RiskLevel;

  @Field(() => RiskLevel)
  amendmentRiskLevel: RiskLevel;

  @Field(() => RiskLevel)
  closeVoteLevel: RiskLevel;
}

@ObjectType('Prediction', { description: 'A nowcast: what the facts known on the reference date say of the bill’s future' })
export class PredictionType {
  @Field(() => Int)
  billId: number;

  @Field(() => String, { description: 'always "nowcast": computed only from facts dated on or before referenceDate' })
  mode: string;

  @Field(() => DateScalar)
  referenceDate: string;

  @Field(() => BillStatusAsOf)
  status: BillStatusAsOf;

  @Field(() => Float, { description: 'probability of Royal Assent' })
  royalAssent: number;

  @Field(() => Float, { description: 'probability of a main stage sitting within 30 days' })
  nextStage30d: number;

  @Field(() => Float, { nullable: true, description: 'estimated days to the next main stage; null when there will be none' })
  timelineEtaDays: number | null;

  @Field(() => Float, { description: 'probability of no main stage in the next 200 days' })
  stallRisk: number;

  @Field(() => Float, { description: 'probability of significant amendment (a report stage after committee, or ping-pong, still to come)' })
  amendmentRisk: number;

  @Field(() => Float, { description: 'probability of a later Commons division closer than 10% of votes cast (experimental)' })
  closeVote: number;

  @Field(() => Float, { description: 'probability the bill is withdrawn or never reaches another main stage' })
  withdrawalRisk: number;

  @Field(() => RiskIndicatorsType)
  riskIndicators: RiskIndicatorsType;

  @Field(() => Int, { description: 'the model version that made it' })
  modelVersion: number;
}
