import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, getOperationAST, parse } from 'graphql';
import { compileQuery } from 'graphql-jit';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_COMPILED_FIELDS, OperationCache, resolvedFieldCount } from '../../../../src/gateway/execute';

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    double: { type: new GraphQLNonNull(GraphQLInt), args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_root, { n }) => 2 * n },
    who: { type: GraphQLString, resolve: (_root, _args, context: { name: string }) => context.name },
  },
});
const schema = new GraphQLSchema({ query: Query });

/** A cache that counts what graphql-jit compiles. */
function countingCache(options: ConstructorParameters<typeof OperationCache>[1] = {}) {
  const compiled: string[] = [];
  const cache = new OperationCache(schema, {
    ...options,
    jitCompile: (s, document, name) => {
      compiled.push(name ?? '');
      return compileQuery(s, document, name);
    },
  });
  return { cache, compiled };
}

/** A document of `n` aliases of `who`, its aliases prefixed by `prefix` so that each prefix is a new document. */
const aliases = (prefix: string, n: number) => `{ ${Array.from({ length: n }, (_, i) => `${prefix}${i}: who`).join(' ')} }`;

describe('OperationCache', () => {
  it('compiles a shipped document at once with graphql-jit, keeps it, and runs it with the request’s context and variables', async () => {
    const { cache, compiled } = countingCache();
    const prepared = cache.prepare(parse('query Q($n: Int!) { double(n: $n) a: who b: who }'), 'Q', 'hash1', { shipped: true });
    expect(prepared.compiled).toBe(true);
    expect(prepared.rootFields).toEqual(new Map([['double', 1], ['who', 2]]));
    expect(await prepared.run({ name: 'ada' }, { n: 21 })).toEqual({ data: { double: 42, a: 'ada', b: 'ada' } });
    expect(cache.prepare(parse('query Q($n: Int!) { double(n: $n) }'), 'Q', 'hash1')).toBe(prepared);
    expect(compiled).toEqual(['Q']);
  });

  it('interprets a client’s document the first time and compiles it only when it comes again', async () => {
    const { cache, compiled } = countingCache();
    const document = parse('query Q($n: Int!) { double(n: $n) }');
    const first = cache.prepare(document, 'Q', 'h');
    expect(first.compiled).toBe(false);
    expect(await first.run({}, { n: 2 })).toEqual({ data: { double: 4 } });
    expect(compiled).toEqual([]);
    const second = cache.prepare(document, 'Q', 'h');
    expect(second.compiled).toBe(true);
    expect(compiled).toEqual(['Q']);
    expect(cache.prepare(document, 'Q', 'h')).toBe(second);
    expect(compiled).toEqual(['Q']);
  });

  it('keys by hash and operation name', () => {
    const { cache } = countingCache();
    const doc = parse('query A { who } query B { double(n: 1) }');
    cache.prepare(doc, 'A', 'h');
    const a = cache.prepare(doc, 'A', 'h');
    cache.prepare(doc, 'B', 'h');
    expect(cache.prepare(doc, 'B', 'h')).not.toBe(a);
    expect(cache.prepare(doc, 'A', 'h')).toBe(a);
  });

  it('keeps what it prepares within its bytes, whatever documents arrive: unique documents keep nothing, repeated ones the most recent', () => {
    const { cache } = countingCache({ maxBytes: 200_000, compilesPerMinute: Infinity });
    for (let i = 0; i < 2_000; i++) cache.prepare(parse(aliases(`u${i}x`, 5)), null, `unique${i}`);
    expect(cache.keptBytes).toBe(0);
    for (let i = 0; i < 200; i++) {
      const document = parse(aliases(`r${i}x`, 20));
      cache.prepare(document, null, `repeated${i}`);
      cache.prepare(document, null, `repeated${i}`);
      expect(cache.keptBytes).toBeLessThanOrEqual(200_000);
    }
    expect(cache.keptBytes).toBeGreaterThan(100_000);
    const recent = parse(aliases('r199x', 20));
    expect(cache.prepare(recent, null, 'repeated199').compiled).toBe(true);
  });

  it('compiles at most its budget of client documents a minute; one that finds it spent is interpreted, and compiled when it comes after the budget refills', () => {
    let now = 0;
    const { cache, compiled } = countingCache({ compilesPerMinute: 3, now: () => now });
    const twice = (i: number) => {
      const document = parse(aliases(`d${i}x`, 5));
      cache.prepare(document, null, `doc${i}`);
      return cache.prepare(document, null, `doc${i}`);
    };
    expect(Array.from({ length: 10 }, (_, i) => twice(i).compiled)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(compiled).toHaveLength(3);
    // a shipped document is not a client's: it is compiled whatever the budget
    expect(cache.prepare(parse('{ who }'), null, 'shipped', { shipped: true }).compiled).toBe(true);
    now += 20_000; // a third of a minute: one compile more
    const again = parse(aliases('d5x', 5));
    expect(cache.prepare(again, null, 'doc5').compiled).toBe(true);
    expect(cache.prepare(parse(aliases('d6x', 5)), null, 'doc6').compiled).toBe(false);
  });

  it('never compiles a document that resolves to more fields than it may, however often it comes', async () => {
    const { cache, compiled } = countingCache();
    const document = parse(aliases('a', MAX_COMPILED_FIELDS + 1));
    for (let i = 0; i < 3; i++) expect(cache.prepare(document, null, 'big').compiled).toBe(false);
    expect(compiled).toEqual([]);
    expect(((await cache.prepare(document, null, 'big').run({ name: 'x' }, {})).data as Record<string, string>).a0).toBe('x');
  });

  it('counts the fields an operation resolves to through its fragments, each fragment where it is spread, up to a cap', () => {
    const document = parse('query { ...F ...F a: who } fragment F on Query { b: who c: double(n: 1) }');
    expect(resolvedFieldCount(document, getOperationAST(document)!, 100)).toBe(5);
    // each fragment spreads the next twice: 2^20 fields, counted in a walk of 21 fragments
    const doubling = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const hostile = parse(`{ ...F0 } ${doubling} fragment F20 on Query { who }`);
    expect(resolvedFieldCount(hostile, getOperationAST(hostile)!, 300)).toBe(301);
  });

  it('frees the code of a compiled operation once it is dropped (V8 would keep functions made with new Function in its compilation cache)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const cache = new OperationCache(schema, { maxBytes: 1 });
    const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
    const before = heap();
    for (let i = 0; i < 40; i++) {
      const document = parse(aliases(`d${i}x`, 290));
      cache.prepare(document, null, `d${i}`);
      expect(cache.prepare(document, null, `d${i}`).compiled).toBe(true);
    }
    // each compiled document holds about 1 MB while it is kept
    expect(heap() - before).toBeLessThan(10 * 1024 * 1024);
  });

  it('hashes a long operation name into its key, so names cannot fill the memory', () => {
    const name = 'N'.repeat(10_000);
    const { cache } = countingCache();
    const document = parse(`query ${name} { who }`);
    cache.prepare(document, name, 'h');
    expect(cache.prepare(document, name, 'h').key.length).toBeLessThan(200);
  });

  it('reports variables that do not fit their types as graphql-js does, naming why', async () => {
    const prepared = new OperationCache(schema).prepare(parse('query Q($n: Int!) { double(n: $n) }'), 'Q', 'h', { shipped: true });
    expect(prepared.compiled).toBe(true);
    const result = await prepared.run({}, { n: 'abc' });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0].message).toBe('Variable "$n" got invalid value "abc"; Int cannot represent non-integer value: "abc"');
    expect(result.errors?.[0].extensions).toEqual({});
  });

  it('runs on graphql-js what jit cannot compile', async () => {
    const refusing = () => ({ errors: [new GraphQLError('not supported')] });
    const prepared = new OperationCache(schema, { jitCompile: refusing }).prepare(parse('query Q($n: Int!) { double(n: $n) who }'), 'Q', 'h', { shipped: true });
    expect(prepared.compiled).toBe(false);
    expect(await prepared.run({ name: 'x' }, { n: 2 })).toEqual({ data: { double: 4, who: 'x' } });
  });
});
