import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { ALL_DOCUMENTS } from '../../../../src/doors/rest/documents';
import { printDocumentTypes } from '../../../../src/cli/rest-document-types';

const ROOT = path.join(__dirname, '..', '..', '..', '..');

it('src/doors/rest/generated/document-data.ts matches the committed schema and the REST documents (run `npm run schema` after changing either)', () => {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'schema', 'schema.graphql'), 'utf8'));
  expect(readFileSync(path.join(ROOT, 'src', 'doors', 'rest', 'generated', 'document-data.ts'), 'utf8')).toBe(printDocumentTypes(schema, ALL_DOCUMENTS));
});

describe('the types of a document’s data', () => {
  const schema = buildSchema(`
    "How sure"
    enum Level { LOW HIGH }
    type Part { id: Int! level: Level }
    type Thing { id: Int! name: String parts: [Part!]! maybe: [Part] level: Level! }
    type Query { thing(id: Int!): Thing things: [Thing!]! }
    type Mutation { drop(id: Int!): Boolean! }
  `);

  it('types what each operation selects, nullability and lists kept, enums as their GraphQL names', () => {
    const printed = printDocumentTypes(schema, { GetThing: 'query GetThing($id: Int!) { thing(id: $id) { id level parts { id } maybe { level } } }', Drop: 'mutation Drop { drop(id: 1) }' });
    expect(printed).toContain(`/** How sure */\nexport type Level = 'LOW' | 'HIGH';`);
    expect(printed).toContain(
      'export type GetThingData = {\n  thing: {\n    id: number;\n    level: Level;\n    parts: {\n      id: number;\n    }[];\n    maybe: ({\n      level: Level | null;\n    } | null)[] | null;\n  } | null;\n};',
    );
    expect(printed).toContain('export type DropData = {\n  drop: boolean;\n};');
    expect(printed).toContain('export interface DocumentData {\n  GetThing: GetThingData;\n  Drop: DropData;\n}');
    expect(printed).not.toContain('name:');
  });

  it('names each fragment once and refers to it where it is spread, beside the fields selected with it', () => {
    const fragment = 'fragment PartFields on Part { id level }';
    const printed = printDocumentTypes(schema, {
      Things: `query Things { things { ...PartRef name parts { ...PartFields } } } fragment PartRef on Thing { id } ${fragment}`,
      Thing: `query Thing { thing(id: 1) { parts { ...PartFields } } } ${fragment}`,
    });
    expect(printed.match(/export type PartFields =/g)).toHaveLength(1);
    expect(printed).toContain('export type PartFields = {\n  id: number;\n  level: Level | null;\n};');
    expect(printed).toContain('export type ThingsData = {\n  things: (PartRef & {\n    name: string | null;\n    parts: PartFields[];\n  })[];\n};');
  });

  it('refuses a document whose operation is not named as the document, or a fragment defined twice differently', () => {
    expect(() => printDocumentTypes(schema, { Things: 'query Other { things { id } }' })).toThrow('document Things must hold one operation named Things');
    expect(() =>
      printDocumentTypes(schema, { A: 'query A { things { ...F } } fragment F on Thing { id }', B: 'query B { things { ...F } } fragment F on Thing { name }' }),
    ).toThrow('fragment F is defined twice, differently');
  });
});
