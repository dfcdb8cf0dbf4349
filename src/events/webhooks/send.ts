import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isChatFormat, type WebhookFormat } from '../../vocabulary';
import { parseWebhookUrl, safeAddresses, safeChatAddresses, UnsafeUrlError, type UrlPolicy } from './url-safety';

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

/** What an attempt to an address the URL policy refuses records (the reason stays with the operator's policy). */
export const ADDRESS_NOT_ALLOWED = 'address not allowed';

const defaultResolve = async (hostname: string) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
};

/**
 * Connections are kept open between attempts (a new TCP and TLS handshake per delivery was most of
 * a delivery's CPU). Requests name the checked address as their host, so the pools are keyed by
 * address (and TLS name): a reused connection always goes to an address checked for this very
 * attempt. Idle connections close after 4 s, before the usual 5 s of servers' keep-alive.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' } as const;
const agents = { 'http:': new http.Agent(KEEP_ALIVE), 'https:': new https.Agent(KEEP_ALIVE) };

/** A kept-alive connection the receiver closed as it was reused: the request never reached it, so it goes again at once on a new one. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One POST of a webhook: the URL checked again (DNS re-resolved; a chat format's https and host too) and connected to the checked
 * address, no redirect followed (a 3xx is a failure), 10 s at most, at most 64 KB of the answer
 * read. Done only on a 2xx. Never throws: every failure is an outcome with its reason.
 */
export async function postWebhook(target: string, body: string, headers: Record<string, string>, options: { policy: UrlPolicy; timeoutMs?: number; signal?: AbortSignal; format?: WebhookFormat }): Promise<AttemptResult> {
  const started = performance.now();
  const result = (outcome: AttemptOutcome, statusCode: number | null, error: string | null): AttemptResult => ({ outcome, statusCode, error, durationMs: Math.round(performance.now() - started) });
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  let url: URL;
  let address: string;
  // whether the host stood for addresses at all: a refusal then is of an address, said in the same
  // words whatever the address or port, so the record reveals nothing of what listens where
  let resolved = false;
  const resolve = options.policy.resolve ?? defaultResolve;
  try {
    url = parseWebhookUrl(target);
    resolved = isIP(url.hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
    const noting = async (host: string) => {
      const addresses = await resolve(host);
      resolved = addresses.length > 0;
      return addresses;
    };
    const policy = { ...options.policy, resolve: noting };
    const format = options.format ?? 'standard';
    [address] = await (isChatFormat(format) ? safeChatAddresses(url, format, policy) : safeAddresses(url, policy));
  } catch (error) {
    if (error instanceof UnsafeUrlError) return result('refused_address', null, resolved ? ADDRESS_NOT_ALLOWED : error.message);
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
    let request: http.ClientRequest;
    const open = (retried: boolean) => {
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        host: address,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        // the certificate is checked against the URL's name, not the address connected to
        ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
        headers: { ...headers, host: url.host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'BillProgress-Webhooks/1' },
      });
      let answered = false;
      request.on('response', (response) => {
        answered = true;
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
        if (!settled && !answered && !retried && request.reusedSocket && STALE_CONNECTION.has(error.code ?? '')) return open(true);
        finish(result('network_error', null, error.code ? `${NETWORK_WORDS[error.code] ?? 'network error'} (${error.code})` : error.message));
      });
      request.end(body);
    };
    const timer = setTimeout(() => {
      finish(result('timeout', null, `no complete answer within ${timeoutMs / 1000} s`));
      request.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish(result('aborted', null, 'the service was shutting down'));
      request.destroy();
    };
    options.signal?.addEventListener('abort', onAbort);
    open(false);
  });
}
