import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import path from 'node:path';
import { OPENAPI_DOCUMENT } from '../../rest-compat/openapi/openapi-document';
import { buildAppSchema, printAppSchema } from '../../resolvers/build-schema';
import { printWebSchemaTypes } from './web-schema-types';

/**
 * Writes schema/schema.graphql and schema/openapi.json from the code, and the dashboard's types
 * from that schema (web/src/generated/schema.ts); tests fail while the committed files differ.
 */
const SCHEMA_DIR = path.resolve(__dirname, '..', '..', '..', 'schema');
const WEB_TYPES = path.resolve(__dirname, '..', '..', '..', 'web', 'src', 'generated', 'schema.ts');

buildAppSchema().then((schema) => {
  const sdl = printAppSchema(schema);
  writeFileSync(path.join(SCHEMA_DIR, 'schema.graphql'), sdl);
  writeFileSync(path.join(SCHEMA_DIR, 'openapi.json'), `${JSON.stringify(OPENAPI_DOCUMENT, null, 2)}\n`);
  mkdirSync(path.dirname(WEB_TYPES), { recursive: true });
  // from the schema as committed, as the test that keeps it fresh reads it
  writeFileSync(WEB_TYPES, printWebSchemaTypes(buildSchema(sdl)));
  process.stdout.write(`wrote ${SCHEMA_DIR}/schema.graphql, openapi.json and ${WEB_TYPES}\n`);
});
