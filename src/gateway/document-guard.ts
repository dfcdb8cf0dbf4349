import { type DocumentNode, Kind, parse, type SelectionSetNode } from 'graphql';
import { badInput } from '../errors';
import { LRUCache } from 'lru-cache';
import { fragmentsByName } from './fragments';

/**
 * Limits a GraphQL document must meet before graphql-js validates it. Validation compares the
 * fields of a selection set that share a response name pairwise, and the fragments spread in it
 * pairwise, so a document of 1,000 copies of `me { id }` (4 KB) took hundreds of milliseconds to
 * validate. Within these limits the worst document we know is checked in tens of milliseconds
 * (scripts/query-limits-timing.mjs prints the figures).
 */
export const DOCUMENT_LIMITS = {
  /** lexical tokens: the introspection query has about 200, a page of bills with its relations about 40 */
  maxTokens: 3_000,
  /** copies of one response name in one selection set (inline fragments included): aliases are the way to repeat a field */
  maxSameName: 20,
  /** fragment spreads in one selection set (each fragment is compared with every other) */
  maxSpreads: 20,
  /** fragment definitions in a document */
  maxFragments: 100,
};

/**
 * The first way a document breaks the shape limits, or null. Validation merges into a selection
 * set the fields of its inline fragments and of the fragments it spreads (and those they spread),
 * so the copies of a response name are counted through them; each fragment is counted once.
 */
function shapeProblem(document: DocumentNode, limits: typeof DOCUMENT_LIMITS): string | null {
  const definitions = fragmentsByName(document);
  if (definitions.size > limits.maxFragments) return `The query defines ${definitions.size} fragments, over the limit of ${limits.maxFragments}`;

  const fragmentNames = new Map<string, Map<string, number>>();
  let problem: string | null = null;
  const add = (names: Map<string, number>, name: string, count: number) => {
    const total = Math.min((names.get(name) ?? 0) + count, limits.maxSameName + 1);
    names.set(name, total);
    if (total > limits.maxSameName) problem ??= `The field "${name}" is selected more than ${limits.maxSameName} times in one selection set (fragments included), over the limit: use aliases to ask for it more than once`;
  };
  const namesOfFragment = (name: string): Map<string, number> => {
    const known = fragmentNames.get(name);
    if (known) return known;
    fragmentNames.set(name, new Map()); // a cycle (refused by validation) adds nothing
    const fragment = definitions.get(name);
    const names = fragment ? namesOf(fragment.selectionSet) : new Map<string, number>();
    fragmentNames.set(name, names);
    return names;
  };
  /** response name → copies, at this level of a selection set */
  const namesOf = (selectionSet: SelectionSetNode): Map<string, number> => {
    const names = new Map<string, number>();
    let spreads = 0;
    const pending = [selectionSet];
    while (pending.length > 0 && !problem) {
      for (const selection of pending.pop()!.selections) {
        if (selection.kind === Kind.FIELD) add(names, selection.alias?.value ?? selection.name.value, 1);
        else if (selection.kind === Kind.INLINE_FRAGMENT) pending.push(selection.selectionSet);
        else {
          spreads += 1;
          if (spreads > limits.maxSpreads) problem ??= `A selection set spreads more than ${limits.maxSpreads} fragments, over the limit`;
          for (const [name, count] of namesOfFragment(selection.name.value)) add(names, name, count);
        }
      }
    }
    return names;
  };
  const visitAll = (selectionSet: SelectionSetNode): void => {
    namesOf(selectionSet);
    for (const selection of selectionSet.selections) {
      if (problem) return;
      if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) visitAll(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) {
    if (problem) break;
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) visitAll(definition.selectionSet);
  }
  return problem;
}

/** The limits' problem with a GraphQL document, or null when it is within them (or is not GraphQL at all: the GraphQL server reports syntax). */
export function documentProblem(text: string, limits = DOCUMENT_LIMITS): string | null {
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: limits.maxTokens });
  } catch (error) {
    return /more th\w+ \d+ tokens/.test((error as Error).message) ? `The query has more than ${limits.maxTokens} tokens, over the limit` : null;
  }
  return shapeProblem(document, limits);
}

/** Characters of query text a DocumentGuard keeps verdicts for (its memory, about twice that in bytes), and the longest text it keeps one for. */
export const GUARD_TEXT_KEPT_TOTAL = 2 * 1024 * 1024;
export const GUARD_TEXT_KEPT = 10_000;

/**
 * The document guard with its verdicts remembered per query text: clients send the same few
 * documents again and again, and a verdict depends on nothing but the text and the limits, so a
 * repeated query is parsed and walked once, not on every request (the least recently checked
 * are forgotten first, past GUARD_TEXT_KEPT_TOTAL characters of text).
 */
export class DocumentGuard {
  private readonly verdicts: LRUCache<string, { problem: string | null }>;

  constructor(
    private readonly limits = DOCUMENT_LIMITS,
    private readonly problemOf: (text: string, limits: typeof DOCUMENT_LIMITS) => string | null = documentProblem,
    maxText = GUARD_TEXT_KEPT_TOTAL,
  ) {
    this.verdicts = new LRUCache({ maxSize: maxText, sizeCalculation: (verdict, text) => text.length + (verdict.problem?.length ?? 0) });
  }

  /**
   * The document guard, a step every GraphQL door runs on a request's query before graphql-js
   * parses and validates it (HTTP /graphql through src/doors/graphql-http/http-document-guard.ts,
   * the WebSocket door on each `subscribe`): throws a BAD_USER_INPUT AppError naming the limit a
   * document breaks. A query that is not a string is left to the GraphQL server to refuse.
   */
  guard(query: unknown): void {
    if (typeof query !== 'string') return;
    let verdict = this.verdicts.get(query);
    if (verdict === undefined) {
      verdict = { problem: this.problemOf(query, this.limits) };
      if (query.length <= GUARD_TEXT_KEPT) this.verdicts.set(query, verdict);
    }
    if (verdict.problem) throw badInput(verdict.problem);
  }

  /** Characters of text (and problems) kept now, for tests. */
  get keptCharacters(): number {
    return this.verdicts.calculatedSize;
  }
}
