import type { ExecutionResult } from 'graphql';
import type { ReadyResults } from '../../gateway/shared-subscribe';

/**
 * The `next` message graphql-ws would send for a subscription's result, written by us so that a
 * result shared by many subscriptions (src/gateway/shared-subscribe.ts: one execution per event
 * and audience) is formatted and serialised once, not once per subscriber. The text is what
 * graphql-ws's `stringifyMessage({ id, type: 'next', payload })` gives (no replacer is set): the
 * same keys in the same order, the payload's JSON unchanged.
 */
export function nextFrames(format: (result: ExecutionResult) => unknown): (id: string, result: ExecutionResult) => string {
  // by result object: a result's entry goes when the result is collected
  const payloads = new WeakMap<ExecutionResult, string>();
  return (id, result) => {
    let payload = payloads.get(result);
    if (payload === undefined) payloads.set(result, (payload = JSON.stringify(format(result))));
    return `{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`;
  };
}

/**
 * A subscription's results sent as frames by the stream itself, one after another, in order:
 * `send` returns a promise only when it has to wait (a slow reader), otherwise the next result is
 * taken at once, and with each result those the results have ready (takeReady). To graphql-ws, which iterates what `subscribe` returns and sends a `next` per
 * item, the stream yields nothing: its `next()` settles when the results end (then graphql-ws
 * sends `complete`, as before) or fail (graphql-ws sends `error` and its onError hook runs, as
 * before). `return()` (the client's `complete`, a closed socket) ends the results at once.
 */
export function framedStream(
  results: AsyncGenerator<ExecutionResult> & Partial<Pick<ReadyResults, 'takeReady'>>,
  frame: (result: ExecutionResult) => string,
  send: (data: string) => Promise<void> | void,
): AsyncGenerator<ExecutionResult> {
  let ended = false;
  const stream: AsyncGenerator<ExecutionResult> = {
    next: async () => {
      while (!ended) {
        const item = await results.next();
        if (item.done || ended) break;
        // with it, the results already at hand (the rest of a batch), without a turn each
        for (const result of [item.value, ...(results.takeReady?.() ?? [])]) {
          if (ended) break;
          const sending = send(frame(result));
          if (sending) await sending;
        }
      }
      ended = true;
      return { done: true, value: undefined };
    },
    return: async () => {
      ended = true;
      await results.return(undefined);
      return { done: true, value: undefined };
    },
    throw: async (error: unknown) => {
      ended = true;
      await results.return(undefined);
      throw error;
    },
    [Symbol.asyncIterator]: () => stream,
  } as AsyncGenerator<ExecutionResult>;
  return stream;
}
