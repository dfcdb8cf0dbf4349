import express, { type Router } from 'express';
import type { Gateway } from '../../gateway/pipeline';
import { doorEdge } from '../http/door-edge';
import { corsPolicy } from './cors';

export { corsPolicy } from './cors';
import { documentedOperations } from './documented-operations';
import { OPENAPI_DOCUMENT } from './openapi/openapi-document';
import { compileOperations } from './run-operation';
import { addPredictionRoutes } from './predictions.router';
import { restErrors } from './rest-errors';
import { addWatchlistRoutes } from './watchlists.router';
import { addWebhookRoutes } from './webhooks.router';
import { addExportRoutes } from './exports.router';
import { addFeedRoutes } from './feeds.router';
import { addAccountRoutes } from './account.router';
import { addNotificationRoutes } from './notifications.router';

export { docsRouter } from './docs.router';

export interface RestOptions {
  /** browser origins allowed to call the API (CORS_ORIGINS) */
  corsOrigins?: readonly string[];
}

/**
 * The specification's `/api/v1` paths. Each route runs a named GraphQL operation through the
 * gateway (the same pipeline as /graphql) and maps its result to the specified JSON. Before any
 * route, the gateway's admit hooks (the per-address limit), CORS and the OpenAPI document's rules
 * (405, unknown inputs); after them, errors in REST words. Unknown paths fall through to the
 * app's JSON 404, and errors to its `{"detail"}` handler.
 */
export function createRestRouter(gateway: Gateway, options: RestOptions = {}): Router {
  const router = express.Router();
  router.use(doorEdge(gateway));
  router.use(corsPolicy(options.corsOrigins ?? []));
  router.use(documentedOperations(OPENAPI_DOCUMENT));
  router.get('/openapi.json', (_req, res) => {
    res.json(OPENAPI_DOCUMENT);
  });
  const run = compileOperations(gateway);
  // the routes sit in this one router, not in a router each: every nested router costs each
  // request passing through it a dispatch of its own (closures, URL trimmed and restored)
  addPredictionRoutes(router, gateway, run);
  addWatchlistRoutes(router, gateway, run);
  addWebhookRoutes(router, gateway, run);
  addExportRoutes(router, gateway, run);
  addFeedRoutes(router, gateway, run);
  addAccountRoutes(router, gateway, run);
  addNotificationRoutes(router, gateway, run);
  router.use(restErrors);
  return router;
}
