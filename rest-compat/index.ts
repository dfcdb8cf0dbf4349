import express, { type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../src/services';
import { OPENAPI_DOCUMENT } from './openapi';
import { compileOperations } from './operations';
import { predictionsRouter } from './predictions.router';
import { watchlistsRouter } from './watchlists.router';

/**
 * The specification's `/api/v1` paths. Each route runs a named GraphQL operation against the
 * same schema and context as /graphql and maps its result to the specified JSON. Unknown paths
 * fall through to the app's JSON 404, and errors to its `{"detail"}` handler.
 */
export function createRestRouter(services: Services, schema: GraphQLSchema): Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(OPENAPI_DOCUMENT);
  });
  const run = compileOperations(schema);
  router.use(predictionsRouter(services, run));
  router.use(watchlistsRouter(services, run));
  return router;
}
