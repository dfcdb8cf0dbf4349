import express, { type RequestHandler, type Router } from 'express';
import { createRequestContext, type RequestContext } from '../src/context';
import { AppError } from '../src/errors';
import type { Services } from '../src/services';
import type { RunOperation } from './operations';
import { batchBody, billIdParam, integerQuery, numberQuery, referenceDateParam } from './params';
import { batchEnvelope, type GqlBatch, type GqlImminent, type GqlPrediction, imminentEnvelope, singlePrediction } from './prediction.mapper';

type Handler = (req: express.Request, context: RequestContext) => Promise<unknown>;

/**
 * Authenticates as GraphQL does (same context), counts the API call, runs the handler and
 * answers its JSON with the user's rate-limit headers; errors go to the app's {"detail"} handler
 * with the headers too.
 */
function route(services: Services, handler: Handler): RequestHandler {
  return async (req, res, next) => {
    let context: RequestContext | undefined;
    try {
      context = await createRequestContext(services, req.headers, String((req as { id?: unknown }).id ?? ''));
      await context.quota?.chargeCall();
      const body = await handler(req, context);
      res.set(context.quota?.headers() ?? {}).json(body);
    } catch (error) {
      if (context?.quota) {
        if (error instanceof AppError && error.code === 'RATE_LIMITED') await context.quota.refundCallOfRefusedRequest().catch(() => undefined);
        res.set(context.quota.headers());
      }
      next(error);
    }
  };
}

/** Specification sections 4.1–4.3. */
export function predictionsRouter(services: Services, run: RunOperation): Router {
  const router = express.Router();

  router.get(
    '/predict/:bill_id',
    route(services, async (req, context) => {
      const variables = { billId: billIdParam(req.params.bill_id), referenceDate: referenceDateParam(req.query.reference_date) };
      const data = await run<{ prediction: GqlPrediction }>('PredictOne', variables, context);
      return singlePrediction(data.prediction);
    }),
  );

  const batch = route(services, async (req, context) => {
    const { billIds, referenceDate } = batchBody(req);
    const data = await run<{ predictions: GqlBatch }>('PredictBatch', { billIds, referenceDate }, context);
    return batchEnvelope(data.predictions);
  });
  // Bodies are parsed only where there is one: GET routes skip the parser altogether.
  const json = express.json({ limit: '100kb' });
  router.post('/predictions/batch', json, batch);
  router.post('/predict/batch', json, batch);

  router.get(
    '/predictions/imminent',
    route(services, async (req, context) => {
      const variables = { daysAhead: integerQuery(req, 'days_ahead', 7, 1, 30), minProbability: numberQuery(req, 'min_probability', 0.5, 0, 1) };
      const data = await run<{ imminentBills: GqlImminent }>('Imminent', variables, context);
      return imminentEnvelope(data.imminentBills);
    }),
  );

  return router;
}
