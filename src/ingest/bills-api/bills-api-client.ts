/**
 * A small, polite HTTP client for the UK Parliament Bills API: JSON GETs with a per-request timeout,
 * retries with exponential backoff and full jitter on network errors, timeouts, 429 and 5xx, a cap
 * on requests in flight, and a helper that walks `Skip`/`Take` pages.
 */

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Readonly<Record<string, QueryValue>>;

export interface BillsApiClientOptions {
  /** e.g. `https://bills-api.parliament.uk/api/v1`; request paths are appended to it */
  baseUrl: string;
  /** retries after the first attempt (default 5) */
  maxRetries?: number;
  /** backoff base: retry n waits up to `baseDelayMs * 2^n` (default 500) */
  baseDelayMs?: number;
  /** backoff ceiling (default 30000) */
  maxDelayMs?: number;
  /** per attempt, including reading the body (default 15000) */
  timeoutMs?: number;
  /** longest wait a `Retry-After` may impose before a retry (default 10 minutes) */
  maxRetryAfterMs?: number;
  /** requests in flight at once (default 4) */
  concurrency?: number;
  /** injectable so tests need not wait */
  sleep?: (ms: number) => Promise<void>;
  /** in [0, 1), for the jitter */
  random?: () => number;
  fetch?: typeof fetch;
  userAgent?: string;
}

/** Longest wait a `Retry-After` can impose by default; beyond it the header is taken as a mistake. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;
const DEFAULT_PAGE_SIZE = 50;

export class BillsApiError extends Error {
  constructor(
    message: string,
    readonly url: string,
    /** HTTP status, or null for a network error or timeout */
    readonly status: number | null,
    readonly attempts: number,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BillsApiError';
  }
}

/** A counting semaphore: at most `limit` holders at once, waiters served first come, first served. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer, got ${limit}`);
  }

  async acquire(): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
    } else {
      // The releasing holder hands its slot straight over, so `active` is unchanged.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}

export interface Page<T> {
  items: T[];
  totalResults: number;
  skip: number;
}

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class BillsApiClient {
  readonly baseUrl: string;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;
  private readonly semaphore: Semaphore;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch;
  private readonly userAgent: string;

  constructor(
    private readonly options: BillsApiClientOptions,
    shared?: { semaphore: Semaphore },
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.semaphore = shared?.semaphore ?? new Semaphore(options.concurrency ?? 4);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.fetchImpl = options.fetch ?? fetch;
    this.userAgent = options.userAgent ?? 'bill-progress (UK Parliament bills forecaster)';
  }

  /** A client of another API read by the same sync (the Members API): the same retries unless `overrides` says otherwise, and one limit on the requests in flight to both. */
  withBaseUrl(baseUrl: string, overrides: Pick<BillsApiClientOptions, 'maxRetries' | 'timeoutMs' | 'maxRetryAfterMs'> = {}): BillsApiClient {
    return new BillsApiClient({ ...this.options, ...overrides, baseUrl }, { semaphore: this.semaphore });
  }

  url(path: string, query: Query = {}): string {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
      else url.searchParams.append(key, String(value));
    }
    return url.toString();
  }

  /** GET and parse JSON, retrying what may succeed later; throws `BillsApiError` naming the URL and status. */
  async getJson<T>(path: string, query: Query = {}): Promise<T> {
    const url = this.url(path, query);
    const attempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        // The slot is held for the request only, so a request waiting out its backoff leaves room for others.
        return await this.semaphore.run(() => this.attempt<T>(url));
      } catch (error) {
        const failure =
          error instanceof AttemptFailure ? error : new AttemptFailure(`unexpected error: ${String(error)}`, null, false, null, { cause: error });
        if (!failure.retryable) {
          throw new BillsApiError(`GET ${url} failed: ${failure.message}`, url, failure.status, attempt, false, { cause: failure.cause ?? failure });
        }
        if (attempt >= attempts) {
          throw new BillsApiError(`GET ${url} failed after ${attempt} attempts: ${failure.message}`, url, failure.status, attempt, true, {
            cause: failure.cause ?? failure,
          });
        }
        await this.sleep(this.delayBeforeRetry(attempt - 1, failure.retryAfterMs));
      }
    }
  }

  /** Full jitter (a uniform wait up to the exponential bound) spreads out clients that failed together. */
  private delayBeforeRetry(retryIndex: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, this.options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS);
    const bound = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** retryIndex);
    return Math.floor(this.random() * bound);
  }

  private async attempt<T>(url: string): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          headers: { accept: 'application/json', 'user-agent': this.userAgent },
          signal: controller.signal,
        });
      } catch (error) {
        const reason = controller.signal.aborted ? `timed out after ${this.timeoutMs} ms` : `network error: ${describe(error)}`;
        throw new AttemptFailure(reason, null, true, null, { cause: error });
      }
      if (!response.ok) {
        // Drain the body so the connection can be reused; its content is not needed.
        await response.arrayBuffer().catch(() => undefined);
        const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
        if (response.status === 429) throw new AttemptFailure(status, 429, true, parseRetryAfter(response.headers.get('retry-after')));
        if (response.status >= 500) throw new AttemptFailure(status, response.status, true, null);
        throw new AttemptFailure(status, response.status, false, null);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        const reason = controller.signal.aborted ? `timed out after ${this.timeoutMs} ms reading the body` : `network error reading the body: ${describe(error)}`;
        throw new AttemptFailure(reason, response.status, true, null, { cause: error });
      }
      try {
        return JSON.parse(text) as T;
      } catch (error) {
        // A cut-off body parses badly too; another attempt is cheap for a GET.
        throw new AttemptFailure(`invalid JSON (${text.length} bytes)`, response.status, true, null, { cause: error });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Walks a `Skip`/`Take` list until `totalResults` items have been read (or a page comes back empty,
   * which guards against a total that shrinks while walking). Pages are fetched one after another.
   */
  async *pages<T>(path: string, query: Query = {}, pageSize: number = DEFAULT_PAGE_SIZE): AsyncGenerator<Page<T>> {
    let skip = 0;
    for (;;) {
      const result = await this.getJson<{ items?: T[] | null; totalResults?: number }>(path, { ...query, Skip: skip, Take: pageSize });
      const items = result.items ?? [];
      const totalResults = typeof result.totalResults === 'number' ? result.totalResults : skip + items.length;
      yield { items, totalResults, skip };
      skip += items.length;
      if (items.length === 0 || skip >= totalResults) return;
    }
  }

  async getAll<T>(path: string, query: Query = {}, pageSize: number = DEFAULT_PAGE_SIZE): Promise<T[]> {
    const all: T[] = [];
    for await (const page of this.pages<T>(path, query, pageSize)) all.push(...page.items);
    return all;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? ` (${String((cause as { code: unknown }).code)})` : '';
    return `${error.message}${code}`;
  }
  return String(error);
}
