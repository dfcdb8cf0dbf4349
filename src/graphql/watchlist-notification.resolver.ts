/**
 * A watchlist's email setting on GraphQL (issue 33): `watchlistNotifications(id)` and
 * `setWatchlistNotifications(id, input)`, Pilot and above as watchlists are; another account's
 * watchlist is NOT_FOUND. The service validates (time, Pro-only event types).
 */
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../request/context';
import type { NotificationSettings } from '../services/watchlist-notification.service';
import type { Tier } from '../vocabulary';
import { Access } from './access';
import { EmailDelivery, EventTypeEnum, Weekday } from './enums';

@ObjectType('WatchlistNotifications', { description: 'How a watchlist’s events reach its owner by email (see docs/api-channels.md, "Email")' })
export class WatchlistNotificationsType {
  @Field(() => Int)
  watchlistId: number;

  @Field(() => EmailDelivery)
  email: EmailDelivery;

  @Field(() => String, { description: 'HH:MM, Europe/London: a digest’s time' })
  time: string;

  @Field(() => Weekday, { description: 'a weekly digest’s day' })
  day: Weekday;

  @Field(() => [EventTypeEnum], { description: 'the event types emailed' })
  events: EventTypeEnum[];
}

@InputType('WatchlistNotificationsInput', { description: 'The fields to change; the others stay as they are' })
export class WatchlistNotificationsInput {
  @Field(() => EmailDelivery, { nullable: true })
  email?: EmailDelivery | null;

  @Field(() => String, { nullable: true, description: 'HH:MM, 00:00 to 23:59, Europe/London' })
  time?: string | null;

  @Field(() => Weekday, { nullable: true })
  day?: Weekday | null;

  @Field(() => [EventTypeEnum], { nullable: true, description: 'at least one; the Pro-only types need the pro tier' })
  events?: EventTypeEnum[] | null;
}

const asType = (s: NotificationSettings): WatchlistNotificationsType => ({ ...s, events: s.events as EventTypeEnum[] });
const given = <T>(value: T | null | undefined) => (value === null ? undefined : value);

@Resolver(() => WatchlistNotificationsType)
export class WatchlistNotificationResolver {
  @Query(() => WatchlistNotificationsType, { description: 'The email setting of one of the caller’s watchlists; another account’s answers NOT_FOUND' })
  @Access('pilot')
  async watchlistNotifications(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext): Promise<WatchlistNotificationsType> {
    return asType(await services.notifications.settingsOf(user!.accountId, id));
  }

  @Mutation(() => WatchlistNotificationsType, { description: 'Changes how a watchlist’s events are emailed; another account’s watchlist is NOT_FOUND' })
  @Access('pilot')
  async setWatchlistNotifications(@Arg('id', () => Int) id: number, @Arg('input', () => WatchlistNotificationsInput) input: WatchlistNotificationsInput, @Ctx() { user, services }: RequestContext): Promise<WatchlistNotificationsType> {
    const change = { email: given(input.email), time: given(input.time), day: given(input.day), events: given(input.events) };
    return asType(await services.notifications.update(user!.accountId, user!.tier as Tier, id, change));
  }
}
