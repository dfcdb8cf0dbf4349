import type express from 'express';
import type { RequestHandler } from 'express';
import { createRequestContext, type RequestContext } from '../src/context';
import { AppError } from '../src/errors';
import type { Services } from '../src/services';

export type Handler = (req: express.Request, context: RequestContext) => Promise<unknown>;

/**
 * Authenticates as GraphQL does (same context), counts the API call, runs the handler and
 * answers its JSON (with `status`; 204 sends no body) and the user's rate-limit headers; errors go to the app's {"detail"} handler
 * with the headers too.
 */
export function route(services: Services, handler: Handler, status = 200): RequestHandler {
  return async (req, res, next) => {
    let context: RequestContext | undefined;
    try {
      context = await createRequestContext(services, req.headers, String((req as { id?: unknown }).id ?? ''));
      await context.quota?.chargeCall();
      const body = await handler(req, context);
      res.set(context.quota?.headers() ?? {});
      if (status === 204) res.status(204).end();
      else res.status(status).json(body);
    } catch (error) {
      if (context?.quota) {
        if (error instanceof AppError && error.code === 'RATE_LIMITED') await context.quota.refundCallOfRefusedRequest().catch(() => undefined);
        res.set(context.quota.headers());
      }
      next(error);
    }
  };
}

