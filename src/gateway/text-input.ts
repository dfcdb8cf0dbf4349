import { type ArgumentNode, type ASTNode, GraphQLError, Kind, type ObjectFieldNode, type ValidationRule } from 'graphql';
import { badInput } from '../errors';

/*
 * PostgreSQL text cannot hold U+0000: a string carrying it failed deep in the database as a 500.
 * It is refused at the edge instead, on every door: in the variables of any operation (REST
 * parameters and bodies arrive as variables too) and in string literals of a GraphQL document.
 */

const nulDetail = (what = 'Text') => `${what} must not contain NUL characters (U+0000)`;

// every request's variables pass here: a walk that allocates nothing
const holdsNul = (value: unknown, depth = 0): boolean => {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
};

/** Refuses (400) variables holding a NUL character anywhere, keys included. */
export function rejectNulCharacters(variables: unknown): void {
  if (holdsNul(variables)) throw badInput(nulDetail());
}

/** The argument a literal stands in, as `filter.titleContains`. */
function argumentPath(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  const names = ancestors.filter((a): a is ArgumentNode | ObjectFieldNode => !Array.isArray(a) && ((a as ASTNode).kind === Kind.ARGUMENT || (a as ASTNode).kind === Kind.OBJECT_FIELD)).map((a) => a.name.value);
  return names.join('.') || 'Text';
}

/** A validation rule refusing string literals (arguments, defaults) that hold a NUL character, naming the argument. */
export const noNulCharactersRule: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    if (node.value.includes('\u0000')) context.reportError(new GraphQLError(nulDetail(argumentPath([...ancestors, ...(parent ? [parent] : [])])), { nodes: [node] }));
  },
});
