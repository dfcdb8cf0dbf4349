import { Field, Float, Int, ObjectType } from 'type-graphql';
import { DateScalar } from './date.scalar';

@ObjectType('RecordInterval', { description: 'A figure and its 90% interval over sessions resampled (a session’s forecasts shift together); the ends are null with one session or too few forecasts', simpleResolvers: true })
export class RecordIntervalType {
  @Field(() => Float, { nullable: true })
  value: number | null;

  @Field(() => Float, { nullable: true })
  low: number | null;

  @Field(() => Float, { nullable: true })
  high: number | null;
}

@ObjectType('ReliabilityRow', { description: 'One tenth of the forecasts’ range: the forecasts in it, their mean and how often they came true', simpleResolvers: true })
export class ReliabilityRowType {
  @Field(() => Float)
  lower: number;

  @Field(() => Float)
  upper: number;

  @Field(() => Float, { nullable: true })
  meanForecast: number | null;

  @Field(() => Float, { nullable: true })
  observedFrequency: number | null;

  @Field(() => Int)
  count: number;
}

@ObjectType('RecordScores', {
  description:
    'How one group of resolved forecasts scored, each forecast weighing one. For a probability: the Brier score, the kind × stage table’s on the same forecasts, the skill (1 − Brier / table’s), reliability and calibration. For the ETA: the median absolute error in days, the table’s, and the skill from them; the reliability and calibration fields are empty.',
  simpleResolvers: true,
})
export class RecordScoresType {
  @Field(() => Int, { description: 'forecasts scored (for the ETA: those whose bill had a next stage)' })
  count: number;

  @Field(() => RecordIntervalType, { description: 'above 0, the model beat the kind × stage table' })
  skill: RecordIntervalType;

  @Field(() => RecordIntervalType, { nullable: true })
  brier: RecordIntervalType | null;

  @Field(() => RecordIntervalType, { nullable: true })
  tableBrier: RecordIntervalType | null;

  @Field(() => [ReliabilityRowType], { description: 'ten equal bins of the forecast; empty for the ETA' })
  reliability: ReliabilityRowType[];

  @Field(() => Float, { nullable: true, description: 'α of outcome ~ σ(α + logit(forecast)): 0 when right on average' })
  calibrationIntercept: number | null;

  @Field(() => Float, { nullable: true, description: 'β of outcome ~ σ(α + β·logit(forecast)): 1 when neither too bold nor too timid' })
  calibrationSlope: number | null;

  @Field(() => Int, { nullable: true, description: 'ETA only: forecasts whose bill had no next stage (its fate came first)' })
  noNextStage: number | null;

  @Field(() => RecordIntervalType, { nullable: true })
  medianAbsoluteErrorDays: RecordIntervalType | null;

  @Field(() => RecordIntervalType, { nullable: true })
  tableMedianAbsoluteErrorDays: RecordIntervalType | null;
}

@ObjectType('RecordGroup', { description: 'The scores of the forecasts of one kind of bill, or of one horizon', simpleResolvers: true })
export class RecordGroupType {
  @Field(() => String, { description: 'a kind (government, ballot, presentation, lords, ten_minute_rule, other) or a horizon in days from forecast to answer (0-30, 31-90, 91-180, 181-365, over_365)' })
  key: string;

  @Field(() => RecordScoresType)
  scores: RecordScoresType;
}

@ObjectType('RecordOutput', { description: 'One output’s track record', simpleResolvers: true })
export class RecordOutputType {
  @Field(() => String, { description: 'royal_assent, next_stage_30d or timeline_eta' })
  output: string;

  @Field(() => RecordScoresType)
  overall: RecordScoresType;

  @Field(() => [RecordGroupType])
  byKind: RecordGroupType[];

  @Field(() => [RecordGroupType])
  byHorizon: RecordGroupType[];
}

@ObjectType('RecordSet', { description: 'The figures of backfilled forecasts, of live ones, or of both together', simpleResolvers: true })
export class RecordSetType {
  @Field(() => String, { description: '"all", "backfilled" (made after the day by a model trained only on facts dated before it) or "live" (published on the day)' })
  source: string;

  @Field(() => Int, { description: 'resolved forecasts scored, of every output' })
  resolved: number;

  @Field(() => [RecordOutputType])
  outputs: RecordOutputType[];
}

@ObjectType('TrackRecord', { description: 'The service’s forecasts of record scored as their outcomes arrived: anyone may read it, and download every resolved forecast it is made of (GET /api/v1/track-record/forecasts.csv)', simpleResolvers: true })
export class TrackRecordType {
  @Field(() => DateScalar, { description: 'the data’s today: forecasts resolved by then are scored' })
  asOf: string;

  @Field(() => DateScalar, { nullable: true, description: 'the first forecast day covered; null: from the first' })
  from: string | null;

  @Field(() => DateScalar, { nullable: true, description: 'the last forecast day covered; null: to the last' })
  to: string | null;

  @Field(() => Int, { description: 'forecasts of record of the scored outputs in the period' })
  recorded: number;

  @Field(() => Int, { description: 'of them, still open (their answer not known yet)' })
  open: number;

  @Field(() => [RecordSetType])
  sets: RecordSetType[];
}
