import { createHash } from 'node:crypto';
import * as dashboard from '../../web/src/operations';
import { AppError } from '../errors';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const documents: string[] = Object.values<unknown>(dashboard).filter((value): value is string => typeof value === 'string');

/**
 * The SHA-256 of every GraphQL document the dashboard sends (web/src/operations.ts, compiled into
 * the server with it): all a session cookie may run. The cookie exists for the website; the API,
 * with its quotas, takes keys. Derived from the dashboard's own module, so a document changed
 * there is allowed by the next build with no list to keep by hand.
 */
export const WEBSITE_DOCUMENT_HASHES: ReadonlySet<string> = new Set(documents.map(sha256));

/** No dashboard document is longer: a longer text is refused without being hashed. */
const LONGEST = Math.max(...documents.map((text) => text.length));

/** Whether the text is one of the dashboard's documents, character for character. */
export function isWebsiteDocument(text: unknown): boolean {
  return typeof text === 'string' && text.length <= LONGEST && WEBSITE_DOCUMENT_HASHES.has(sha256(text));
}

/** The refusal of any other document sent with the session cookie. */
export const websiteDocumentsOnly = () =>
  new AppError(
    'FORBIDDEN',
    'The dashboard’s session cookie runs only the dashboard’s own requests, and this is not one of them: the API takes an API key (Authorization: Bearer <key>, or X-API-Key: <key>), made on the dashboard’s Account page. (A dashboard page left open across an update of the service: reload it.)',
  );
