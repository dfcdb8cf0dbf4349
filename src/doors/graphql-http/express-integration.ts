import { type ApolloServer, type BaseContext, HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import type { Request, Response } from 'express';

/**
 * Apollo Server on express, through Apollo's integration API (`executeHTTPGraphQLRequest`), as
 * @as-integrations/express5 does it, but answering a POST in one write (see writeWholeAnswer).
 * The query string is read without the legacy URL parser. The body must have been parsed
 * (express.json) before. `context` builds the request's context value; `answered` hears each
 * answer before it is written.
 */
export async function answerWithApollo<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  req: Request,
  res: Response,
  context: () => Promise<TContext>,
  answered?: (response: HTTPGraphQLResponse) => void,
): Promise<void> {
  const headers = new HeaderMap();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const query = req.url.indexOf('?');
  const httpGraphQLRequest: HTTPGraphQLRequest = { method: req.method.toUpperCase(), headers, search: query < 0 ? '' : req.url.slice(query), body: req.body };
  const response = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest, context });
  answered?.(response);
  if (response.body.kind === 'complete') return writeWholeAnswer(req, res, response.status ?? 200, response.headers, response.body.string);
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.statusCode = response.status ?? 200;
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

/**
 * A whole answer of the GraphQL door. A POST's goes out in one write: express's `send` turns the
 * text into a Buffer to hash it for an ETag that no client of a POST can use, and Node.js then
 * writes headers and body as two buffers. A GET's (which a client may cache) still goes through
 * `send`, with its ETag and 304.
 */
export function writeWholeAnswer(req: Request, res: Response, status: number, headers: Iterable<[string, string]>, body: string): void {
  for (const [name, value] of headers) res.setHeader(name, value);
  res.statusCode = status;
  if (req.method === 'GET') return void res.send(body);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
