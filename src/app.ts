import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import express from 'express';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { pinoHttp } from 'pino-http';
import { createRestRouter } from '../rest-compat';
import { createRequestContext, type RequestContext } from './context';
import { AppError, INTERNAL_DETAIL } from './errors';
import { jsonErrorHandler, notFoundHandler } from './http-errors';
import { depthLimit, queryCostLimit } from './query-cost';
import { graphqlQuotaPlugin } from './quota/graphql-quota.plugin';
import { requestId } from './request-id';
import type { Services } from './services';

export interface AppOptions {
  schema: GraphQLSchema;
}

export interface App {
  httpServer: http.Server;
  /** "METHOD /path" of every /api/v1 route, for the check against the OpenAPI document */
  restRoutes(): string[];
  /** stops Apollo and drains open requests; the caller closes the database afterwards */
  stop(): Promise<void>;
}

/**
 * GraphQL errors with the service's codes only: ours keep theirs; errors graphql-js or Apollo
 * raise about the request itself (syntax, validation, variables, an operation type the schema
 * lacks) are the client's, BAD_USER_INPUT; anything else failed inside and is masked.
 */
function formatGraphQLError(services: Services) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const client = { message: formatted.message, locations: formatted.locations, path: formatted.path };
    if (original instanceof AppError) return { ...client, message: original.message, extensions: { code: original.code } };
    const code = formatted.extensions?.code;
    const raisedByGraphQL = original instanceof GraphQLError && (!original.originalError || original.originalError instanceof GraphQLError);
    if (raisedByGraphQL || (code && code !== 'INTERNAL_SERVER_ERROR')) return { ...client, extensions: { code: 'BAD_USER_INPUT' } };
    services.logger.error({ err: original }, 'GraphQL operation failed');
    return { ...client, message: INTERNAL_DETAIL, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

function listRoutes(router: { stack: RouterLayer[] }): string[] {
  return router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
      : layer.handle?.stack
        ? listRoutes(layer.handle as { stack: RouterLayer[] })
        : [],
  );
}

export async function createApp(services: Services, options: AppOptions): Promise<App> {
  const app = express();
  const httpServer = http.createServer(app);
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  app.use(
    pinoHttp({
      logger: services.logger,
      genReqId: requestId,
      // Only what is needed to trace a request: never headers (they carry keys) or bodies.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      // 503 is an expected state (loading), not a failure of ours
      customLogLevel: (_req, res, error) => (error || (res.statusCode >= 500 && res.statusCode !== 503) ? 'error' : res.statusCode === 503 ? 'warn' : 'info'),
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    if (services.readiness.isReady()) res.json({ status: 'ready', today: services.clock.today() });
    else res.status(503).json({ detail: `Not ready: ${services.readiness.reasons().join('; ')}` });
  });

  const apollo = new ApolloServer<RequestContext>({
    schema: options.schema,
    introspection: true,
    // No automatic persisted queries: nothing here needs them, and they add an error vocabulary of their own.
    persistedQueries: false,
    validationRules: [depthLimit()],
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError(services),
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), ApolloServerPluginDrainHttpServer({ httpServer }), queryCostLimit(options.schema), graphqlQuotaPlugin()],
  });
  await apollo.start();

  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: ({ req }) => createRequestContext(services, req.headers, String((req as { id?: unknown }).id ?? '')),
    }),
  );
  const restRouter = createRestRouter(services, options.schema);
  app.use('/api/v1', restRouter);

  app.use(notFoundHandler);
  app.use(jsonErrorHandler(services.logger));

  return { httpServer, restRoutes: () => listRoutes(restRouter as unknown as { stack: RouterLayer[] }), stop: () => apollo.stop() };
}
