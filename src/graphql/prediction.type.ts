import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { ModelProvenance } from '../services/model-vintages';
import type { PredictionValuesByField, RiskField, RiskLevelField } from '../vocabulary';
import { DateScalar } from './date.scalar';
import { BatchItemStatus, BillStatusAsOf, House, MainStageEnum, RiskLevel, TimeBucket, UrgencyLevel } from './enums';

@ObjectType('LastStage', { description: 'The last main stage that sat on or before the reference date', simpleResolvers: true })
export class LastStageType {
  @Field(() => MainStageEnum)
  stage: MainStageEnum;

  @Field(() => String)
  house: string;

  @Field(() => DateScalar)
  date: string;
}

@ObjectType('PredictionModel', { description: 'Which model made an answer (REST: the X-Model-* headers)', simpleResolvers: true })
export class PredictionModelType implements ModelProvenance {
  @Field(() => Int, { description: 'the model version (npm run admin -- models lists them)' })
  version: number;

  @Field(() => DateScalar, { description: 'the last date whose facts it learned from' })
  trainedThrough: string;

  @Field(() => Boolean, {
    description:
      'true when trainedThrough is on or before the reference date: the model saw nothing dated after it (a fair backtest). false: no model that old exists yet, so the serving model answered, having learned from later facts (in sample)',
  })
  outOfSample: boolean;
}

@ObjectType('RiskIndicators', { simpleResolvers: true })
export class RiskIndicatorsType implements Record<RiskLevelField, RiskLevel> {
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

@ObjectType('ExplanationFactor', { description: 'One reason for a prediction', simpleResolvers: true })
export class ExplanationFactorType {
  @Field(() => String, { description: 'the fact about the bill, in plain words' })
  factor: string;

  @Field(() => Float, { description: 'its share of the prediction minus the reference’s, in probability (signed; 0.31 = 31 points): a Shapley value, so a prediction’s effects add up to that difference' })
  effect: number;
}

@ObjectType('ExplanationReference', { description: 'What the factors are measured from: a typical bill of the same kind, introduced the same day in the same house, at its kind’s median pace', simpleResolvers: true })
export class ExplanationReferenceType {
  @Field(() => String, { description: 'the reference bill and where it stands on the reference date, in plain words' })
  description: string;

  @Field(() => Float, { description: 'the model’s probability of Royal Assent for the reference bill' })
  royalAssent: number;

  @Field(() => Float, { description: 'the model’s probability of the reference bill’s next main stage within 30 days' })
  nextStage30d: number;
}

@ObjectType('Explanations', { description: 'Why the headline probabilities are what they are: every factor, largest effect first, adding up to the prediction minus the reference’s; none for a settled bill', simpleResolvers: true })
export class ExplanationsType {
  @Field(() => [ExplanationFactorType])
  royalAssent: ExplanationFactorType[];

  @Field(() => [ExplanationFactorType])
  nextStage30d: ExplanationFactorType[];

  @Field(() => ExplanationReferenceType, { nullable: true, description: 'null for a settled bill, whose probabilities follow from its status' })
  reference: ExplanationReferenceType | null;
}

/** What a prediction and an item of the imminent list both say of a bill: its title and its four risks (src/vocabulary.ts PREDICTION_OUTPUTS). */
@ObjectType()
export abstract class BillRisksType implements Pick<PredictionValuesByField, RiskField> {
  @Field(() => String, { description: 'the bill’s short title' })
  billTitle: string;

  @Field(() => House)
  originatingHouse: House;

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
}

@ObjectType('Prediction', { description: 'A nowcast: what the facts known on the reference date say of the bill’s future', simpleResolvers: true })
export class PredictionType extends BillRisksType implements PredictionValuesByField {
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

  @Field(() => Float, { description: 'probability of a main stage sitting within 30 days: of the same distribution of the days to the next stage as timelineEtaDays, which is within 30 days exactly when this is at least half the chance the bill moves at all' })
  nextStage30d: number;

  @Field(() => Float, { nullable: true, description: 'days to the next main stage if the bill moves: the median of the model’s distribution of the wait given that it moves (the days to its sitting when one is scheduled); null when there will be none' })
  timelineEtaDays: number | null;

  @Field(() => DateScalar, { nullable: true, description: 'the scheduled sitting of the next main stage the ETA counts to, as known on referenceDate; null when the ETA is the model’s estimate' })
  timelineEtaScheduledFor: string | null;

  @Field(() => String, { nullable: true, description: 'what the ETA rests on and means, in words: "scheduled for YYYY-MM-DD: …" or "estimated by the model from the bill’s history: …", with the chance of a next stage at all and within 30 days; null when there is no next stage' })
  timelineEtaExplanation: string | null;


  @Field(() => LastStageType, { nullable: true })
  lastStage: LastStageType | null;

  @Field(() => Int, { description: 'the model version that made it (the same as model.version)' })
  modelVersion: number;

  @Field(() => PredictionModelType, { description: 'the model that made it: its version, the last date it learned from, and whether that is on or before referenceDate' })
  model: PredictionModelType;

  /** computed only when asked for (resolved by PredictionResolver.explanations) */
  explanations?: ExplanationsType;
}

@ObjectType('BatchPredictionItem')
export class BatchPredictionItemType {
  @Field(() => Int)
  billId: number;

  @Field(() => BatchItemStatus)
  status: BatchItemStatus;

  @Field(() => String, { nullable: true, description: 'why the item is not a success' })
  detail: string | null;

  @Field(() => PredictionType, { nullable: true })
  prediction: PredictionType | null;
}

@ObjectType('BatchSummary', { simpleResolvers: true })
export class BatchSummaryType {
  @Field(() => Int)
  total: number;

  @Field(() => Int)
  success: number;

  @Field(() => Int)
  errors: number;

  @Field(() => Int)
  blocked: number;
}

@ObjectType('BatchPredictions', { simpleResolvers: true })
export class BatchPredictionsType {
  @Field(() => [BatchPredictionItemType], { description: 'in the order of billIds' })
  items: BatchPredictionItemType[];

  @Field(() => BatchSummaryType)
  summary: BatchSummaryType;

  @Field(() => Float)
  executionTimeMs: number;

  @Field(() => PredictionModelType, { description: 'the model that answers the batch’s reference date (every item’s)' })
  model: PredictionModelType;
}

@ObjectType('ImminentBill', { simpleResolvers: true })
export class ImminentBillType extends BillRisksType {
  @Field(() => Int)
  billId: number;

  @Field(() => Float)
  timelineEtaDays: number;

  @Field(() => Float)
  royalAssentProbability: number;

  @Field(() => Float, { description: 'probability of a main stage within 30 days' })
  nextStageProbability: number;

  @Field(() => DateScalar, { description: 'today + the ETA, rounded to whole days' })
  predictedDate: string;

  @Field(() => UrgencyLevel)
  urgencyLevel: UrgencyLevel;

  @Field(() => Float, { description: 'days until the next stage' })
  countdownDays: number;

  @Field(() => TimeBucket, { nullable: true })
  timeBucket: TimeBucket | null;

  @Field(() => Float, { description: 'next-stage probability × (1 − days/30), floored at 0' })
  urgencyScore: number;

  /** resolved by ImminentBillResolver.prediction, which charges it */
  prediction?: PredictionType;
}

@ObjectType('ImminentBills', { simpleResolvers: true })
export class ImminentBillsType {
  @Field(() => [ImminentBillType], { description: 'most urgent first' })
  bills: ImminentBillType[];

  @Field(() => Int)
  count: number;

  @Field(() => PredictionModelType, { description: 'the model that made today’s nowcasts the list is drawn from (the serving one)' })
  model: PredictionModelType;
}

@ObjectType('PredictionPoint', { description: 'A nowcast at a past date of a bill’s life: a point of its chart', simpleResolvers: true })
export class PredictionPointType {
  @Field(() => DateScalar)
  referenceDate: string;

  @Field(() => BillStatusAsOf)
  status: BillStatusAsOf;

  @Field(() => Float, { description: 'probability of Royal Assent, as known on referenceDate' })
  royalAssent: number;

  @Field(() => Float, { description: 'probability of a main stage sitting within 30 days of referenceDate' })
  nextStage30d: number;

  @Field(() => PredictionModelType, { description: 'the model that made the point; outOfSample false marks a point made by a model that learned from later facts' })
  model: PredictionModelType;
}
