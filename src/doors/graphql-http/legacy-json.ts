/**
 * Whether a client asked for GraphQL over HTTP's legacy media type only: `application/json` named in
 * its Accept header, `application/graphql-response+json` not. The specification asks a server to
 * answer such a client 200 for a request error (a document that does not parse or validate,
 * variables that do not fit, an operation that cannot be picked), because those clients treat any
 * other status as coming from an intermediary and never read the `errors` beside it. A client that
 * names no type (curl, fetch: none or `*` / `*`) gets the status of the error's code, as on REST.
 */
export function acceptsLegacyJsonOnly(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  return types.includes('application/json') && !types.includes('application/graphql-response+json');
}
