/**
 * Hostile GraphQL documents for `npm run bench` (issue 9: any document of up to 100 KB is
 * validated in under 50 ms, and no request uses more than about 100 ms of server time): each is a
 * known way to make a GraphQL server do work that grows faster than the document, as large as
 * the server's body limit lets it be (100 KB of JSON request body).
 */
import { Lexer, Source, TokenKind } from 'graphql';
import { DOCUMENT_LIMITS } from '../src/gateway/document-guard';

const BODY_LIMIT = 100 * 1024;
/** what a body holds besides the query: {"query":"…"} */
const BUDGET = BODY_LIMIT - 16;

/** The bytes `text` takes inside a JSON string. */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** Repeats `unit` (numbered by its index) as often as fits in `budget` bytes of JSON. */
function fill(budget: number, unit: (i: number) => string, separator = ' '): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const part = unit(i);
    const bytes = jsonBytes(part) + separator.length;
    if (size + bytes > budget) return parts.join(separator);
    parts.push(part);
    size += bytes;
  }
}

/** The lexical tokens of a GraphQL text, as the document guard counts them. */
function tokensOf(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/** `wrap` around as many copies of `unit` as keep the document just under the guard's token limit. */
function underTokenLimit(wrap: (units: string) => string, unit: (i: number) => string, separator = ' '): string {
  const perUnit = tokensOf(unit(0));
  const count = Math.floor((DOCUMENT_LIMITS.maxTokens - tokensOf(wrap(''))) / perUnit) - 1;
  return wrap(Array.from({ length: count }, (_, i) => unit(i)).join(separator));
}

export interface HostileDocument {
  name: string;
  query: string;
}

export function hostileDocuments(): HostileDocument[] {
  // each fragment spreads the next twice: naive depth and cost walks are 2^21
  const fragments = Array.from({ length: 21 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
  const documents: HostileDocument[] = [
    { name: '21 fragments, each spreading the next twice', query: `{ ...F0 } ${fragments} fragment F21 on Query { serviceStatus { today } }` },
    { name: 'aliased title searches', query: `{ ${fill(BUDGET - 4, (i) => `a${i}: bills(first: 1, filter: { titleContains: "x" }) { totalCount }`)} }` },
    { name: 'one response name repeated (field merging is pairwise)', query: `{ ${fill(BUDGET - 4, () => 'x: serviceStatus { today }')} }` },
    { name: 'directives repeated on one field', query: `{ serviceStatus ${fill(BUDGET - 30, () => '@include(if: true)')} { today } }` },
    { name: 'selections nested as deep as the bytes allow', query: `${'{ a '.repeat(Math.floor(BUDGET / 5))}${'}'.repeat(Math.floor(BUDGET / 5))}` },
    { name: 'unused variables declared', query: `query Q(${fill(BUDGET - 40, (i) => `$v${i}: Int`, ', ')}) { serviceStatus { today } }` },
    { name: 'mutations in one request', query: `mutation { ${fill(BUDGET - 14, (i) => `m${i}: createWatchlist(input: { name: "w${i}" }) { id }`)} }` },
    // just under the token limit, so past the guard: validation, cost and the limits after it do the refusing
    { name: 'aliased title searches, under the token limit', query: underTokenLimit((units) => `{ ${units} }`, (i) => `a${i}: bills(first: 1, filter: { titleContains: "x" }) { totalCount }`) },
    { name: 'directives repeated on one field, under the token limit', query: underTokenLimit((units) => `{ serviceStatus ${units} { today } }`, () => '@include(if: true)') },
    { name: 'unused variables declared, under the token limit', query: underTokenLimit((units) => `query Q(${units}) { serviceStatus { today } }`, (i) => `$v${i}: Int`, ', ') },
    { name: 'mutations in one request, under the token limit', query: underTokenLimit((units) => `mutation { ${units} }`, (i) => `m${i}: createWatchlist(input: { name: "w${i}" }) { id }`) },
  ];
  for (const d of documents) if (jsonBytes(d.query) > BUDGET) throw new Error(`hostile document "${d.name}" is over the body limit`);
  return documents;
}
