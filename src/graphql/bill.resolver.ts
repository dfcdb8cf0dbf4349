import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { chargedPrediction, chargedPredictionHistory } from './charged-prediction';
import type { BillEntity } from '../db/entities/bill.entity';
import type { BillStageEntity } from '../db/entities/bill-stage.entity';
import type { RequestContext } from '../request/context';
import { decodeBillCursor, encodeBillCursor } from '../services/bill.service';
import { Access } from './access';
import { BillsArgs } from './bill.input';
import { BillConnectionType, BillType, DivisionType, ParliamentarySessionType, ScheduledSittingType, SponsorType, StageType } from './bill.type';
import { DateScalar } from './date.scalar';
import { parseBillId } from './bill-id';
import { PredictionPointType, PredictionType } from './prediction.type';

@Resolver(() => BillType)
export class BillResolver {
  @Query(() => BillType, { nullable: true, description: 'A bill by its UK Parliament Bills API id; null when there is none' })
  @Access('authenticated', { requires: ['data'] })
  bill(@Arg('id', () => Int) id: number, @Ctx() { loaders }: RequestContext): Promise<BillEntity | null> {
    return loaders.bill.load(parseBillId(id));
  }

  @Query(() => BillConnectionType, { description: 'Bills, filtered, a page at a time: in id order unless order says otherwise' })
  @Access('authenticated', { requires: ['data'] })
  async bills(@Args(() => BillsArgs) { filter, first, after, order }: BillsArgs, @Ctx() { services, loaders }: RequestContext): Promise<BillConnectionType> {
    const page = await services.bills.list(filter ?? {}, first, after ? decodeBillCursor(after) : null, order);
    for (const bill of page.bills) loaders.bill.prime(bill.id, bill);
    const edges = page.bills.map((bill) => ({ cursor: encodeBillCursor(bill.id), node: bill as unknown as BillType }));
    return {
      edges,
      nodes: edges.map((e) => e.node),
      totalCount: page.totalCount,
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }

  @FieldResolver(() => String, { description: 'the bill’s page on bills.parliament.uk' })
  url(@Root() bill: BillEntity): string {
    return `https://bills.parliament.uk/bills/${bill.id}`;
  }

  @FieldResolver(() => Boolean, { description: 'true when the bill was carried over into a later session' })
  carriedOver(@Root() bill: BillEntity): boolean {
    return bill.sessionIds.length > 1;
  }

  @FieldResolver(() => ParliamentarySessionType, { nullable: true })
  introducedSession(@Root() bill: BillEntity, @Ctx() { loaders }: RequestContext) {
    return loaders.session.load(bill.introducedSessionId);
  }

  @FieldResolver(() => [StageType], { description: 'the stage history in the API’s order' })
  stages(@Root() bill: BillEntity, @Ctx() { loaders }: RequestContext) {
    return loaders.stagesOfBill.load(bill.id);
  }

  @FieldResolver(() => [SponsorType], { description: 'lead sponsor first' })
  sponsors(@Root() bill: BillEntity, @Ctx() { loaders }: RequestContext) {
    return loaders.sponsorsOfBill.load(bill.id);
  }

  @FieldResolver(() => PredictionType, { description: 'The bill’s nowcast on a reference date (default: today); batched across the bills of a page' })
  async prediction(
    @Root() bill: BillEntity,
    @Arg('referenceDate', () => DateScalar, { nullable: true }) referenceDate: string | null,
    @Ctx() context: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<PredictionType> {
    return chargedPrediction(context, bill.id, context.services.predictions.referenceDate(referenceDate), info);
  }

  @FieldResolver(() => [PredictionPointType], {
    description: 'Nowcasts over the bill’s life, for a chart: each uses only the facts known on its date (an honest backtest), with a point on each stage date and the day before; charged as one prediction',
  })
  predictionHistory(@Root() bill: BillEntity, @Ctx() context: RequestContext, @Info() info: GraphQLResolveInfo): Promise<PredictionPointType[]> {
    return chargedPredictionHistory(context, bill, info);
  }

  @FieldResolver(() => [ScheduledSittingType], {
    description: 'stage sittings set down for a day after today, soonest first; a date that moved shows only where it is now',
  })
  scheduledSittings(@Root() bill: BillEntity, @Ctx() { loaders }: RequestContext) {
    return loaders.scheduledSittingsOfBill.load(bill.id);
  }

  @FieldResolver(() => [DivisionType], { description: 'Commons divisions on the bill (data to July 2018 only)' })
  divisions(@Root() bill: BillEntity, @Ctx() { loaders }: RequestContext) {
    return loaders.divisionsOfBill.load(bill.id);
  }
}

@Resolver(() => StageType)
export class StageResolver {
  @FieldResolver(() => DateScalar, { nullable: true, description: 'the first sitting date; null when the stage never sat' })
  date(@Root() stage: BillStageEntity): string | null {
    return stage.sittingDates[0] ?? null;
  }
}
