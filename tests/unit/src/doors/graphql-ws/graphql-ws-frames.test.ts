import { type ExecutionResult, GraphQLError } from 'graphql';
import { MessageType, stringifyMessage } from 'graphql-ws';
import { framedStream, nextFrames } from '../../../../../src/doors/graphql-ws/graphql-ws-frames';

/** graphql-ws's own `next` message for a payload: what a client received before the frames were ours */
const theirs = (id: string, payload: unknown) => stringifyMessage({ id, type: MessageType.Next, payload } as never);

describe('nextFrames', () => {
  it('gives the text graphql-ws sends, for data, errors, extensions and awkward ids', () => {
    const format = (r: ExecutionResult) => (r.errors ? { ...r, errors: r.errors.map((e) => e.toJSON()) } : r);
    const frame = nextFrames(format);
    const results: ExecutionResult[] = [
      { data: { events: { id: 'evt_1', data: { bill_id: 3012, note: 'quote " and \u2028 and é' } } } },
      { data: null, errors: [new GraphQLError('Events need the pro tier', { extensions: { code: 'FORBIDDEN' } })] },
      { data: { events: null }, extensions: { cost: 1 } },
    ];
    for (const id of ['1', 'a"b', '0b6ea6b5-0f3e-4f4e-9c1e-4b1f5c2d7e90'])
      for (const result of results) {
        expect(frame(id, result)).toBe(theirs(id, format(result)));
        expect(JSON.parse(frame(id, result))).toEqual({ id, type: 'next', payload: JSON.parse(JSON.stringify(format(result))) });
      }
  });

  it('formats and serialises a result shared by many subscriptions once', () => {
    const format = jest.fn((r: ExecutionResult) => r);
    const frame = nextFrames(format);
    const shared: ExecutionResult = { data: { events: { id: 'evt_1' } } };
    const frames = Array.from({ length: 1000 }, (_, i) => frame(String(i), shared));
    expect(format).toHaveBeenCalledTimes(1);
    expect(new Set(frames).size).toBe(1000);
    frame('1', { data: { events: { id: 'evt_2' } } });
    expect(format).toHaveBeenCalledTimes(2);
  });
});

async function* results(items: ExecutionResult[], log: string[]): AsyncGenerator<ExecutionResult> {
  try {
    for (const item of items) yield item;
  } finally {
    log.push('results ended');
  }
}

describe('framedStream', () => {
  it('sends every result as a frame, in order, and yields nothing to graphql-ws', async () => {
    const log: string[] = [];
    const sent: string[] = [];
    const stream = framedStream(results([{ data: { n: 1 } }, { data: { n: 2 } }], log), (r) => JSON.stringify(r), (d) => void sent.push(d));
    const seen: unknown[] = [];
    for await (const item of stream) seen.push(item);
    expect(seen).toEqual([]);
    expect(sent).toEqual(['{"data":{"n":1}}', '{"data":{"n":2}}']);
    expect(log).toEqual(['results ended']);
  });

  it('sends with each result those the results have ready (takeReady), in order, without a pull each', async () => {
    const sent: string[] = [];
    const batches = [[{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3 } }], [{ data: { n: 4 } }]];
    let ready: ExecutionResult[] = [];
    let pulls = 0;
    const source = {
      next: async () => {
        pulls++;
        const batch = batches.shift();
        if (!batch) return { done: true, value: undefined };
        ready = batch.slice(1);
        return { done: false, value: batch[0] };
      },
      takeReady: () => ready.splice(0),
      return: async () => ({ done: true, value: undefined }),
      [Symbol.asyncIterator]: () => source,
    } as unknown as AsyncGenerator<ExecutionResult> & { takeReady(): ExecutionResult[] };
    await framedStream(source, (r) => JSON.stringify(r), (d) => void sent.push(d)).next();
    expect(sent).toEqual([1, 2, 3, 4].map((n) => `{"data":{"n":${n}}}`));
    expect(pulls).toBe(3); // a pull a batch, and the last finding the end
  });

  it('waits for a send that has to wait before taking the next result', async () => {
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const stream = framedStream(results([{ data: { n: 1 } }, { data: { n: 2 } }], []), (r) => JSON.stringify(r), (d) => {
      sent.push(d);
      if (sent.length === 1) return new Promise<void>((resolve) => (release = resolve));
    });
    const done = stream.next();
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(1);
    release();
    await expect(done).resolves.toEqual({ done: true, value: undefined });
    expect(sent).toHaveLength(2);
  });

  it('passes a failure of the results on (graphql-ws then sends the error), and return() ends the results', async () => {
    async function* failing(): AsyncGenerator<ExecutionResult> {
      yield { data: { n: 1 } };
      throw new Error('lapsed');
    }
    const sent: string[] = [];
    await expect(framedStream(failing(), (r) => JSON.stringify(r), (d) => void sent.push(d)).next()).rejects.toThrow('lapsed');
    expect(sent).toHaveLength(1);

    const log: string[] = [];
    const source = results([{ data: { n: 1 } }], log);
    await framedStream(source, (r) => JSON.stringify(r), () => undefined).return(undefined);
    expect(log).toEqual([]); // never started: a generator's finally runs only once it has
    await expect(source.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
