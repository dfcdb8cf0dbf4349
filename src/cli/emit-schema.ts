import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../../resolvers/schema';

/** Writes schema/schema.graphql from the resolvers; a test fails while the committed file differs. */
export const SCHEMA_FILE = path.resolve(__dirname, '..', '..', '..', 'schema', 'schema.graphql');

buildAppSchema().then((schema) => {
  writeFileSync(SCHEMA_FILE, printAppSchema(schema));
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
});
