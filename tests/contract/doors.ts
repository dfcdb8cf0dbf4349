import type { AddressInfo } from 'node:net';
import type { FormattedExecutionResult } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import type request from 'supertest';
import WebSocket from 'ws';
import type { Tier } from '../../src/db/entities/account.entity';
import { ERROR_CODES, type ErrorCode } from '../../src/errors';
import { type QuotaKind, TIER_LIMITS } from '../../src/quota/tier-limits';
import { MODELS_LOADING } from '../../src/services/model.service';
import type { TestApp } from '../support/test-app';

/**
 * The contract suite's runner: one case, three doors. Each door has an adapter that sends the
 * case's request its own way and turns the answer into a door-neutral outcome (success with a
 * body in camelCase and lower-case enum values, or an error code), so the doors can be compared.
 */

export type Door = 'rest' | 'graphql' | 'websocket';

/**
 * Where the WebSocket door differs by its transport, so the suite compares it on everything else:
 * - it has no response headers (the X-RateLimit-* headers, WWW-Authenticate): `HTTP_ONLY`;
 * - the credential is presented once, in connection_init: a missing, unknown or Free key refuses
 *   the connection with a close code (44xx: the HTTP status + 4000), read here as that status's
 *   error. A client without a valid key never sends a document, so a case without one expects
 *   UNAUTHENTICATED there, whatever its document (`refusedAtConnection`);
 * - the connection is charged one API call when admitted, before the request is measured, as a
 *   client's earlier HTTP call would have been.
 */
export const HTTP_ONLY = ['rateLimit', 'headers'] as const;

/** The case sends no valid key: over WebSocket its connection is refused before the request is sent (see HTTP_ONLY). */
export const refusedAtConnection = (c: ContractCase<any>) => c.credential === 'none' || c.credential === 'unknown';

/** How the request presents itself: a valid key (as a bearer token or in X-API-Key), none, or a key nobody issued. */
export type Credential = 'bearer' | 'x-api-key' | 'none' | 'unknown';

/** The quota day every case runs on (quotas follow the real clock, which the test app lets us set). */
export const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = NOW.toISOString().slice(0, 10);

export interface CaseUser {
  email: string;
  key: string;
  accountId: number;
  tier: Tier;
}

/** Ids of what a case's arrange step made, by name (e.g. `watchlist`): each door gets its own. */
export type Fixture = Record<string, number>;

export interface RestRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** under /api/v1 */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
}

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
}

export type Charge = Record<QuotaKind, number>;

/** What one case expects, whichever door it came through. */
export type Expected<F extends Fixture> =
  /** a success whose neutral body equals this (jest matchers allowed; a function sees the door's fixture) */
  | { ok: unknown | ((fixture: F) => unknown) }
  | { error: ErrorCode };

export interface ContractCase<F extends Fixture = Fixture> {
  name: string;
  /** the fresh user each door gets; default pilot */
  tier?: Tier;
  credential?: Credential;
  /** the request arrives while the model is loading (as at a first start, before training ends) */
  modelLoading?: boolean;
  /** prepares what the request needs, through the services (never through a door, so it charges nothing) */
  arrange?: (t: TestApp, user: CaseUser) => Promise<F>;
  rest: (fixture: F) => RestRequest;
  graphql: (fixture: F) => GraphQLRequest;
  /**
   * Each door's success body → the neutral form, where the doors' shapes differ by design
   * (nesting, envelopes). Defaults: the REST body; the GraphQL root field's value.
   */
  read?: { rest?: (body: any, fixture: F) => unknown; graphql?: (data: any, fixture: F) => unknown };
  expect: Expected<F>;
  /** what the request costs the user today; kinds left out cost nothing. Omitted: only "the same through both doors" is checked. */
  charge?: Partial<Charge>;
  /** response headers both doors must send (lower-case names; jest matchers allowed) */
  headers?: Record<string, unknown>;
}

/** Who is making main pass the case: a helper's branch, or nobody yet (the report says so). */
export type Branch = 'gateway-core' | 'rest-conventions' | 'a fix nobody has taken yet';

/** A case main does not pass yet: it states the expectation and is skipped until `waitsFor` lands. */
export interface PendingCase {
  case: ContractCase<any>;
  waitsFor: Branch | Branch[];
  reason: string;
}

export type Outcome = { ok: true; body: unknown } | { ok: false; code: string; message: string };

export interface DoorRun {
  door: Door;
  fixture: Fixture;
  outcome: Outcome;
  /** what the request took from each daily counter */
  charge: Charge;
  /** the X-RateLimit-* headers of the answer (none over WebSocket: HTTP_ONLY) */
  rateLimit: { limit?: string; remaining?: string; reset?: string };
  /** every message the answer carries for people: its error's, and each `detail` inside it */
  messages: string[];
  headers: Record<string, string>;
}

const STATUS_TO_CODE = new Map<number, ErrorCode>(Object.entries(ERROR_CODES).map(([code, status]) => [status, code as ErrorCode]));

/** snake_case keys → camelCase (`next_stage_30d` → `nextStage30d`). */
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_match, c: string) => c.toUpperCase());

/** GraphQL enum values (`HIGH`, `TIMELINE_ETA`) are spelt lower case on REST. */
const ENUM_VALUE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Both doors' bodies in one spelling: camelCase keys, lower-case enum values. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), normalise(v)]));
  if (typeof value === 'string' && ENUM_VALUE.test(value)) return value.toLowerCase();
  return value;
}

/** Strings of a body spelt as GraphQL enum names: REST spells its words in lower case, so none may be there before normalise. */
function enumNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(enumNames);
  if (value && typeof value === 'object') return Object.values(value).flatMap(enumNames);
  return typeof value === 'string' && ENUM_VALUE.test(value) ? [value] : [];
}

const RESOURCE_ID = /^(id|watchlistId|thresholdId)$/;

/**
 * What may differ between two runs of one case: each door has its own user, so its own resource
 * ids and creation times; timings differ. The rest must be equal.
 */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([k]) => k !== 'executionTimeMs');
    return Object.fromEntries(
      entries.map(([k, v]) => [
        k,
        RESOURCE_ID.test(k) && typeof v === 'number' ? '<id>' : /At$/.test(k) && typeof v === 'string' ? '<time>' : /Url$/.test(k) && typeof v === 'string' ? v.replace(/[A-Za-z0-9_-]{43}/, '<token>') : comparable(v),
      ]),
    );
  }
  return value;
}

function credentialHeaders(credential: Credential, key: string): Record<string, string> {
  switch (credential) {
    case 'bearer':
      return { authorization: `Bearer ${key}` };
    case 'x-api-key':
      return { 'x-api-key': key };
    case 'unknown':
      return { authorization: 'Bearer bp_0000000000000000000000000000000000000000' };
    case 'none':
      return {};
  }
}

const rateLimitOf = (res: request.Response) => ({ limit: res.headers['x-ratelimit-limit'], remaining: res.headers['x-ratelimit-remaining'], reset: res.headers['x-ratelimit-reset'] });

function messagesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(messagesIn);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => ((k === 'detail' || k === 'message') && typeof v === 'string' ? [v] : messagesIn(v)));
}

/** The code a result carries: the first error's `extensions.code`; else the data. */
function resultOutcome(result: FormattedExecutionResult<Record<string, unknown>, unknown> | undefined): Outcome {
  const error = result?.errors?.[0];
  if (error) return { ok: false, code: String(error.extensions?.code ?? 'no code'), message: String(error.message) };
  return { ok: true, body: normalise(result?.data) };
}

/** REST: the status maps back to a code through the one table (src/errors.ts); an error body is `{"detail"}` and nothing else. */
async function throughRest(t: TestApp, req: RestRequest, headers: Record<string, string>): Promise<{ outcome: Outcome; res: request.Response }> {
  const url = `/api/v1${req.path}`;
  const call = req.method === 'GET' ? t.http().get(url) : req.method === 'POST' ? t.http().post(url) : t.http().delete(url);
  call.set(headers);
  if (req.query) call.query(req.query);
  const res = req.body === undefined ? await call : await call.send(req.body as object);
  if (res.status === 200) {
    const leaked = enumNames(res.body);
    if (leaked.length) return { outcome: { ok: false, code: 'GraphQL enum names in a REST body', message: leaked.join(', ') }, res };
    return { outcome: { ok: true, body: normalise(res.body) }, res };
  }
  const code = STATUS_TO_CODE.get(res.status) ?? `HTTP ${res.status}`;
  const bodyKeys = Object.keys(res.body ?? {});
  if (bodyKeys.length !== 1 || typeof res.body.detail !== 'string') return { outcome: { ok: false, code: `${code} without a {"detail"} body`, message: res.text }, res };
  return { outcome: { ok: false, code, message: res.body.detail }, res };
}

/** GraphQL: the first error's `extensions.code`; else the data. */
async function throughGraphQL(t: TestApp, req: GraphQLRequest, headers: Record<string, string>): Promise<{ outcome: Outcome; res: request.Response }> {
  const res = await t.http().post('/graphql').set({ 'content-type': 'application/json', ...headers }).send({ query: req.query, variables: req.variables });
  return { outcome: resultOutcome(res.body), res };
}

type Connection = { client: Client } | { refused: Outcome };

/** A graphql-ws connection with the credential in connection_init: admitted, or the refusal its close code stands for. */
function connect(t: TestApp, connectionParams: Record<string, string>): Promise<Connection> {
  const { port } = t.app.httpServer.address() as AddressInfo;
  return new Promise((resolve) => {
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: () => undefined,
      on: {
        connected: () => resolve({ client }),
        closed: (event) => {
          const { code, reason } = event as { code: number; reason: string };
          resolve({ refused: { ok: false, code: STATUS_TO_CODE.get(code - 4000) ?? `closed ${code}`, message: reason } });
        },
      },
    });
  });
}

/** WebSocket: one operation on an admitted connection; its result read as GraphQL's, an error message (refused before it ran) by its first error's code. */
async function throughWebSocket(client: Client, req: GraphQLRequest): Promise<{ outcome: Outcome; body: unknown }> {
  let last: FormattedExecutionResult<Record<string, unknown>, unknown> | undefined;
  try {
    await new Promise<void>((resolve, reject) => client.subscribe({ query: req.query, variables: req.variables }, { next: (result) => (last = result), error: reject, complete: resolve }));
  } catch (error) {
    last = { errors: Array.isArray(error) ? error : [{ message: String(error), extensions: { code: 'socket closed' } }] } as FormattedExecutionResult<Record<string, unknown>, unknown>;
  }
  return { outcome: resultOutcome(last), body: last };
}

async function counters(t: TestApp, user: CaseUser): Promise<Charge> {
  const read = async (kind: QuotaKind) => (await t.services.quotas.store.take(user.accountId, DAY, kind, 0, TIER_LIMITS[user.tier][kind])).used;
  return { calls: await read('calls'), batches: await read('batches'), predictions: await read('predictions') };
}

/** Uses up `amount` of the user's daily `kind` before the request, as earlier traffic would have. */
export async function useQuota(t: TestApp, user: CaseUser, kind: QuotaKind, amount: number): Promise<void> {
  await t.services.quotas.store.take(user.accountId, DAY, kind, amount, TIER_LIMITS[user.tier][kind]);
}

let users = 0;

async function freshUser(t: TestApp, tier: Tier): Promise<CaseUser> {
  const email = `contract${++users}@example.com`;
  const key = await t.userWithKey(tier, email);
  return { email, key, accountId: await t.accountIdOf(email), tier };
}

/** Runs the case through one door, for a user of its own, and measures what it charged. */
export async function runThrough(door: Door, t: TestApp, c: ContractCase<any>): Promise<DoorRun> {
  t.setNow(NOW);
  const user = await freshUser(t, c.tier ?? 'pilot');
  const fixture: Fixture = (await c.arrange?.(t, user)) ?? {};
  const headers = credentialHeaders(c.credential ?? 'bearer', user.key);
  const connection = door === 'websocket' ? await connect(t, headers) : null;
  const before = await counters(t, user);
  // One PGlite instance serves every app of a process (typeorm-pglite keeps one), so a second app
  // would find the first one's model: the loading state is set on the app itself, as its model service does.
  if (c.modelLoading) t.services.readiness.block('model', MODELS_LOADING);
  const sent =
    door === 'rest'
      ? throughRest(t, c.rest(fixture), headers)
      : door === 'graphql'
        ? throughGraphQL(t, c.graphql(fixture), headers)
        : connection && 'client' in connection
          ? throughWebSocket(connection.client, c.graphql(fixture))
          : Promise.resolve({ outcome: (connection as { refused: Outcome }).refused, body: undefined });
  const answered = await sent.finally(() => c.modelLoading && t.services.readiness.unblock('model'));
  if (connection && 'client' in connection) await connection.client.dispose();
  const { outcome } = answered;
  const res = 'res' in answered ? answered.res : null;
  const after = await counters(t, user);
  const charge = { calls: after.calls - before.calls, batches: after.batches - before.batches, predictions: after.predictions - before.predictions };
  if (outcome.ok) {
    const data = outcome.body as Record<string, unknown>;
    const read = door === 'rest' ? (c.read?.rest ?? ((body: unknown) => body)) : (c.read?.graphql ?? ((body: Record<string, unknown>) => Object.values(body)[0]));
    outcome.body = read(data, fixture);
  }
  const body = res ? res.body : (answered as { body: unknown }).body;
  return { door, fixture, outcome, charge, rateLimit: res ? rateLimitOf(res) : {}, messages: messagesIn(body), headers: res?.headers ?? {} };
}

/** The expected neutral outcome of a case for one door's run. */
export function expectedOutcome(c: ContractCase<any>, run: DoorRun): { ok: true; body: unknown } | { ok: false; code: ErrorCode } {
  if (run.door === 'websocket' && refusedAtConnection(c)) return { ok: false, code: 'UNAUTHENTICATED' };
  if ('error' in c.expect) return { ok: false, code: c.expect.error };
  const ok = c.expect.ok;
  return { ok: true, body: typeof ok === 'function' ? ok(run.fixture) : ok };
}

export const expectedCharge = (charge: Partial<Charge>): Charge => ({ calls: 0, batches: 0, predictions: 0, ...charge });
