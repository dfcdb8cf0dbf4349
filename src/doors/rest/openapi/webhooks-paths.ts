import { EVENT_TYPES, PRO_EVENT_TYPES, WEBHOOK_FORMATS } from '../../../vocabulary';
import { commonErrors, deleted, error, idParam, jsonBody, ok, timestamp } from './common';

// Webhook endpoints (issue 10; specification 4.6 and 6 show no shapes: these are ours).

const EVENT_TYPE_SCHEMA = { type: 'string', enum: [...EVENT_TYPES], description: `${PRO_EVENT_TYPES.join(', ')} need the pro tier` };

const FORMAT_SCHEMA = {
  type: 'string',
  enum: [...WEBHOOK_FORMATS],
  description:
    'standard: the event’s JSON, signed (Standard Webhooks headers); slack: a Slack incoming-webhook message (`text`, `blocks`); teams: a Teams Workflows message (`type: message`, one Adaptive Card attachment). slack and teams are unsigned, need https and a host on the service’s CHAT_WEBHOOK_HOSTS (by default hooks.slack.com, *.webhook.office.com, *.logic.azure.com, *.powerplatform.com)',
};

const WEBHOOK_EXAMPLE = {
  id: 3,
  url: 'https://hooks.example.com/bill-progress',
  format: 'standard',
  events: ['bill.stage_changed', 'prediction.updated'],
  description: 'Marriage law alerts',
  all_bills: false,
  active: true,
  disabled_reason: null,
  inactive_events: [],
  inactive_reason: null,
  created_at: '2026-11-24T12:00:00.000Z',
};
const SECRET_EXAMPLE = { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7Nc9lXkJ2zE=' };
const DELIVERY_EXAMPLE = {
  event_id: 'evt_5f2b0c3a9d6e4f1a8b7c6d5e4f3a2b1c',
  event_type: 'bill.stage_changed',
  format: 'standard',
  status: 'delivered',
  attempt: 2,
  status_code: 200,
  error: null,
  duration_ms: 41,
  attempted_at: '2026-11-24T12:00:05.120Z',
  next_attempt_at: null,
  created_at: '2026-11-24T12:00:00.010Z',
  attempts: [
    { attempt: 2, status_code: 200, error: null, duration_ms: 41, attempted_at: '2026-11-24T12:00:05.120Z' },
    { attempt: 1, status_code: 500, error: 'HTTP 500', duration_ms: 87, attempted_at: '2026-11-24T12:00:00.030Z' },
  ],
};

const notYours = error('no such webhook of yours (another account’s answers the same)', 'webhook 3 does not exist');
const tierErrors = {
  '403': error('the free tier, a pro-only event type below the pro tier (named), or more than 10 endpoints', 'prediction.trending_up needs the pro tier (pro-only event types: prediction.probability_spike, prediction.trending_up, prediction.crossed_threshold)'),
};
const badUrl = error(
  'a bad field (named): an unknown event type or format, a URL that is not http(s) or whose host is a private, loopback, link-local or metadata address; for slack and teams a URL that is not https or whose host is not on CHAT_WEBHOOK_HOSTS; a change of format',
  'unknown event type "bill.passed"; the event types are …',
);

const endpointProperties = {
  id: { type: 'integer' },
  url: { type: 'string', format: 'uri' },
  format: { ...FORMAT_SCHEMA, description: `${FORMAT_SCHEMA.description}. Chosen at registration` },
  events: { type: 'array', items: EVENT_TYPE_SCHEMA },
  description: { type: ['string', 'null'] },
  all_bills: { type: 'boolean', description: 'true: every bill in the data; false: the bills on your watchlists' },
  active: { type: 'boolean', description: 'false when disabled by you or by the service (see disabled_reason); PATCH active: true re-enables' },
  disabled_reason: { type: ['string', 'null'], description: 'why the service disabled it: every attempt failed for 3 days' },
  inactive_events: { type: 'array', items: EVENT_TYPE_SCHEMA, description: 'its event types your tier does not receive now (pro-only types after a downgrade from pro): kept, and sent again after an upgrade' },
  inactive_reason: { type: ['string', 'null'], description: 'why inactive_events are not sent; null when every event type is' },
  created_at: timestamp,
};
const writable = {
  url: {
    type: 'string',
    format: 'uri',
    maxLength: 2048,
    description: 'http or https; loopback, private, link-local and metadata addresses are refused (checked again at each delivery); for slack and teams https and a host on CHAT_WEBHOOK_HOSTS',
  },
  events: { type: 'array', minItems: 1, items: EVENT_TYPE_SCHEMA },
  description: { type: ['string', 'null'], maxLength: 500 },
  all_bills: { type: 'boolean', default: false },
};

export const WEBHOOK_SCHEMAS = {
  WebhookRequest: { type: 'object', required: ['url', 'events'], additionalProperties: false, properties: { ...writable, format: { ...FORMAT_SCHEMA, default: 'standard' } } },
  WebhookUpdate: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: { ...writable, active: { type: 'boolean' }, format: { ...FORMAT_SCHEMA, description: 'stays as registered: only the same format is accepted; for another, register a new endpoint' } },
  },
  RecoverRequest: { type: 'object', required: ['since'], additionalProperties: false, properties: { since: { ...timestamp, description: 'failed deliveries created since then are queued again' } } },
  Webhook: { type: 'object', required: Object.keys(endpointProperties), properties: endpointProperties },
  WebhookWithSecret: {
    type: 'object',
    required: [...Object.keys(endpointProperties), 'secret'],
    properties: { ...endpointProperties, secret: { type: 'string', description: '`whsec_` + base64 of 32 random bytes; shown only in this answer. It signs the standard format only: slack and teams deliveries are unsigned' } },
  },
  WebhookList: { type: 'object', required: ['webhooks'], properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/Webhook' } } } },
  Delivery: {
    type: 'object',
    required: Object.keys(DELIVERY_EXAMPLE),
    properties: {
      event_id: { type: 'string', description: 'sent as webhook-id on every attempt' },
      event_type: { type: 'string' },
      format: { ...FORMAT_SCHEMA, description: 'the format its body was built in when queued (its endpoint’s)' },
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'], description: 'failed: the 10 attempts were all refused; POST …/recover queues it again' },
      attempt: { type: 'integer', description: 'attempts made' },
      status_code: { type: ['integer', 'null'], description: 'HTTP status of the last attempt; null when none came (timeout, refused connection, refused address)' },
      error: { type: ['string', 'null'] },
      duration_ms: { type: ['integer', 'null'] },
      attempted_at: { type: ['string', 'null'], format: 'date-time' },
      next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'null once delivered or failed' },
      created_at: timestamp,
      attempts: { type: 'array', description: 'every attempt made, newest first; kept as long as the delivery is', items: { $ref: '#/components/schemas/DeliveryAttempt' } },
    },
  },
  DeliveryAttempt: {
    type: 'object',
    required: ['attempt', 'status_code', 'error', 'duration_ms', 'attempted_at'],
    properties: {
      attempt: { type: 'integer', description: 'its number in the retry schedule, from 1 (a recovery starts the count again)' },
      status_code: { type: ['integer', 'null'], description: 'the HTTP status answered; null when none came (timeout, connection error, address not allowed)' },
      error: { type: ['string', 'null'], description: 'why it failed, e.g. `HTTP 500`, `no complete answer within 10 s`, `address not allowed`; null when delivered' },
      duration_ms: { type: 'integer' },
      attempted_at: timestamp,
    },
  },
  DeliveryList: { type: 'object', required: ['deliveries'], properties: { deliveries: { type: 'array', items: { $ref: '#/components/schemas/Delivery' } } } },
  WebhookTest: { type: 'object', required: ['event_id', 'event_type', 'queued'], properties: { event_id: { type: 'string' }, event_type: { const: 'webhook.test' }, queued: { const: true } } },
  Recovered: { type: 'object', required: ['id', 'since', 'queued'], properties: { id: { type: 'integer' }, since: timestamp, queued: { type: 'integer', description: 'deliveries queued again' } } },
};

const id = idParam('id', 'the webhook endpoint');

export const WEBHOOK_PATHS = {
  '/webhooks': {
    get: { operationId: 'listWebhooks', summary: 'Your webhook endpoints, oldest first; never their secrets (pilot and above)', responses: { '200': ok('#/components/schemas/WebhookList', 'success', { webhooks: [WEBHOOK_EXAMPLE] }), ...commonErrors } },
    post: {
      operationId: 'createWebhook',
      summary: 'Register an endpoint (standard, slack or teams); answers 200 with it and its signing secret, shown only here (slack and teams deliveries are unsigned). At most 10 per account',
      requestBody: jsonBody('#/components/schemas/WebhookRequest', {
        watchlists: { summary: 'stage changes and prediction updates of the bills on your watchlists', value: { url: 'https://hooks.example.com/bill-progress', events: ['bill.stage_changed', 'prediction.updated'], description: 'Marriage law alerts' } },
        everything: { summary: 'every bill in the data', value: { url: 'https://hooks.example.com/all', events: ['bill.stage_changed'], all_bills: true } },
        slack: { summary: 'a Slack channel (an incoming webhook’s URL)', value: { url: 'https://hooks.slack.com/services/T000/B000/XXXX', format: 'slack', events: ['bill.stage_changed', 'prediction.high_probability'] } },
        teams: { summary: 'a Teams channel (a Workflows webhook’s URL)', value: { url: 'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=XXXX', format: 'teams', events: ['bill.stage_scheduled'] } },
      }),
      responses: { '200': ok('#/components/schemas/WebhookWithSecret', 'created', SECRET_EXAMPLE), ...commonErrors, '400': badUrl, ...tierErrors },
    },
  },
  '/webhooks/{id}': {
    get: { operationId: 'getWebhook', summary: 'One endpoint (never its secret)', parameters: [id], responses: { '200': ok('#/components/schemas/Webhook', 'success', WEBHOOK_EXAMPLE), '404': notYours, ...commonErrors } },
    patch: {
      operationId: 'updateWebhook',
      summary: 'Change url, events, description, all_bills or active; active: true re-enables an endpoint the service disabled. The format stays as registered',
      parameters: [id],
      requestBody: jsonBody('#/components/schemas/WebhookUpdate', { enable: { summary: 're-enable', value: { active: true } } }),
      responses: { '200': ok('#/components/schemas/Webhook', 'the changed endpoint', WEBHOOK_EXAMPLE), '404': notYours, ...commonErrors, '400': badUrl, ...tierErrors },
    },
    delete: { operationId: 'deleteWebhook', summary: 'Delete an endpoint; its pending deliveries are dropped', parameters: [id], responses: { '200': deleted('webhook'), '404': notYours, ...commonErrors } },
  },
  '/webhooks/{id}/rotate-secret': {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'A new signing secret (shown only here); the previous one keeps signing for 24 hours, so webhook-signature carries two signatures meanwhile',
      parameters: [id],
      responses: { '200': ok('#/components/schemas/WebhookWithSecret', 'the endpoint and its new secret', SECRET_EXAMPLE), '404': notYours, ...commonErrors },
    },
  },
  '/webhooks/{id}/test': {
    post: {
      operationId: 'testWebhook',
      summary: 'Queue a webhook.test event to this endpoint (whatever its event types); see it under deliveries',
      parameters: [id],
      responses: {
        '200': ok('#/components/schemas/WebhookTest', 'queued', { event_id: 'evt_0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a', event_type: 'webhook.test', queued: true }),
        '404': notYours,
        ...commonErrors,
        '429': {
          ...commonErrors['429'],
          ...error(
            'the endpoint already has 10 test events pending (queued or waiting for a retry: no rate-limit headers then), or a limit of the API as on every operation (with its headers)',
            'at most 10 test events may be pending (queued or waiting for a retry) per endpoint; this one has 10: see its deliveries, and test again once they are delivered or have failed',
          ),
        },
      },
    },
  },
  '/webhooks/{id}/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: 'The endpoint’s deliveries, newest first, each with its last attempt and every attempt made (`attempts`, newest first)',
      parameters: [id, { name: 'limit', in: 'query', required: false, description: 'how many (default 50)', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
      responses: { '200': ok('#/components/schemas/DeliveryList', 'success', { deliveries: [DELIVERY_EXAMPLE] }), '404': notYours, ...commonErrors },
    },
  },
  '/webhooks/{id}/recover': {
    post: {
      operationId: 'recoverWebhookDeliveries',
      summary: 'Queue again every delivery that failed (retries exhausted) since a time, from a fresh retry schedule',
      parameters: [id],
      requestBody: jsonBody('#/components/schemas/RecoverRequest', { lastDay: { summary: 'since a time', value: { since: '2026-11-23T00:00:00Z' } } }),
      responses: { '200': ok('#/components/schemas/Recovered', 'queued again', { id: 3, since: '2026-11-23T00:00:00.000Z', queued: 4 }), '404': notYours, ...commonErrors },
    },
  },
};
