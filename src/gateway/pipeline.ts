import { type DocumentNode, type ExecutionResult, getOperationAST, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { accessOf, sharesAnswer } from '../request/access-rules';
import { createRequestContext, type RequestContext } from '../request/context';
import type { RequestQuota } from '../quota/request-quota';
import type { QuotaKind } from '../quota/tier-limits';
import type { Services } from '../services/services';
import { AnswerCache, HEAP_PER_RESULT_CHARACTER, rememberText, SharedAnswer, WithHeaders } from './answer-cache';
import { admitBurst, chargeCall, rootFieldCopies, settleCharges } from './charge';
import { AppError } from '../errors';
import { type CredentialSource, readCredential } from './credential';
import { isCrossSite } from './origin';
import { clearedSessionCookieHeader, sessionCookieHeader } from './session-cookie';
import { OperationCache, type PreparedOperation } from './execute';
import { type Principal, resolvePrincipal } from './principal';
import { sharedSubscribe } from './shared-subscribe';
import { rejectNulCharacters } from './text-input';
import { isWebsiteDocument, websiteDocumentsOnly } from './website-documents';

/** What a door knows of a request before the gateway takes it. */
export interface GatewayRequest {
  credentials: CredentialSource;
  requestId: string;
  /** the peer's address (the proxy's X-Forwarded-For when TRUST_PROXY is set), for limits on clients that have no principal */
  clientAddress?: string;
  /** set by the door the dashboard uses (GraphQL over HTTP): what the session cookie and the CSRF check need */
  browser?: {
    /** the host the client addressed */
    host: string | undefined;
    /** the request came over HTTPS (directly or through a trusted proxy): the cookie is then Secure */
    secure: boolean;
  };
  /** the GraphQL document the request asks to run, set by the door the dashboard uses once it has read the body: a session cookie runs only the dashboard's own */
  document?: unknown;
  /** the door ran the admit hooks at its edge, before reading the body (`Gateway.admitAtEdge`) */
  admitted?: boolean;
  /** the settled hooks have heard how the request ended */
  settled?: boolean;
}

/** How a request ended, for hooks that account per client. */
export interface GatewayOutcome {
  principal: Principal | null;
  /** the HTTP status the door answered (or would have: 200 for a GraphQL answer with data) */
  status: number;
  /** the door refused the request before the pipeline ran (405, 413, malformed JSON, a document beyond the limits) */
  beforePipeline?: boolean;
}

/**
 * Places for cross-cutting steps that are not the pipeline's own, e.g. a per-address limiter of
 * unauthenticated and failing requests: `admit` runs first, before a credential is read (throw
 * an AppError to refuse), `settled` once the door knows the outcome.
 */
export interface GatewayHooks {
  admit?(request: GatewayRequest): void | Promise<void>;
  settled?(request: GatewayRequest, outcome: GatewayOutcome): void;
}

/**
 * The one request pipeline every door goes through, in this order:
 * credential (a session cookie: the dashboard's documents only) → principal → charge the call (`start`), then burst limit → execute → settle the
 * charges against the response (`execute`); doors map errors with error-mapping.ts.
 * A door (REST route, Apollo, graphql-ws) only translates its transport to these calls.
 */
export class Gateway {
  readonly operations: OperationCache;
  private readonly answers = new AnswerCache();

  constructor(
    readonly services: Services,
    readonly schema: GraphQLSchema,
    private readonly hooks: GatewayHooks = {},
  ) {
    this.operations = new OperationCache(schema);
  }

  /**
   * The admit hooks at a door's edge, before it reads the body, so that requests it refuses
   * before the pipeline (405, 413, malformed JSON) are refused to a client past its limits too.
   * Throws (or rejects with) the AppError that refuses the request.
   */
  admitAtEdge(request: GatewayRequest): void | Promise<void> {
    request.admitted = true;
    return this.hooks.admit?.(request);
  }

  /** Steps 1–3: who is calling, and the API call charged. Throws the AppError that refuses the request. */
  async start(request: GatewayRequest): Promise<RequestContext> {
    if (!request.admitted) await this.hooks.admit?.(request);
    const credential = readCredential(request.credentials);
    const crossSite = request.browser && request.credentials.kind === 'http-headers' ? isCrossSite(request.credentials.headers, request.browser.host, request.browser.secure) : false;
    // CSRF: a session cookie is sent by the browser whatever page asks, so only the dashboard's own pages may use it
    if (credential?.kind === 'session' && crossSite) throw new AppError('FORBIDDEN', 'Cross-site request refused: the dashboard session works only from the dashboard’s own pages');
    // the cookie is the website's, not a second door to the API: it runs the dashboard's documents only
    if (credential?.kind === 'session' && !isWebsiteDocument(request.document)) throw websiteDocumentsOnly();
    const principal = await resolvePrincipal(this.services, credential);
    const browser = request.browser ? { clientAddress: request.clientAddress, crossSite, sessionChange: credential?.kind === 'session' && !principal ? ('ended' as const) : null } : null;
    const context = createRequestContext(this.services, principal, request.requestId, browser);
    await chargeCall(context.quota, principal);
    return context;
  }

  /**
   * Steps 3–4: the burst limit over every root field of the operation, then its execution; what
   * the response does not deliver is not charged. `allOrNothing`: the door answers any error as a
   * failure of the whole request (REST), so an answer with errors delivers nothing.
   */
  async execute(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext, { allOrNothing = false } = {}): Promise<ExecutionResult> {
    await this.admit(operation, variables, context);
    return this.run(operation, variables, context, allOrNothing);
  }

  /**
   * Step 4 for an operation whose answer is the same for every caller allowed to see it and
   * depends on nothing but its variables and the serving state (model version, data state,
   * today): a bill's prediction, the imminent list. The answer `render` makes of a successful
   * result is serialised once and served from memory while that state holds. Whoever is served
   * it went through the same steps first (credential, call charged, burst limit, the root fields'
   * access rules) and is charged what computing it charged (a prediction is still a prediction
   * delivered). An execution that fails, or a render that throws, is answered as usual and not kept.
   */
  async answerShared(operation: PreparedOperation, variables: Record<string, unknown>, context: RequestContext, render: (result: ExecutionResult) => unknown): Promise<SharedAnswer> {
    await this.admit(operation, variables, context);
    const state = await this.servingState();
    if (state === null) return this.computeShared(operation, variables, context, render);
    for (const check of this.accessChecks(operation)) check(context);
    const key = sharedKey(operation, variables);
    const kept = this.answers.get(state, key);
    if (!kept) return this.answers.set(state, key, await this.computeShared(operation, variables, context, render));
    await context.quota?.requireAll(kept.charges);
    return kept;
  }

  private async computeShared(operation: PreparedOperation, variables: Record<string, unknown>, context: RequestContext, render: (result: ExecutionResult) => unknown): Promise<SharedAnswer> {
    const before = context.quota?.charged();
    const rendered = render(await this.run(operation, variables, context, true));
    const json = JSON.stringify(rendered instanceof WithHeaders ? rendered.body : rendered);
    return new SharedAnswer(json, chargedSince(before, context.quota), undefined, rendered instanceof WithHeaders ? rendered.headers : {});
  }

  /**
   * Steps 3–4 for a door whose client writes the document (GraphQL over HTTP). An operation whose
   * root fields all share their answer (`sharedAnswer` in src/request/access-rules.ts) is served to an API
   * client from the result kept for the serving state, as answerShared serves REST: after the same
   * steps (credential, call charged, burst limit, the root fields' access rules), and charged again
   * what computing it charged. Whenever the kept result is not what running the operation would
   * answer (a rule refuses, a daily limit is reached), the operation runs, so the client meets the
   * usual errors. A result with errors is not kept. The website's requests always run: a bill it
   * shows is charged once a day, not per answer.
   */
  async executeRequested(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<ExecutionResult> {
    await this.admit(operation, variables, context);
    if (isIntrospectionOnly(operation)) return this.introspectionAnswer(operation, variables, context);
    const { quota } = context;
    const state = quota && !quota.website && this.answersShared(operation) ? await this.servingState() : null;
    if (!quota || state === null || !this.admittedByRules(operation, context)) return this.run(operation, variables, context, false);
    const key = sharedKey(operation, variables ?? {});
    const kept = this.answers.get(state, key);
    if (kept?.result && (await quota.takeAll(kept.charges))) return kept.result;
    const before = quota.charged();
    const result = await this.run(operation, variables, context, false);
    if (!kept && !result.errors?.length) this.answers.set(state, key, new SharedAnswer(JSON.stringify(result), chargedSince(before, quota), undefined, {}, result));
    return result;
  }

  /**
   * The schema's description of itself depends on nothing but the schema, so an introspection
   * query is answered once per document and variables and then from memory: tools send the same
   * standard query again and again, each answer some 130 KB computed in about 8 ms.
   */
  private async introspectionAnswer(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<ExecutionResult> {
    const key = sharedKey(operation, variables ?? {});
    const kept = this.introspectionAnswers.get(key);
    if (kept) return kept;
    const result = await this.run(operation, variables, context, false);
    if (!result.errors?.length) {
      const json = JSON.stringify(result);
      rememberText(result, json);
      this.introspectionAnswers.set(key, result, { size: (1 + HEAP_PER_RESULT_CHARACTER) * json.length });
    }
    return result;
  }

  private readonly introspectionAnswers = new LRUCache<string, ExecutionResult>({ maxSize: INTROSPECTION_ANSWER_BYTES });

  /** The state answers are kept for (model version, data state, today); null while no model serves. */
  private async servingState(): Promise<string | null> {
    const served = await this.services.predictions.servingState();
    return served === null ? null : `${served}, today ${this.services.clock.today()}`;
  }

  /** Whether the operation is a query of root fields whose answers are shared, read once from the schema. */
  private answersShared(operation: PreparedOperation): boolean {
    let shared = this.sharedOperations.get(operation);
    if (shared === undefined) {
      const fields = this.schema.getQueryType()?.getFields() ?? {};
      shared = operation.operation.operation === 'query' && operation.rootFields.size > 0 && [...operation.rootFields.keys()].every((name) => sharesAnswer(fields[name]?.extensions));
      this.sharedOperations.set(operation, shared);
    }
    return shared;
  }

  private readonly sharedOperations = new WeakMap<PreparedOperation, boolean>();

  /** Whether the root fields' access rules admit the caller (the fields themselves refuse it when they run). */
  private admittedByRules(operation: PreparedOperation, context: RequestContext): boolean {
    try {
      for (const check of this.accessChecks(operation)) check(context);
      return true;
    } catch {
      return false;
    }
  }

  /** The access rules of the operation's root fields, read once from the schema. */
  private accessChecks(operation: PreparedOperation): ((context: RequestContext) => void)[] {
    let checks = this.rootAccess.get(operation);
    if (!checks) {
      const root = operation.operation.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getQueryType();
      const fields = root?.getFields() ?? {};
      checks = [...operation.rootFields.keys()].map((name) => {
        const check = accessOf(fields[name]?.extensions);
        if (!check) throw new Error(`root field ${name} declares no access rule`);
        return check;
      });
      this.rootAccess.set(operation, checks);
    }
    return checks;
  }

  private readonly rootAccess = new WeakMap<PreparedOperation, ((context: RequestContext) => void)[]>();

  /** Step 3 after the call: NUL characters refused, then the burst limit over every root field copy. */
  private async admit(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<void> {
    rejectNulCharacters(variables);
    await admitBurst(this.services.burstLimiter, context.user, operation.rootFields);
  }

  private async run(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext, allOrNothing: boolean): Promise<ExecutionResult> {
    let result: ExecutionResult | undefined;
    try {
      result = await operation.run(context, variables);
      return result;
    } finally {
      const failed = !result || (allOrNothing && result.errors?.length);
      await settleCharges(context.quota, failed ? null : (result!.data as Record<string, unknown> | null | undefined));
    }
  }

  /**
   * Step 4 for a subscription (the WebSocket door): the burst limit over its root fields, then
   * graphql-js's subscribe; its events stream until the client or the server ends it. The
   * connection was charged as one call when it was admitted (`start`).
   */
  async subscribe(document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
    rejectNulCharacters(variables);
    const operation = getOperationAST(document, operationName);
    if (operation) await admitBurst(this.services.burstLimiter, context.user, rootFieldCopies(document, operation));
    return sharedSubscribe({ schema: this.schema, document, operationName, variableValues: variables, contextValue: context }, audienceOf(context));
  }

  /** The rate-limit headers of the user's response (none for an anonymous request), and the session cookie a browser is to keep or forget. */
  headers(context: RequestContext | null | undefined, request?: GatewayRequest): Record<string, string> {
    const headers = context?.quota?.headers() ?? {};
    const change = context?.browser?.sessionChange;
    if (change && request?.browser) {
      headers['Set-Cookie'] = change === 'ended' ? clearedSessionCookieHeader(request.browser.secure) : sessionCookieHeader(change.token, change.expiresAt, request.browser.secure);
    }
    return headers;
  }

  /** The door reports how the request ended. */
  finish(request: GatewayRequest, context: RequestContext | null | undefined, status: number): void {
    request.settled = true;
    this.hooks.settled?.(request, { principal: context?.user ?? null, status });
  }

  /** The door reports a request that it answered before the pipeline ran, when that was a refusal (4xx, 5xx). */
  finishBeforePipeline(request: GatewayRequest, status: number): void {
    if (request.settled || status < 400) return;
    request.settled = true;
    this.hooks.settled?.(request, { principal: null, status, beforePipeline: true });
  }
}

/** Bytes of introspection answers kept at most: some twenty standard ones. */
export const INTROSPECTION_ANSWER_BYTES = 8 * 1024 * 1024;

/** An operation that reads only the schema's description of itself (`__schema`, `__type`, `__typename`). */
const isIntrospectionOnly = (operation: PreparedOperation) => operation.operation.operation === 'query' && operation.rootFields.size === 0;

/** What identifies an answer among those kept for a serving state: the operation and its variables. */
const sharedKey = (operation: PreparedOperation, variables: Record<string, unknown>) => `${operation.key} ${JSON.stringify(variables)}`;

/** What the request has been charged, per limit, since `before` (its `charged()` then). */
function chargedSince(before: ReadonlyMap<QuotaKind, number> | undefined, quota: RequestQuota | null): [QuotaKind, number][] {
  const after = quota?.charged() ?? new Map<QuotaKind, number>();
  return [...after].map(([kind, units]): [QuotaKind, number] => [kind, units - (before?.get(kind) ?? 0)]).filter(([, units]) => units > 0);
}

/**
 * What of a subscriber's context an event's execution reads, so subscribers that differ in it never
 * share a result: the root field's access check (src/request/access-rules.ts: signed in, tier, credential).
 * The event types' fields read only the event. A field that read more of the context (the account,
 * its loaders) would have to be named here.
 */
export function audienceOf(context: RequestContext): string {
  return context.user ? `${context.user.tier}:${context.user.credential}` : 'anonymous';
}
