import type { RouteTable } from './route-table';
import { badInput } from '../../errors';
import type { Gateway } from '../../gateway/pipeline';
import { EVENT_TYPES, isOneOf, WEBHOOK_FORMATS } from '../../vocabulary';
import { heldToDocument } from './documented-operations';
import type { RunOperation } from './run-operation';
import { deleted, idParam, integerQuery, jsonObject } from './params';
import { type Handler, route } from './route';
import { delivery, eventTypeNames, formatName, webhook, webhookWithSecret } from './webhook.mapper';

const MAX_DELIVERIES = 100;
/** 2026-11-24, 2026-11-24T09:30:00Z, 2026-11-24T09:30:00.5+01:00 */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** `events` as the GraphQL enum's names; an unknown type is a 400 naming it (the pro-only ones are the service's to refuse). */
function eventsParam(value: unknown) {
  if (!Array.isArray(value) || !value.length) throw badInput(`events must be a non-empty array of event types: ${EVENT_TYPES.join(', ')}`);
  for (const type of value) if (!isOneOf(EVENT_TYPES, type)) throw badInput(`unknown event type ${JSON.stringify(type)}; the event types are ${EVENT_TYPES.join(', ')}`);
  return eventTypeNames(value as (typeof EVENT_TYPES)[number][]);
}

/** `format` as the GraphQL enum's name; an unknown one is a 400 listing them. */
function formatParam(value: unknown) {
  if (!isOneOf(WEBHOOK_FORMATS, value)) throw badInput(`format must be one of ${WEBHOOK_FORMATS.join(', ')} (standard: signed JSON events; slack, teams: chat messages)`);
  return formatName(value);
}

function optional<T>(body: Record<string, unknown>, name: string, check: (value: unknown) => T): T | undefined {
  return body[name] === undefined ? undefined : check(body[name]);
}

const string = (name: string, nullable: boolean) => (value: unknown) => {
  if (value === null && nullable) return null;
  if (typeof value !== 'string') throw badInput(`${name} must be a string`);
  return value;
};
const boolean = (name: string) => (value: unknown) => {
  if (typeof value !== 'boolean') throw badInput(`${name} must be true or false`);
  return value;
};

/** Webhook endpoints (issue 10): each route runs one named GraphQL operation, as every REST route does. */
export function addWebhookRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get('/webhooks', handle(async (_req, context) => ({ webhooks: (await run('ListWebhooks', {}, context)).webhooks.map(webhook) })));

  router.post(
    '/webhooks',
    handle(async (req, context) => {
      const body = jsonObject(req);
      if (body.url === undefined) throw badInput('url is required');
      if (body.events === undefined) throw badInput('events is required');
      const input = {
        url: string('url', false)(body.url),
        format: optional(body, 'format', formatParam) ?? null,
        events: eventsParam(body.events),
        description: optional(body, 'description', string('description', true)) ?? null,
        allBills: optional(body, 'all_bills', boolean('all_bills')) ?? null,
      };
      return webhookWithSecret((await run('CreateWebhook', { input }, context)).createWebhook);
    }),
  );

  router.get('/webhooks/:id', handle(async (req, context) => webhook((await run('GetWebhook', { id: idParam(req.params.id, 'id') }, context)).webhook)));

  router.patch(
    '/webhooks/:id',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      const body = jsonObject(req);
      const input = {
        url: optional(body, 'url', string('url', false)),
        events: optional(body, 'events', eventsParam),
        description: optional(body, 'description', string('description', true)),
        allBills: optional(body, 'all_bills', boolean('all_bills')),
        active: optional(body, 'active', boolean('active')),
        format: optional(body, 'format', formatParam),
      };
      if (Object.values(input).every((value) => value === undefined)) throw badInput('give at least one of url, events, description, all_bills, active');
      return webhook((await run('UpdateWebhook', { id, input }, context)).updateWebhook);
    }),
  );

  router.delete(
    '/webhooks/:id',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      await run('DeleteWebhook', { id }, context);
      return deleted(id);
    }),
  );

  router.post(
    '/webhooks/:id/rotate-secret',
    handle(async (req, context) => webhookWithSecret((await run('RotateWebhookSecret', { id: idParam(req.params.id, 'id') }, context)).rotateWebhookSecret)),
  );

  router.post(
    '/webhooks/:id/test',
    handle(async (req, context) => {
      const test = (await run('TestWebhook', { id: idParam(req.params.id, 'id') }, context)).testWebhook;
      return { event_id: test.eventId, event_type: test.eventType, queued: true };
    }),
  );

  router.get(
    '/webhooks/:id/deliveries',
    handle(async (req, context) => {
      const variables = { id: idParam(req.params.id, 'id'), first: integerQuery(req, 'limit', 50, 1, MAX_DELIVERIES) };
      return { deliveries: (await run('WebhookDeliveries', variables, context)).webhookDeliveries.map(delivery) };
    }),
  );

  router.post(
    '/webhooks/:id/recover',
    handle(async (req, context) => {
      const id = idParam(req.params.id, 'id');
      const body = jsonObject(req);
      if (typeof body.since !== 'string' || !ISO_DATE_TIME.test(body.since) || Number.isNaN(Date.parse(body.since))) throw badInput('since must be a date and time, ISO 8601 (e.g. 2026-11-24T00:00:00Z)');
      const since = new Date(body.since).toISOString();
      const queued = (await run('RecoverWebhookDeliveries', { id, since }, context)).recoverWebhookDeliveries;
      return { id, since, queued };
    }),
  );

}
