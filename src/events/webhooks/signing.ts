import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of random bytes (the spec asks 24 at least). */
const SECRET_BYTES = 32;
const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function signature(secret: string, content: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the event id, the same on every
 * retry), `webhook-timestamp` (Unix seconds now) and `webhook-signature`, one `v1,` signature per
 * secret that signs (two during the 24 hours after a rotation), space-separated.
 */
export function signedHeaders(eventId: string, body: string, secrets: readonly string[], now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const content = `${eventId}.${timestamp}.${body}`;
  return { 'webhook-id': eventId, 'webhook-timestamp': timestamp, 'webhook-signature': secrets.map((s) => signature(s, content)).join(' ') };
}
