import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { ACCESS_EXTENSION } from '../../resolvers/access';
import { buildAppSchema, printAppSchema } from '../../resolvers/schema';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

it('matches the committed schema/schema.graphql (run `npm run schema` after changing the API)', () => {
  const committed = readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
  expect(printAppSchema(schema)).toBe(committed);
});

it('declares who may call every root field', () => {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(isObjectType);
  const undeclared = roots.flatMap((root) =>
    Object.values(root.getFields())
      .filter((field) => !['public', 'authenticated', 'pro'].includes(field.extensions?.[ACCESS_EXTENSION] as string))
      .map((field) => `${root.name}.${field.name}`),
  );
  expect(undeclared).toEqual([]);
  expect(Object.keys(schema.getQueryType()!.getFields()).length).toBeGreaterThan(3);
});
