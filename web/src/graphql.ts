/**
 * The dashboard's GraphQL client: a POST of JSON to /graphql, the session cookie sent by the
 * browser (same origin). Uses only the public schema, like any other client of the API.
 */
export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    /** the error's extensions.code: UNAUTHENTICATED, FORBIDDEN, RATE_LIMITED, … */
    readonly code: string,
  ) {
    super(message);
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Listeners told when the server says the session has ended (to show the log-in form). */
const signedOutListeners = new Set<() => void>();
export const onSignedOut = (listener: () => void) => {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
};

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      // the current media type first: request errors then keep their 4xx (a legacy application/json-only client gets 200)
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json;q=0.9' },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new GraphQLRequestError('The server cannot be reached: check your connection and try again', 'NETWORK');
  }
  let body: GraphQLResponse<T>;
  try {
    body = (await response.json()) as GraphQLResponse<T>;
  } catch {
    throw new GraphQLRequestError(`The server answered ${response.status} without a readable body`, 'INTERNAL_SERVER_ERROR');
  }
  const error = body.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'INTERNAL_SERVER_ERROR';
    if (code === 'UNAUTHENTICATED' && !/Wrong email or password/.test(error.message)) signedOutListeners.forEach((listener) => listener());
    throw new GraphQLRequestError(error.message, code);
  }
  return body.data as T;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
