import type { Request, Response } from 'express';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { writeWholeAnswer } from './express-integration';
import type { KnownOperation, KnownRequest } from './known-documents';
import type { QueryCostCheck } from './query-cost';
import type { RequestContext } from '../../request/context';
import { keptText } from '../../gateway/answer-cache';
import type { Gateway, GatewayRequest } from '../../gateway/pipeline';

/** The context the door's steps hand Apollo: the gateway's, and what the shortcut has settled. */
export type ApolloContext = RequestContext & {
  gatewayRequest?: GatewayRequest;
  /** the operation's result when the shortcut has run it already: Apollo is left only to answer it */
  settled?: () => Promise<ExecutionResult>;
};

/** What the door hears of each answered operation (the metrics count it by root field and outcome). */
export type OperationAnswered = (answered: { document: DocumentNode | undefined; operation: OperationDefinitionNode | undefined; schema: GraphQLSchema; failed: boolean }) => void;

/** The body of a whole answer, as Apollo's `stringifyResult` writes it: a kept answer as the text it was kept with. */
export const answerText = (result: { data?: unknown; errors?: unknown; extensions?: unknown }) => `${keptText(result) ?? JSON.stringify(result)}\n`;

/** Runs a resolved document in the gateway: the pipeline's steps 3–4 (burst limit, execution, charges). */
export function executeInGateway(gateway: Gateway, known: Pick<KnownOperation, 'document' | 'queryHash' | 'shipped'>, operationName: string | null | undefined, variables: Record<string, unknown> | undefined, context: RequestContext): Promise<ExecutionResult> {
  // the dashboard's own documents are a fixed set, compiled at first sight; a client's is compiled when it repeats
  const prepared = gateway.operations.prepare(known.document, operationName, known.queryHash, { shipped: known.shipped });
  return gateway.executeRequested(prepared, variables, context);
}

export interface ShortcutSteps {
  gateway: Gateway;
  checkCost: QueryCostCheck;
  operationAnswered: OperationAnswered;
}

/**
 * A request for a known document (known-documents.ts) answered without Apollo's request
 * pipeline, which for such a request would hash the text, fetch the document from its cache,
 * resolve the operation, build a request context and run every plugin hook before and after the
 * same executor: by profile, about a quarter of the door's CPU a request. Every check of the door
 * still runs, in Apollo's order: the gateway's start (credential, call charged, daily quotas), the
 * cost and mutation limits, then the gateway's execution (burst limit, access rules, charges),
 * and the same head (rate-limit headers, the session cookie), metrics and end of request as
 * Apollo's path (doorSteps in apollo.adapter.ts).
 *
 * Only a whole success is answered here. Whatever else happens (the start or the cost check
 * refuses, the result holds errors) is handed back as the context Apollo is to answer with,
 * holding what already happened: Apollo then formats the refusal or the errors as it always does,
 * and its executor returns the settled result rather than running the operation a second time.
 * Returns undefined when the request has been answered.
 */
export async function answerKnownDocument(
  steps: ShortcutSteps,
  req: Request,
  res: Response,
  { known, variables, contentType }: KnownRequest,
  startContext: () => Promise<ApolloContext>,
): Promise<(() => Promise<ApolloContext>) | undefined> {
  let context: ApolloContext;
  try {
    context = await startContext();
  } catch (error) {
    return () => Promise.reject(error);
  }
  const handBack = async () => context;
  try {
    await steps.checkCost(known.document, known.operation, variables, context);
  } catch {
    // Apollo's didResolveOperation runs the same check and meets the same refusal
    return handBack;
  }
  let result: ExecutionResult;
  try {
    // the name Apollo hands its executor: the resolved operation's own (the gateway keys compiled operations by it)
    result = await executeInGateway(steps.gateway, known, known.operation.name?.value ?? null, variables, context);
  } catch (error) {
    context.settled = () => Promise.reject(error);
    return handBack;
  }
  if (result.errors !== undefined || result.extensions !== undefined || result.data == null) {
    context.settled = async () => result;
    return handBack;
  }
  const { gateway } = steps;
  steps.operationAnswered({ document: known.document, operation: known.operation, schema: gateway.schema, failed: false });
  const headers: [string, string][] = Object.entries(gateway.headers(context, context.gatewayRequest));
  headers.push(['content-type', contentType]);
  if (context.gatewayRequest) gateway.finish(context.gatewayRequest, context, 200);
  writeWholeAnswer(req, res, 200, headers, answerText({ data: result.data }));
  return undefined;
}
