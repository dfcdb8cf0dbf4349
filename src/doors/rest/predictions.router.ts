import type { RouteTable } from './route-table';
import type { Gateway } from '../../gateway/pipeline';
import type { RunOperation } from './run-operation';
import { batchBody, billIdParam, booleanQuery, integerQuery, numberQuery, referenceDateParam } from './params';
import { heldToDocument } from './documented-operations';
import { type Handler, route } from './route';
import { batchEnvelope, explanationsBody, imminentEnvelope, singlePrediction, withModelHeaders } from './prediction.mapper';

/** Specification sections 4.1–4.3. */
export function addPredictionRoutes(router: RouteTable, gateway: Gateway, run: RunOperation): void {
  const handle = (handler: Handler) => route(gateway, heldToDocument(handler));

  router.get(
    '/predict/:bill_id',
    handle(async (req, context) => {
      const variables = { billId: billIdParam(req.params.bill_id), referenceDate: referenceDateParam(req.query.reference_date) };
      if (!booleanQuery(req, 'explain')) return run.shared('PredictOne', variables, context, (data) => withModelHeaders(singlePrediction(data.prediction), data.prediction.model));
      const data = await run('PredictOneExplained', variables, context);
      return withModelHeaders({ ...singlePrediction(data.prediction), explanations: explanationsBody(data.prediction.explanations, data.prediction.timelineEtaExplanation) }, data.prediction.model);
    }),
  );

  const batch = handle(async (req, context) => {
    const { billIds, referenceDate } = batchBody(req);
    const data = await run('PredictBatch', { billIds, referenceDate }, context);
    return withModelHeaders(batchEnvelope(data.predictions), data.predictions.model);
  });
  // The JSON body was parsed, and held to the document, by documentedOperations.
  router.post('/predictions/batch', batch);
  router.post('/predict/batch', batch);

  router.get(
    '/predictions/imminent',
    handle(async (req, context) => {
      const variables = { daysAhead: integerQuery(req, 'days_ahead', 7, 1, 30), minProbability: numberQuery(req, 'min_probability', 0.5, 0, 1) };
      return run.shared('Imminent', variables, context, (data) => withModelHeaders(imminentEnvelope(data.imminentBills), data.imminentBills.model));
    }),
  );

}
