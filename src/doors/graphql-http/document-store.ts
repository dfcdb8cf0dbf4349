import type { ApolloServerOptions } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

type ApolloDocumentStore = NonNullable<ApolloServerOptions<never>['documentStore']>;

/** Bytes of parsed documents Apollo keeps at most, as estimated: some 500 documents of 1 KB of text. */
export const DOCUMENT_STORE_BYTES = 32 * 1024 * 1024;
/** A parsed document holds about this many bytes of heap per character of its text (measured 57 for a document of aliases). */
const HEAP_PER_TEXT_CHARACTER = 64;

/**
 * Apollo's cache of parsed and validated documents, bounded by the heap they hold. Apollo's own
 * default is bounded by the documents' JSON (30 MiB of it, about 115 MB of heap, JSON.stringify'd
 * for every new document); a document's text length, which its location records, measures it
 * without serialising it.
 */
export function boundedDocumentStore(maxBytes = DOCUMENT_STORE_BYTES): ApolloDocumentStore {
  const documents = new LRUCache<string, DocumentNode>({ maxSize: maxBytes, sizeCalculation: (document) => HEAP_PER_TEXT_CHARACTER * Math.max(1, document.loc?.end ?? 1_000) });
  return {
    get: async (key) => documents.get(key),
    set: async (key, document) => void documents.set(key, document),
    delete: async (key) => documents.delete(key),
  };
}
