import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPENAPI_DOCUMENT } from '../../rest-compat/openapi';
import { buildAppSchema, printAppSchema } from '../../resolvers/schema';

/** Writes schema/schema.graphql and schema/openapi.json from the code; tests fail while the committed files differ. */
const SCHEMA_DIR = path.resolve(__dirname, '..', '..', '..', 'schema');

buildAppSchema().then((schema) => {
  writeFileSync(path.join(SCHEMA_DIR, 'schema.graphql'), printAppSchema(schema));
  writeFileSync(path.join(SCHEMA_DIR, 'openapi.json'), `${JSON.stringify(OPENAPI_DOCUMENT, null, 2)}\n`);
  process.stdout.write(`wrote ${SCHEMA_DIR}/schema.graphql and openapi.json\n`);
});
