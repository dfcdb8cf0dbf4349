import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../request/context';
import type { DeliveryRecord } from '../services/webhook.service';
import { inactiveEventTypes } from '../events/audience';
import { Access } from './access';
import { EventTypeEnum } from './enums';
import { CreateWebhookInput, UpdateWebhookInput, WebhookDeliveryType, WebhookEndpointType, WebhookTestType, WebhookWithSecretType } from './webhook.type';

const delivery = (d: DeliveryRecord): WebhookDeliveryType => ({
  eventId: d.eventId,
  eventType: d.eventType,
  format: d.format,
  status: d.status,
  attempt: d.attempt,
  statusCode: d.lastStatusCode,
  error: d.lastError,
  durationMs: d.lastDurationMs,
  attemptedAt: d.lastAttemptAt,
  nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
  attempts: d.attempts.map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, attemptedAt: a.attemptedAt })),
  createdAt: d.createdAt,
});

/** Webhook endpoints (Pilot and above, as every authenticated field: Free keys are refused by the gateway). */
@Resolver(() => WebhookEndpointType)
export class WebhookResolver {
  @Query(() => [WebhookEndpointType], { description: 'The caller’s webhook endpoints, oldest first' })
  @Access('pilot')
  webhooks(@Ctx() { user, services }: RequestContext) {
    return services.webhooks.list(user!.accountId);
  }

  @Query(() => WebhookEndpointType, { description: 'One of the caller’s endpoints; another account’s answers NOT_FOUND' })
  @Access('pilot')
  webhook(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    return services.webhooks.get(user!.accountId, id);
  }

  @Query(() => [WebhookDeliveryType], { description: 'The endpoint’s deliveries, newest first' })
  @Access('pilot')
  async webhookDeliveries(@Arg('id', () => Int) id: number, @Arg('first', () => Int, { defaultValue: 50 }) first: number, @Ctx() { user, services }: RequestContext) {
    return (await services.webhooks.deliveries(user!.accountId, id, first)).map(delivery);
  }

  @Mutation(() => WebhookWithSecretType, { description: 'At most 10 endpoints per account; pro-only event types need the pro tier' })
  @Access('pilot')
  createWebhook(@Arg('input', () => CreateWebhookInput) input: CreateWebhookInput, @Ctx() { user, services }: RequestContext) {
    return services.webhooks.create(user!.accountId, user!.tier, input);
  }

  @Mutation(() => WebhookEndpointType, { description: 'Changes the fields given; active: true re-enables it' })
  @Access('pilot')
  updateWebhook(@Arg('id', () => Int) id: number, @Arg('input', () => UpdateWebhookInput) input: UpdateWebhookInput, @Ctx() { user, services }: RequestContext) {
    return services.webhooks.update(user!.accountId, user!.tier, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes the endpoint; its pending deliveries are dropped' })
  @Access('pilot')
  async deleteWebhook(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    await services.webhooks.delete(user!.accountId, id);
    return true;
  }

  @Mutation(() => WebhookWithSecretType, { description: 'A new secret; the previous one also signs for 24 hours (two signatures in webhook-signature)' })
  @Access('pilot')
  rotateWebhookSecret(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    return services.webhooks.rotateSecret(user!.accountId, id);
  }

  @Mutation(() => WebhookTestType, { description: 'Queues a webhook.test event to this endpoint; RATE_LIMITED while it has 10 test events pending' })
  @Access('pilot')
  async testWebhook(@Arg('id', () => Int) id: number, @Ctx() { user, services }: RequestContext) {
    const event = await services.webhooks.queueTest(user!.accountId, id);
    return { eventId: event.id, eventType: event.type };
  }

  @FieldResolver(() => [EventTypeEnum])
  inactiveEvents(@Root() endpoint: { events: EventTypeEnum[] }, @Ctx() { user }: RequestContext): EventTypeEnum[] {
    return inactiveEventTypes(user!.tier, endpoint.events).types;
  }

  @FieldResolver(() => String, { nullable: true })
  inactiveReason(@Root() endpoint: { events: EventTypeEnum[] }, @Ctx() { user }: RequestContext): string | null {
    return inactiveEventTypes(user!.tier, endpoint.events).reason;
  }

  @Mutation(() => Int, { description: 'Queues again every delivery that failed since then; answers how many' })
  @Access('pilot')
  recoverWebhookDeliveries(@Arg('id', () => Int) id: number, @Arg('since', () => Date) since: Date, @Ctx() { user, services }: RequestContext) {
    return services.webhooks.recover(user!.accountId, id, since);
  }
}
