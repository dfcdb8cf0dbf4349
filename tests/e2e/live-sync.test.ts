import type { ApiStageSummary } from '../../src/ingest/bills-api/api-types';
import { type FakeBillsApi, recordLordsReport, setDownLordsThirdReading } from '../support/fixture-bills-api';
import { startLiveServer, type LiveServer } from '../support/live-server';
import { adminCli, type ServerProcess } from '../support/processes';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// Live operation (issue 22): the server follows the Bills API by itself. A stage that appears in
// the API reaches a webhook receiver within an interval; an API that fails for several intervals
// leaves the service serving, marked stale, and it recovers by itself.

const TODAY = '2026-10-14';
const BILL = 4065;
const INTERVAL_SECONDS = 1;

let live: LiveServer;
let api: FakeBillsApi;
let receiver: Receiver;
let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  receiver = await startReceiver(200);
  live = await startLiveServer({ today: TODAY, intervalSeconds: INTERVAL_SECONDS, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  ({ api, server, env } = live);
});
afterAll(async () => {
  await live?.close();
  await receiver?.close();
});

const readyz = async () => {
  const res = await fetch(`${server.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; data: { source: string; as_of: string | null; last_sync_at: string | null; last_success_at: string | null; stale: boolean; sessions_inferred: unknown[]; dissolutions: unknown[] } } };
};

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A new user of `tier` with an API key (returned) and a webhook endpoint at `url` for every bill's events of `type`. */
async function userWithWebhook(email: string, tier: string, url: string, type: string): Promise<string> {
  await adminCli(['create-user', '--email', email, '--tier', tier], env);
  const key = (await adminCli(['create-key', '--email', email], env)).json.api_key as string;
  const created = await fetch(`${server.url}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: [type], all_bills: true }),
  });
  expect(created.status).toBe(200);
  return key;
}

/** The API shows a new stage of BILL sitting today, and the bill's lastUpdate moves, as the real API does. */
function parliamentMovesTheBill(): void {
  const stages = api.stages.get(BILL)!;
  const last = stages.at(-1)!;
  const report: ApiStageSummary = {
    ...last,
    id: last.id! + 1,
    stageId: 4,
    description: 'Report stage',
    abbreviation: 'RS',
    sortOrder: (last.sortOrder ?? 0) + 1,
    stageSittings: [{ id: 99_001, stageId: 4, billStageId: last.id! + 1, billId: BILL, date: `${TODAY}T00:00:00` }],
  };
  stages.push(report);
  const updated = `${TODAY}T09:00:00.1234567`;
  api.summaries.find((b) => b.billId === BILL)!.lastUpdate = updated;
  api.details.get(BILL)!.lastUpdate = updated;
}

it('says in /readyz that it follows the live source, and when it last synced', async () => {
  const { status, body } = await until(readyz, (r) => r.body.data?.last_success_at !== null, 5_000);
  expect(status).toBe(200);
  expect(body.data).toEqual({ source: 'live', as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), last_sync_at: expect.any(String), last_success_at: expect.any(String), stale: false, sessions_inferred: expect.arrayContaining([expect.objectContaining({ session_id: 40, end_date: null })]), dissolutions: [] });
});

it('says in GraphQL serviceStatus, as in /readyz, which sessions have dates it inferred rather than knew', async () => {
  const { body } = await until(readyz, (r) => r.body.data?.last_success_at !== null, 5_000);
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ serviceStatus { data { sessionsInferred { sessionId name firstSittingDate endDate learnedAt endInferredAt } } } }' }),
  });
  const answer = (await res.json()) as { data: { serviceStatus: { data: { sessionsInferred: { sessionId: number; endDate: string | null }[] } } } };
  const inferred = answer.data.serviceStatus.data.sessionsInferred;
  // the fixtures' session 40 is newer than the built-in table: the service learned it from the bills, and it still runs
  expect(inferred).toContainEqual(expect.objectContaining({ sessionId: 40, endDate: null }));
  const fromReadyz = (body.data.sessions_inferred as Record<string, unknown>[]).map((s) => ({
    sessionId: s.session_id,
    name: s.name,
    firstSittingDate: s.first_sitting_date,
    endDate: s.end_date,
    learnedAt: s.learned_at,
    endInferredAt: s.end_inferred_at,
  }));
  expect(inferred).toEqual(fromReadyz);
});

it('sends a stage that appears in the Bills API to a webhook receiver as bill.stage_changed, within an interval of the change', async () => {
  await userWithWebhook('live@example.com', 'pro', receiver.url, 'bill.stage_changed');

  parliamentMovesTheBill();
  await receiver.receivedAtLeast(1);
  const event = JSON.parse(receiver.received[0].body) as { type: string; data: { bill_id: number; stage: string } };
  expect(event.type).toBe('bill.stage_changed');
  expect(event.data).toMatchObject({ bill_id: BILL });
}, 60_000);

it('sends a sitting the Bills API dates after today to a webhook receiver as bill.stage_scheduled, makes it the ETA, and sends its move too', async () => {
  const scheduledReceiver = await startReceiver(200);
  try {
    const key = await userWithWebhook('scheduled@example.com', 'pilot', scheduledReceiver.url, 'bill.stage_scheduled');
    const predict = async () => (await (await fetch(`${server.url}/api/v1/predict/${BILL}?explain=true`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;

    setDownLordsThirdReading(api, BILL, '2026-10-21', `${TODAY}T11:00:00.1234567`);
    await scheduledReceiver.receivedAtLeast(1);
    const first = JSON.parse(scheduledReceiver.received[0].body) as { type: string; data: Record<string, unknown> };
    expect(first.type).toBe('bill.stage_scheduled');
    expect(first.data).toMatchObject({ bill_id: BILL, title: expect.any(String), stage: 'third_reading', house: 'Lords', scheduled_for: '2026-10-21', first_seen: TODAY, previously_scheduled_for: null });
    const prediction = await predict();
    expect(prediction.predictions.timeline_eta.days).toBe(7);
    expect(prediction.explanations.timeline_eta).toMatch(/^scheduled for 2026-10-21: the days to that sitting, if it is held; a \d+% chance of a next main stage at all, \d+% within 30 days$/);

    setDownLordsThirdReading(api, BILL, '2026-10-28', `${TODAY}T12:00:00.1234567`);
    await scheduledReceiver.receivedAtLeast(2);
    const moved = JSON.parse(scheduledReceiver.received[1].body) as { type: string; data: Record<string, unknown> };
    expect(moved.data).toMatchObject({ bill_id: BILL, scheduled_for: '2026-10-28', previously_scheduled_for: '2026-10-21' });
    expect((await predict()).predictions.timeline_eta.days).toBe(14);
  } finally {
    await scheduledReceiver.close();
  }
}, 60_000);

it('sends a stage the Bills API records a day late to the webhook receiver, once, with the day it sat', async () => {
  const before = receiver.received.length;
  recordLordsReport(api, BILL, '2026-10-13', `${TODAY}T13:00:00.1234567`);
  await receiver.receivedAtLeast(before + 1);
  const late = JSON.parse(receiver.received[before].body) as { type: string; timestamp: string; data: Record<string, unknown> };
  expect(late.type).toBe('bill.stage_changed');
  expect(late.data).toMatchObject({ bill_id: BILL, stage: 'report', house: 'Lords', date: '2026-10-13' });
  expect(late.timestamp.startsWith(TODAY)).toBe(true);
}, 60_000);

it('keeps serving while the Bills API fails, says the data is stale after 3 intervals, logs the failure once, and recovers by itself', async () => {
  const failing = Array.from({ length: 1_000 }, () => ({ status: 503 }));
  api.script('/Bills', ...failing);
  const stale = await until(readyz, (r) => r.body.data.stale, 20_000);
  expect(stale.status).toBe(200);
  expect(stale.body.data.stale).toBe(true);
  expect((await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ serviceStatus { billCount data { source stale } } }' }) }).then((r) => r.json())) as unknown).toEqual({
    data: { serviceStatus: { billCount: 7, data: { source: 'live', stale: true } } },
  });
  const FAILED = 'scheduled sync failed: the stored data is served as it was; retrying with backoff';
  await server.logged(FAILED);
  // a second failed interval, still no second line
  const failedAttempts = () => api.requestsTo('/Bills').length;
  const before = failedAttempts();
  await until(async () => failedAttempts(), (n) => n > before, 20_000);

  api.scripted.clear();
  const recovered = await until(readyz, (r) => !r.body.data.stale, 30_000);
  expect(recovered.body.data.stale).toBe(false);
  await server.logged('scheduled sync recovered');
  expect(server.logs.filter((l) => l.msg === FAILED)).toHaveLength(1);
}, 60_000);
