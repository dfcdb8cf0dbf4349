import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { rootFieldCopies } from './charge';
import { fragmentsByName } from './fragments';
import { RepeatFilter } from '../common/repeat-filter';
import { TokenBucket } from '../common/token-bucket';

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

/** Bytes of prepared operations kept at most, as estimated: some 200 client documents of 30 fields. */
export const PREPARED_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * The most fields a document may resolve to (through its fragments and aliases) for graphql-jit to
 * compile it: compiled code grows with them (a document of 900 aliases compiles to about 4 MB in
 * 70 ms), while graphql-js interprets any document in time proportional to its answer.
 */
export const MAX_COMPILED_FIELDS = 300;
/** Documents whose sightings are counted at most (each a key of about 100 bytes). */
export const SIGHTINGS_KEPT = 10_000;
/**
 * Client documents compiled a minute at most: compiled code lives until the kept operations
 * evict it, long enough to reach V8's old space, so a stream of documents each sent twice would
 * otherwise turn the whole budget over every few seconds, and the heap (and the process's resident
 * memory) grows by the garbage. A client's document that finds the budget spent is interpreted
 * (as on its first sighting) and compiled on a later one.
 */
export const COMPILES_PER_MINUTE = 60;
/**
 * What graphql-jit's compiled code holds on the heap per field it resolves: measured 4.5–5 KB for
 * documents of 100 to 900 aliases, under 1 KB for the REST documents; the larger figure is taken.
 */
const HEAP_PER_COMPILED_FIELD = 5 * 1024;
/** What a prepared operation that is not compiled holds beyond the parsed document (kept by Apollo in any case). */
const INTERPRETED_ENTRY_BYTES = 1_024;

export interface OperationCacheOptions {
  maxBytes?: number;
  maxCompiledFields?: number;
  compilesPerMinute?: number;
  now?: () => number;
  jitCompile?: (schema: GraphQLSchema, document: DocumentNode, operationName?: string) => JitResult;
}

type KeptOperation = PreparedOperation & { bytes: number };

/**
 * Execution, step 4 of the pipeline. Prepares a parsed and validated document against the schema
 * (graphql-jit, some times faster than graphql-js's interpretation for the nested results
 * predictions have; graphql-js where jit cannot compile a document) and keeps it under its hash.
 * Memory stays flat whatever documents arrive: the service's own documents (`shipped`) are compiled
 * and kept for good; a client's document is interpreted the first time it is seen and compiled only
 * when it comes again, if it is small enough and the minute's compiles are not spent; the kept ones are bounded by their bytes, least
 * recently used first out.
 */
export class OperationCache {
  static {
    // graphql-jit compiles with `new Function`, and V8 keeps what it compiles that way in its
    // compilation cache, aged out only by memory-reducing collections: 50 documents compiled and
    // dropped still held 50 MB after repeated collections. Nothing else here compiles the same source
    // twice, so the cache saves nothing; without it, a dropped operation's code is freed with it.
    setFlagsFromString('--no-compilation-cache');
  }

  private readonly shipped = new Map<string, PreparedOperation>();
  private readonly kept: LRUCache<string, KeptOperation>;
  /** a client's document is compiled and kept when it comes again */
  private readonly repeats = new RepeatFilter(SIGHTINGS_KEPT);
  private readonly maxCompiledFields: number;
  private readonly compiles: TokenBucket;
  private readonly jitCompile: NonNullable<OperationCacheOptions['jitCompile']>;

  constructor(
    private readonly schema: GraphQLSchema,
    { maxBytes = PREPARED_CACHE_BYTES, maxCompiledFields = MAX_COMPILED_FIELDS, compilesPerMinute = COMPILES_PER_MINUTE, now, jitCompile = compileQuery }: OperationCacheOptions = {},
  ) {
    this.kept = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes });
    this.maxCompiledFields = maxCompiledFields;
    this.compiles = new TokenBucket(compilesPerMinute, now);
    this.jitCompile = jitCompile;
  }

  /**
   * The prepared operation for a document that passed validation; `hash` identifies its text.
   * `shipped`: one of the service's own documents (REST's), compiled at once and kept for good.
   */
  prepare(document: DocumentNode, operationName: string | null | undefined, hash: string, { shipped = false } = {}): PreparedOperation {
    const key = keyOf(hash, operationName);
    const known = this.shipped.get(key) ?? this.kept.get(key);
    if (known) return known;
    const operation = getOperationAST(document, operationName);
    if (!operation) throw new Error('prepare() takes a validated document with the named operation');
    const name = operationName ?? undefined;
    if (shipped) {
      const prepared = this.compile(key, document, operation, name, 0);
      this.shipped.set(key, prepared);
      return prepared;
    }
    if (!this.repeats.repeated(key)) return this.interpreted(key, document, operation, name);
    const fields = resolvedFieldCount(document, operation, this.maxCompiledFields);
    if (fields <= this.maxCompiledFields && !this.compiles.take()) {
      this.repeats.putBack(key);
      return this.interpreted(key, document, operation, name);
    }
    const prepared = fields > this.maxCompiledFields ? this.interpreted(key, document, operation, name) : this.compile(key, document, operation, name, fields);
    this.kept.set(key, prepared);
    return prepared;
  }

  /** Bytes the kept operations hold, as estimated (for tests and the benchmark). */
  get keptBytes(): number {
    return this.kept.calculatedSize;
  }

  private interpreted(key: string, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): KeptOperation {
    const run = (contextValue: unknown, variables: Record<string, unknown> | undefined) =>
      execute({ schema: this.schema, document, operationName, contextValue, variableValues: variables }) as Promise<ExecutionResult> | ExecutionResult;
    return { key, operation, rootFields: rootFieldCopies(document, operation), compiled: false, run, bytes: INTERPRETED_ENTRY_BYTES + key.length };
  }

  /** `fields`: what the operation resolves to (resolvedFieldCount), for its size. */
  private compile(key: string, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined, fields: number): KeptOperation {
    let jit: JitResult | undefined;
    try {
      jit = this.jitCompile(this.schema, document, operationName);
    } catch {
      jit = undefined;
    }
    const interpreted = this.interpreted(key, document, operation, operationName);
    if (!jit || !isCompiledQuery(jit)) return interpreted;
    const query = jit;
    return {
      ...interpreted,
      compiled: true,
      bytes: interpreted.bytes + HEAP_PER_COMPILED_FIELD * fields,
      run: (contextValue, variables) => {
        const result = query.query(undefined, contextValue, variables ?? {}) as ExecutionResult | Promise<ExecutionResult>;
        if (isPromise(result)) return result.then(withStandardErrors);
        // Variables that do not fit their types (nothing ran): graphql-js says why, jit does not.
        if (result.errors?.length && result.data === undefined) return interpreted.run(contextValue, variables);
        return withStandardErrors(result);
      },
    };
  }
}

/** What identifies a prepared operation: its text's hash and the operation's name (itself hashed when long, as a client may send any name). */
function keyOf(hash: string, operationName: string | null | undefined): string {
  const name = operationName ?? '';
  return name.length <= 64 ? `${hash}:${name}` : `${hash}:#${createHash('sha256').update(name).digest('base64url')}`;
}

/**
 * How many fields the operation resolves to, each fragment counted where it is spread (as graphql-jit
 * inlines it), but each walked once; counting stops past `cap`.
 */
export function resolvedFieldCount(document: DocumentNode, operation: OperationDefinitionNode, cap: number): number {
  const fragments = fragmentsByName(document);
  const known = new Map<string, number>();
  const ofFragment = (name: string): number => {
    const remembered = known.get(name);
    if (remembered !== undefined) return remembered;
    known.set(name, 0); // a cycle (refused by validation) adds nothing
    const fragment = fragments.get(name);
    const count = fragment ? countOf(fragment.selectionSet) : 0;
    known.set(name, count);
    return count;
  };
  const countOf = (selectionSet: SelectionSetNode): number => {
    let count = 0;
    for (const selection of selectionSet.selections) {
      if (count > cap) break;
      if (selection.kind === Kind.FIELD) count += 1 + (selection.selectionSet ? countOf(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += countOf(selection.selectionSet);
      else count += ofFragment(selection.name.value);
    }
    return Math.min(count, cap + 1);
  };
  return countOf(operation.selectionSet);
}
