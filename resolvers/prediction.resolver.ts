import { Arg, Args, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../src/context';
import { Access } from './access';
import { BillType } from './bill.type';
import { parseBillId } from './bill-id';
import { toPredictionType } from './prediction.mapper';
import { DateScalar } from './date.scalar';
import { AppError } from '../src/errors';
import { imminentBills } from '../src/services/imminent';
import { BatchPredictionArgs, ImminentArgs } from './prediction.input';
import {
  BatchItemStatus,
  BatchPredictionsType,
  BatchPredictionItemType,
  ImminentBillsType,
  PredictionType,
  type TimeBucket,
  type UrgencyLevel,
} from './prediction.type';

@Resolver(() => PredictionType)
export class PredictionResolver {
  @Query(() => PredictionType, { description: 'The nowcast of a bill on a reference date (default: today)' })
  @Access('authenticated', { requires: ['data', 'model'] })
  async prediction(
    @Arg('billId', () => Int) billId: number,
    @Arg('referenceDate', () => DateScalar, { nullable: true }) referenceDate: string | null,
    @Ctx() { services, quota }: RequestContext,
  ): Promise<PredictionType> {
    const id = parseBillId(billId, 'billId');
    const result = await services.predictions.nowcast(id, services.predictions.referenceDate(referenceDate));
    await quota?.require('predictions');
    return toPredictionType(result);
  }

  @Query(() => BatchPredictionsType, { description: 'Nowcasts of up to 100 bills; each item succeeds or fails on its own' })
  @Access('authenticated', { requires: ['data', 'model'] })
  async predictions(@Args(() => BatchPredictionArgs) { billIds, referenceDate }: BatchPredictionArgs, @Ctx() { services, quota }: RequestContext): Promise<BatchPredictionsType> {
    const started = process.hrtime.bigint();
    const date = services.predictions.referenceDate(referenceDate);
    await quota?.require('batches');
    const nowcasts = await services.predictions.nowcasts(billIds, date);
    // Each prediction counts against the daily limit in request order; those past it are blocked.
    const results = quota ? await quota.chargeEach('predictions', nowcasts) : nowcasts;
    const items = results.map((r, i) =>
      !(r instanceof AppError)
        ? { billId: billIds[i], status: BatchItemStatus.SUCCESS, detail: null, prediction: toPredictionType(r) }
        : { billId: billIds[i], status: r.code === 'RATE_LIMITED' ? BatchItemStatus.BLOCKED : BatchItemStatus.ERROR, detail: r.message, prediction: null },
    );
    const count = (status: BatchItemStatus) => items.filter((item) => item.status === status).length;
    return {
      items,
      summary: { total: items.length, success: count(BatchItemStatus.SUCCESS), errors: count(BatchItemStatus.ERROR), blocked: count(BatchItemStatus.BLOCKED) },
      executionTimeMs: Number(process.hrtime.bigint() - started) / 1e6,
    };
  }

  @Query(() => ImminentBillsType, { description: 'Live bills likely to reach their next stage within daysAhead, most urgent first' })
  @Access('authenticated', { requires: ['data', 'model'] })
  async imminentBills(@Args(() => ImminentArgs) { daysAhead, minProbability }: ImminentArgs, @Ctx() { services }: RequestContext): Promise<ImminentBillsType> {
    const bills = imminentBills(await services.predictions.activeNowcasts(), services.clock.today(), daysAhead, minProbability).map((b) => ({
      billId: b.prediction.billId,
      timelineEtaDays: b.timelineEtaDays,
      royalAssentProbability: b.prediction.probabilities.royal_assent,
      nextStageProbability: b.prediction.probabilities.next_stage_30d,
      predictedDate: b.predictedDate,
      urgencyLevel: b.urgencyLevel as UrgencyLevel,
      countdownDays: b.countdownDays,
      timeBucket: b.timeBucket as TimeBucket | null,
      urgencyScore: b.urgencyScore,
      prediction: toPredictionType(b.prediction),
    }));
    return { bills, count: bills.length };
  }
}

@Resolver(() => BatchPredictionItemType)
export class BatchPredictionItemResolver {
  @FieldResolver(() => BillType, { nullable: true, description: 'the bill, when it exists' })
  bill(@Root() item: BatchPredictionItemType, @Ctx() { loaders }: RequestContext) {
    return loaders.bill.load(item.billId);
  }
}
