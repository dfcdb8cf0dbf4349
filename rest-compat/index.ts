import express, { type Router } from 'express';
import type { Gateway } from '../src/gateway/pipeline';
import { OPENAPI_DOCUMENT } from './openapi';
import { compileOperations } from './operations';
import { predictionsRouter } from './predictions.router';
import { watchlistsRouter } from './watchlists.router';

export { docsRouter } from './docs.router';

/**
 * The specification's `/api/v1` paths. Each route runs a named GraphQL operation through the
 * gateway (the same pipeline as /graphql) and maps its result to the specified JSON. Unknown
 * paths fall through to the app's JSON 404, and errors to its `{"detail"}` handler.
 */
export function createRestRouter(gateway: Gateway): Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(OPENAPI_DOCUMENT);
  });
  const run = compileOperations(gateway);
  router.use(predictionsRouter(gateway, run));
  router.use(watchlistsRouter(gateway, run));
  return router;
}
