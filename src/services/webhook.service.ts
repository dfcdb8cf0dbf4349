import { type DataSource, type EntityManager, In } from 'typeorm';
import { WebhookAttemptEntity } from '../db/entities/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../db/entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../db/entities/webhook-endpoint.entity';
import { AppError, badInput, notFound } from '../errors';
import { tierReceives } from '../events/audience';
import type { ServiceEvent } from '../events/event';
import { EVENT_TYPES, type EventType, isChatFormat, isOneOf, PRO_EVENT_TYPES, type Tier, WEBHOOK_FORMATS, type WebhookFormat } from '../vocabulary';
import { deliveryBody, insertDeliveries } from '../events/webhooks/outbox';
import type { OutboxHandoff } from '../events/webhooks/handoff';
import type { SecretBox } from '../events/webhooks/secret-box';
import { newSigningSecret } from '../events/webhooks/signing';
import { newEventId } from '../events/payloads';
import { parseWebhookUrl, safeAddresses, safeChatAddresses, UnsafeUrlError, type UrlPolicy } from '../events/webhooks/url-safety';

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** How long the secret before a rotation keeps signing. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 3_600_000;
export const MAX_DELIVERIES_PAGE = 100;
/** Test events waiting (queued or retrying) per endpoint at most: a test to a receiver that never answers cannot pile up. */
export const MAX_PENDING_TESTS = 10;

/** A delivery with every attempt made of it, newest first. */
export type DeliveryRecord = WebhookDeliveryEntity & { attempts: Pick<WebhookAttemptEntity, 'attempt' | 'statusCode' | 'error' | 'durationMs' | 'attemptedAt'>[] };

export interface WebhookInput {
  url?: unknown;
  events?: unknown;
  description?: unknown;
  allBills?: unknown;
  active?: unknown;
  /** at registration only: standard (the default), slack or teams */
  format?: unknown;
}

export interface WebhookWithSecret {
  endpoint: WebhookEndpointEntity;
  secret: string;
}


function parseEvents(value: unknown, tier: Tier): EventType[] {
  if (!Array.isArray(value) || !value.length) throw badInput(`events must be a non-empty array of event types: ${EVENT_TYPES.join(', ')}`, 'events');
  for (const type of value) if (!isOneOf(EVENT_TYPES, type)) throw badInput(`unknown event type ${JSON.stringify(type)}; the event types are ${EVENT_TYPES.join(', ')}`, 'events');
  const proOnly = (value as EventType[]).filter((type) => !tierReceives(tier, type));
  if (proOnly.length) throw new AppError('FORBIDDEN', `${proOnly.join(', ')} ${proOnly.length === 1 ? 'needs' : 'need'} the pro tier (pro-only event types: ${PRO_EVENT_TYPES.join(', ')})`);
  return [...new Set(value as EventType[])];
}

function parseFormat(value: unknown): WebhookFormat {
  if (value === undefined || value === null) return 'standard';
  if (!isOneOf(WEBHOOK_FORMATS, value)) throw badInput(`format must be one of ${WEBHOOK_FORMATS.join(', ')} (standard: signed JSON events; slack, teams: chat messages)`, 'format');
  return value;
}

function parseDescription(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION_LENGTH) throw badInput(`description must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters`, 'description');
  return value;
}

function parseBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw badInput(`${name} must be true or false`, name);
  return value;
}

/**
 * Webhook endpoints of one account (Pilot and above; any other account's answer 404), their
 * secrets, test events and the record of their deliveries. The worker (src/events/webhooks/) sends.
 */
/** Said where a local or private receiver is refused: registering one is what a first test of webhooks does. */
const PRIVATE_RECEIVER_HINT =
  'To test with a receiver on this machine or your own network, start the server with WEBHOOK_ALLOW_PRIVATE=true (an operator setting; it still refuses link-local, metadata and reserved addresses)';

export class WebhookService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: SecretBox,
    private readonly urlPolicy: UrlPolicy,
    private readonly now: () => Date,
    /** PUBLIC_URL: where a chat test message links to */
    private readonly publicUrl: string,
    /** told when deliveries were queued outside a refresh (a test event, a recovery), for this process's delivery worker */
    private readonly handoff?: OutboxHandoff,
  ) {}

  /** The URL as an endpoint of this format may have it: every format's rules, and a chat format's https and hosts. */
  private async parseUrl(value: unknown, format: WebhookFormat): Promise<string> {
    if (typeof value !== 'string' || !value || value.length > MAX_URL_LENGTH) throw badInput(`url must be an http or https URL of at most ${MAX_URL_LENGTH} characters`, 'url');
    try {
      const url = parseWebhookUrl(value);
      await (isChatFormat(format) ? safeChatAddresses(url, format, this.urlPolicy) : safeAddresses(url, this.urlPolicy));
      return url.toString();
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw badInput(error.allowedWithPrivate ? `${error.message}. ${PRIVATE_RECEIVER_HINT}` : error.message, 'url');
      throw error;
    }
  }

  list(accountId: number): Promise<WebhookEndpointEntity[]> {
    return this.dataSource.getRepository(WebhookEndpointEntity).find({ where: { accountId }, order: { id: 'ASC' } });
  }

  /** The caller's endpoint, or 404 whether it does not exist or is someone else's. */
  async get(accountId: number, id: number, manager: EntityManager = this.dataSource.manager): Promise<WebhookEndpointEntity> {
    const endpoint = Number.isSafeInteger(id) ? await manager.getRepository(WebhookEndpointEntity).findOneBy({ id, accountId }) : null;
    if (!endpoint) throw notFound(`webhook ${id} does not exist`);
    return endpoint;
  }

  async create(accountId: number, tier: Tier, input: WebhookInput): Promise<WebhookWithSecret> {
    const format = parseFormat(input.format);
    const url = await this.parseUrl(input.url, format);
    const events = parseEvents(input.events, tier);
    const description = parseDescription(input.description);
    const allBills = input.allBills === undefined || input.allBills === null ? false : parseBoolean(input.allBills, 'allBills');
    // a chat endpoint gets a secret too, unused (its deliveries go unsigned): every endpoint has one, so rotation and the answers stay one shape
    const secret = newSigningSecret();
    const endpoint = await this.dataSource.transaction(async (manager) => {
      // one create at a time per account, so two at once cannot pass the limit together
      await manager.query('SELECT id FROM account WHERE id = $1 FOR UPDATE', [accountId]);
      const count = await manager.getRepository(WebhookEndpointEntity).countBy({ accountId });
      if (count >= MAX_WEBHOOKS_PER_ACCOUNT) throw new AppError('FORBIDDEN', `an account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one first`);
      return manager.getRepository(WebhookEndpointEntity).save({ accountId, url, format, events, description, allBills, active: true, disabledReason: null, secretSealed: this.secrets.seal(secret) });
    });
    return { endpoint, secret };
  }

  /**
   * Changes what is given; `active: true` re-enables an endpoint the service disabled. The format is
   * not among them: a Slack URL is no Teams URL, and deliveries queued in one format must not reach
   * an address that expects another, so a new format is a new endpoint.
   */
  async update(accountId: number, tier: Tier, id: number, input: WebhookInput): Promise<WebhookEndpointEntity> {
    const endpoint = await this.get(accountId, id);
    if (input.format !== undefined && input.format !== null && input.format !== endpoint.format) {
      throw badInput(`an endpoint's format is chosen when it is registered and stays: register a new endpoint with format ${JSON.stringify(input.format)} and its URL, then delete this one`, 'format');
    }
    if (input.url !== undefined && input.url !== null) endpoint.url = await this.parseUrl(input.url, endpoint.format);
    if (input.events !== undefined && input.events !== null) endpoint.events = parseEvents(input.events, tier);
    if (input.description !== undefined) endpoint.description = parseDescription(input.description);
    if (input.allBills !== undefined && input.allBills !== null) endpoint.allBills = parseBoolean(input.allBills, 'allBills');
    if (input.active !== undefined && input.active !== null) {
      endpoint.active = parseBoolean(input.active, 'active');
      endpoint.disabledReason = null;
      // a fresh start: three more days before failures disable it again
      endpoint.failingSince = null;
    }
    await this.dataSource.getRepository(WebhookEndpointEntity).save(endpoint);
    return endpoint;
  }

  /** Deletes the endpoint with its deliveries: pending ones are never sent. */
  async delete(accountId: number, id: number): Promise<void> {
    await this.get(accountId, id);
    await this.dataSource.getRepository(WebhookEndpointEntity).delete({ id, accountId });
  }

  /** A new secret; the one it replaces signs too for 24 hours, so receivers can switch without losing events. */
  async rotateSecret(accountId: number, id: number): Promise<WebhookWithSecret> {
    const endpoint = await this.get(accountId, id);
    const secret = newSigningSecret();
    endpoint.previousSecretSealed = endpoint.secretSealed;
    endpoint.previousSecretExpiresAt = new Date(this.now().getTime() + PREVIOUS_SECRET_LIFETIME_MS);
    endpoint.secretSealed = this.secrets.seal(secret);
    await this.dataSource.getRepository(WebhookEndpointEntity).save(endpoint);
    return { endpoint, secret };
  }

  /** The secrets that sign an attempt made now: the current one, and the previous one within 24 hours of a rotation. */
  signingSecrets(endpoint: Pick<WebhookEndpointEntity, 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt'>, at: Date): string[] {
    return this.secrets.signingSecrets(endpoint, at);
  }

  /** Queues a `webhook.test` event to this endpoint alone (whatever its event types). */
  async queueTest(accountId: number, id: number): Promise<ServiceEvent> {
    const endpoint = await this.get(accountId, id);
    const now = this.now();
    const event: ServiceEvent = {
      id: newEventId(),
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: { bill_id: 0, webhook_id: endpoint.id, message: 'A test event from Bill Progress: this endpoint receives and verifies deliveries.' },
      accountId,
    };
    await this.dataSource.transaction(async (manager) => {
      // one test at a time per endpoint, so two at once cannot pass the limit together
      await manager.query('SELECT id FROM webhook_endpoint WHERE id = $1 FOR UPDATE', [endpoint.id]);
      const [{ n }] = (await manager.query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1 AND event_type = 'webhook.test' AND status = 'pending'`, [endpoint.id])) as { n: number }[];
      if (n >= MAX_PENDING_TESTS) {
        throw new AppError('RATE_LIMITED', `at most ${MAX_PENDING_TESTS} test events may be pending (queued or waiting for a retry) per endpoint; this one has ${n}: see its deliveries, and test again once they are delivered or have failed`);
      }
      await insertDeliveries(manager, [{ endpointId: endpoint.id, event, format: endpoint.format, body: deliveryBody(endpoint.format, event, new Map(), this.publicUrl) }], now);
    });
    this.handoff?.queued();
    return event;
  }

  /** The endpoint's deliveries, newest first, each with its attempts, newest first. */
  async deliveries(accountId: number, id: number, limit: number): Promise<DeliveryRecord[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES_PAGE) throw badInput(`limit must be an integer from 1 to ${MAX_DELIVERIES_PAGE}`, 'limit');
    await this.get(accountId, id);
    const deliveries = await this.dataSource.getRepository(WebhookDeliveryEntity).find({ where: { endpointId: id }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    const attempts = deliveries.length
      ? await this.dataSource.getRepository(WebhookAttemptEntity).find({ where: { deliveryId: In(deliveries.map((d) => d.id)) }, order: { attemptedAt: 'DESC', id: 'DESC' } })
      : [];
    const byDelivery = new Map(deliveries.map((d) => [d.id, [] as Pick<WebhookAttemptEntity, 'attempt' | 'statusCode' | 'error' | 'durationMs' | 'attemptedAt'>[]]));
    for (const attempt of attempts) byDelivery.get(attempt.deliveryId)!.push(attempt);
    for (const d of deliveries) {
      // a delivery that succeeded at its first attempt has no attempt row (RECORD_DELIVERED): its last_* columns are that attempt
      const listed = byDelivery.get(d.id)!;
      if (d.lastAttemptAt && !listed.some((a) => a.attemptedAt.getTime() === d.lastAttemptAt!.getTime())) {
        listed.unshift({ attempt: d.attempt, statusCode: d.lastStatusCode, error: d.lastError, durationMs: d.lastDurationMs ?? 0, attemptedAt: d.lastAttemptAt });
      }
    }
    return deliveries.map((d) => Object.assign(d, { attempts: byDelivery.get(d.id)! }));
  }

  /** Queues again every delivery that failed (gave up) since `since`, from a fresh retry schedule; the number queued. */
  async recover(accountId: number, id: number, since: Date): Promise<number> {
    if (!(since instanceof Date) || Number.isNaN(since.getTime())) throw badInput('since must be a date and time (ISO 8601)', 'since');
    await this.get(accountId, id);
    const rows = (await this.dataSource.query(
      `UPDATE webhook_delivery SET status = 'pending', attempt = 0, next_attempt_at = $3, claimed_at = NULL
        WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2 RETURNING id`,
      [id, since, this.now()],
    )) as [unknown[], number] | unknown[];
    const count = Array.isArray(rows[0]) ? (rows[0] as unknown[]).length : rows.length;
    if (count) this.handoff?.queued();
    return count;
  }
}
