import { commonErrors, error, rateLimitHeaders, timestamp } from './common';

// Issue 33, email: the calling account and its email (docs/api.md, "Email").

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
  '/account/verification-email': {
    post: {
      operationId: 'resendVerificationEmail',
      summary: 'Sends a new verification link to the account’s address (it works once, for 24 hours); at most 3 an hour',
      responses: {
        '200': json({ type: 'object', required: ['sent'], additionalProperties: false, properties: { sent: { const: true } } }, { sent: true }),
        '400': error('the address is verified already', 'The address is verified already'),
        '429': {
          ...error('three links were sent in the last hour', 'Too many verification emails: the limit is 3 an hour; try again in 42 minute(s)'),
          headers: { 'Retry-After': { description: 'seconds until another may be sent', schema: { type: 'integer' } } },
        },
        ...Object.fromEntries(Object.entries(commonErrors).filter(([status]) => status !== '400' && status !== '429')),
      },
    },
  },
};
