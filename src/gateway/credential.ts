import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors';
import { readSessionCookie } from './session-cookie';

/**
 * What a door hands the gateway to find out who is calling. Each transport has its own kind:
 * HTTP headers, the payload of a graphql-ws `connection_init` message (browsers cannot set
 * headers on a WebSocket). Only this file reads any of them. `sessionCookie`: the door serves the
 * dashboard (GraphQL over HTTP), so the browser's session cookie counts; /api/v1 never sets it, so
 * a cookie never authenticates the API.
 */
export type CredentialSource =
  | { kind: 'http-headers'; headers: IncomingHttpHeaders; sessionCookie?: boolean }
  | { kind: 'connection-init'; payload: Readonly<Record<string, unknown>> | null | undefined };

/** A credential the caller presented: today only an API key. */
export type Credential = { kind: 'api-key'; key: string } | { kind: 'session'; token: string };

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * `Authorization: Bearer <key>` or `X-API-Key: <key>`; null when none. An Authorization header
 * of another scheme (a proxy's Basic credentials) yields to X-API-Key when both are sent, and is
 * refused when it is the only credential.
 */
function fromHeaders(headers: IncomingHttpHeaders): Credential | null {
  const authorization = header(headers, 'authorization');
  const apiKey = header(headers, 'x-api-key');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return { kind: 'api-key', key: match[1] };
    if (apiKey === undefined) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <API key>"');
  }
  if (apiKey !== undefined) return { kind: 'api-key', key: apiKey.trim() };
  return null;
}

/** What a WebSocket client that presented no key is told (the socket closes with 4401). */
export const CONNECTION_INIT_KEY_REQUIRED = 'An API key is required: {"authorization": "Bearer <key>"} in the connection_init payload';

/**
 * `{"authorization": "Bearer <key>"}` or `{"x-api-key": "<key>"}` in the `connection_init`
 * payload (names in any case), read as the headers of the same names are.
 */
function fromConnectionInit(payload: Readonly<Record<string, unknown>> | null | undefined): Credential | null {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(payload ?? {})) {
    const lower = name.toLowerCase();
    if (lower !== 'authorization' && lower !== 'x-api-key') continue;
    if (typeof value !== 'string') throw new AppError('UNAUTHENTICATED', `"${name}" in the connection_init payload must be a string`);
    headers[lower] = value;
  }
  return fromHeaders(headers);
}

/** The credential a request presents, or null when it presents none (public fields only). */
export function readCredential(source: CredentialSource): Credential | null {
  switch (source.kind) {
    case 'http-headers': {
      // an API key sent explicitly wins over a session cookie the browser happens to hold
      const key = fromHeaders(source.headers);
      if (key || !source.sessionCookie) return key;
      const token = readSessionCookie(header(source.headers, 'cookie'));
      return token ? { kind: 'session', token } : null;
    }
    case 'connection-init':
      return fromConnectionInit(source.payload);
  }
}
