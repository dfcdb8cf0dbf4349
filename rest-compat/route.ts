import type express from 'express';
import type { RequestHandler } from 'express';
import type { RequestContext } from '../src/context';
import { SharedAnswer } from '../src/gateway/answer-cache';
import type { Gateway, GatewayRequest } from '../src/gateway/pipeline';

export type Handler = (req: express.Request, context: RequestContext) => Promise<unknown>;

/**
 * What the gateway needs of an express request: its headers (the credential), id and client
 * address. `browser`: the door serves the dashboard too, so the session cookie counts and the
 * gateway learns the host and scheme the browser used (never on /api/v1).
 */
export function gatewayRequest(req: express.Request, { browser = false } = {}): GatewayRequest {
  return {
    credentials: { kind: 'http-headers', headers: req.headers, sessionCookie: browser },
    requestId: String((req as { id?: unknown }).id ?? ''),
    // req.ip is the socket's address unless TRUST_PROXY trusts the proxy's X-Forwarded-For
    clientAddress: req.ip ?? req.socket.remoteAddress,
    ...(browser ? { browser: { host: req.host, secure: req.secure } } : {}),
  };
}

/**
 * The REST adapter: hands the request to the gateway (who is calling, the call charged), runs the
 * handler (its parameters, then one named operation through the gateway) and answers its JSON
 * with 200, the only success status of the specification, and the user's rate-limit headers (an
 * answer shared by every caller goes out as the JSON text kept for it);
 * errors go to the app's {"detail"} handler with those headers too.
 */
export function route(gateway: Gateway, handler: Handler): RequestHandler {
  return async (req, res, next) => {
    const request = gatewayRequest(req);
    let context: RequestContext | undefined;
    try {
      context = await gateway.start(request);
      const body = await handler(req, context);
      res.set(gateway.headers(context, request));
      if (body instanceof SharedAnswer) {
        res.type('application/json');
        if (body.etag) res.set('ETag', body.etag);
        res.status(200).send(body.json);
      } else res.status(200).json(body);
      gateway.finish(request, context, 200);
    } catch (error) {
      res.set(gateway.headers(context, request));
      next(error);
      gateway.finish(request, context, res.statusCode);
    }
  };
}
