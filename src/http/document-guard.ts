import type { RequestHandler } from 'express';
import { DOCUMENT_LIMITS, DocumentGuard } from '../gateway/document-guard';
import { mapError } from '../gateway/error-mapping';

/**
 * HTTP /graphql's adapter for the document guard (src/gateway/document-guard.ts): the query of a
 * POST body or a GET's query string; a document beyond the limits is answered 400 in GraphQL's
 * shape before Apollo parses it. Verdicts are remembered per query text (DocumentGuard).
 */
export function graphqlDocumentGuard(limits = DOCUMENT_LIMITS): RequestHandler {
  const guard = new DocumentGuard(limits);
  return (req, res, next) => {
    const body = req.body as { query?: unknown } | undefined;
    try {
      guard.guard(body?.query ?? (req.query as { query?: unknown }).query);
    } catch (error) {
      const refused = mapError(error);
      res.status(refused.status).json({ errors: [{ message: refused.detail, extensions: { code: refused.code } }] });
      return;
    }
    next();
  };
}
