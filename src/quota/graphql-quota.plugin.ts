import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../context';

/**
 * Every GraphQL operation of an authenticated user counts as one API call (a 429 past the daily
 * limit), and every response carries the user's rate-limit headers. Runs after parsing and
 * validation, so a malformed query costs nothing; a request refused by a limit costs nothing either.
 */
export function graphqlQuotaPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue }) {
          await contextValue.quota?.chargeCall();
        },
        async willSendResponse({ contextValue, response }) {
          if (response.http.status === 429) await contextValue.quota?.refundCallOfRefusedRequest();
          for (const [name, value] of Object.entries(contextValue.quota?.headers() ?? {})) response.http.headers.set(name.toLowerCase(), value);
        },
      };
    },
  };
}
