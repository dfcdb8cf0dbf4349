import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import express from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { pinoHttp } from 'pino-http';
import { createRestRouter } from '../rest-compat';
import { type AdminDeps } from './admin/admin-commands';
import { adminRouter } from './admin/admin-endpoint';
import { createRequestContext, type RequestContext } from './context';
import { AppError, INTERNAL_DETAIL } from './errors';
import { jsonErrorHandler, notFoundHandler } from './http-errors';
import { requestId } from './request-id';
import type { Services } from './services';

export interface AppOptions {
  schema: GraphQLSchema;
  /** the admin endpoint for the CLI; omitted when the CLI can open the database itself */
  admin?: { token: string; deps: AdminDeps };
}

export interface App {
  httpServer: http.Server;
  /** stops Apollo and drains open requests; the caller closes the database afterwards */
  stop(): Promise<void>;
}

function formatGraphQLError(services: Services) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return { message: original.message, locations: formatted.locations, path: formatted.path, extensions: { code: original.code } };
    }
    const code = formatted.extensions?.code;
    // Parse, validation and variable errors are the client's; anything else is ours and stays private.
    if (code && code !== 'INTERNAL_SERVER_ERROR') return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
    services.logger.error({ err: original }, 'GraphQL operation failed');
    return { message: INTERNAL_DETAIL, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
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
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
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
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError(services),
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled(), ApolloServerPluginDrainHttpServer({ httpServer })],
  });
  await apollo.start();

  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: ({ req }) => createRequestContext(services, req.headers, String((req as { id?: unknown }).id ?? '')),
    }),
  );
  app.use('/api/v1', createRestRouter(services));
  if (options.admin) app.use('/admin', adminRouter(options.admin.token, options.admin.deps));

  app.use(notFoundHandler);
  app.use(jsonErrorHandler(services.logger));

  return { httpServer, stop: () => apollo.stop() };
}
