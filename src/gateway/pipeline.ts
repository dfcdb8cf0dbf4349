import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { createRequestContext, type RequestContext } from '../context';
import type { Services } from '../services';
import { admitBurst, chargeCall, settleCharges } from './charge';
import { type CredentialSource, readCredential } from './credential';
import { OperationCache, type PreparedOperation } from './execute';
import { type Principal, resolvePrincipal } from './principal';
import { rejectNulCharacters } from './text-input';

/** What a door knows of a request before the gateway takes it. */
export interface GatewayRequest {
  credentials: CredentialSource;
  requestId: string;
  /** the peer's address, for limits on clients that have no principal */
  clientAddress?: string;
}

/** How a request ended, for hooks that account per client. */
export interface GatewayOutcome {
  principal: Principal | null;
  /** the HTTP status the door answered (or would have: 200 for a GraphQL answer with data) */
  status: number;
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
 * credential → principal → charge the call (`start`), then burst limit → execute → settle the
 * charges against the response (`execute`); doors map errors with error-mapping.ts.
 * A door (REST route, Apollo, next graphql-ws) only translates its transport to these calls.
 */
export class Gateway {
  readonly operations: OperationCache;

  constructor(
    readonly services: Services,
    readonly schema: GraphQLSchema,
    private readonly hooks: GatewayHooks = {},
  ) {
    this.operations = new OperationCache(schema);
  }

  /** Steps 1–3: who is calling, and the API call charged. Throws the AppError that refuses the request. */
  async start(request: GatewayRequest): Promise<RequestContext> {
    await this.hooks.admit?.(request);
    const principal = await resolvePrincipal(this.services.apiKeys, readCredential(request.credentials));
    const context = createRequestContext(this.services, principal, request.requestId);
    await chargeCall(context.quota);
    return context;
  }

  /**
   * Steps 3–4: the burst limit over every root field of the operation, then its execution; what
   * the response does not deliver is not charged. `allOrNothing`: the door answers any error as a
   * failure of the whole request (REST), so an answer with errors delivers nothing.
   */
  async execute(operation: PreparedOperation, variables: Record<string, unknown> | undefined, context: RequestContext, { allOrNothing = false } = {}): Promise<ExecutionResult> {
    rejectNulCharacters(variables);
    await admitBurst(this.services.burstLimiter, context.user, operation.rootFields);
    let result: ExecutionResult | undefined;
    try {
      result = await operation.run(context, variables);
      return result;
    } finally {
      const failed = !result || (allOrNothing && result.errors?.length);
      await settleCharges(context.quota, failed ? null : (result!.data as Record<string, unknown> | null | undefined));
    }
  }

  /** The rate-limit headers of the user's response (none for an anonymous request). */
  headers(context: RequestContext | null | undefined): Record<string, string> {
    return context?.quota?.headers() ?? {};
  }

  /** The door reports how the request ended. */
  finish(request: GatewayRequest, context: RequestContext | null | undefined, status: number): void {
    this.hooks.settled?.(request, { principal: context?.user ?? null, status });
  }
}
