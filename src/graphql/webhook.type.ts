import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { EventTypeEnum, WebhookFormatEnum } from './enums';

@ObjectType('WebhookEndpoint', { description: 'Where events are POSTed: signed JSON (Standard Webhooks; its secret is shown only when created or rotated), or unsigned Slack or Teams messages' })
export class WebhookEndpointType {
  @Field(() => Int)
  id: number;

  @Field(() => String)
  url: string;

  @Field(() => WebhookFormatEnum, { description: 'chosen at registration; a different format is a new endpoint' })
  format: WebhookFormatEnum;

  @Field(() => [EventTypeEnum])
  events: EventTypeEnum[];

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field(() => Boolean, { description: 'true: every bill in the data; false: the bills on the owner’s watchlists' })
  allBills: boolean;

  @Field(() => Boolean, { description: 'false when disabled by its owner or by the service (see disabledReason); re-enable with active: true' })
  active: boolean;

  @Field(() => String, { nullable: true, description: 'why the service disabled it (every attempt failing for 3 days)' })
  disabledReason: string | null;

  @Field(() => [EventTypeEnum], { description: 'its event types the account’s tier does not receive now (Pro-only types after a downgrade): kept, and sent again after an upgrade' })
  inactiveEvents: EventTypeEnum[];

  @Field(() => String, { nullable: true, description: 'why inactiveEvents are not sent; null when every event type is' })
  inactiveReason: string | null;

  @Field(() => Date)
  createdAt: Date;
}

@ObjectType('WebhookWithSecret')
export class WebhookWithSecretType {
  @Field(() => WebhookEndpointType)
  endpoint: WebhookEndpointType;

  @Field(() => String, { description: '`whsec_` + base64 of 32 random bytes: shown only now; verify deliveries with it (e.g. the standardwebhooks package). It signs the STANDARD format only: SLACK and TEAMS deliveries are unsigned' })
  secret: string;
}

@ObjectType('WebhookAttempt', { simpleResolvers: true, description: 'One attempt of a delivery, as it ended' })
export class WebhookAttemptType {
  @Field(() => Int, { description: 'its number in the retry schedule: 1 is the first (a recovery starts the count again)' })
  attempt: number;

  @Field(() => Int, { nullable: true, description: 'the HTTP status answered; null when none came (timeout, connection error, address not allowed)' })
  statusCode: number | null;

  @Field(() => String, { nullable: true, description: 'why it failed; null when delivered' })
  error: string | null;

  @Field(() => Int)
  durationMs: number;

  @Field(() => Date)
  attemptedAt: Date;
}

@ObjectType('WebhookDelivery', { simpleResolvers: true })
export class WebhookDeliveryType {
  @Field(() => String, { description: 'the event id, sent as webhook-id on every attempt (standard format)' })
  eventId: string;

  @Field(() => String)
  eventType: string;

  @Field(() => WebhookFormatEnum, { description: 'the format its body was built in when it was queued (its endpoint’s)' })
  format: WebhookFormatEnum;

  @Field(() => String, { description: 'pending (queued or waiting for a retry), delivered, or failed (retries exhausted)' })
  status: string;

  @Field(() => Int, { description: 'attempts made so far' })
  attempt: number;

  @Field(() => Int, { nullable: true, description: 'the HTTP status of the last attempt; null when it got none' })
  statusCode: number | null;

  @Field(() => String, { nullable: true, description: 'why the last attempt failed' })
  error: string | null;

  @Field(() => Int, { nullable: true })
  durationMs: number | null;

  @Field(() => Date, { nullable: true, description: 'when the last attempt was made' })
  attemptedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'when the next attempt is due; null once delivered or failed' })
  nextAttemptAt: Date | null;

  @Field(() => [WebhookAttemptType], { description: 'every attempt made, newest first (kept as long as the delivery is)' })
  attempts: WebhookAttemptType[];

  @Field(() => Date)
  createdAt: Date;
}

@ObjectType('WebhookTest')
export class WebhookTestType {
  @Field(() => String)
  eventId: string;

  @Field(() => String)
  eventType: string;
}

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @Field(() => String, { description: 'http or https; private, loopback and link-local addresses are refused; SLACK and TEAMS need https and a host on CHAT_WEBHOOK_HOSTS' })
  url: string;

  @Field(() => WebhookFormatEnum, { nullable: true, description: 'default STANDARD (signed JSON); SLACK or TEAMS for a chat channel’s incoming webhook' })
  format?: WebhookFormatEnum | null;

  @Field(() => [EventTypeEnum])
  events: EventTypeEnum[];

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'default false: only the bills on your watchlists' })
  allBills?: boolean | null;
}

@InputType('UpdateWebhookInput')
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => [EventTypeEnum], { nullable: true })
  events?: EventTypeEnum[] | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  allBills?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'true re-enables an endpoint (also one the service disabled)' })
  active?: boolean | null;

  @Field(() => WebhookFormatEnum, { nullable: true, description: 'the format stays as registered: only the same format is accepted (a different one is BAD_USER_INPUT; register a new endpoint)' })
  format?: WebhookFormatEnum | null;
}
