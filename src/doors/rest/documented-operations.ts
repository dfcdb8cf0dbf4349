import express, { type RequestHandler } from 'express';
import { type AppError, badInput } from '../../errors';
import type { Handler } from './route';
import type { RouteTable } from './route-table';

// The OpenAPI document is the declaration of every operation's inputs: requests are held to it
// before any route runs, so a misspelt optional field is a 400, never silently ignored.

interface DocumentShape {
  paths: Record<string, Record<string, { operationId: string; parameters?: readonly { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; description?: string } | { allOf: unknown[] }> };
}

interface DocumentedOperation {
  query: readonly string[];
  /** the JSON body's fields, or null when the operation takes no body */
  body: readonly string[] | null;
}

interface DocumentedPath {
  template: string;
  /** one capture group per path parameter, in the order of `parameters` */
  pattern: RegExp;
  parameters: readonly string[];
  operations: Map<string, DocumentedOperation>;
}

/** `/predict/{bill_id}` as express matches it: any one segment in place of a parameter, any case, an optional trailing slash. */
function pathPattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The path parameters of a request on a documented path, percent-decoded as express decodes them. */
function pathParameters(found: DocumentedPath, requestPath: string): Record<string, string> {
  const values = found.pattern.exec(requestPath)!;
  const params: Record<string, string> = {};
  found.parameters.forEach((name, i) => {
    try {
      params[name] = decodeURIComponent(values[i + 1]);
    } catch {
      throw badInput(`The path parameter ${name} is not valid percent-encoding: ${values[i + 1]}`);
    }
  });
  return params;
}

function compile(document: DocumentShape): DocumentedPath[] {
  const bodyFields = (ref: string | undefined) => {
    const schema = document.components.schemas[ref?.split('/').pop() ?? ''];
    return Object.keys(schema && 'properties' in schema ? (schema.properties ?? {}) : {});
  };
  return Object.entries(document.paths).map(([template, item]) => ({
    template,
    pattern: pathPattern(template),
    parameters: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
    operations: new Map(
      Object.entries(item).map(([method, op]) => [
        method.toUpperCase(),
        {
          query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          body: op.requestBody ? bodyFields(op.requestBody.content['application/json']?.schema.$ref) : null,
        },
      ]),
    ),
  }));
}

const allowedMethods = (paths: DocumentedPath[]) => {
  const methods = [...new Set(paths.flatMap((p) => [...p.operations.keys()]))];
  return methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
};

const takes = (names: readonly string[]) => (names.length ? `takes ${names.join(', ')}` : 'takes none');

/** Whether a request carries a body at all (RFC 9112: a length above zero, or chunked). */
const hasBody = (req: express.Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function unknownName(given: string[], known: readonly string[]): string | undefined {
  return given.find((name) => !known.includes(name));
}

/** The undocumented input each request holds, refused once the request is authenticated and its call charged. */
const refusals = new WeakMap<express.Request, AppError>();

/**
 * A route's handler that first refuses an input the document does not list: a 400 naming it,
 * raised inside the route so the request is authenticated and charged like any other refused one.
 */
export const heldToDocument =
  (handler: Handler): Handler =>
  (req, context) => {
    const refused = refusals.get(req);
    if (refused) throw refused;
    return handler(req, context);
  };

/**
 * The REST door's dispatch: holds every request on a documented path to the document, then runs
 * the route `routes` has for its operation. Another method is a 405 with `Allow`; OPTIONS (outside
 * a CORS preflight) answers the `Allow` list; an undocumented query parameter or JSON body field
 * (a field sent to an operation that takes no body too) is noted, and refused by heldToDocument.
 * JSON bodies are parsed here, and only where a request carries one. Paths the document lacks, and
 * operations no route serves, fall through (to the JSON 404).
 */
export function documentedOperations(document: DocumentShape, routes: RouteTable): RequestHandler {
  const paths = compile(document);
  // a route the document lacks could never be reached: refused when the door is built, not found as a 404 later
  const documented = new Set(paths.flatMap((p) => [...p.operations.keys()].map((method) => `${method} ${p.template}`)));
  for (const operation of routes.operations()) if (!documented.has(operation)) throw new Error(`The /api/v1 route ${operation} is not in the OpenAPI document`);
  const parseJson = express.json({ limit: '100kb' });
  // the documented paths a request path matches, remembered for the paths clients repeat
  const matches = new Map<string, DocumentedPath[]>();
  const matchingPaths = (requestPath: string) => {
    let found = matches.get(requestPath);
    if (!found) {
      found = paths.filter((p) => p.pattern.test(requestPath));
      if (matches.size >= 1_000) matches.clear();
      matches.set(requestPath, found);
    }
    return found;
  };
  return (req, res, next) => {
    const matching = matchingPaths(req.path);
    if (!matching.length) return next();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const found = matching.find((p) => p.operations.has(method));
    if (!found) {
      const allow = allowedMethods(matching).join(', ');
      res.set('Allow', allow);
      if (req.method === 'OPTIONS') return void res.status(200).end();
      return void res.status(405).json({ detail: `${req.method} is not allowed on ${req.baseUrl}${req.path}; allowed: ${allow}` });
    }
    const route = routes.find(method, found.template);
    if (!route) return next();
    const run = () => {
      try {
        req.params = pathParameters(found, req.path);
        // what express's router sets: the metrics label a request by its route's pattern
        (req as { route?: unknown }).route = { path: route.path };
        // a handler's promise is watched as express's router watches it: a rejection is the request's error
        const answered = route.handler(req, res, next) as unknown;
        if (answered instanceof Promise) answered.catch(next);
      } catch (error) {
        next(error);
      }
    };
    const operation = found.operations.get(method)!;
    const where = `${method} ${found.template}`;
    const query = unknownName(Object.keys(req.query), operation.query);
    if (query !== undefined) {
      refusals.set(req, badInput(`unknown query parameter ${query}: ${where} ${takes(operation.query)}`));
      return run();
    }
    if (operation.body === null && !hasBody(req)) return run();
    const fields = operation.body ?? [];
    parseJson(req, res, (error?: unknown) => {
      if (error) return next(error);
      const body = req.body as unknown;
      const field = body && typeof body === 'object' && !Array.isArray(body) ? unknownName(Object.keys(body), fields) : undefined;
      if (field !== undefined) refusals.set(req, badInput(`unknown field ${field} in the JSON body: ${where} ${takes(fields)}`));
      run();
    });
  };
}
