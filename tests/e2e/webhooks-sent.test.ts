import { Webhook } from 'standardwebhooks';
import type { ServiceEvent } from '../../src/events/event';
import { startTestApp, type TestApp } from '../support/test-app';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

// The app sends its own webhooks, as `npm start` builds it: no worker made by the test. How the
// worker retries, refuses and shares its slots is tested in tests/integration/webhook-*.test.ts.

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp({ webhookUrlPolicy: { allowPrivate: true }, deliverWebhooks: true });
  receiver = await startReceiver(200);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => t.services.dataSource.query('DELETE FROM webhook_endpoint'));

let n = 0;
async function endpoint(events: string[]) {
  const email = `sent${++n}@example.com`;
  const key = await t.userWithKey('pilot', email);
  const created = await t.http().post('/api/v1/webhooks').set('authorization', `Bearer ${key}`).send({ url: receiver.url, events, all_bills: true });
  expect(created.status).toBe(200);
  return { key, id: created.body.id as number, secret: created.body.secret as string };
}

const deliveredCount = async () => {
  const metrics = (await t.http().get('/metrics')).text;
  return Number(/^bill_progress_webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
};

it('a test event asked for over REST reaches the receiver signed, is recorded delivered, and counts in /metrics', async () => {
  const { key, id, secret } = await endpoint(['bill.stage_changed']);
  const before = await deliveredCount();
  const queued = await t.http().post(`/api/v1/webhooks/${id}/test`).set('authorization', `Bearer ${key}`);
  await receiver.receivedAtLeast(1);

  const sent = receiver.received.find((r) => r.headers['webhook-id'] === queued.body.event_id)!;
  expect(new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).toMatchObject({ id: queued.body.event_id, type: 'webhook.test' });
  // the outcome is written a moment after the receiver answered
  const deliveries = async () => (await t.http().get(`/api/v1/webhooks/${id}/deliveries`).set('authorization', `Bearer ${key}`)).body.deliveries as { event_id: string; status: string; attempt: number }[];
  while ((await deliveries())[0]?.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await deliveries()).toMatchObject([{ event_id: queued.body.event_id, status: 'delivered', attempt: 1 }]);
  expect(await deliveredCount()).toBe(before + 1);
});

it('an event recorded through the event log, as the refresh records its own, is sent once its transaction commits', async () => {
  await endpoint(['bill.stage_changed']);
  const event: ServiceEvent = { id: 'evt_sent_by_the_app', type: 'bill.stage_changed', timestamp: '2021-11-26T09:00:00.000Z', data: { bill_id: 2900, stage: 'second_reading' } };
  const already = receiver.received.length;
  await t.services.dataSource.transaction((manager) => t.services.events.log.record(manager, [event], '2021-11-26'));
  t.services.events.log.publish([event]);
  await receiver.receivedAtLeast(already + 1);
  expect(receiver.received.slice(already).map((r) => [r.headers['webhook-id'], JSON.parse(r.body).type])).toEqual([['evt_sent_by_the_app', 'bill.stage_changed']]);
});
