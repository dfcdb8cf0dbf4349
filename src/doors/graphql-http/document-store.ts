import type { ApolloServerOptions } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { RepeatFilter } from '../../common/repeat-filter';
import { SIGHTINGS_KEPT } from '../../gateway/execute';

type ApolloDocumentStore = NonNullable<ApolloServerOptions<never>['documentStore']>;

/** Bytes of parsed documents Apollo keeps at most, as estimated: some 500 documents of 1 KB of text. */
export const DOCUMENT_STORE_BYTES = 32 * 1024 * 1024;
/** A parsed document holds about this many bytes of heap per character of its text (measured 57 for a document of aliases). */
const HEAP_PER_TEXT_CHARACTER = 64;

/**
 * Apollo's cache of parsed and validated documents, bounded by the heap they hold. Apollo's own
 * default is bounded by the documents' JSON (30 MiB of it, about 115 MB of heap, JSON.stringify'd
 * for every new document); a document's text length, which its location records, measures it
 * without serialising it. A document is kept only when its text comes again: a unique one (a client's
 * one-off, or a stream of hostile documents each new) would otherwise live long enough to be
 * promoted to V8's old space before it is evicted, and that garbage grows the heap (and the
 * process's resident memory, which V8 does not give back) by hundreds of MB.
 */
export function boundedDocumentStore(maxBytes = DOCUMENT_STORE_BYTES): ApolloDocumentStore {
  const repeats = new RepeatFilter(SIGHTINGS_KEPT);
  const documents = new LRUCache<string, DocumentNode>({ maxSize: maxBytes, sizeCalculation: (document) => HEAP_PER_TEXT_CHARACTER * Math.max(1, document.loc?.end ?? 1_000) });
  return {
    get: async (key) => documents.get(key),
    set: async (key, document) => void (repeats.repeated(key) && documents.set(key, document)),
    delete: async (key) => documents.delete(key),
  };
}
