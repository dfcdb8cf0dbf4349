import type { RequestHandler } from 'express';
import { DOCUMENT_LIMITS, DocumentGuard } from '../../gateway/document-guard';

/**
 * HTTP /graphql's adapter for the document guard (src/gateway/document-guard.ts): the query of a
 * POST body or a GET's query string; a document beyond the limits is refused (400, answered in
 * GraphQL's shape by the door's error handler) before Apollo parses it. Verdicts are remembered
 * per query text (DocumentGuard).
 */
export function graphqlDocumentGuard(limits = DOCUMENT_LIMITS): RequestHandler {
  const guard = new DocumentGuard(limits);
  return (req, _res, next) => {
    const body = req.body as { query?: unknown } | undefined;
    try {
      guard.guard(body?.query ?? (req.query as { query?: unknown }).query);
    } catch (error) {
      return next(error);
    }
    next();
  };
}
