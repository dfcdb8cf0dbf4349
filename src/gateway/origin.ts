import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a browser sent the request from another site's page: its Origin names another host than
 * the one it was sent to, or Fetch Metadata says cross-site. A request with neither header (curl, a
 * same-origin GET) is not cross-site. `host`: the host the client addressed (the proxy's
 * X-Forwarded-Host when TRUST_PROXY is set, else Host).
 */
export function isCrossSite(headers: IncomingHttpHeaders, host: string | undefined): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== host;
  } catch {
    // "null" (a sandboxed frame, a file) and anything malformed
    return true;
  }
}
