import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isObjectType, type GraphQLSchema, parse, validate } from 'graphql';
import { depthLimit } from '../../../../src/doors/graphql-http/query-cost';
import { ACCESS_EXTENSION, ACCESS_RULES } from '../../../../src/request/access-rules';
import { buildAppSchema, printAppSchema } from '../../../../src/graphql/build-schema';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

it('matches the committed schema/schema.graphql (run `npm run schema` after changing the API)', () => {
  const committed = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'schema', 'schema.graphql'), 'utf8');
  expect(printAppSchema(schema)).toBe(committed);
});

it('declares who may call every root field', () => {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(isObjectType);
  const undeclared = roots.flatMap((root) =>
    Object.values(root.getFields())
      .filter((field) => !(ACCESS_RULES as readonly string[]).includes(field.extensions?.[ACCESS_EXTENSION] as string))
      .map((field) => `${root.name}.${field.name}`),
  );
  expect(undeclared).toEqual([]);
  expect(Object.keys(schema.getQueryType()!.getFields()).length).toBeGreaterThan(3);
});

describe('the depth limit', () => {
  const errors = (query: string, max: number) => validate(schema, parse(query), [depthLimit(max)]).map((e) => e.message);

  it('refuses an operation deeper than the limit, counting through fragments', () => {
    expect(errors('{ bill(id: 1) { introducedSession { id } } }', 3)).toEqual([]);
    expect(errors('{ bill(id: 1) { introducedSession { id } } }', 2)).toEqual(['This query is 3 levels deep, over the limit of 2']);
    expect(errors('query { bill(id: 1) { ...F } } fragment F on Bill { introducedSession { name } }', 2)).toEqual(['This query is 3 levels deep, over the limit of 2']);
  });

  it('lets every query the schema allows through at the service’s limit', () => {
    expect(errors('{ bills { edges { node { prediction { riskIndicators { controversyScore } lastStage { stage } } } } } }', 10)).toEqual([]);
  });
});
