import { type ApolloServer, type BaseContext, type ContextFunction, HeaderMap, type HTTPGraphQLRequest } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Apollo Server on express, through Apollo's integration API (`executeHTTPGraphQLRequest`), as
 * @as-integrations/express5 does it, but answering a POST in one write: express's `send` turns
 * the answer's text into a Buffer to hash it for an ETag that no client of a POST can use, and
 * Node.js then writes headers and body as two buffers. A GET (whose answer a client may cache)
 * still goes through `send`, with its ETag and 304. The query string is read without the legacy
 * URL parser. The body must have been parsed (express.json) before.
 */
export function apolloExpressMiddleware<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: ContextFunction<[{ req: Request; res: Response }], TContext>,
): RequestHandler {
  server.assertStarted('apolloExpressMiddleware()');
  return async (req, res) => {
    const headers = new HeaderMap();
    for (const name in req.headers) {
      const value = req.headers[name];
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const query = req.url.indexOf('?');
    const httpGraphQLRequest: HTTPGraphQLRequest = { method: req.method.toUpperCase(), headers, search: query < 0 ? '' : req.url.slice(query), body: req.body };
    const response = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest, context: () => context({ req, res }) });
    for (const [name, value] of response.headers) res.setHeader(name, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') {
      if (req.method === 'GET') return void res.send(response.body.string);
      res.setHeader('Content-Length', Buffer.byteLength(response.body.string));
      return void res.end(response.body.string);
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}
