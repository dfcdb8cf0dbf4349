import { createSourceEventStream, type DocumentNode, execute, type ExecutionArgs, type ExecutionResult, print } from 'graphql';
import { isAsyncIterable } from 'graphql/jsutils/isAsyncIterable';
import { isPromise } from 'graphql/jsutils/isPromise';

/**
 * A subscription's results, which can also hand over at once those already executed of the events
 * its source holds (see BufferedStream in src/events/event-stream.ts): a batch of ~40 events then
 * reaches a subscriber in one go instead of one turn of the event loop each.
 */
export interface ReadyResults extends AsyncGenerator<ExecutionResult> {
  /** the next results, in order, that are ready now (none if the next one is still executing); taken ones are not yielded again */
  takeReady(): ExecutionResult[];
}

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
export async function sharedSubscribe(args: ExecutionArgs, audience: string): Promise<ReadyResults | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source;
  const key = executionKey(args.document, args.operationName, args.variableValues, audience);
  return readyResults(source[Symbol.asyncIterator]() as AsyncIterator<unknown> & { takeBuffered?: () => unknown[] }, (payload) => {
    // a primitive has no identity to hang a shared result on
    if (payload === null || (typeof payload !== 'object' && typeof payload !== 'function')) return tracked(execute({ ...args, rootValue: payload }));
    let byKey = executions.get(payload);
    if (!byKey) executions.set(payload, (byKey = new Map()));
    let execution = byKey.get(key);
    if (!execution) byKey.set(key, (execution = tracked(execute({ ...args, rootValue: payload }))));
    return execution;
  });
}

/** An execution, its result once known. */
interface Execution {
  result?: ExecutionResult;
  pending?: Promise<ExecutionResult>;
}
const tracked = (result: ExecutionResult | Promise<ExecutionResult>): Execution => {
  if (!isPromise(result)) return { result };
  const execution: Execution = { pending: result };
  result.then((r) => (execution.result = r), () => undefined);
  return execution;
};

/** Executions by event and execution key: an event's entries go when the event is collected. */
const executions = new WeakMap<object, Map<string, Execution>>();

/**
 * graphql-js's mapAsyncIterator over the source with `run`, plus takeReady: when the source
 * yields an event, the events it holds beside it are taken and their executions started at once,
 * so they are usually done by the time the first one is.
 */
function readyResults(source: AsyncIterator<unknown> & { takeBuffered?: () => unknown[] }, run: (payload: unknown) => Execution): ReadyResults {
  const queue: Execution[] = [];
  const takeSource = () => {
    for (const payload of source.takeBuffered?.() ?? []) queue.push(run(payload));
  };
  const end = async () => {
    queue.length = 0;
    await source.return?.();
  };
  const results: ReadyResults = {
    next: async () => {
      if (!queue.length) {
        const item = await source.next();
        if (item.done) return { done: true, value: undefined };
        queue.push(run(item.value));
        takeSource();
      }
      const head = queue.shift()!;
      try {
        return { done: false, value: head.result ?? (await head.pending!) };
      } catch (error) {
        // as mapAsyncIterator: a failed execution ends the source
        await end();
        throw error;
      }
    },
    takeReady: () => {
      takeSource();
      const ready: ExecutionResult[] = [];
      while (queue.length && queue[0].result) ready.push(queue.shift()!.result!);
      return ready;
    },
    return: async () => {
      await end();
      return { done: true, value: undefined };
    },
    throw: async (error: unknown) => {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]: () => results,
  } as ReadyResults;
  return results;
}

export function executionKey(document: DocumentNode, operationName: string | null | undefined, variables: Readonly<Record<string, unknown>> | null | undefined, audience: string): string {
  return JSON.stringify([document.loc?.source.body ?? print(document), operationName ?? null, variables ?? null, audience]);
}
