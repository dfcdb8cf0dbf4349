import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { chargedPrediction } from './charged-prediction';
import type { RequestContext } from '../request/context';
import { Access } from './access';
import { BillType } from './bill.type';
import { parseBillId } from './bill-id';
import { billRisksOf, toPredictionType } from './prediction-result.mapper';
import { DateScalar } from './date.scalar';
import { AppError } from '../errors';
import { BatchPredictionArgs, ImminentArgs } from './prediction.input';
import { BatchItemStatus, type TimeBucket, type UrgencyLevel } from './enums';
import { PredictionTrustType } from './trust.type';
import { predictionTrust } from '../services/trust.service';
import { BatchPredictionsType, BatchPredictionItemType, ExplanationsType, ImminentBillsType, ImminentBillType, PredictionType } from './prediction.type';

@Resolver(() => PredictionType)
export class PredictionResolver {
  @Query(() => PredictionType, { description: 'The nowcast of a bill on a reference date (default: today)' })
  @Access('authenticated', { requires: ['data', 'model'], sharedAnswer: true })
  async prediction(
    @Arg('billId', () => Int) billId: number,
    @Arg('referenceDate', () => DateScalar, { nullable: true }) referenceDate: string | null,
    @Ctx() context: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<PredictionType> {
    return chargedPrediction(context, parseBillId(billId, 'billId'), context.services.predictions.referenceDate(referenceDate), info);
  }

  @FieldResolver(() => ExplanationsType, { description: 'Why the probabilities are what they are; computed from the model on request only' })
  async explanations(@Root() prediction: PredictionType, @Ctx() { services }: RequestContext): Promise<ExplanationsType> {
    const { royal_assent: royalAssent, next_stage_30d: nextStage30d, reference } = await services.predictions.explanations(prediction.billId, prediction.referenceDate);
    return {
      royalAssent,
      nextStage30d,
      reference: reference && { description: reference.description, royalAssent: reference.probabilities.royal_assent, nextStage30d: reference.probabilities.next_stage_30d },
    };
  }

  @FieldResolver(() => [PredictionTrustType], { description: 'How far to trust royalAssent and nextStage30d, from the model card’s evaluation; empty for a settled bill, whose figures follow from its status' })
  async trust(@Root() prediction: PredictionType, @Ctx() { loaders }: RequestContext): Promise<PredictionTrustType[]> {
    if (prediction.status !== 'live') return [];
    const bill = await loaders.bill.load(prediction.billId);
    if (!bill) return [];
    const probabilities = { royal_assent: prediction.royalAssent, next_stage_30d: prediction.nextStage30d };
    return predictionTrust({ kind: bill.kind, originatingHouse: bill.originatingHouse, lastStage: prediction.lastStage, probabilities }).map(({ output, trust, testSessions }) => ({
      output,
      scope: trust.scope,
      binLower: trust.cell.lower,
      binUpper: trust.cell.upper,
      bills: trust.cell.bills,
      nowcasts: trust.cell.nowcasts,
      meanPredicted: trust.cell.meanPredicted,
      observedRate: trust.enough ? trust.cell.observedRate : null,
      testSessions,
    }));
  }

  @Query(() => BatchPredictionsType, { description: 'Nowcasts of up to 100 bills; each item succeeds or fails on its own' })
  @Access('pilot', { requires: ['data', 'model'] })
  async predictions(
    @Args(() => BatchPredictionArgs) { billIds, referenceDate }: BatchPredictionArgs,
    @Ctx() { services, quota }: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<BatchPredictionsType> {
    const started = process.hrtime.bigint();
    const date = services.predictions.referenceDate(referenceDate);
    const path = responsePathAsArray(info.path);
    const batchRequest = `batch-request@${path.join('.')}`;
    await quota?.require('batches');
    quota?.ledger.charged(batchRequest, 'batches', 1, path);
    // a bill asked for twice is computed and charged once, and answered at each place
    const unique = [...new Set(billIds)];
    const nowcasts = await services.predictions.nowcasts(unique, date);
    // Each prediction counts against the daily limit in request order; those past it are blocked.
    const charged = quota ? await quota.chargeEach('predictions', nowcasts) : nowcasts;
    const byBill = new Map(unique.map((id, i) => [id, charged[i]]));
    const items = billIds.map((billId) => {
      const r = byBill.get(billId)!;
      return !(r instanceof AppError)
        ? { billId, status: BatchItemStatus.SUCCESS, detail: null, prediction: toPredictionType(r) }
        : { billId, status: r.code === 'RATE_LIMITED' ? BatchItemStatus.BLOCKED : BatchItemStatus.ERROR, detail: r.message, prediction: null };
    });
    const count = (status: BatchItemStatus) => items.filter((item) => item.status === status).length;
    if (quota) {
      const shown = charged.filter((r) => !(r instanceof AppError)).length;
      quota.ledger.charged(`batch@${path.join('.')}`, 'predictions', shown, path);
      // a batch that shows nothing because every prediction was blocked is not a batch request
      if (!shown && count(BatchItemStatus.BLOCKED)) {
        quota.ledger.forget(batchRequest);
        await quota.refund('batches');
      }
    }
    return {
      items,
      summary: { total: items.length, success: count(BatchItemStatus.SUCCESS), errors: count(BatchItemStatus.ERROR), blocked: count(BatchItemStatus.BLOCKED) },
      executionTimeMs: Number(process.hrtime.bigint() - started) / 1e6,
      model: services.models.provenanceFor(date),
    };
  }

  @Query(() => ImminentBillsType, { description: 'Live bills likely to reach their next stage within daysAhead, most urgent first' })
  @Access('authenticated', { requires: ['data', 'model'], sharedAnswer: true })
  async imminentBills(@Args(() => ImminentArgs) { daysAhead, minProbability }: ImminentArgs, @Ctx() { services }: RequestContext): Promise<ImminentBillsType> {
    const bills = (await services.predictions.imminent(daysAhead, minProbability)).map((b): ImminentBillType => {
      return {
        ...billRisksOf(b.prediction),
        billId: b.prediction.billId,
        timelineEtaDays: b.timelineEtaDays,
        royalAssentProbability: b.prediction.probabilities.royal_assent,
        nextStageProbability: b.prediction.probabilities.next_stage_30d,
        predictedDate: b.predictedDate,
        urgencyLevel: b.urgencyLevel as UrgencyLevel,
        countdownDays: b.countdownDays,
        timeBucket: b.timeBucket as TimeBucket | null,
        urgencyScore: b.urgencyScore,
      };
    });
    return { bills, count: bills.length, model: services.models.provenanceFor(services.clock.today()) };
  }
}

@Resolver(() => ImminentBillType)
export class ImminentBillResolver {
  /**
   * The list's own fields are the imminent list, open to every tier; the full nowcast (and its
   * explanations) is a prediction like any other, shown and charged by the one rule.
   */
  @FieldResolver(() => PredictionType, { nullable: true, description: 'the full nowcast as of today, with its explanations on request: charged as one prediction' })
  prediction(@Root() item: ImminentBillType, @Ctx() context: RequestContext, @Info() info: GraphQLResolveInfo): Promise<PredictionType> {
    return chargedPrediction(context, item.billId, context.services.predictions.referenceDate(null), info);
  }
}

@Resolver(() => BatchPredictionItemType)
export class BatchPredictionItemResolver {
  @FieldResolver(() => BillType, { nullable: true, description: 'the bill, when it exists' })
  bill(@Root() item: BatchPredictionItemType, @Ctx() { loaders }: RequestContext) {
    return loaders.bill.load(item.billId);
  }
}
