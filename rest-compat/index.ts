import express, { type Router } from 'express';
import type { Services } from '../src/services';

/**
 * The specification's `/api/v1` paths. Each route will run a named GraphQL document against the
 * same schema and context and map its result to the specified JSON (see DESIGN.md); the
 * prediction routes arrive with the prediction API. Unknown paths fall through to the app's
 * JSON 404, and errors to its `{"detail"}` handler.
 */
export function createRestRouter(_services: Services): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));
  return router;
}
