import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/events/webhooks/delivery-worker';
import { RETRY_DELAYS_MS } from '../../src/events/webhooks/retry-schedule';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// Slack and Teams deliveries through the one delivery worker: unsigned, and held to the chat rules
// (https, CHAT_WEBHOOK_HOSTS) again at every attempt, as every URL is to the address rules.

let t: TestApp;
let clock: number;
const now = () => new Date(clock);
let r: Receiver;
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true } });
  r = await startReceiver(200);
});
afterAll(async () => {
  await r.close();
  await t.close();
});
beforeEach(async () => {
  clock = Date.parse('2026-11-22T12:00:00Z');
  r.received.length = 0;
  await t.services.dataSource.query('DELETE FROM webhook_endpoint');
});

const worker = (options: Partial<DeliveryWorkerOptions> = {}) =>
  new DeliveryWorker(t.services.dataSource, {
    urlPolicy: { allowPrivate: true },
    secretsFor: (endpoint, at) => t.services.webhooks.signingSecrets(endpoint, at),
    embedded: true,
    logger: t.services.logger,
    now,
    random: () => 0.5,
    timeoutMs: 500,
    ...options,
  });

let n = 0;
async function chatEndpoint(format: 'slack' | 'teams') {
  const email = `chat-delivery${++n}@example.com`;
  await t.userWithKey('pilot', email);
  const accountId = await t.accountIdOf(email);
  const { endpoint } = await t.services.webhooks.create(accountId, 'pilot', { url: r.url, format, events: ['bill.stage_changed'] });
  return { accountId, id: endpoint.id };
}

it('sends a chat delivery without signature headers, and records it delivered in its format', async () => {
  const e = await chatEndpoint('slack');
  await t.services.webhooks.queueTest(e.accountId, e.id);
  await worker().runDue();
  expect(r.received).toHaveLength(1);
  const { headers, body } = r.received[0];
  expect(Object.keys(headers).filter((h) => h.startsWith('webhook-'))).toEqual([]);
  expect(headers['content-type']).toBe('application/json');
  expect(JSON.parse(body)).toEqual({ text: expect.stringMatching(/^Bill Progress test message: /), blocks: expect.any(Array) });
  const [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record).toMatchObject({ format: 'slack', status: 'delivered', attempt: 1, lastStatusCode: 200 });
});

it('checks a chat URL again at each attempt: a host no longer on CHAT_WEBHOOK_HOSTS, or plain http, is not contacted, and the record says why', async () => {
  const e = await chatEndpoint('teams');
  // as if registered when the operator's list held chat.example.com
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, `https://chat.example.com:${r.port}/hook`]);
  await t.services.webhooks.queueTest(e.accountId, e.id);
  const resolve = async () => ['127.0.0.1'];
  await worker({ urlPolicy: { allowPrivate: true, resolve, chatHosts: ['hooks.slack.com'] } }).runDue();
  let [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record).toMatchObject({ format: 'teams', status: 'pending', attempt: 1, lastStatusCode: null });
  expect(record.lastError).toMatch(/^url's host chat\.example\.com is not a chat webhook host this service posts Teams messages to \(hooks\.slack\.com\)/);

  clock += RETRY_DELAYS_MS[0];
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, `http://hooks.slack.com:${r.port}/hook`]);
  await worker({ urlPolicy: { allowPrivate: true, resolve } }).runDue();
  [record] = await t.services.webhooks.deliveries(e.accountId, e.id, 10);
  expect(record.lastError).toMatch(/^a Teams webhook URL must use https/);
  expect(r.received).toHaveLength(0);

  // back on a loopback receiver: sent, unsigned, as a Teams card
  clock += RETRY_DELAYS_MS[1];
  await t.services.dataSource.query('UPDATE webhook_endpoint SET url = $2 WHERE id = $1', [e.id, r.url]);
  await worker().runDue();
  expect(r.received).toHaveLength(1);
  expect(JSON.parse(r.received[0].body)).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
  expect(r.received[0].headers['webhook-signature']).toBeUndefined();
});
