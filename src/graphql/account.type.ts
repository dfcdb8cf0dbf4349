import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Tier } from './enums';

@ObjectType('Account', { description: 'The calling account' })
export class AccountType {
  @Field(() => Int)
  id: number;

  @Field(() => String)
  email: string;

  @Field(() => Tier)
  tier: Tier;
}

@ObjectType('OutboxMessage', { description: 'An email the service would have sent, kept in the local mailbox (the service has no SMTP server configured)' })
export class OutboxMessageType {
  @Field(() => Int)
  id: number;

  @Field(() => String, { description: 'the address it was for' })
  to: string;

  @Field(() => String)
  subject: string;

  @Field(() => String, { description: 'the plain-text part' })
  text: string;

  @Field(() => String, { description: 'its Message-ID header' })
  messageId: string;

  @Field(() => String, { description: 'its X-Bill-Progress-Event-Id header: the event it tells of, or the email’s own id (mail_…)' })
  eventId: string;

  @Field(() => Date)
  deliveredAt: Date;
}

@ObjectType('TestEmail', { description: 'A test email queued in the mail outbox, sent as alerts are (over SMTP, or into the local mailbox)' })
export class TestEmailType {
  @Field(() => String, { description: 'the verified address it goes to' })
  to: string;

  @Field(() => String, { description: 'its X-Bill-Progress-Event-Id header (mail_…), as the outbox lists it' })
  eventId: string;
}

@ObjectType('DigestPreview', { description: 'The account’s next digest email as it would be if sent now (issue 33; docs/api-channels.md, "Email")' })
export class DigestPreviewType {
  @Field(() => Date, { description: 'when it goes (its slot’s next time, Europe/London)' })
  at: Date;

  @Field(() => String, { description: '`daily 08:00` or `weekly monday 08:00` (Europe/London)' })
  slot: string;

  @Field(() => [Int], { description: 'the watchlists set to that slot' })
  watchlistIds: number[];

  @Field(() => String)
  subject: string;

  @Field(() => String, { description: 'the plain-text part' })
  text: string;

  @Field(() => String, { description: 'the HTML part' })
  html: string;
}

@ObjectType('DashboardSession', { description: 'The account dashboard’s signed-in browser' })
export class DashboardSessionType {
  @Field(() => AccountType, { description: 'The account signed in' })
  account: AccountType;
}

@ObjectType('Usage', { description: 'Today’s use of one daily limit (per account, per UTC day)' })
export class UsageType {
  @Field(() => String, { description: 'calls (API calls), batches (batch requests) or predictions' })
  kind: string;

  @Field(() => Int)
  used: number;

  @Field(() => Int, { description: 'the tier’s daily limit (a fair-use ceiling for unlimited)' })
  limit: number;

  @Field(() => Date, { description: 'the next midnight UTC' })
  resetsAt: Date;
}

@ObjectType('ApiKey', { description: 'An API key as its owner sees it: never the key itself' })
export class ApiKeyType {
  @Field(() => String, { description: 'the key’s first characters, e.g. bp_0123abcd' })
  prefix: string;

  @Field(() => String, { nullable: true })
  name: string | null;

  @Field(() => Date)
  createdAt: Date;

  @Field(() => Date, { nullable: true })
  lastUsedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'null while the key works' })
  revokedAt: Date | null;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyType {
  @Field(() => String, { description: 'the key: shown this once, never stored' })
  apiKey: string;

  @Field(() => ApiKeyType)
  key: ApiKeyType;
}

@InputType('Credentials')
export class CredentialsInput {
  @Field(() => String)
  email: string;

  @Field(() => String)
  password: string;
}
