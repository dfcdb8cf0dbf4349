import type { ApolloServerPlugin } from '@apollo/server';
import { type FragmentDefinitionNode, GraphQLError, type GraphQLSchema, Kind, type SelectionSetNode, type ValidationRule } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { AppError } from './errors';

/**
 * The most a single GraphQL operation may cost: each field costs 1, and a list field declares
 * how its children multiply (e.g. `bills(first: 100)` costs 100 × its selection). A full page
 * of 100 bills with their stages, sponsors and divisions stays well below it; a query that
 * repeats that page hundreds of times under aliases does not.
 */
export const MAX_QUERY_COST = 5_000;

export function queryCostLimit(schema: GraphQLSchema, maxCost = MAX_QUERY_COST): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          let cost: number;
          try {
            cost = getComplexity({
              schema,
              query: document,
              operationName: request.operationName,
              variables: request.variables,
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch {
            // Variables that do not fit their types: execution reports them as bad input.
            return;
          }
          if (cost > maxCost) {
            throw new AppError('BAD_USER_INPUT', `This query would cost ${cost}, over the limit of ${maxCost}: ask for fewer bills or fields per request`);
          }
        },
      };
    },
  };
}

/**
 * The deepest selection an operation may have. The schema's longest sensible path
 * (bills → edges → node → prediction → riskIndicators → a field) is 6 deep.
 */
export const MAX_QUERY_DEPTH = 10;

/** A validation rule refusing operations nested deeper than `maxDepth`, counting through fragments. */
export function depthLimit(maxDepth = MAX_QUERY_DEPTH): ValidationRule {
  return (context) => {
    const fragments = new Map(context.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const depthOf = (selectionSet: SelectionSetNode | undefined, visited: Set<string>): number => {
      if (!selectionSet) return 0;
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, selection.selectionSet ? 1 + depthOf(selection.selectionSet, visited) : 1);
        else if (selection.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(selection.selectionSet, visited));
        else if (!visited.has(selection.name.value)) {
          deepest = Math.max(deepest, depthOf(fragments.get(selection.name.value)?.selectionSet, new Set([...visited, selection.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, new Set());
        if (depth > maxDepth) context.reportError(new GraphQLError(`This query is ${depth} levels deep, over the limit of ${maxDepth}`, { nodes: [operation] }));
      },
    };
  };
}
