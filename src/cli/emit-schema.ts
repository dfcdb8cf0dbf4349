import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import path from 'node:path';
import { OPENAPI_DOCUMENT } from '../doors/rest/openapi/openapi-document';
import { buildAppSchema, printAppSchema } from '../graphql/build-schema';
import { ALL_DOCUMENTS } from '../doors/rest/documents';
import { printDocumentTypes } from './rest-document-types';
import { printWebSchemaTypes } from './web-schema-types';

/**
 * Writes schema/schema.graphql and schema/openapi.json from the code, and from that schema the
 * dashboard's types (web/src/generated/schema.ts) and the data of REST's documents
 * (src/doors/rest/generated/document-data.ts); tests fail while the committed files differ.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCHEMA_DIR = path.join(ROOT, 'schema');
const WEB_TYPES = path.join(ROOT, 'web', 'src', 'generated', 'schema.ts');
const REST_TYPES = path.join(ROOT, 'src', 'doors', 'rest', 'generated', 'document-data.ts');

buildAppSchema().then((schema) => {
  const sdl = printAppSchema(schema);
  writeFileSync(path.join(SCHEMA_DIR, 'schema.graphql'), sdl);
  writeFileSync(path.join(SCHEMA_DIR, 'openapi.json'), `${JSON.stringify(OPENAPI_DOCUMENT, null, 2)}\n`);
  // from the schema as committed, as the tests that keep them fresh read it
  const committed = buildSchema(sdl);
  for (const [file, text] of [[WEB_TYPES, printWebSchemaTypes(committed)], [REST_TYPES, printDocumentTypes(committed, ALL_DOCUMENTS)]]) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  process.stdout.write(`wrote ${SCHEMA_DIR}/schema.graphql, openapi.json, ${WEB_TYPES} and ${REST_TYPES}\n`);
});
