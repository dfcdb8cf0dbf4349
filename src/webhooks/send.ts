import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { parseWebhookUrl, safeAddresses, UnsafeUrlError, type UrlPolicy } from './url-safety';

/** How long an attempt may take, connection to the end of the response. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The most of a response body read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export const ATTEMPT_OUTCOMES = ['delivered', 'http_error', 'timeout', 'network_error', 'refused_address', 'aborted'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** why it failed; null when delivered */
  error: string | null;
  durationMs: number;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
};

/** Always the addresses already checked: the name is never resolved again between the check and the connection. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * One POST of a webhook: the URL checked again (DNS re-resolved) and connected to the checked
 * address, no redirect followed (a 3xx is a failure), 10 s at most, at most 64 KB of the answer
 * read. Done only on a 2xx. Never throws: every failure is an outcome with its reason.
 */
export async function postWebhook(target: string, body: string, headers: Record<string, string>, options: { policy: UrlPolicy; timeoutMs?: number; signal?: AbortSignal }): Promise<AttemptResult> {
  const started = performance.now();
  const result = (outcome: AttemptOutcome, statusCode: number | null, error: string | null): AttemptResult => ({ outcome, statusCode, error, durationMs: Math.round(performance.now() - started) });
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  let url: URL;
  let address: string;
  try {
    url = parseWebhookUrl(target);
    [address] = await safeAddresses(url, options.policy);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return result('refused_address', null, error.message);
    throw error;
  }
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (value: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      lookup: pinnedLookup(address),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'BillProgress-Webhooks/1', connection: 'close' },
    });
    const timer = setTimeout(() => {
      finish(result('timeout', null, `no complete answer within ${timeoutMs / 1000} s`));
      request.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish(result('aborted', null, 'the service was shutting down'));
      request.destroy();
    };
    options.signal?.addEventListener('abort', onAbort);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const done = () => finish(status >= 200 && status < 300 ? result('delivered', status, null) : result('http_error', status, `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`));
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
      response.on('close', done);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(result('network_error', null, error.code ? `${NETWORK_WORDS[error.code] ?? 'network error'} (${error.code})` : error.message));
    });
    request.end(body);
  });
}
