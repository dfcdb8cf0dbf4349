import { timingSafeEqual } from 'node:crypto';
import type { OperationAnswered } from '../graphql-http/known-document-shortcut';
import type { Request, RequestHandler } from 'express';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { rootFieldCopies } from '../../gateway/charge';
import type { RequestObserver } from './request-id';
import { Counter, Histogram, type Registry } from 'prom-client';

/*
 * The HTTP doors' metrics, on the service's registry (src/metrics/service-metrics.ts): requests by
 * route pattern and status with latency, GraphQL operations over HTTP by root field, type and
 * outcome, and GET /metrics, which answers the whole registry to the operator only.
 */

export interface MetricsOptions {
  /**
   * METRICS_TOKEN: when set, /metrics answers anyone presenting `Authorization: Bearer <token>`;
   * when unset, only direct loopback requests (no proxy's forwarding headers), and 404 to others.
   */
  token?: string;
}

export interface HttpMetrics {
  /** told of every request answered (by requestLogging): counts it by route pattern and status, with its time */
  observe: RequestObserver;
  /** GET /metrics: the Prometheus text format */
  handler: RequestHandler;
  /** counts each GraphQL operation answered over HTTP by root field and outcome */
  operationAnswered: OperationAnswered;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/**
 * Operation names are the client's to choose, so any set of them can be filled by a client (and
 * the names it counted were then whoever came first). An operation is counted instead by the root
 * fields of the schema it ran, once each (`bills`, `prediction`): a set the schema bounds. A
 * request that never became an operation of the schema (unparsable, invalid) counts as `other`.
 */
const OTHER_OPERATION = 'other';

// per parsed operation: Apollo hands back the same parsed document for the same text, so a repeated request is not walked again
const labelsOfOperation = new WeakMap<OperationDefinitionNode, string[]>();

function rootFieldLabels(document: DocumentNode | undefined, operation: OperationDefinitionNode | undefined, schema: GraphQLSchema): string[] {
  if (!document || !operation) return [OTHER_OPERATION];
  let labels = labelsOfOperation.get(operation);
  if (!labels) {
    const fields = schema.getRootType(operation.operation)?.getFields() ?? {};
    const names = [...rootFieldCopies(document, operation).keys()].filter((name) => name in fields);
    labels = names.length ? names : [OTHER_OPERATION];
    labelsOfOperation.set(operation, labels);
  }
  return labels;
}

/**
 * The route pattern a request matched, never its raw URL (ids would make a series per bill):
 * express's `req.route.path` is relative to the router it is mounted on, so the mount prefix is
 * the request path less as many segments as the pattern has.
 */
export function routeLabel(req: Pick<Request, 'route' | 'originalUrl'>): string {
  const path = req.originalUrl.split('?')[0];
  const pattern: unknown = req.route?.path;
  if (typeof pattern === 'string' && !pattern.includes('*')) {
    const patternSegments = pattern.split('/').filter(Boolean);
    const pathSegments = path.split('/').filter(Boolean);
    return `/${[...pathSegments.slice(0, Math.max(0, pathSegments.length - patternSegments.length)), ...patternSegments].join('/')}`;
  }
  if (path === '/graphql' || path.startsWith('/graphql/')) return '/graphql';
  return '(unmatched)';
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];
const isLoopback = (address: string | undefined) => address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

function bearerMatches(req: Request, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Registers the HTTP metrics on `registry`, and answers its observer, its /metrics handler and what the GraphQL door tells of each operation it answers. */
export function createHttpMetrics(registry: Registry, options: MetricsOptions = {}): HttpMetrics {
  const registers = [registry];

  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests by route pattern, method and status', labelNames: ['method', 'route', 'status'], registers });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const operations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations over HTTP by the root fields they ran (each once; other: not an operation of the schema), type and outcome',
    labelNames: ['operation', 'type', 'outcome'],
    registers,
  });

  // prom-client hashes a label set on every call: each series' children are looked up once
  const series = new Map<string, { count: { inc(): void }; time: { observe(seconds: number): void } }>();
  const seriesOf = (method: string, route: string, status: number) => {
    const key = `${method} ${route} ${status}`;
    let known = series.get(key);
    if (!known) {
      const labels = { method, route, status: String(status) };
      known = { count: requests.labels(labels), time: latency.labels(labels) };
      series.set(key, known);
    }
    return known;
  };
  const observe: RequestObserver = (req, res, elapsedMs) => {
    const { count, time } = seriesOf(req.method, routeLabel(req), res.statusCode);
    count.inc();
    time.observe(elapsedMs / 1000);
  };

  const allowed = (req: Request) => (options.token ? bearerMatches(req, options.token) : isLoopback(req.socket.remoteAddress) && !FORWARDING_HEADERS.some((h) => h in req.headers));
  const handler: RequestHandler = async (req, res) => {
    if (!allowed(req)) {
      if (options.token) res.status(401).set('WWW-Authenticate', 'Bearer').json({ detail: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' });
      else res.status(404).json({ detail: `No such endpoint: ${req.method} ${req.path}` });
      return;
    }
    res.set('Content-Type', registry.contentType).send(await registry.metrics());
  };

  const operationChildren = new Map<string, { inc(): void }>();
  const operationSeries = (operation: string, type: string, outcome: string) => {
    const key = `${operation} ${type} ${outcome}`;
    let known = operationChildren.get(key);
    if (!known) operationChildren.set(key, (known = operations.labels({ operation, type, outcome })));
    return known;
  };
  const operationAnswered: OperationAnswered = ({ document, operation, schema, failed }) => {
    for (const field of rootFieldLabels(document, operation, schema)) operationSeries(field, operation?.operation ?? 'unknown', failed ? 'error' : 'success').inc();
  };

  return { observe, handler, operationAnswered };
}
