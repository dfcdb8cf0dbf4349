/** The largest id a client may send: ids are PostgreSQL integers (32-bit). */
export const MAX_ID = 2_147_483_647;

/** A positive 32-bit integer, as every id in this API is (bills, watchlists, thresholds). */
export const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID;

/** The same for an id written in a URL path or query string. */
export const parseIdText = (text: unknown): number | null => (typeof text === 'string' && /^\d{1,10}$/.test(text) && isId(Number(text)) ? Number(text) : null);

/**
 * An opaque page cursor naming the last id of a page: base64url of `<kind>:<id>`. Decoding gives
 * the id, or null for anything this API did not issue (another kind, an id beyond 32 bits, a
 * re-encoding of the same text).
 */
export const encodeIdCursor = (kind: string, id: number): string => Buffer.from(`${kind}:${id}`).toString('base64url');

export function decodeIdCursor(kind: string, cursor: unknown): number | null {
  if (typeof cursor !== 'string') return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith(`${kind}:`)) return null;
  const id = parseIdText(text.slice(kind.length + 1));
  return id !== null && encodeIdCursor(kind, id) === cursor ? id : null;
}
