import { startTestApp, type TestApp } from '../support/test-app';
import { ERROR_CASES, ERROR_CASES_PENDING_ON_MAIN } from './cases/errors';
import { PREDICTION_CASES, PREDICTION_CASES_PENDING_ON_MAIN } from './cases/predictions';
import { THRESHOLD_CASES, THRESHOLD_CASES_PENDING_ON_MAIN } from './cases/thresholds';
import { WATCHLIST_CASES, WATCHLIST_CASES_PENDING_ON_MAIN } from './cases/watchlists';
import { comparable, type ContractCase, type DoorRun, expectedCharge, expectedOutcome, type PendingCase, refusedAtConnection, runThrough } from './doors';

/**
 * The contract suite (issue 9): every case runs through REST (/api/v1), GraphQL over HTTP
 * (/graphql) and GraphQL over WebSocket (graphql-ws on /graphql), each door for a fresh user of
 * its own, and every door must give the case's expected outcome, the same result and the same
 * quota charge; the HTTP doors the same rate-limit headers too (what the WebSocket door cannot
 * show is listed once, in doors.ts's HTTP_ONLY), so the doors cannot drift.
 *
 * Pending cases state what issue 9 asks and main does not do yet; they are skipped, naming the
 * branch they wait for. CONTRACT_RUN_PENDING=1 runs them, to see which now pass.
 */

const SUITES: [string, ContractCase<any>[], PendingCase[]][] = [
  ['predictions', PREDICTION_CASES, PREDICTION_CASES_PENDING_ON_MAIN],
  ['watchlists', WATCHLIST_CASES, WATCHLIST_CASES_PENDING_ON_MAIN],
  ['alert thresholds', THRESHOLD_CASES, THRESHOLD_CASES_PENDING_ON_MAIN],
  ['errors', ERROR_CASES, ERROR_CASES_PENDING_ON_MAIN],
];
const RUN_PENDING = process.env.CONTRACT_RUN_PENDING === '1';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trainModel: true });
  // the WebSocket door needs a listening server (supertest listens per request)
  await new Promise<void>((resolve) => t.app.httpServer.listen(0, '127.0.0.1', resolve));
});
afterAll(() => t?.close());

/** What the case expects of one door's run; an error's message is the door's own wording, so only its presence is part of the contract. */
function expectedOf(c: ContractCase<any>, run: DoorRun) {
  const expected = expectedOutcome(c, run);
  return expected.ok ? expected : { ...expected, message: expect.stringMatching(/\S/) };
}

/** A camelCase word in a REST message is a GraphQL name leaking through the REST door (issue 9: each door speaks its own spelling). */
const GRAPHQL_SPELLING = /\b[a-z]+[A-Z][A-Za-z0-9]*\b/;

async function holdsThroughEveryDoor(c: ContractCase<any>) {
  const rest = await runThrough('rest', t, c);
  const graphql = await runThrough('graphql', t, c);
  const websocket = await runThrough('websocket', t, c);

  expect({ rest: rest.outcome, graphql: graphql.outcome, websocket: websocket.outcome }).toEqual({ rest: expectedOf(c, rest), graphql: expectedOf(c, graphql), websocket: expectedOf(c, websocket) });
  expect(comparable(sansMessage(rest))).toEqual(comparable(sansMessage(graphql)));
  if (!refusedAtConnection(c)) expect(comparable(sansMessage(websocket))).toEqual(comparable(sansMessage(graphql)));
  if (c.charge) {
    const expected = expectedCharge(c.charge);
    expect({ rest: rest.charge, graphql: graphql.charge, websocket: websocket.charge }).toEqual({ rest: expected, graphql: expected, websocket: expected });
  } else expect({ rest: rest.charge, websocket: websocket.charge }).toEqual({ rest: graphql.charge, websocket: graphql.charge });
  // the rate-limit and other headers are HTTP's (HTTP_ONLY in doors.ts)
  expect(rest.rateLimit).toEqual(graphql.rateLimit);
  if (c.headers) expect({ rest: pick(rest.headers, c.headers), graphql: pick(graphql.headers, c.headers) }).toEqual({ rest: c.headers, graphql: c.headers });
  expect(rest.messages.filter((message) => leaksGraphQLSpelling(message, c, rest.fixture))).toEqual([]);
}

/** A camelCase word the REST client did not send itself (a refusal that quotes the client's own unknown field is no leak). */
function leaksGraphQLSpelling(message: string, c: ContractCase<any>, fixture: DoorRun['fixture']): boolean {
  const sent = JSON.stringify(c.rest(fixture));
  return (message.match(new RegExp(GRAPHQL_SPELLING.source, 'g')) ?? []).some((word) => !new RegExp(`["/?&]${word}["=]`).test(sent));
}

const pick = (headers: Record<string, string>, wanted: Record<string, unknown>) => Object.fromEntries(Object.keys(wanted).map((name) => [name, headers[name]]));

const sansMessage = (run: DoorRun) => (run.outcome.ok ? run.outcome : { ok: false, code: run.outcome.code });

const branches = (p: PendingCase) => [p.waitsFor].flat().join(' and ');

for (const [suite, cases, pending] of SUITES) {
  describe(suite, () => {
    for (const c of cases) it(c.name, () => holdsThroughEveryDoor(c));
    for (const p of pending) (RUN_PENDING ? it : it.skip)(`${p.case.name} [pending on main until ${branches(p)} lands: ${p.reason}]`, () => holdsThroughEveryDoor(p.case));
  });
}
