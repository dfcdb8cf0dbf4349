import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a browser sent the request from another site's page: its Origin names another scheme or
 * host than the request's own, or Fetch Metadata says cross-site. A request with neither header
 * (curl, a same-origin GET) is not cross-site. `host` and `secure`: the host and scheme the client
 * addressed (the proxy's X-Forwarded-Host and -Proto when TRUST_PROXY is set, else Host and the
 * socket). The scheme counts because a page served over plain http (on the same host, another
 * port's listener or a network attacker's injection) is not the https dashboard.
 */
export function isCrossSite(headers: IncomingHttpHeaders, host: string | undefined, secure: boolean): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    const from = new URL(origin);
    return from.host !== host || from.protocol !== (secure ? 'https:' : 'http:');
  } catch {
    // "null" (a sandboxed frame, a file) and anything malformed
    return true;
  }
}
