import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { OperationCache } from '../../../../src/gateway/execute';

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    double: { type: new GraphQLNonNull(GraphQLInt), args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_root, { n }) => 2 * n },
    who: { type: GraphQLString, resolve: (_root, _args, context: { name: string }) => context.name },
  },
});
const schema = new GraphQLSchema({ query: Query });

describe('OperationCache', () => {
  it('compiles a document once with graphql-jit and runs it with the request’s context and variables', async () => {
    const cache = new OperationCache(schema);
    const prepared = cache.prepare(parse('query Q($n: Int!) { double(n: $n) a: who b: who }'), 'Q', 'hash1');
    expect(prepared.compiled).toBe(true);
    expect(prepared.rootFields).toEqual(new Map([['double', 1], ['who', 2]]));
    expect(await prepared.run({ name: 'ada' }, { n: 21 })).toEqual({ data: { double: 42, a: 'ada', b: 'ada' } });
    expect(cache.prepare(parse('query Q($n: Int!) { double(n: $n) }'), 'Q', 'hash1')).toBe(prepared);
  });

  it('keys by hash and operation name, and forgets the oldest past its limit', () => {
    const cache = new OperationCache(schema, 2);
    const doc = parse('query A { who } query B { double(n: 1) }');
    const a = cache.prepare(doc, 'A', 'h');
    expect(cache.prepare(doc, 'B', 'h')).not.toBe(a);
    cache.prepare(parse('{ who }'), null, 'other');
    expect(cache.prepare(doc, 'A', 'h')).not.toBe(a);
  });

  it('reports variables that do not fit their types as graphql-js does, naming why', async () => {
    const prepared = new OperationCache(schema).prepare(parse('query Q($n: Int!) { double(n: $n) }'), 'Q', 'h');
    const result = await prepared.run({}, { n: 'abc' });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0].message).toBe('Variable "$n" got invalid value "abc"; Int cannot represent non-integer value: "abc"');
    expect(result.errors?.[0].extensions).toEqual({});
  });

  it('runs on graphql-js what jit cannot compile', async () => {
    const refusing = () => ({ errors: [new GraphQLError('not supported')] });
    const prepared = new OperationCache(schema, 10, refusing).prepare(parse('query Q($n: Int!) { double(n: $n) who }'), 'Q', 'h');
    expect(prepared.compiled).toBe(false);
    expect(await prepared.run({ name: 'x' }, { n: 2 })).toEqual({ data: { double: 4, who: 'x' } });
  });
});
