import type http from 'node:http';
import { ApolloServer, type ApolloServerOptionsWithGateway, type ApolloServerPlugin, type GraphQLRequestListener, type HTTPGraphQLResponse } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { Request, RequestHandler } from 'express';
import type { ValidationRule } from 'graphql';
import { gatewayRequest, graphqlDocumentOf } from '../http/gateway-request';
import { boundedDocumentStore } from './document-store';
import { answerWithApollo } from './express-integration';
import { answerKnownDocument, answerText, type ApolloContext, executeInGateway, type OperationAnswered, type ShortcutSteps } from './known-document-shortcut';
import { KnownDocuments } from './known-documents';
import type { QueryCostCheck } from './query-cost';
import { acceptsLegacyJsonOnly } from './legacy-json';
import { badInput, ERROR_CODES } from '../../errors';
import { graphqlError, mapError } from '../../gateway/error-mapping';
import { unresolvedOperation } from '../../gateway/operation-choice';
import type { Gateway } from '../../gateway/pipeline';
import { isWebsiteDocument } from '../../gateway/website-documents';
import type { Logger } from '../../logger';

type GatewayInterface = ApolloServerOptionsWithGateway<ApolloContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/**
 * Apollo serves the GraphQL-over-HTTP protocol (bodies, GET, CSRF prevention, status codes) and
 * its own parsing and validation caches; execution is the gateway's. Apollo's "gateway" hook is
 * its supported way to bring an executor of one's own: ours runs each document through the
 * pipeline (burst limit, graphql-jit for the documents that repeat, an answer shared by every
 * caller kept for the serving state, charges settled).
 */
function pipelineExecutor(gateway: Gateway): GatewayInterface {
  const executor: GatewayExecutor = (request) => {
    const context = request.context as ApolloContext;
    // the known-document shortcut ran it already and hands Apollo only the answering
    if (context.settled) return context.settled() as ReturnType<GatewayExecutor>;
    const known = { document: request.document, queryHash: request.queryHash, shipped: isWebsiteDocument(request.request.query) };
    return executeInGateway(gateway, known, request.operationName, request.request.variables, context) as ReturnType<GatewayExecutor>;
  };
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: gateway.schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
}

/**
 * The door's steps inside Apollo's request, as one plugin whose listener is the same object for
 * every request: each plugin costs Apollo a `requestDidStart` and a round of every hook per request,
 * and these steps keep no state of their own between hooks.
 *
 * Once the operation is known, before anything runs:
 * - an operationName that picks no operation of the document is the client's 400 (Apollo leaves
 *   `operation` unset and goes on to the executor, which cannot run "no operation");
 * - a subscription is the WebSocket door's (src/doors/graphql-ws/graphql-ws.adapter.ts): over HTTP
 *   it is answered 400 with where to go (graphql-js would start an event stream no HTTP answer can carry);
 * - an operation over its cost budget is refused (query-cost.ts).
 *
 * The HTTP head of every answer: a whole answer lost to an unavailable dependency (`data: null`, a
 * SERVICE_UNAVAILABLE error, such as a database that cannot be reached inside a resolver) is a
 * 503, as on REST, rather than Apollo's 200 for a GraphQL result; a partial answer stays 200.
 * Every response carries the user's rate-limit headers; the gateway hears how the request ended.
 * A request error (Apollo had the document's text: `source`) answered to a client that reads only
 * the legacy media type is a 200 on the wire (see acceptsLegacyJsonOnly).
 */
function doorSteps({ gateway, checkCost, operationAnswered }: ShortcutSteps, known: KnownDocuments): ApolloServerPlugin<ApolloContext> {
  const listener: GraphQLRequestListener<ApolloContext> = {
    async didResolveOperation({ operation, document, request, contextValue, queryHash }) {
      if (!operation) throw unresolvedOperation(document, request.operationName);
      if (operation.operation === 'subscription') {
        const browser = contextValue.gatewayRequest?.browser;
        const endpoint = browser ? `${browser.secure ? 'wss' : 'ws'}://${browser.host}/graphql` : 'ws(s)://…/graphql';
        throw badInput(`Subscriptions are served over WebSocket only: connect to ${endpoint} with the graphql-transport-ws protocol (graphql-ws)`);
      }
      // handed back by the shortcut, which checked the cost before the operation ran: checked again
      // now, it would read what the operation changed (a grown watchlist) and refuse what already ran
      if (contextValue.settled) return;
      if (request.http?.method === 'POST' && request.query !== undefined) known.resolved(request.query, request.operationName, { document, operation, queryHash });
      await checkCost(document, operation, request.variables, contextValue);
    },
    async willSendResponse({ contextValue, request, response, errors, source, document, operation, schema }) {
      const singleErrors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
      operationAnswered({ document, operation, schema, failed: Boolean(errors?.length) || Boolean(singleErrors?.length) });
      const wholeAnswerFailed = response.body.kind === 'single' && response.body.singleResult.data === null;
      if (wholeAnswerFailed && (response.http.status ?? 200) === 200 && errors?.some((error) => mapError(error).code === 'SERVICE_UNAVAILABLE')) {
        response.http.status = ERROR_CODES.SERVICE_UNAVAILABLE;
      }
      // a refusal's own headers (which limit refused) come first
      for (const [name, value] of Object.entries(gateway.headers(contextValue, contextValue.gatewayRequest))) if (!response.http.headers.has(name.toLowerCase())) response.http.headers.set(name.toLowerCase(), value);
      if (contextValue.gatewayRequest) gateway.finish(contextValue.gatewayRequest, contextValue, response.http.status ?? 200);
      // only the wire says 200: the gateway heard the 400 (the per-address limit counts it as failing)
      if (response.http.status === ERROR_CODES.BAD_USER_INPUT && source !== undefined && acceptsLegacyJsonOnly(request.http?.headers.get('accept'))) response.http.status = 200;
    },
  };
  return { requestDidStart: async () => listener };
}

export interface ApolloDoorOptions {
  httpServer: http.Server;
  validationRules: ValidationRule[];
  /** refuses an operation over its cost budget (throws the AppError) */
  checkCost: QueryCostCheck;
  operationAnswered: OperationAnswered;
  logger: Logger;
}

/** How long a shutdown waits for open requests before it closes their connections. */
export const REQUEST_DRAIN_MS = 7_000;

/** The /graphql door: Apollo Server as a thin adapter over the gateway. */
export async function createApolloDoor(gateway: Gateway, options: ApolloDoorOptions): Promise<{ middleware: RequestHandler; stop(): Promise<void> }> {
  const steps: ShortcutSteps = { gateway, checkCost: options.checkCost, operationAnswered: options.operationAnswered };
  const known = new KnownDocuments();
  const apollo = new ApolloServer<ApolloContext>({
    gateway: pipelineExecutor(gateway),
    introspection: true,
    // No automatic persisted queries: nothing here needs them, and they add an error vocabulary of their own.
    persistedQueries: false,
    documentStore: boundedDocumentStore(),
    // a kept answer (shared by every caller, or introspection) goes out as the text it was kept with
    stringifyResult: answerText,
    validationRules: options.validationRules,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => graphqlError(formatted, error, (internal) => options.logger.error({ err: internal }, 'GraphQL operation failed')),
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      // Open requests get 7 s to finish: the rest of the 10 s shutdown deadline (src/shutdown.ts)
      // is for flushing counters and closing the database, which a slow request must not starve.
      ApolloServerPluginDrainHttpServer({ httpServer: options.httpServer, stopGracePeriodMillis: REQUEST_DRAIN_MS }),
      doorSteps(steps, known),
    ],
  });
  await apollo.start();
  const startContext = (req: Request) => async (): Promise<ApolloContext> => {
    const request = gatewayRequest(req, { browser: true });
    request.document = graphqlDocumentOf(req);
    try {
      return { ...(await gateway.start(request)), gatewayRequest: request };
    } catch (error) {
      // refused before Apollo's request plugins run: the gateway still hears how it ended
      gateway.finish(request, null, mapError(error).status);
      throw error;
    }
  };
  const heard = (req: Request) => (response: HTTPGraphQLResponse) => {
    if (req.method === 'POST' && (response.status ?? 200) === 200 && response.body.kind === 'complete') known.answered(req.headers.accept, response.headers.get('content-type'));
  };
  // once Apollo stops, its own answer (it refuses) is every request's: the shortcut would run operations on services shutting down
  let stopping = false;
  const middleware: RequestHandler = async (req, res) => {
    const match = stopping ? undefined : known.match(req.method, req.body, req.headers.accept);
    const context = match ? await answerKnownDocument(steps, req, res, match, startContext(req)) : startContext(req);
    if (context) await answerWithApollo(apollo, req, res, context, heard(req));
  };
  return {
    middleware,
    stop: () => {
      stopping = true;
      return apollo.stop();
    },
  };
}
