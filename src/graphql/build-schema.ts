import { validate } from 'class-validator';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { badInput } from '../errors';
import { AccountResolver } from './account.resolver';
import { BillResolver, StageResolver } from './bill.resolver';
import { EventResolver } from './event.resolver';
import { BatchPredictionItemResolver, ImminentBillResolver, PredictionResolver } from './prediction.resolver';
import { ServiceStatusResolver } from './service-status.resolver';
import { SessionResolver } from './session.resolver';
import { AlertResolver, WatchlistBillResolver, WatchlistResolver } from './watchlist.resolver';
import { WebhookResolver } from './webhook.resolver';
import { WatchlistFeedResolver } from './watchlist-feed.resolver';
import { WatchlistNotificationResolver } from './watchlist-notification.resolver';
import { WatchlistExportResolver } from './watchlist-export.resolver';
import { TrackRecordResolver } from './track-record.resolver';

export const RESOLVERS = [BillResolver, StageResolver, SessionResolver, AccountResolver, ServiceStatusResolver, PredictionResolver, BatchPredictionItemResolver, ImminentBillResolver, WatchlistResolver, WatchlistBillResolver, WatchlistFeedResolver, WatchlistNotificationResolver, WatchlistExportResolver, AlertResolver, WebhookResolver, EventResolver, TrackRecordResolver] as const;

/** Input validation raises the service's own error type, so a bad argument is a 400 with a message naming it. */
async function validateArgs(argValue: unknown): Promise<void> {
  if (argValue === null || typeof argValue !== 'object') return;
  const errors = await validate(argValue as object, { forbidUnknownValues: false });
  if (!errors.length) return;
  const messages = errors.flatMap(function flatten(e): string[] {
    return [...Object.values(e.constraints ?? {}), ...(e.children ?? []).flatMap(flatten)];
  });
  throw badInput(messages.join('; '));
}

/**
 * type-graphql requires a PubSub as soon as there are subscriptions, even when each brings its
 * own `subscribe`, as ours do (they read the event bus through the request context, filtered per
 * user: src/graphql/event.resolver.ts). No subscription uses topics, so this one refuses to serve.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('subscriptions read the event bus (services.events.bus), not type-graphql topics');
  },
  subscribe: () => {
    throw new Error('subscriptions read the event bus (services.events.bus), not type-graphql topics');
  },
};

export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [...RESOLVERS], validateFn: validateArgs, pubSub: NO_TOPICS });
}

/** The SDL committed at schema/schema.graphql (sorted, so the diff shows only real changes). */
export const printAppSchema = (schema: GraphQLSchema) => printSchema(lexicographicSortSchema(schema)) + '\n';
