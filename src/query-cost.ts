import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
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
