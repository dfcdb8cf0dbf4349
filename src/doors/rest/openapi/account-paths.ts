import { EVENT_TYPES } from '../../../vocabulary';
import { commonErrors, error, idParam, jsonBody, ok, rateLimitHeaders, timestamp } from './common';

// Issue 33, email: the calling account and its email (docs/api-channels.md, "Email").

const ACCOUNT_SCHEMA = {
  type: 'object',
  required: ['id', 'email', 'tier', 'email_status'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    email: { type: 'string', format: 'email' },
    tier: { type: 'string', enum: ['free', 'pilot', 'pro'] },
    email_status: {
      type: 'string',
      enum: ['UNVERIFIED', 'VERIFIED', 'SUPPRESSED'],
      description: 'UNVERIFIED until a verification link is opened (nothing but the verification email is sent meanwhile); SUPPRESSED after the address was refused for good (an SMTP 5xx), until verified again',
    },
  },
};

const OUTBOX_SCHEMA = {
  type: 'object',
  required: ['messages'],
  additionalProperties: false,
  properties: {
    messages: {
      type: 'array',
      maxItems: 100,
      description: 'newest first; empty when the service sends over SMTP',
      items: {
        type: 'object',
        required: ['id', 'to', 'subject', 'text', 'message_id', 'event_id', 'delivered_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          to: { type: 'string' },
          subject: { type: 'string' },
          text: { type: 'string', description: 'the plain-text part' },
          message_id: { type: 'string', description: 'the Message-ID header' },
          event_id: { type: 'string', description: 'the X-Bill-Progress-Event-Id header: the event told of, or the email’s own id (`mail_…`)' },
          delivered_at: timestamp,
        },
      },
    },
  },
};

const DIGEST_PREVIEW_SCHEMA = {
  type: 'object',
  required: ['next_digest'],
  additionalProperties: false,
  properties: {
    next_digest: {
      description: 'null when no daily or weekly watchlist of the account has anything changed (no digest would be sent)',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['at', 'slot', 'watchlist_ids', 'subject', 'text', 'html'],
          additionalProperties: false,
          properties: {
            at: { ...timestamp, description: 'when it goes: its slot’s next time (Europe/London)' },
            slot: { type: 'string', description: '`daily HH:MM` or `weekly <day> HH:MM` (Europe/London)' },
            watchlist_ids: { type: 'array', items: { type: 'integer' }, description: 'the watchlists set to that slot' },
            subject: { type: 'string' },
            text: { type: 'string', description: 'the plain-text part' },
            html: { type: 'string', description: 'the HTML part' },
          },
        },
      ],
    },
  },
};

const notYours = error('no such watchlist of yours (another account’s answers the same)', 'watchlist 7 does not exist');
const NOTIFICATIONS_EXAMPLE = { watchlist_id: 7, email: 'instant', time: '08:00', day: 'monday', events: ['bill.stage_changed', 'bill.stage_scheduled', 'prediction.imminent_stage_change'] };

const json = (schema: unknown, example: unknown, description = 'success') => ({ description, headers: rateLimitHeaders, content: { 'application/json': { schema, example } } });

export const ACCOUNT_PATHS = {
  '/account': {
    get: {
      operationId: 'getAccount',
      summary: 'The account the API key belongs to: its address, tier and email status',
      responses: { '200': json(ACCOUNT_SCHEMA, { id: 12, email: 'analyst@example.com', tier: 'pilot', email_status: 'VERIFIED' }), ...commonErrors },
    },
  },
  '/account/outbox': {
    get: {
      operationId: 'getAccountOutbox',
      summary: 'The local mailbox: the newest 100 emails the service would have sent the account, when it runs without an SMTP server (SMTP_URL unset)',
      responses: {
        '200': json(OUTBOX_SCHEMA, {
          messages: [
            {
              id: 3,
              to: 'analyst@example.com',
              subject: 'Confirm your email address for Bill Progress',
              text: 'Open this link to confirm …',
              message_id: '<3f2a9c0e5b7d4e1fa8c6b2d9e0f1a2b3@bills.example.com>',
              event_id: 'mail_5e1c9a7b3d2f4e6a8b0c1d2e',
              delivered_at: '2026-11-22T12:00:00.000Z',
            },
          ],
        }),
        ...commonErrors,
      },
    },
  },
  '/account/digest-preview': {
    get: {
      operationId: 'getAccountDigestPreview',
      summary: 'The account’s next digest email as it would be if sent now: the soonest daily or weekly slot with something changed since its last digest',
      responses: {
        '200': json(DIGEST_PREVIEW_SCHEMA, {
          next_digest: {
            at: '2026-11-23T08:00:00.000Z',
            slot: 'daily 08:00',
            watchlist_ids: [7],
            subject: 'Daily digest: 2 changes to 1 bill',
            text: 'Daily digest: 2 changes to 1 bill\n\nMarriage Bill\n  - Second reading (Commons) on 2021-11-26 …',
            html: '<!doctype html><html><body>…</body></html>',
          },
        }),
        ...commonErrors,
      },
    },
  },
  '/account/verification-email': {
    post: {
      operationId: 'resendVerificationEmail',
      summary: 'Sends a new verification link to the account’s address (it works once, for 24 hours); at most 3 an hour',
      responses: {
        '200': json({ type: 'object', required: ['sent'], additionalProperties: false, properties: { sent: { const: true } } }, { sent: true }),
        '400': error('the address is verified already', 'The address is verified already'),
        '429': {
          ...commonErrors['429'],
          ...error(`three links were sent in the last hour, or ${commonErrors['429'].description}`, 'Too many verification emails: the limit is 3 an hour; try again in 42 minute(s)'),
        },
        ...Object.fromEntries(Object.entries(commonErrors).filter(([status]) => status !== '400' && status !== '429')),
      },
    },
  },
  '/account/test-email': {
    post: {
      operationId: 'sendTestEmail',
      summary: 'Sends the account a test email through the mail outbox, as alerts are sent (over SMTP, or into the local mailbox); at most 5 an hour; pilot and above',
      description: 'Only to a VERIFIED address (GET /account): an UNVERIFIED or SUPPRESSED one is a 400 saying what to do. `event_id` is the email’s X-Bill-Progress-Event-Id, as GET /account/outbox lists it once delivered.',
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['sent', 'to', 'event_id'],
            additionalProperties: false,
            properties: { sent: { const: true }, to: { type: 'string', format: 'email' }, event_id: { type: 'string', description: 'the X-Bill-Progress-Event-Id header (`mail_…`)' } },
          },
          { sent: true, to: 'analyst@example.com', event_id: 'mail_5e1c9a7b3d2f4e6a8b0c1d2e' },
        ),
        '400': error('the address is not VERIFIED', 'The address analyst@example.com is not verified yet: open the link in the verification email (or ask for a new one), then send a test email'),
        '429': {
          ...commonErrors['429'],
          ...error(`five test emails were sent in the last hour, or ${commonErrors['429'].description}`, 'Too many test emails: the limit is 5 an hour; try again in 42 minute(s)'),
        },
        ...Object.fromEntries(Object.entries(commonErrors).filter(([status]) => status !== '400' && status !== '429')),
      },
    },
  },
  '/dashboard/watchlists/{id}/notifications': {
    get: {
      operationId: 'getWatchlistNotifications',
      summary: 'How the watchlist’s events are emailed (pilot and above); a watchlist never set is `off` with the defaults',
      parameters: [idParam('id')],
      responses: { '200': ok('#/components/schemas/WatchlistNotifications', 'success', NOTIFICATIONS_EXAMPLE), '404': notYours, ...commonErrors },
    },
    patch: {
      operationId: 'setWatchlistNotifications',
      summary: 'Changes how the watchlist’s events are emailed: the fields given change, the others stay',
      description:
        'Emails go only to a VERIFIED address (GET /account). `instant` mails each event as it happens, one email per event however many of the account’s watchlists hold its bill, at most 50 emails per account per UTC day (later events wait for a digest); `daily` and `weekly` are digests at `time` (Europe/London; weekly on `day`). Every email has a one-click unsubscribe link for this watchlist.',
      parameters: [idParam('id')],
      requestBody: jsonBody('#/components/schemas/WatchlistNotificationsRequest', {
        instant: { summary: 'instant emails of the default events', value: { email: 'instant' } },
        weekly: { summary: 'a weekly digest on Monday at 08:00 of stage changes', value: { email: 'weekly', day: 'monday', time: '08:00', events: ['bill.stage_changed'] } },
      }),
      responses: {
        '200': ok('#/components/schemas/WatchlistNotifications', 'the setting as it now is', NOTIFICATIONS_EXAMPLE),
        '400': error('a field is not valid (the detail names it), or names a Pro-only event type on the pilot tier', 'time must be HH:MM (00:00 to 23:59, Europe/London)'),
        '404': notYours,
        ...Object.fromEntries(Object.entries(commonErrors).filter(([status]) => status !== '400')),
      },
    },
  },
};

const EVENTS_SCHEMA = { type: 'array', minItems: 1, items: { type: 'string', enum: [...EVENT_TYPES] }, description: 'the event types emailed; default bill.stage_changed, bill.stage_scheduled, prediction.imminent_stage_change; the Pro-only types need the pro tier' };
const NOTIFICATION_FIELDS = {
  email: { type: 'string', enum: ['off', 'instant', 'daily', 'weekly'] },
  time: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, Europe/London: a digest’s time (default 08:00)' },
  day: { type: 'string', enum: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], description: 'a weekly digest’s day (default monday)' },
  events: EVENTS_SCHEMA,
};

/** The component schemas of these paths (the router holds bodies to their properties). */
export const ACCOUNT_SCHEMAS = {
  WatchlistNotificationsRequest: { type: 'object', additionalProperties: false, properties: NOTIFICATION_FIELDS },
  WatchlistNotifications: { type: 'object', required: ['watchlist_id', 'email', 'time', 'day', 'events'], additionalProperties: false, properties: { watchlist_id: { type: 'integer' }, ...NOTIFICATION_FIELDS } },
};
