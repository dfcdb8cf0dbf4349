/**
 * Pieces every section of the OpenAPI document shares: error responses, rate-limit headers,
 * parameters and the 200 response builder. Specification section 7: 200 is the only success.
 */

export const date = { type: 'string', format: 'date', examples: ['2021-12-31'] } as const;
export const timestamp = { type: 'string', format: 'date-time' } as const;
export const probability = { type: 'number', minimum: 0, maximum: 1 } as const;

const errorBody = (example?: string) => ({
  'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(example ? { example: { detail: example } } : {}) },
});

export const error = (description: string, example?: string) => ({ description, content: errorBody(example) });

export const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'the size of the tightest applicable daily limit (the one X-RateLimit-Remaining counts down)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'requests or predictions left today under the tightest applicable daily limit', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'when the daily limits reset: Unix time in seconds of the next midnight UTC', schema: { type: 'integer' } },
  RateLimit: { description: 'IETF RateLimit header field: the tightest applicable limit, e.g. `"predictions";r=97;t=43200`', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy header field: every daily limit that applies, e.g. `"calls";q=1000;w=86400`', schema: { type: 'string' } },
};

/** The errors any authenticated operation may answer. */
export const commonErrors = {
  '400': error('invalid parameters, malformed JSON, or a query parameter or JSON body field the operation does not have; `detail` names it', 'unknown query parameter referenceDate: GET /predict/{bill_id} takes reference_date, explain'),
  '401': {
    ...error('missing, unknown or revoked API key', 'Invalid or revoked API key'),
    headers: { 'WWW-Authenticate': { description: 'always `Bearer realm="bill-progress"`: send the key as `Authorization: Bearer <key>`', schema: { type: 'string' } } },
  },
  '403': error('the tier does not allow this (free tier: no API access)', 'The free tier has no API access: upgrade to pilot or pro'),
  '405': {
    ...error('the path exists but not with this method', 'POST is not allowed on /api/v1/predict/2900; allowed: GET, HEAD'),
    headers: { Allow: { description: 'the methods the path answers', schema: { type: 'string' } } },
  },
  '413': error('the request body is larger than 100 KB', 'The request body is larger than the limit of 102400 bytes'),
  '429': {
    ...error(
      'a limit refused the request; `detail` names it: a daily limit of the tier (calls, predictions, batches), the burst limit (`BURST_LIMIT` calls of one operation every 10 s) or the per-address limit (`ANON_RATE_LIMIT` requests a minute without a valid key, or failing)',
      'Daily prediction limit reached: the pilot tier allows 100 a day; it resets at 2026-11-24T00:00:00.000Z',
    ),
    headers: {
      'Retry-After': { description: 'seconds until the limit that refused the request allows one again', schema: { type: 'integer' } },
      'X-RateLimit-Limit': { description: 'the size of the limit that refused the request', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'always 0: what is left of that limit', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix time in seconds when that limit allows a request again (the next midnight UTC for a daily limit)', schema: { type: 'integer' } },
    },
  },
  '500': error('internal error (never with details)', 'Internal server error'),
  '503': error('data or models loading', 'Service unavailable: models loading'),
};

/** On the prediction operations: which model made the answer (GraphQL: Prediction.model). */
export const modelHeaders = {
  'X-Model-Version': { description: 'the model version that made the answer (`npm run admin -- models` lists them)', schema: { type: 'integer' } },
  'X-Model-Trained-Through': { description: 'the last date whose facts that model learned from (YYYY-MM-DD)', schema: { type: 'string', format: 'date' } },
  'X-Model-Out-Of-Sample': {
    description:
      '`true` when X-Model-Trained-Through is on or before the reference date: the model saw nothing dated after it, so a past date is a fair backtest. `false`: no model that old exists yet, and the serving model, which learned from later facts, answered (in sample)',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
};

/** A 200 answer with the rate-limit headers; `example` is a real response body of the operation. */
export const ok = (ref: string, description = 'success', example?: unknown, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...rateLimitHeaders, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: ref }, ...(example === undefined ? {} : { example }) } },
});

/** A required JSON request body; fields it does not list are refused with 400. */
export const jsonBody = (ref: string, examples?: Record<string, { summary: string; value: unknown }>) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: ref }, ...(examples ? { examples } : {}) } },
});

export const idParam = (name: string, description?: string) => ({ name, in: 'path', required: true, ...(description ? { description } : {}), schema: { type: 'integer', minimum: 1 } });
export const referenceDateParameter = { name: 'reference_date', in: 'query', required: false, description: 'defaults to the service’s today; must not be after it', schema: date };

/** `{"id": …, "deleted": true}`, the answer of every delete. */
export const deleted = (what: string) => ok('#/components/schemas/Deleted', `the ${what} was deleted`, { id: 7, deleted: true });
