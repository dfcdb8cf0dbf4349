import type { RequestHandler } from 'express';
import type { Gateway } from '../../gateway/pipeline';
import { doorEdge } from '../http/door-edge';
import { corsPolicy } from './cors';

export { corsPolicy } from './cors';
import { documentedOperations } from './documented-operations';
import { OPENAPI_DOCUMENT } from './openapi/openapi-document';
import { compileOperations } from './run-operation';
import { addPredictionRoutes } from './predictions.router';
import { restErrors } from './rest-errors';
import { RouteTable } from './route-table';
import { addWatchlistRoutes } from './watchlists.router';
import { addWebhookRoutes } from './webhooks.router';
import { addExportRoutes } from './exports.router';
import { addFeedRoutes } from './feeds.router';
import { addAccountRoutes } from './account.router';
import { addNotificationRoutes } from './notifications.router';
import { addTrackRecordRoutes } from './track-record.router';

export { docsRouter } from './docs.router';

export interface RestOptions {
  /** browser origins allowed to call the API (CORS_ORIGINS) */
  corsOrigins?: readonly string[];
}

/** The REST door as the app mounts it: its request handler, and its routes for the check against the OpenAPI document. */
export interface RestDoor {
  handler: RequestHandler;
  /** "METHOD /path" of every route */
  routes(): string[];
}

/**
 * The specification's `/api/v1` paths. Each route runs a named GraphQL operation through the
 * gateway (the same pipeline as /graphql) and maps its result to the specified JSON. Before any
 * route, the gateway's admit hooks (the per-address limit), CORS and the OpenAPI document's rules
 * (405, unknown inputs), which then run the request's route; after them, errors in REST words.
 * Unknown paths fall through to the app's JSON 404, and errors to its `{"detail"}` handler.
 * The steps are called one after another here, not as an express router's layers: a layer costs
 * each request a dispatch of its own (a path match, closures, the URL trimmed and restored).
 */
export function createRestDoor(gateway: Gateway, options: RestOptions = {}): RestDoor {
  const routes = new RouteTable();
  routes.get('/openapi.json', (_req, res) => {
    res.json(OPENAPI_DOCUMENT);
  });
  const run = compileOperations(gateway);
  addPredictionRoutes(routes, gateway, run);
  addWatchlistRoutes(routes, gateway, run);
  addWebhookRoutes(routes, gateway, run);
  addExportRoutes(routes, gateway, run);
  addFeedRoutes(routes, gateway, run);
  addAccountRoutes(routes, gateway, run);
  addNotificationRoutes(routes, gateway, run);
  addTrackRecordRoutes(routes, gateway);
  const edge = doorEdge(gateway);
  const cors = corsPolicy(options.corsOrigins ?? []);
  const dispatch = documentedOperations(OPENAPI_DOCUMENT, routes);
  const handler: RequestHandler = (req, res, next) => {
    const failed = (error: unknown) => restErrors(error, req, res, next);
    const afterDispatch = (error?: unknown) => (error ? failed(error) : next());
    const afterCors = (error?: unknown) => (error ? failed(error) : dispatch(req, res, afterDispatch));
    const afterEdge = (error?: unknown) => (error ? failed(error) : cors(req, res, afterCors));
    edge(req, res, afterEdge);
  };
  return { handler, routes: () => routes.routes() };
}
