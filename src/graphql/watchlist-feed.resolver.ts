/**
 * A watchlist's secret feed addresses on GraphQL (issue 33): `Watchlist.calendarUrl` and
 * `Watchlist.feedUrl`, and the mutations that rotate and revoke them.
 */
import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../request/context';
import type { FeedAddresses } from '../services/watchlist-feed.service';
import { Access } from './access';
import { WatchlistType } from './watchlist.type';

// one lookup (and one insert for the watchlists that never had an address) per request, however many watchlists it lists
const addressLoaders = new WeakMap<RequestContext, DataLoader<number, FeedAddresses | null>>();
function addressesOf(context: RequestContext, watchlistId: number): Promise<FeedAddresses | null> {
  let loader = addressLoaders.get(context);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const found = await context.services.feeds.tokens.addressesOf(ids);
      return ids.map((id) => found.get(id) ?? null);
    });
    addressLoaders.set(context, loader);
  }
  return loader.load(watchlistId);
}

@Resolver(() => WatchlistType)
export class WatchlistFeedResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'the watchlist’s calendar (iCalendar) at its secret address, for calendar apps to subscribe to; null once revoked (rotateWatchlistFeedToken makes a new one)',
  })
  calendarUrl(@Root() watchlist: WatchlistType, @Ctx() context: RequestContext): Promise<string | null> {
    return addressesOf(context, watchlist.id).then((a) => a?.calendarUrl ?? null);
  }

  @FieldResolver(() => String, { nullable: true, description: 'the watchlist’s events as an Atom feed at its secret address; null once revoked' })
  feedUrl(@Root() watchlist: WatchlistType, @Ctx() context: RequestContext): Promise<string | null> {
    return addressesOf(context, watchlist.id).then((a) => a?.feedUrl ?? null);
  }

  @Mutation(() => WatchlistType, { description: 'A new secret address for the watchlist’s calendar and feed; the old one answers 404 from now on' })
  @Access('pilot')
  async rotateWatchlistFeedToken(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    await services.feeds.tokens.rotate(user!.accountId, id);
    const watchlist = await services.watchlists.get(user!.accountId, id);
    return { ...watchlist, billCount: watchlist.bills.length };
  }

  @Mutation(() => Boolean, { description: 'Revokes the watchlist’s secret address: its calendar and feed answer 404 until rotateWatchlistFeedToken makes a new one' })
  @Access('pilot')
  async revokeWatchlistFeedToken(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    await services.feeds.tokens.revoke(user!.accountId, id);
    return true;
  }
}
