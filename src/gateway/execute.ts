import { type DocumentNode, execute, GraphQLError, type ExecutionResult, getOperationAST, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { rootFieldCopies } from './charge';
import { keepWithin } from '../common/bounded-map';

/** A validated operation ready to run many times: compiled once, with its root fields counted for the burst limit. */
export interface PreparedOperation {
  /** what identifies it: the hash of its document's text and the operation's name */
  key: string;
  operation: OperationDefinitionNode;
  rootFields: ReadonlyMap<string, number>;
  /** true when graphql-jit compiled it; false when it runs on graphql-js (what jit cannot compile) */
  compiled: boolean;
  run(contextValue: unknown, variables: Record<string, unknown> | undefined): Promise<ExecutionResult> | ExecutionResult;
}

type JitResult = ReturnType<typeof compileQuery<Record<string, unknown>, Record<string, unknown>>>;

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as Promise<T>)?.then === 'function';

/**
 * graphql-jit builds some errors (bad variables) without `extensions`, which graphql-js's
 * errors always have and Apollo's error formatting reads: give them one.
 */
function withStandardErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((e) => !e.extensions)) return result;
  const errors = result.errors.map((e) =>
    e.extensions ? e : new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, originalError: e.originalError }),
  );
  return { ...result, errors };
}

/** Prepared operations kept per document; the least recently prepared are dropped past it. */
export const PREPARED_CACHE_LIMIT = 1_000;

/**
 * Execution, step 4 of the pipeline. Prepares a parsed and validated document against the schema
 * once (graphql-jit, some times faster than graphql-js's interpretation for the nested results
 * predictions have; graphql-js where jit cannot compile a document) and keeps it under its hash.
 */
export class OperationCache {
  private readonly prepared = new Map<string, PreparedOperation>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limit = PREPARED_CACHE_LIMIT,
    private readonly jitCompile: (schema: GraphQLSchema, document: DocumentNode, operationName?: string) => JitResult = compileQuery,
  ) {}

  /** The prepared operation for a document that passed validation; `hash` identifies its text. */
  prepare(document: DocumentNode, operationName: string | null | undefined, hash: string): PreparedOperation {
    const key = `${hash}:${operationName ?? ''}`;
    const known = this.prepared.get(key);
    if (known) return known;
    const operation = getOperationAST(document, operationName);
    if (!operation) throw new Error('prepare() takes a validated document with the named operation');
    const prepared = this.compile(key, document, operation, operationName ?? undefined);
    keepWithin(this.prepared, key, prepared, this.limit);
    return prepared;
  }

  private compile(key: string, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): PreparedOperation {
    const rootFields = rootFieldCopies(document, operation);
    let jit: JitResult | undefined;
    try {
      jit = this.jitCompile(this.schema, document, operationName);
    } catch {
      jit = undefined;
    }
    const interpret = (contextValue: unknown, variables: Record<string, unknown> | undefined) =>
      execute({ schema: this.schema, document, operationName, contextValue, variableValues: variables }) as Promise<ExecutionResult> | ExecutionResult;
    if (jit && isCompiledQuery(jit)) {
      const query = jit;
      return {
        key,
        operation,
        rootFields,
        compiled: true,
        run: (contextValue, variables) => {
          const result = query.query(undefined, contextValue, variables ?? {}) as ExecutionResult | Promise<ExecutionResult>;
          if (isPromise(result)) return result.then(withStandardErrors);
          // Variables that do not fit their types (nothing ran): graphql-js says why, jit does not.
          if (result.errors?.length && result.data === undefined) return interpret(contextValue, variables);
          return withStandardErrors(result);
        },
      };
    }
    return { key, operation, rootFields, compiled: false, run: interpret };
  }
}
