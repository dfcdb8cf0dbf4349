import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../request/context';
import type { Scores } from '../services/track-record-figures';
import type { TrackRecord } from '../services/track-record';
import { Access } from './access';
import { DateScalar } from './date.scalar';
import { type RecordScoresType, TrackRecordType } from './track-record.type';

/** One shape for both kinds of scores: a probability's leave the ETA's fields empty, and the other way round. */
function scoresType(s: Scores): RecordScoresType {
  if ('brier' in s) return { ...s, noNextStage: null, medianAbsoluteErrorDays: null, tableMedianAbsoluteErrorDays: null };
  return { ...s, brier: null, tableBrier: null, reliability: [], calibrationIntercept: null, calibrationSlope: null };
}

const groups = (byKey: Record<string, Scores>) => Object.entries(byKey).map(([key, scores]) => ({ key, scores: scoresType(scores) }));

export function trackRecordType(record: TrackRecord): TrackRecordType {
  return {
    ...record,
    sets: record.sets.map((set) => ({ ...set, outputs: set.outputs.map((o) => ({ output: o.output, overall: scoresType(o.overall), byKind: groups(o.byKind), byHorizon: groups(o.byHorizon) })) })),
  };
}

@Resolver()
export class TrackRecordResolver {
  @Query(() => TrackRecordType, { description: 'The public track record: forecasts of record scored as outcomes arrive, optionally of the forecasts made from `from` to `to` (days, both included)' })
  @Access('public')
  async trackRecord(
    @Ctx() { services }: RequestContext,
    @Arg('from', () => DateScalar, { nullable: true }) from: string | null,
    @Arg('to', () => DateScalar, { nullable: true }) to: string | null,
  ): Promise<TrackRecordType> {
    return trackRecordType(await services.trackRecord.record(services.trackRecord.period(from, to)));
  }
}
