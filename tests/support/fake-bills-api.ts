import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiBill, ApiBillSummary, ApiBillType, ApiSearchResult, ApiStageSummary } from '../../src/ingest/bills-api/api-types';
import { timeKey } from '../../src/ingest/bills-api/api-dates';

export const FIXTURES = path.resolve(__dirname, '../fixtures/bills-api');
export const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T;

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** hold the response this long (real ms), to make a request outlive the client's timeout */
  hangMs?: number;
}

/**
 * A stand-in for bills-api.parliament.uk serving the fixtures with real Skip/Take paging.
 * Scripted responses queued for a path are served (and consumed) before the fixture.
 */
export class FakeBillsApi {
  readonly summaries: ApiBillSummary[] = readJson<ApiSearchResult<ApiBillSummary>>('bills.json').items!;
  readonly details = new Map<number, ApiBill>();
  readonly stages = new Map<number, ApiStageSummary[]>();
  readonly billTypes = readJson<ApiSearchResult<ApiBillType>>('bill-types.json').items!;
  readonly requests: URL[] = [];
  readonly scripted = new Map<string, Scripted[]>();
  /** real ms each response is held, so that concurrent requests overlap */
  delayMs = 0;
  inFlight = 0;
  maxInFlight = 0;
  private server: http.Server | null = null;
  baseUrl = '';

  constructor() {
    for (const file of readdirSync(path.join(FIXTURES, 'bills'))) {
      const detail = readJson<ApiBill>(`bills/${file}`);
      this.details.set(detail.billId, detail);
      this.stages.set(detail.billId, readJson<ApiSearchResult<ApiStageSummary>>(`stages/${file}`).items!);
    }
  }

  script(pathname: string, ...responses: Scripted[]): void {
    this.scripted.set(`/api/v1${pathname}`, [...(this.scripted.get(`/api/v1${pathname}`) ?? []), ...responses]);
  }

  requestsTo(pathname: string): URL[] {
    return this.requests.filter((u) => u.pathname === `/api/v1${pathname}`);
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.requests.push(url);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => this.inFlight--);

    const queued = this.scripted.get(url.pathname);
    const scripted = queued?.shift();
    if (scripted?.hangMs) await delay(scripted.hangMs);
    if (this.delayMs > 0) await delay(this.delayMs);
    if (res.destroyed) return;
    if (scripted) return send(res, scripted.status, scripted.body ?? { status: scripted.status, title: 'scripted' }, scripted.headers);

    const route = url.pathname.replace(/^\/api\/v1/, '');
    let match: RegExpExecArray | null;
    if (route === '/BillTypes') return send(res, 200, page(this.billTypes, url));
    if (route === '/Bills') {
      const items = [...this.summaries];
      if (url.searchParams.get('SortOrder') === 'DateUpdatedDescending') {
        items.sort((a, b) => Number(timeKey(b.lastUpdate)! - timeKey(a.lastUpdate)!));
      }
      return send(res, 200, page(items, url));
    }
    if ((match = /^\/Bills\/(\d+)$/.exec(route))) {
      const detail = this.details.get(Number(match[1]));
      return detail ? send(res, 200, detail) : send(res, 404, { status: 404, title: 'Not Found' });
    }
    if ((match = /^\/Bills\/(\d+)\/Stages$/.exec(route))) {
      const stages = this.stages.get(Number(match[1]));
      return stages ? send(res, 200, page(stages, url)) : send(res, 404, { status: 404, title: 'Not Found' });
    }
    send(res, 404, { status: 404, title: 'Not Found' });
  }
}

function page<T>(all: T[], url: URL): ApiSearchResult<T> {
  const skip = Number(url.searchParams.get('Skip') ?? 0);
  const take = Number(url.searchParams.get('Take') ?? 20);
  return { items: all.slice(skip, skip + take), totalResults: all.length, itemsPerPage: take };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
