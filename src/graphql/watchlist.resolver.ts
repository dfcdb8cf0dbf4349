import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { chargedPrediction } from './charged-prediction';
import { PredictionType } from './prediction.type';
import type { RequestContext } from '../request/context';
import { AppError, badInput } from '../errors';
import { decodeIdCursor, encodeIdCursor } from '../common/ids';
import { parseBillIds } from '../services/watchlist.service';
import { Access } from './access';
import {
  AlertCheckResultType,
  AlertHistoryFilterInput,
  AlertHistoryType,
  AlertThresholdType,
  CreateAlertThresholdInput,
  CreateWatchlistInput,
  WatchlistBillType,
  WatchlistType,
} from './watchlist.type';

const MAX_HISTORY_PAGE = 100;
const cursorOf = (id: number) => encodeIdCursor('trigger', id);
function triggerIdOf(cursor: string): number {
  const id = decodeIdCursor('trigger', cursor);
  if (id === null) throw badInput('after is not a cursor this API issued');
  return id;
}

@Resolver(() => WatchlistType)
export class WatchlistResolver {
  @Query(() => [WatchlistType], { description: 'The caller’s watchlists' })
  @Access('pilot')
  watchlists(@Ctx() { user, services }: RequestContext) {
    return services.watchlists.list(user!.accountId);
  }

  @Query(() => WatchlistType, { description: 'One of the caller’s watchlists; another account’s answers NOT_FOUND' })
  @Access('pilot')
  async watchlist(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    const watchlist = await services.watchlists.get(user!.accountId, id);
    return { ...watchlist, billCount: watchlist.bills.length };
  }

  @FieldResolver(() => [WatchlistBillType], { description: 'its bills, oldest first, each with today’s nowcast' })
  async bills(@Root() watchlist: WatchlistType & { bills?: { billId: number; addedAt: Date }[] }, @Ctx() { user, services, loaders }: RequestContext): Promise<WatchlistBillType[]> {
    // a listed watchlist comes without its bills: load them (the caller owns it, or it would not be listed)
    const members = watchlist.bills ?? (await services.watchlists.get(user!.accountId, watchlist.id)).bills;
    return Promise.all(members.map(async (m) => ({ billId: m.billId, addedAt: m.addedAt, bill: (await loaders.bill.load(m.billId)) as never })));
  }

  @Mutation(() => WatchlistType)
  @Access('pilot')
  async createWatchlist(@Arg('input', () => CreateWatchlistInput) input: CreateWatchlistInput, @Ctx() { user, services }: RequestContext) {
    const created = await services.watchlists.create(user!.accountId, input);
    return { ...created, billCount: created.bills.length };
  }

  @Mutation(() => WatchlistType)
  @Access('pilot')
  async renameWatchlist(@Arg('id', () => Int) id: number, @Arg('name', () => String) name: string, @Ctx() { user, services }: RequestContext) {
    const watchlist = await services.watchlists.rename(user!.accountId, id, name);
    return { ...watchlist, billCount: watchlist.bills.length };
  }

  @Mutation(() => Boolean, { description: 'Deletes the watchlist and its thresholds; its alert history stays readable' })
  @Access('pilot')
  async deleteWatchlist(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    await services.watchlists.delete(user!.accountId, id);
    return true;
  }

  @Mutation(() => WatchlistType)
  @Access('pilot')
  async addBillsToWatchlist(@Arg('id', () => Int) id: number, @Arg('billIds', () => [Int]) billIds: number[], @Ctx() { user, services }: RequestContext) {
    const watchlist = await services.watchlists.addBills(user!.accountId, id, parseBillIds(billIds));
    return { ...watchlist, billCount: watchlist.bills.length };
  }

  @Mutation(() => WatchlistType)
  @Access('pilot')
  async removeBillFromWatchlist(@Arg('id', () => Int) id: number, @Arg('billId', () => Int) billId: number, @Ctx() { user, services }: RequestContext) {
    const watchlist = await services.watchlists.removeBill(user!.accountId, id, billId);
    return { ...watchlist, billCount: watchlist.bills.length };
  }
}

@Resolver(() => AlertThresholdType)
export class AlertResolver {
  @Query(() => [AlertThresholdType], { description: 'Every alert threshold of the caller' })
  @Access('pilot')
  alertThresholds(@Ctx() { user, services }: RequestContext) {
    return services.alerts.list(user!.accountId, user!.tier);
  }

  @Mutation(() => AlertThresholdType)
  @Access('pilot')
  createAlertThreshold(@Arg('input', () => CreateAlertThresholdInput) input: CreateAlertThresholdInput, @Ctx() { user, services }: RequestContext) {
    return services.alerts.create(user!.accountId, user!.tier, input);
  }

  @Mutation(() => Boolean)
  @Access('pilot')
  async deleteAlertThreshold(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    await services.alerts.delete(user!.accountId, id);
    return true;
  }

  @Mutation(() => AlertCheckResultType, { description: 'Evaluates the caller’s thresholds against today’s nowcasts now, and records what fires' })
  @Access('pilot', { requires: ['data', 'model'] })
  checkAlerts(@Ctx() { user, services, quota }: RequestContext) {
    return services.alertEvaluation.check(user!.accountId, user!.tier, 'manual', quota!);
  }

  @Query(() => AlertHistoryType, { description: 'Triggers of the caller’s thresholds, newest first, with counts (Pro)' })
  @Access('pro')
  async alertHistory(
    @Arg('filter', () => AlertHistoryFilterInput, { nullable: true }) filter: AlertHistoryFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() { user, services }: RequestContext,
  ): Promise<AlertHistoryType> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_HISTORY_PAGE) throw badInput(`limit must be between 1 and ${MAX_HISTORY_PAGE}`);
    if (filter?.from && filter.to && filter.from > filter.to) throw badInput('from must not be after to');
    const page = await services.alerts.history(user!.accountId, filter ?? {}, first, after ? triggerIdOf(after) : null);
    return {
      triggers: page.triggers as never,
      totalCount: page.totalCount,
      nextCursor: page.hasNextPage ? cursorOf(page.triggers.at(-1)!.id) : null,
      analytics: page.analytics,
    };
  }
}


/** A watchlist's bill: its nowcast is computed (and charged) only when the request asks for it. */
@Resolver(() => WatchlistBillType)
export class WatchlistBillResolver {
  @FieldResolver(() => PredictionType, { nullable: true })
  prediction(@Root() member: WatchlistBillType, @Ctx() context: RequestContext, @Info() info: GraphQLResolveInfo): Promise<PredictionType | null> {
    return chargedPrediction(context, member.billId, context.services.predictions.referenceDate(null), info).catch(() => null);
  }

  @FieldResolver(() => String, { nullable: true })
  async predictionDetail(@Root() member: WatchlistBillType, @Ctx() { services, loaders }: RequestContext): Promise<string | null> {
    const result = await loaders.prediction.load(`${member.billId}@${services.predictions.referenceDate(null)}`).catch((e: Error) => e);
    if (!(result instanceof Error)) return null;
    return result instanceof AppError ? result.message : 'prediction unavailable';
  }
}
