import type express from 'express';
import type { RequestHandler } from 'express';
import type { RequestContext } from '../../request/context';
import { SharedAnswer, WithHeaders } from '../../gateway/answer-cache';
import type { Gateway } from '../../gateway/pipeline';
import { gatewayRequest } from '../http/gateway-request';
import { TextBody } from './text-body';

export type Handler = (req: express.Request, context: RequestContext) => Promise<unknown>;

/**
 * A kept answer (one with its ETag) goes out as its JSON text with the headers, in one write: express's send would
 * turn the text into a Buffer (to hash it for an ETag, which a kept answer has already), and
 * Node.js writes headers and a Buffer as two buffers of a writev. As send does: 304 when the
 * client's If-None-Match holds the answer's ETag, no body for HEAD.
 */
function sendShared(req: express.Request, res: express.Response, answer: SharedAnswer, etag: string): void {
  // the status set as Node.js sets it: express's status() checks a number we write here ourselves
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', etag);
  if (req.fresh) {
    res.removeHeader('Content-Type');
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader('Content-Length', answer.byteLength);
  if (req.method === 'HEAD') res.end();
  else res.end(answer.json);
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
      if (body instanceof SharedAnswer || body instanceof WithHeaders) res.set(body.headers);
      if (body instanceof TextBody) res.status(200).set(body.headers).type(body.contentType).send(body.text);
      else if (body instanceof WithHeaders) res.status(200).json(body.body);
      else if (body instanceof SharedAnswer && body.etag) sendShared(req, res, body, body.etag);
      else if (body instanceof SharedAnswer) res.status(200).type('application/json').send(body.json);
      else res.status(200).json(body);
      gateway.finish(request, context, 200);
    } catch (error) {
      res.set(gateway.headers(context, request));
      next(error);
      gateway.finish(request, context, res.statusCode);
    }
  };
}
