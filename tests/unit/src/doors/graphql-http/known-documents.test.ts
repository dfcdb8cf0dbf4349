import { parse, type OperationDefinitionNode } from 'graphql';
import { KNOWN_TEXT_CHARACTERS, KnownDocuments } from '../../../../../src/doors/graphql-http/known-documents';

// What the GraphQL door may answer without Apollo's pipeline: only what Apollo resolved twice, for
// an Accept header Apollo answered, in a body of the shapes Apollo reads.
const QUERY = '{ prediction(billId: 1) { royalAssent } }';
const knownOf = (query: string) => {
  const document = parse(query);
  return { document, operation: document.definitions[0] as OperationDefinitionNode, queryHash: `hash of ${query}` };
};
const learnt = (query = QUERY, operationName?: string) => {
  const known = new KnownDocuments();
  known.answered(undefined, 'application/json; charset=utf-8');
  known.resolved(query, operationName, knownOf(query));
  known.resolved(query, operationName, knownOf(query));
  return known;
};

describe('KnownDocuments', () => {
  it('knows a document the second time Apollo resolves it, not the first', () => {
    const known = new KnownDocuments();
    known.answered(undefined, 'application/json; charset=utf-8');
    known.resolved(QUERY, undefined, knownOf(QUERY));
    expect(known.match('POST', { query: QUERY }, undefined)).toBeUndefined();
    known.resolved(QUERY, undefined, knownOf(QUERY));
    expect(known.match('POST', { query: QUERY, variables: null }, undefined)).toEqual({ known: expect.objectContaining({ queryHash: `hash of ${QUERY}`, shipped: false }), variables: undefined, contentType: 'application/json; charset=utf-8' });
  });

  it('answers only an Accept header Apollo has answered', () => {
    const known = learnt();
    expect(known.match('POST', { query: QUERY }, 'application/graphql-response+json')).toBeUndefined();
    known.answered('application/graphql-response+json', 'application/graphql-response+json; charset=utf-8');
    expect(known.match('POST', { query: QUERY }, 'application/graphql-response+json')?.contentType).toBe('application/graphql-response+json; charset=utf-8');
  });

  it('leaves to Apollo a GET, extensions, and variables or a name of shapes Apollo refuses', () => {
    const known = learnt();
    expect(known.match('GET', { query: QUERY }, undefined)).toBeUndefined();
    expect(known.match('POST', { query: QUERY, extensions: {} }, undefined)).toBeUndefined();
    expect(known.match('POST', { query: QUERY, variables: '{}' }, undefined)).toBeUndefined();
    expect(known.match('POST', { query: QUERY, variables: [] }, undefined)).toBeUndefined();
    expect(known.match('POST', { query: QUERY, operationName: 3 }, undefined)).toBeUndefined();
  });

  it('tells an operation by its name: none given, an empty one and another are three requests', () => {
    const known = learnt(QUERY, 'Named');
    expect(known.match('POST', { query: QUERY, operationName: 'Named' }, undefined)).toBeDefined();
    expect(known.match('POST', { query: QUERY }, undefined)).toBeUndefined();
    expect(known.match('POST', { query: QUERY, operationName: '' }, undefined)).toBeUndefined();
  });

  it('keeps a bounded amount of text: a stream of documents each sent twice evicts the oldest, a huge one is not kept', () => {
    const known = new KnownDocuments();
    known.answered(undefined, 'application/json');
    const texts = Array.from({ length: 2_000 }, (_, i) => `{ prediction(billId: ${i}) { royalAssent ${'nextStage30d '.repeat(20)} } }`);
    for (const text of texts) for (let twice = 0; twice < 2; twice++) known.resolved(text, undefined, knownOf(text));
    const kept = texts.filter((text) => known.match('POST', { query: text }, undefined));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(KNOWN_TEXT_CHARACTERS);
    expect(known.match('POST', { query: texts[0] }, undefined)).toBeUndefined();
    const huge = `{ prediction(billId: 1) { ${'royalAssent '.repeat(KNOWN_TEXT_CHARACTERS / 10)} } }`;
    known.resolved(huge, undefined, { ...knownOf(texts[0]), queryHash: 'hash of the huge one' });
    known.resolved(huge, undefined, { ...knownOf(texts[0]), queryHash: 'hash of the huge one' });
    expect(known.match('POST', { query: huge }, undefined)).toBeUndefined();
  });
});
