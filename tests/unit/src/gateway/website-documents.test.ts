import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, validate } from 'graphql';
import { isWebsiteDocument, WEBSITE_DOCUMENT_HASHES } from '../../../../src/gateway/website-documents';
import * as dashboard from '../../../../web/src/operations';

const documents = Object.entries(dashboard) as [string, string][];
const schema = buildSchema(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'schema', 'schema.graphql'), 'utf8'));

describe('the documents a session cookie may run (web/src/operations.ts)', () => {
  it.each(documents)('%s is one named operation, valid against the public schema', (_, text) => {
    const document = parse(text);
    expect(validate(schema, document)).toEqual([]);
    expect(document.definitions).toEqual([expect.objectContaining({ kind: Kind.OPERATION_DEFINITION, name: expect.objectContaining({ value: expect.any(String) }) })]);
  });

  it('are all allowed, each under its own hash, and nothing else is: not even a copy with other spacing', () => {
    expect(WEBSITE_DOCUMENT_HASHES.size).toBe(documents.length);
    for (const [, text] of documents) expect(isWebsiteDocument(text)).toBe(true);
    expect(isWebsiteDocument(`${dashboard.SESSION} `)).toBe(false);
    expect(isWebsiteDocument('{ bills(first: 5) { nodes { id } } }')).toBe(false);
    expect(isWebsiteDocument(undefined)).toBe(false);
    expect(isWebsiteDocument(['query Session { session { account { email tier } } }'])).toBe(false);
  });
});
