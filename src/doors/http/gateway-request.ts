import type express from 'express';
import type { GatewayRequest } from '../../gateway/pipeline';

// beside the request, not a property of it: a property added to every request changes the shape
// express's own code sees
const made = new WeakMap<express.Request, GatewayRequest>();

/**
 * What the gateway needs of an express request: its headers (the credential), id and client
 * address. `browser`: the door serves the dashboard too, so the session cookie counts and the
 * gateway learns the host and scheme the browser used (never on /api/v1). One per request: the
 * door's edge admits it, then the route or Apollo starts the pipeline with the same one.
 */
export function gatewayRequest(req: express.Request, { browser = false } = {}): GatewayRequest {
  let request = made.get(req);
  if (!request) {
    request = {
      credentials: { kind: 'http-headers', headers: req.headers, sessionCookie: browser },
      requestId: String((req as { id?: unknown }).id ?? ''),
      // req.ip is the socket's address unless TRUST_PROXY trusts the proxy's X-Forwarded-For
      clientAddress: req.ip ?? req.socket.remoteAddress,
      ...(browser ? { browser: { host: req.host, secure: req.secure } } : {}),
    };
    made.set(req, request);
  }
  return request;
}

/** The request's GatewayRequest if a door has made it, else undefined. */
export function madeGatewayRequest(req: express.Request): GatewayRequest | undefined {
  return made.get(req);
}

/**
 * The GraphQL document an HTTP request to /graphql asks to run, where Apollo Server reads it (the
 * body of a POST, the query string of a GET), once the body has been read.
 */
export function graphqlDocumentOf(req: express.Request): unknown {
  return req.method === 'GET' ? (req.query as Record<string, unknown>).query : (req.body as Record<string, unknown> | undefined)?.query;
}
