import { type ExecutionResult, GraphQLError, parse, validate } from 'graphql';
import type { RequestContext } from '../../request/context';
import { AppError } from '../../errors';
import type { SharedAnswer } from '../../gateway/answer-cache';
import type { PreparedOperation } from '../../gateway/execute';
import type { Gateway } from '../../gateway/pipeline';
import { ALL_DOCUMENTS, type OperationName } from './documents';
import type { DocumentData } from './generated/document-data';

export interface RunOperation {
  /** runs the operation for this request; resolves with its data (typed from the document), or throws its first error */
  <N extends OperationName>(name: N, variables: Record<string, unknown>, context: RequestContext): Promise<DocumentData[N]>;
  /**
   * For an operation whose answer is the same for every caller allowed to see it (see
   * Gateway.answerShared): the JSON that `toBody` makes of its data, kept while the serving state holds.
   */
  shared<N extends OperationName>(name: N, variables: Record<string, unknown>, context: RequestContext, toBody: (data: DocumentData[N]) => unknown): Promise<SharedAnswer>;
}

/** A REST request fails as a whole: the first error of an execution, as the service's error type. */
function dataOrThrow<T>(result: ExecutionResult): T {
  const error = result.errors?.[0];
  if (error) {
    const original = error.originalError;
    if (original instanceof AppError) throw original;
    if (!original || original instanceof GraphQLError) throw new AppError('BAD_USER_INPUT', error.message);
    throw original;
  }
  return result.data as T;
}

/**
 * Prepares every REST document once, through the gateway (compiled with graphql-jit: a batch of
 * 100 predictions is some 2,500 result fields). A document that no longer fits the schema stops
 * start-up, not a request. The first error of an execution is rethrown as the service's error
 * type: a REST request fails as a whole, and is charged no prediction.
 */
export function compileOperations(gateway: Gateway): RunOperation {
  const prepared = new Map<OperationName, PreparedOperation>();
  for (const [name, source] of Object.entries(ALL_DOCUMENTS) as [OperationName, string][]) {
    const document = parse(source);
    const errors = validate(gateway.schema, document);
    if (errors.length) throw new Error(`REST operation ${name} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
    const operation = gateway.operations.prepare(document, name, `rest:${name}`, { shipped: true });
    if (!operation.compiled) throw new Error(`REST operation ${name} does not compile with graphql-jit`);
    prepared.set(name, operation);
  }
  const run = async <T>(name: OperationName, variables: Record<string, unknown>, context: RequestContext) =>
    dataOrThrow<T>(await gateway.execute(prepared.get(name)!, variables, context, { allOrNothing: true }));
  const shared = <T>(name: OperationName, variables: Record<string, unknown>, context: RequestContext, toBody: (data: T) => unknown) =>
    gateway.answerShared(prepared.get(name)!, variables, context, (result) => toBody(dataOrThrow<T>(result)));
  return Object.assign(run, { shared }) as RunOperation;
}
