import { type DocumentNode, execute, GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import type { RequestContext } from '../src/context';
import { AppError } from '../src/errors';
import { DOCUMENTS, type OperationName } from './documents';

export type RunOperation = <T = Record<string, any>>(name: OperationName, variables: Record<string, unknown>, context: RequestContext) => Promise<T>;

/**
 * Compiles every REST document against the schema once (a document that no longer fits the
 * schema stops start-up, not a request), and returns the function routes use to run them. The
 * first error of an execution is rethrown as the service's error type, so REST maps it once.
 */
export function compileOperations(schema: GraphQLSchema): RunOperation {
  const compiled = new Map<OperationName, DocumentNode>();
  for (const [name, source] of Object.entries(DOCUMENTS) as [OperationName, string][]) {
    const document = parse(source);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`REST operation ${name} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
    compiled.set(name, document);
  }
  return async (name, variables, context) => {
    const result = await execute({ schema, document: compiled.get(name)!, variableValues: variables, contextValue: context, operationName: name });
    const error = result.errors?.[0];
    if (error) {
      const original = error.originalError;
      if (original instanceof AppError) throw original;
      if (!original || original instanceof GraphQLError) throw new AppError('BAD_USER_INPUT', error.message);
      throw original;
    }
    return result.data as never;
  };
}
