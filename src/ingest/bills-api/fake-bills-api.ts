import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiBill, ApiBillSummary, ApiBillType, ApiSearchResult, ApiStageSummary } from './api-types';
import { timeKey } from './api-dates';
import type { ApiPartySpell } from './party-history';

/** What a fake Bills API serves: every bill's summary, detail and stages, and the bill types. */
export interface BillsApiData {
  summaries: ApiBillSummary[];
  details: Map<number, ApiBill>;
  stages: Map<number, ApiStageSummary[]>;
  billTypes: ApiBillType[];
}

/**
 * Bills in the folder layout of tests/fixtures/bills-api: `bills.json` (every summary),
 * `bills/{id}.json` and `stages/{id}.json` (a bill's detail and stages), `bill-types.json`.
 */
export function readBillsApiFolder(dir: string): BillsApiData {
  const read = <T>(file: string): T => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T;
  const details = new Map<number, ApiBill>();
  const stages = new Map<number, ApiStageSummary[]>();
  for (const file of readdirSync(path.join(dir, 'bills'))) {
    const detail = read<ApiBill>(`bills/${file}`);
    details.set(detail.billId, detail);
    stages.set(detail.billId, read<ApiSearchResult<ApiStageSummary>>(`stages/${file}`).items!);
  }
  return { summaries: read<ApiSearchResult<ApiBillSummary>>('bills.json').items!, details, stages, billTypes: read<ApiSearchResult<ApiBillType>>('bill-types.json').items! };
}

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** hold the response this long (real ms), to make a request outlive the client's timeout */
  hangMs?: number;
}

/**
 * A stand-in for bills-api.parliament.uk with real Skip/Take paging and the newest-update-first
 * order, for the tests (tests/support/fixture-bills-api.ts serves its fixtures) and `npm run bench`.
 * Its data can be changed while it runs, as the real API's is. Scripted responses queued for a
 * path are served (and consumed) before the data.
 */
export class FakeBillsApi {
  readonly summaries: ApiBillSummary[];
  readonly details: Map<number, ApiBill>;
  readonly stages: Map<number, ApiStageSummary[]>;
  readonly billTypes: ApiBillType[];
  readonly requests: URL[] = [];
  readonly scripted = new Map<string, Scripted[]>();
  /** real ms each response is held, so that concurrent requests overlap */
  delayMs = 0;
  inFlight = 0;
  maxInFlight = 0;
  /**
   * The Members API's party histories (`/api/Members/History`) of the sponsors: by default each
   * sponsor's party as the bill shows it, held all along; a test sets a member's own.
   */
  readonly partyHistories = new Map<number, ApiPartySpell[]>();
  private server: http.Server | null = null;
  baseUrl = '';
  /** where the same server answers as the Members API */
  membersApiUrl = '';

  constructor(data: BillsApiData) {
    ({ summaries: this.summaries, details: this.details, stages: this.stages, billTypes: this.billTypes } = data);
    for (const detail of this.details.values()) {
      for (const s of detail.sponsors ?? []) {
        if (s.member?.party) this.partyHistories.set(s.member.memberId, [{ party: { name: s.member.party }, startDate: '1970-01-01T00:00:00', endDate: null }]);
      }
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
    const origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.baseUrl = `${origin}/api/v1`;
    this.membersApiUrl = `${origin}/api`;
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

    if (url.pathname === '/api/Members/History') {
      const ids = url.searchParams.getAll('ids').map(Number);
      return send(res, 200, ids.flatMap((id) => (this.partyHistories.has(id) ? [{ value: { id, partyHistory: this.partyHistories.get(id) } }] : [])));
    }
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
