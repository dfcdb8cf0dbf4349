import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { RepeatFilter } from '../../common/repeat-filter';
import { SIGHTINGS_KEPT } from '../../gateway/execute';
import { isWebsiteDocument } from '../../gateway/website-documents';

/** An operation Apollo parsed, validated and resolved for a document's text and operationName. */
export interface KnownOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Apollo's hash of the text (the gateway keys its compiled operations by it) */
  queryHash: string;
  /** one of the dashboard's own documents */
  shipped: boolean;
}

/** What a POST to /graphql asks for, once it is known to be a document Apollo resolved before. */
export interface KnownRequest {
  known: KnownOperation;
  variables: Record<string, unknown> | undefined;
  /** the media type Apollo answered this request's Accept header with */
  contentType: string;
}

/** Characters of document text remembered at most: their parsed documents hold some 64 bytes of heap a character. */
export const KNOWN_TEXT_CHARACTERS = 256 * 1024;
/** Distinct Accept headers remembered at most: clients send a handful. */
const ACCEPT_HEADERS_KEPT = 64;
const LONGEST_ACCEPT_HEADER = 256;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The documents the GraphQL door may answer without Apollo's request pipeline (see
 * known-document-shortcut.ts): those whose text and operationName Apollo has resolved before,
 * again and again. What Apollo does for such a request is the same every time (the text's hash,
 * its parsed and validated document from the cache, the operation the name picks, the media type
 * the Accept header asks for), so it is learnt from Apollo's own answers rather than written
 * again: a document is remembered the second time Apollo resolves it (a stream of unique
 * documents leaves only their sightings), a media type once Apollo has answered with it.
 */
export class KnownDocuments {
  private readonly repeats = new RepeatFilter(SIGHTINGS_KEPT);
  private readonly operations = new LRUCache<string, KnownOperation>({ maxSize: KNOWN_TEXT_CHARACTERS, sizeCalculation: (_known, key) => Math.max(1, key.length) });
  private readonly contentTypes = new LRUCache<string, string>({ max: ACCEPT_HEADERS_KEPT });

  /** Heard when Apollo has resolved a query or mutation of a POST: its document passed every validation rule. */
  resolved(query: string, operationName: string | null | undefined, known: Omit<KnownOperation, 'shipped'>): void {
    const key = operationKey(query, operationName ?? undefined);
    if (this.operations.has(key) || key.length > KNOWN_TEXT_CHARACTERS / 16) return;
    // sightings are counted by the text's hash, so that a stream of long unique documents leaves short keys
    if (this.repeats.repeated(operationKey(known.queryHash, operationName ?? undefined))) this.operations.set(key, { ...known, shipped: isWebsiteDocument(query) });
  }

  /** Heard when Apollo has answered a POST 200 with a whole body: the media type it chose for the Accept header. */
  answered(accept: string | undefined, contentType: string | undefined): void {
    if (contentType && (accept ?? '').length <= LONGEST_ACCEPT_HEADER && this.contentTypes.get(accept ?? '') !== contentType) this.contentTypes.set(accept ?? '', contentType);
  }

  /**
   * The known operation a request's parsed body asks for, when everything Apollo would read of the
   * request is what it has read before: a POST body of `query` (a known text), `operationName`
   * and `variables` only, in the shapes Apollo accepts, and an Accept header it has answered.
   * Anything else (GET, extensions, a new document, a malformed body) is Apollo's to answer.
   */
  match(method: string, body: unknown, accept: string | undefined): KnownRequest | undefined {
    if (method !== 'POST' || !isRecord(body) || typeof body.query !== 'string') return undefined;
    for (const name in body) if (name !== 'query' && name !== 'variables' && name !== 'operationName') return undefined;
    const { variables, operationName } = body;
    if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
    const contentType = this.contentTypes.get(accept ?? '');
    if (contentType === undefined) return undefined;
    const known = this.operations.get(operationKey(body.query, operationName ?? undefined));
    return known && { known, variables: variables ?? undefined, contentType };
  }
}

// a NUL cannot stand in an operation's name, so the key names one operation of one text
// (an empty name is a name, which picks no operation, not the absence of one)
const operationKey = (query: string, operationName: string | undefined) => (operationName === undefined ? query : `${operationName}\u0000${query}`);
