/** The largest id a client may send: ids are PostgreSQL integers (32-bit). */
export const MAX_ID = 2_147_483_647;

/** A positive 32-bit integer, as every id in this API is (bills, watchlists, thresholds). */
export const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID;

/** The same for an id written in a URL path or query string. */
export const parseIdText = (text: unknown): number | null => (typeof text === 'string' && /^\d{1,10}$/.test(text) && isId(Number(text)) ? Number(text) : null);
