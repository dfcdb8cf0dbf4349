import type { RequestHandler } from 'express';
import { badInput } from '../../errors';

export const PERSISTED_QUERIES_DETAIL = 'Persisted queries are not supported: send the document’s text in `query`, without the `persistedQuery` extension';

/** The `extensions` of a /graphql request: a POST body's, or a GET's JSON-encoded query parameter (not JSON: Apollo says so). */
function extensionsOf(method: string, body: unknown, query: Record<string, unknown>): unknown {
  if (method !== 'GET') return (body as { extensions?: unknown } | undefined)?.extensions;
  if (typeof query.extensions !== 'string') return undefined;
  try {
    return JSON.parse(query.extensions);
  } catch {
    return undefined;
  }
}

/**
 * A request for a persisted query (Apollo's APQ: a hash, with or without the text) is refused 400
 * before Apollo sees it: Apollo, with persisted queries off, answers it 200 with an error, which
 * tells a client nothing failed. APQ clients fall back to sending the text.
 */
export const persistedQueriesRefused: RequestHandler = (req, _res, next) => {
  const extensions = extensionsOf(req.method, req.body, req.query as Record<string, unknown>);
  if (extensions !== null && typeof extensions === 'object' && 'persistedQuery' in extensions) return next(badInput(PERSISTED_QUERIES_DETAIL));
  next();
};
