import http from 'node:http';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { corsPolicy, createRestDoor, docsRouter } from './doors/rest/rest-door';
import { createApolloDoor } from './doors/graphql-http/apollo.adapter';
import { createWebSocketDoor } from './doors/graphql-ws/graphql-ws.adapter';
import { Gateway, type GatewayHooks } from './gateway/pipeline';
import { noNulCharactersRule } from './gateway/text-input';
import { graphqlErrorHandler, jsonErrorHandler, notFoundHandler } from './doors/http/http-errors';
import { graphqlDocumentGuard } from './doors/graphql-http/http-document-guard';
import { persistedQueriesRefused } from './doors/graphql-http/persisted-queries';
import { doorEdge, reportRefusedBeforePipeline } from './doors/http/door-edge';
import { depthLimit, queryCostCheck } from './doors/graphql-http/query-cost';
import { createHttpMetrics, type MetricsOptions } from './doors/http/http-metrics';
import { createMetricsRegistry, registerServiceMetrics } from './metrics/service-metrics';
import { requestLogging } from './doors/http/request-id';
import { dashboardStatic } from './doors/http/dashboard-static';
import { emailPages } from './doors/http/email-pages';
import { freshnessBody } from './doors/http/freshness-body';
import { buildAppSchema } from './graphql/build-schema';
import { AddressLimiter, addressLimitHooks } from './gateway/address-limit';
import { HourlyAlertCheck } from './jobs/hourly-alert-check';
import { DigestJob } from './jobs/digest-job';
import { Lifecycle, type LifecycleOptions } from './jobs/lifecycle';
import { RetentionJob } from './jobs/retention';
import { createServices, type ServiceDeps, type Services } from './services/services';

interface HttpOptions {
  schema: GraphQLSchema;
  /** cross-cutting steps run by the gateway for every door (see GatewayHooks) */
  gatewayHooks?: GatewayHooks;
  /** browser origins allowed to call /api/v1 and /graphql (CORS_ORIGINS) */
  corsOrigins?: readonly string[];
  /** who may read /metrics (see MetricsOptions) */
  metrics?: MetricsOptions;
  /** behind one reverse proxy (TRUST_PROXY): client address, host and scheme from its X-Forwarded-* headers */
  trustProxy?: boolean;
}

export interface App {
  httpServer: http.Server;
  /** "METHOD /path" of every /api/v1 route, for the check against the OpenAPI document */
  restRoutes(): string[];
  /** closes subscriptions, stops Apollo and drains open requests; the caller closes the database afterwards */
  stop(): Promise<void>;
}

async function createHttpApp(services: Services, options: HttpOptions): Promise<App> {
  const app = express();
  const httpServer = http.createServer(app);
  app.disable('x-powered-by');
  // one hop: the proxy in front of us; never a client's own X-Forwarded-For
  app.set('trust proxy', options.trustProxy ? 1 : false);

  const metricsRegistry = createMetricsRegistry();
  const metrics = createHttpMetrics(metricsRegistry, options.metrics);
  registerServiceMetrics(metricsRegistry, services);
  // One pipeline for every door: who is calling, what it costs, execution, errors (src/gateway).
  const gateway = new Gateway(services, options.schema, options.gatewayHooks);
  app.use(requestLogging(services.logger, [metrics.observe, reportRefusedBeforePipeline(gateway)]));

  // the doors first, the busiest first: express tests a request against each layer before its own
  const rest = createRestDoor(gateway, { corsOrigins: options.corsOrigins });
  app.use('/api/v1', rest.handler);
  const validationRules = [depthLimit(), noNulCharactersRule];
  const costLimit = queryCostCheck(options.schema);
  const graphql = await createApolloDoor(gateway, {
    httpServer,
    validationRules,
    checkCost: costLimit,
    operationAnswered: metrics.operationAnswered,
    logger: services.logger,
  });
  // browser GraphQL clients get the same CORS policy as REST ones, preflight included; one route
  // holding the steps, not a mounted layer each, each of which would trim and restore the URL
  app.all(
    '/graphql',
    doorEdge(gateway, { browser: true }),
    corsPolicy(options.corsOrigins ?? []),
    express.json({ limit: '100kb' }),
    persistedQueriesRefused,
    graphqlDocumentGuard(),
    graphql.middleware,
    graphqlErrorHandler(services.logger),
  );
  // the third door: graphql-ws on the same path
  const subscriptions = createWebSocketDoor(gateway, { httpServer, validationRules, costLimit, logger: services.logger, trustProxy: options.trustProxy });
  app.get('/metrics', metrics.handler);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    if (services.readiness.isReady()) res.json({ status: 'ready', today: services.clock.today(), data: freshnessBody(services.freshness.report()) });
    else res.status(503).json({ detail: `Not ready: ${services.readiness.reasons().join('; ')}` });
  });
  app.use('/docs', docsRouter({ openapiUrl: '/api/v1/openapi.json' }));
  // the pages an email's links open (verification, unsubscribe), without a log-in
  app.use(emailPages(services.accountEmail, services.notifications, services.logger));
  // the account dashboard: a single-page app over /graphql, signed in by a session cookie (src/gateway)
  app.use(dashboardStatic());

  app.use(notFoundHandler);
  app.use(jsonErrorHandler(services.logger));

  // once: the server's shutdown stops the doors before it closes the rest (BuiltApp.close stops them too)
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      await subscriptions.stop();
      await graphql.stop();
    })());
  return { httpServer, restRoutes: rest.routes, stop };
}

/** What `npm start` and the tests build the app from: the services' dependencies, the doors' settings, the background work to run. */
export interface AppOptions extends ServiceDeps {
  /** ANON_RATE_LIMIT: requests per minute per address without a valid key or failing; no limit when not given */
  anonRateLimit?: number;
  /** CORS_ORIGINS: browser origins allowed to call /api/v1 and /graphql */
  corsOrigins?: readonly string[];
  /** TRUST_PROXY: client address, host and scheme from one reverse proxy's X-Forwarded-* headers */
  trustProxy?: boolean;
  /** METRICS_TOKEN: who may read /metrics */
  metricsToken?: string;
  /**
   * what `start()` begins: sending webhooks; sending the mail outbox; the hourly jobs (alert checks, and retention after
   * RETENTION_DAYS) and the email digests' minute job; the data's lifecycle (src/jobs/lifecycle.ts: a first start's ingest, the models,
   * scheduled syncs and retrains, vintages, the poll of what other processes changed)
   */
  background?: { webhookDelivery?: boolean; mailDelivery?: boolean; hourlyJobs?: { retentionDays: number }; lifecycle?: LifecycleOptions };
}

/** The app as built: its services (events included), its HTTP server with every door (not listening yet), its background work. */
export interface BuiltApp {
  services: Services;
  http: App;
  /** the data's lifecycle when the options asked for it (loaded already: readiness says what is missing); its syncs, models and vintages */
  lifecycle?: Lifecycle;
  /** Starts the background work the options asked for: call once the doors serve. */
  start(): Promise<void>;
  /**
   * Stops starting background work, once however many callers ask: the lifecycle's polls and
   * schedules, its sync aborted and its training stopped, the hourly jobs, the events refresh under
   * way (all awaited); webhook attempts under way get their grace (awaited by close).
   */
  stopBackground(): Promise<void>;
  /** Stops the background work, drains the doors, waits for a sync, training and a refresh under way, closes quotas and the bus; the caller closes the database after. */
  close(): Promise<void>;
}

/**
 * Builds the app: `npm start` (src/start-server.ts) and the tests (tests/support/test-app.ts) both
 * call this, with their own options. With a lifecycle, the data's state is read before it returns,
 * so readiness already says what is missing when the doors start serving.
 */
export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { anonRateLimit, corsOrigins, trustProxy, metricsToken, background = {}, ...deps } = options;
  const services = createServices(deps);
  const gatewayHooks = anonRateLimit === undefined ? undefined : addressLimitHooks(new AddressLimiter({ perMinute: anonRateLimit }), services.apiKeys);
  const http = await createHttpApp(services, { schema: await buildAppSchema(), gatewayHooks, corsOrigins, trustProxy, metrics: { token: metricsToken } });
  const postgres = !deps.embeddedDatabase;
  const hourlyJobs = background.hourlyJobs
    ? [
        new HourlyAlertCheck(deps.dataSource, services.alertEvaluation, services.quotas, deps.logger, { postgres, serviceDay: () => deps.clock.today() }),
        new RetentionJob(deps.dataSource, deps.logger, { postgres, retentionDays: background.hourlyJobs.retentionDays, serviceDay: () => deps.clock.today() }),
        // a minute's job beside the hourly ones: the email digests due at their local time
        new DigestJob(deps.dataSource, services.digests, deps.logger, { postgres, now: deps.now }),
      ]
    : [];
  const lifecycle = background.lifecycle && new Lifecycle(services, { ...background.lifecycle, postgres });
  let backgroundStopped: Promise<void> | null = null;
  const stopBackground = () =>
    (backgroundStopped ??= (async () => {
      const lifecycleStopped = lifecycle?.stop();
      // attempts under way finish (or are handed back) while the rest shuts down; close() waits for them
      void services.events.deliveries.stop().catch(() => undefined);
      void services.mail.worker.stop().catch(() => undefined);
      for (const job of hourlyJobs) await job.stop();
      await lifecycleStopped;
    })());
  const built: BuiltApp = {
    services,
    http,
    lifecycle,
    async start() {
      lifecycle?.start();
      for (const job of hourlyJobs) job.start();
      if (background.webhookDelivery) await services.events.startDeliveries();
      if (background.mailDelivery) await services.mail.worker.start();
    },
    stopBackground,
    async close() {
      await stopBackground();
      await http.stop();
      await lifecycle?.settled();
      await services.models.idle();
      await services.quotas.close();
      await services.events.close();
      await services.mail.worker.stop();
    },
  };
  try {
    await lifecycle?.load();
  } catch (error) {
    await built.close();
    throw error;
  }
  return built;
}
