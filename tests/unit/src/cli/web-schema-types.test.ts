import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { printWebSchemaTypes } from '../../../../src/cli/web-schema-types';

const ROOT = path.join(__dirname, '..', '..', '..', '..');

it('web/src/generated/schema.ts matches the committed schema/schema.graphql (run `npm run schema` after changing the API)', () => {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'schema', 'schema.graphql'), 'utf8'));
  expect(readFileSync(path.join(ROOT, 'web', 'src', 'generated', 'schema.ts'), 'utf8')).toBe(printWebSchemaTypes(schema));
});

it('writes each type as JSON carries it: nullability, lists, enums as string unions, optional input fields, unions, no root types', () => {
  const printed = printWebSchemaTypes(
    buildSchema(`
      scalar DateTimeISO
      "How sure"
      enum Level { LOW HIGH }
      type Thing { "its id" id: Int! name: String tags: [String]! levels: [Level!] seenAt: DateTimeISO! count(first: Int): Float }
      type Other { id: ID! }
      union Either = Thing | Other
      input NewThing { name: String! note: String }
      type Query { thing: Thing either: Either }
    `),
  );
  expect(printed).toContain(`/** How sure */\nexport type Level = 'LOW' | 'HIGH';`);
  expect(printed).toContain(
    'export interface Thing {\n  /** its id */\n  id: number;\n  name: string | null;\n  tags: (string | null)[];\n  levels: Level[] | null;\n  seenAt: string;\n  count: number | null;\n}',
  );
  expect(printed).toContain('export type Either = Thing | Other;');
  expect(printed).toContain('export interface NewThing {\n  name: string;\n  note?: string | null;\n}');
  expect(printed).not.toMatch(/interface Query|DateTimeISO/);
});
