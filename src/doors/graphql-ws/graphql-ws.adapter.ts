import { createHash, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { type DocumentNode, type ExecutionResult, getOperationAST, GraphQLError, type OperationDefinitionNode, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import type { Context } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import type { RequestContext } from '../../request/context';
import { AppError } from '../../errors';
import { SubscriptionLapsed } from '../../events/event-stream';
import { framedStream, nextFrames } from './graphql-ws-frames';
import { CONNECTION_LIMIT_DETAIL, ConnectionCount, MAX_FRAME_BYTES, MAX_SUBSCRIPTIONS_PER_CONNECTION, SUBSCRIPTION_LIMIT_DETAIL } from './graphql-ws-limits';
import { CONNECTION_INIT_KEY_REQUIRED } from '../../gateway/credential';
import { DocumentGuard } from '../../gateway/document-guard';
import { graphqlError, mapError } from '../../gateway/error-mapping';
import { unresolvedOperation } from '../../gateway/operation-choice';
import type { Gateway, GatewayRequest } from '../../gateway/pipeline';
import { clientAddressOf } from '../http/client-address';
import type { QueryCostCheck } from '../graphql-http/query-cost';
import type { Logger } from '../../logger';

/** WebSocket close codes for the HTTP statuses a connection can be refused with (graphql-ws uses 44xx likewise). */
const CLOSE_CODE: Record<number, number> = { 400: 4400, 401: 4401, 403: 4403, 429: 4429, 503: 4503 };
/** A close reason is at most 123 bytes. */
const reason = (detail: string) => Buffer.from(detail).subarray(0, 123).toString().replace(/\uFFFD$/, '');

export interface WebSocketDoorOptions {
  httpServer: http.Server;
  validationRules: ValidationRule[];
  /** the query cost and mutation limits, as on /graphql */
  costLimit: QueryCostCheck;
  logger: Logger;
  /** TRUST_PROXY: the client's address is the proxy's X-Forwarded-For, as on the HTTP doors */
  trustProxy?: boolean;
}

/**
 * The WebSocket door: graphql-ws on /graphql. The connection_init payload is the credential: no
 * key or a bad one closes the socket with 4401, a Free user with 4403. An admitted connection
 * costs one API call; each subscription passes the document limits, validation and the burst
 * limit, and its errors are mapped as on the other doors. A query or a mutation is a request of
 * its own, as over HTTP: the connection's credential is read again, the call charged, the cost
 * and burst limits applied, and the answer's charges settled (the rate-limit state that HTTP
 * sends in headers has no place in a WebSocket message). A subscription whose key is revoked, or whose account
 * moves to Free, closes the socket with 4401 or 4403 at its next batch of events (SubscriptionLapsed).
 * Limits (src/doors/graphql-ws/graphql-ws-limits.ts): a frame over 100 KB closes the socket (1009) unread; an
 * account's connection past its limit closes with 4403, a connection's subscription past its limit
 * ends with FORBIDDEN.
 */
export function createWebSocketDoor(gateway: Gateway, options: WebSocketDoorOptions): { stop(): Promise<void> } {
  // ws would otherwise buffer a frame of up to 100 MiB before anyone has proved who they are
  const wsServer = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: MAX_FRAME_BYTES });
  const connections = new ConnectionCount();
  // before useServer's own listener, so graphql-ws sends through the coalescing send
  wsServer.on('connection', coalesceSends);
  const contexts = new WeakMap<object, RequestContext>();
  const logInternal = (error: unknown) => options.logger.error({ err: error }, 'GraphQL subscription failed');
  const formatted = (result: ExecutionResult) =>
    result.errors ? { ...result, errors: result.errors.map((e) => graphqlError(e.toJSON(), e, logInternal)) } : result;
  // a shared result's `next` payload is serialised once for every subscription it reaches
  const frames = nextFrames(formatted);
  // where a subscription's frames go: by the arguments graphql-ws hands from onSubscribe to subscribe
  const targets = new WeakMap<object, { id: string; socket: WebSocket }>();
  // who asks for a query or mutation, and its document's hash: by the arguments graphql-ws hands from onSubscribe to execute
  const requests = new WeakMap<object, { request: GatewayRequest; hash: string; operation: OperationDefinitionNode }>();
  // every query and mutation passes it now, not only subscriptions: verdicts kept per text, as on HTTP
  const documentGuard = new DocumentGuard();
  const refused = (error: unknown) => {
    const mapped = mapError(error);
    return { errors: [new GraphQLError(mapped.detail, { extensions: { code: mapped.code }, originalError: error instanceof Error ? error : undefined })] };
  };

  const server = useServer(
    {
      schema: gateway.schema,
      onConnect: async (ctx: Context<Record<string, unknown> | undefined, { socket: { close(code: number, reason: string): void }; request: http.IncomingMessage }>) => {
        const request: GatewayRequest = { credentials: { kind: 'connection-init', payload: ctx.connectionParams }, requestId: randomUUID(), clientAddress: clientAddressOf(ctx.extra.request, options.trustProxy ?? false) };
        try {
          const context = await gateway.start(request);
          if (!context.user) {
            gateway.finish(request, context, 401);
            ctx.extra.socket.close(4401, CONNECTION_INIT_KEY_REQUIRED);
            return false;
          }
          const accountId = context.user.accountId;
          if (!connections.take(accountId)) {
            gateway.finish(request, context, 403);
            ctx.extra.socket.close(4403, CONNECTION_LIMIT_DETAIL);
            return false;
          }
          (ctx.extra.socket as WebSocket).once('close', () => connections.give(accountId));
          gateway.finish(request, context, 200);
          contexts.set(ctx, context);
          return true;
        } catch (error) {
          const mapped = mapError(error);
          gateway.finish(request, null, mapped.status);
          ctx.extra.socket.close(CLOSE_CODE[mapped.status] ?? 4500, reason(mapped.detail));
          return false;
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        // graphql-ws has entered this one already
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return refused(new AppError('FORBIDDEN', SUBSCRIPTION_LIMIT_DETAIL)).errors;
        }
        let document: DocumentNode;
        try {
          // the gateway's document step, as on HTTP
          documentGuard.guard(payload.query);
        } catch (error) {
          return refused(error).errors;
        }
        try {
          document = parse(payload.query);
        } catch (error) {
          return [new GraphQLError((error as Error).message, { extensions: { code: 'BAD_USER_INPUT' } })];
        }
        const operation = getOperationAST(document, payload.operationName);
        // A query or a mutation is a request of its own, as over HTTP: who asks is read again (a
        // key revoked since the connection is refused) and the call charged before validation.
        const request: GatewayRequest | null =
          operation?.operation === 'subscription' ? null : { credentials: { kind: 'connection-init', payload: ctx.connectionParams }, requestId: randomUUID(), clientAddress: clientAddressOf(ctx.extra.request, options.trustProxy ?? false) };
        let context = contexts.get(ctx);
        if (request) {
          try {
            context = await gateway.start(request);
          } catch (error) {
            gateway.finish(request, null, mapError(error).status);
            return refused(error).errors;
          }
        }
        const invalid = validate(gateway.schema, document, [...specifiedRules, ...options.validationRules]);
        const errors = invalid.length || operation ? invalid : [new GraphQLError(unresolvedOperation(document, payload.operationName).message)];
        if (errors.length) {
          if (request) gateway.finish(request, context, 400);
          return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT' } }));
        }
        const args = { schema: gateway.schema, document, operationName: payload.operationName, variableValues: payload.variables ?? undefined, contextValue: context };
        if (request) requests.set(args, { request, hash: createHash('sha256').update(payload.query).digest('hex'), operation: operation! });
        else targets.set(args, { id, socket: ctx.extra.socket as WebSocket });
        return args;
      },
      execute: async (args) => {
        const { request, hash, operation } = requests.get(args)!;
        const variables = (args.variableValues ?? undefined) as Record<string, unknown> | undefined;
        const context = args.contextValue as RequestContext;
        try {
          await options.costLimit(args.document, operation, variables, context);
          const result = await gateway.executeRequested(gateway.operations.prepare(args.document, args.operationName, hash), variables, context);
          // as the HTTP door's status would have been: a whole answer lost is the error's, else 200
          gateway.finish(request, context, result.data == null && result.errors?.length ? mapError(result.errors[0]).status : 200);
          return result;
        } catch (error) {
          gateway.finish(request, context, mapError(error).status);
          return refused(error);
        }
      },
      subscribe: async (args) => {
        try {
          const results = await gateway.subscribe(args.document, args.operationName, (args.variableValues ?? undefined) as Record<string, unknown> | undefined, args.contextValue as RequestContext);
          const target = targets.get(args);
          if (!target || !(Symbol.asyncIterator in results)) return results;
          // the stream writes its own `next` frames (the same text graphql-ws would send); errors and complete still go through graphql-ws
          return framedStream(results, (result) => frames(target.id, result), (data) => sendFrame(target.socket, data));
        } catch (error) {
          return refused(error);
        }
      },
      onNext: (_ctx, _id, _payload, _args, result) => formatted(result),
      onError: (ctx, _id, _payload, errors) => {
        // a credential that lapsed while subscribed ends the connection as it would have been refused at connect, once the error is sent
        const lapsed = errors.map((e) => e.originalError).find((e) => e instanceof SubscriptionLapsed);
        if (lapsed) setImmediate(() => ctx.extra.socket.close(CLOSE_CODE[lapsed.status] ?? 4500, reason(lapsed.message)));
        return errors.map((e) => graphqlError(e.toJSON(), e, logInternal));
      },
    },
    wsServer,
  );
  // a frame over the limit is ws's error, the socket already closed with 1009: graphql-ws would print it to stderr as its own internal error, once per such frame
  wsServer.on('connection', (socket) => {
    const theirs = socket.listeners('error') as ((error: Error) => void)[];
    socket.removeAllListeners('error');
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') for (const listener of theirs) listener.call(socket, error);
    });
  });
  let stopping: Promise<void> | null = null;
  return {
    // completes every subscription and closes every socket (1001), then stops listening for upgrades; once
    stop: () =>
      (stopping ??= (async () => {
        await server.dispose();
        await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      })()),
  };
}

/** Past this many unsent bytes a send waits for its write again, so a slow reader still holds its subscription back. */
const SEND_HIGH_WATER = 64 * 1024;

/** As graphql-ws's ws adapter sends (nothing once the socket is no longer open), waiting for the write only past the high-water mark (see coalesceSends). */
function sendFrame(socket: WebSocket, data: string): Promise<void> | void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount <= SEND_HIGH_WATER) return socket.send(data);
  return new Promise((resolve, reject) => socket.send(data, (err) => (err ? reject(err) : resolve())));
}

/**
 * graphql-ws awaits each message's write before it sends a subscription's next one, so a refresh's
 * ~40 events went out as ~40 writes (system calls) to every subscriber, one after another: most of
 * the fan-out's CPU with 1,000 subscribers. Within one turn of the event loop the socket is corked
 * and a send reports done at once while little is buffered: a subscriber's messages of a batch
 * leave as one write. The frames, their order and the close frames are the same.
 */
export function coalesceSends(socket: WebSocket): void {
  const send = socket.send.bind(socket) as (data: unknown, cb?: (err?: Error) => void) => void;
  let corked = false;
  socket.send = ((data: unknown, cb?: (err?: Error) => void) => {
    const raw = (socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (raw && !corked) {
      corked = true;
      raw.cork();
      setImmediate(() => {
        corked = false;
        raw.uncork();
      });
    }
    if (!cb || socket.bufferedAmount > SEND_HIGH_WATER) return send(data, cb);
    send(data);
    queueMicrotask(() => cb());
  }) as WebSocket['send'];
}
