import cors from 'cors';
import type { RequestHandler } from 'express';

/** Response headers a browser client needs to read: its limits, and what a 401 asks for. */
const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate', 'X-Model-Version', 'X-Model-Trained-Through', 'X-Model-Out-Of-Sample'];

/**
 * CORS for browser pages of the configured origins (CORS_ORIGINS), one policy for /api/v1 and
 * /graphql; with none configured, no response carries CORS headers, so only the service's own
 * pages (same origin) can read answers.
 * The `cors` package does the protocol (origin reflection with `Vary: Origin`, preflight with the
 * requested headers); 200 answers a preflight, the only success status of specification 7.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  const options: cors.CorsOptions = {
    origin: origins.length ? [...origins] : false,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 200,
  };
  const browserCors = cors(options);
  // A request without Origin is not a browser's cross-origin one: it is left to the routes (an OPTIONS gets their Allow list).
  return (req, res, next) => (req.headers.origin ? browserCors(req, res, next) : next());
}
