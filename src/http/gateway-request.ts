import type express from 'express';
import type { GatewayRequest } from '../gateway/pipeline';

const GATEWAY_REQUEST = Symbol('gateway request');
type Kept = express.Request & { [GATEWAY_REQUEST]?: GatewayRequest };

/**
 * What the gateway needs of an express request: its headers (the credential), id and client
 * address. `browser`: the door serves the dashboard too, so the session cookie counts and the
 * gateway learns the host and scheme the browser used (never on /api/v1). One per request: the
 * door's edge admits it, then the route or Apollo starts the pipeline with the same one.
 */
export function gatewayRequest(req: express.Request, { browser = false } = {}): GatewayRequest {
  return ((req as Kept)[GATEWAY_REQUEST] ??= {
    credentials: { kind: 'http-headers', headers: req.headers, sessionCookie: browser },
    requestId: String((req as { id?: unknown }).id ?? ''),
    // req.ip is the socket's address unless TRUST_PROXY trusts the proxy's X-Forwarded-For
    clientAddress: req.ip ?? req.socket.remoteAddress,
    ...(browser ? { browser: { host: req.host, secure: req.secure } } : {}),
  });
}

/** The request's GatewayRequest if a door has made it, else undefined. */
export function madeGatewayRequest(req: express.Request): GatewayRequest | undefined {
  return (req as Kept)[GATEWAY_REQUEST];
}
