import { createHash } from 'node:crypto';
import type { ExecutionResult } from 'graphql';
import type { QuotaKind } from '../quota/tier-limits';

/** A REST body with headers of its own (which model answered), kept with it when the answer is shared. */
export class WithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/**
 * What an execution result kept as objects holds on the heap per character of its JSON text:
 * measured 3.7 for an introspection answer, 2 for a prediction's.
 */
export const HEAP_PER_RESULT_CHARACTER = 4;

/**
 * The JSON text of execution results kept whole (no errors, no extensions), by their data: a door
 * that serialises results itself (Apollo) sends a kept one's text as it was made, not serialised
 * again for every response (130 KB for the standard introspection query). Weak: a result no longer
 * kept takes its text with it.
 */
const keptTexts = new WeakMap<object, string>();

/** Remembers the JSON text of a result that is kept and served again. */
export function rememberText(result: ExecutionResult, json: string): void {
  if (result.data && !result.errors && !result.extensions) keptTexts.set(result.data, json);
}

/** The JSON text of a kept result, `{"data":…}`, if `result` is one. */
export function keptText(result: { data?: unknown; errors?: unknown; extensions?: unknown }): string | undefined {
  return result.data && typeof result.data === 'object' && !result.errors && !result.extensions ? keptTexts.get(result.data) : undefined;
}

/** The validator of a JSON text kept as an answer: a REST client's If-None-Match is compared with it. */
export const weakEtag = (json: string) => `W/"${createHash('sha1').update(json).digest('base64url')}"`;

/** An answer serialised once, served as it is to every caller who may see it. */
export class SharedAnswer {
  /** the text's length in UTF-8, for Content-Length */
  readonly byteLength: number;
  /** what keeping it holds on the heap: the text, and the result's objects when it is kept too */
  readonly keptBytes: number;

  constructor(
    /** the JSON text of the body */
    readonly json: string,
    /** what computing the answer charged (beyond the API call), charged again each time it is served */
    readonly charges: ReadonlyArray<readonly [QuotaKind, number]>,
    /** a validator of that text once it is kept, so a server need not hash it again for each response */
    readonly etag?: string,
    /** headers that belong to the answer, sent with it each time */
    readonly headers: Readonly<Record<string, string>> = {},
    /** the GraphQL door's answer: the execution result the text was made of, which its server serialises itself */
    readonly result?: ExecutionResult,
  ) {
    this.byteLength = Buffer.byteLength(json);
    this.keptBytes = this.byteLength + (result ? HEAP_PER_RESULT_CHARACTER * json.length : 0);
  }
}

/** Bytes of answers kept at most: a day's imminent lists and a few thousand single predictions. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Answers that are the same for every caller and immutable for a serving state (model version,
 * data state, today): the imminent list, a bill's prediction. Kept by operation and variables
 * under one state; a new state (a sync, another model, midnight) drops them all, so a stale
 * answer is never served. The least recently stored go first past `maxBytes`.
 */
export class AnswerCache {
  private readonly answers = new Map<string, SharedAnswer>();
  private state: string | null = null;
  private bytes = 0;

  constructor(private readonly maxBytes = ANSWER_CACHE_BYTES) {}

  /** The answer kept for `key` under `state`, if any. */
  get(state: string, key: string): SharedAnswer | undefined {
    if (state !== this.state) return undefined;
    return this.answers.get(key);
  }

  /** Keeps an answer computed under `state`; an answer of another state than the kept ones replaces them all. */
  set(state: string, key: string, answer: SharedAnswer): SharedAnswer {
    if (state !== this.state) {
      this.answers.clear();
      this.bytes = 0;
      this.state = state;
    }
    // an ETag serves REST's conditional requests; a GraphQL answer (kept as its result) is never sent with one
    const etag = answer.result === undefined ? weakEtag(answer.json) : undefined;
    const kept = new SharedAnswer(answer.json, answer.charges, etag, answer.headers, answer.result);
    if (answer.result) rememberText(answer.result, answer.json);
    const size = kept.keptBytes;
    if (size > this.maxBytes) return kept;
    const known = this.answers.get(key);
    if (known) this.bytes -= known.keptBytes;
    this.answers.delete(key);
    this.answers.set(key, kept);
    this.bytes += size;
    for (const [oldest, answer] of this.answers) {
      if (this.bytes <= this.maxBytes) break;
      this.answers.delete(oldest);
      this.bytes -= answer.keptBytes;
    }
    return kept;
  }

  /** Answers kept now (for tests and metrics). */
  get size(): number {
    return this.answers.size;
  }
}
