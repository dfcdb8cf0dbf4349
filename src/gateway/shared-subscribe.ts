import { createSourceEventStream, type DocumentNode, execute, type ExecutionArgs, type ExecutionResult, print } from 'graphql';
import { isAsyncIterable } from 'graphql/jsutils/isAsyncIterable';
import { mapAsyncIterator } from 'graphql/execution/mapAsyncIterator';

/**
 * graphql-js's `subscribe`, except that an event's execution is shared by every subscription that
 * would execute it alike. A published event wakes every subscriber of the process at once with the
 * same event object, and each ran the same document over it (1,000 subscribers × ~21 events a
 * refresh were 21,000 executions of a few documents). Each subscription still filters its own
 * source stream (its types, billIds, tier and key checks), so only events it receives are looked
 * up; the key covers everything else an execution reads: the event itself, the document's text,
 * the operation, the variables (a directive such as `@include(if: $x)` changes the shape) and
 * `audience`, what of the context the resolvers read (the caller must name it; see
 * `audienceOf` in src/gateway/pipeline.ts).
 */
export async function sharedSubscribe(args: ExecutionArgs, audience: string): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source;
  const key = executionKey(args.document, args.operationName, args.variableValues, audience);
  return mapAsyncIterator(source, (payload) => {
    // a primitive has no identity to hang a shared result on
    if (payload === null || (typeof payload !== 'object' && typeof payload !== 'function')) return execute({ ...args, rootValue: payload });
    let byKey = executions.get(payload);
    if (!byKey) executions.set(payload, (byKey = new Map()));
    let result = byKey.get(key);
    if (!result) byKey.set(key, (result = execute({ ...args, rootValue: payload })));
    return result;
  });
}

/** Results by event and execution key: an event's entries go when the event is collected. */
const executions = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();

export function executionKey(document: DocumentNode, operationName: string | null | undefined, variables: Readonly<Record<string, unknown>> | null | undefined, audience: string): string {
  return JSON.stringify([document.loc?.source.body ?? print(document), operationName ?? null, variables ?? null, audience]);
}
