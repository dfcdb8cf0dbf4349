import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { makeSnapshot } from '../support/fixtures';
import { adminCli, graphqlOver, type ServerProcess, startServerProcess, waitUntilReady } from '../support/processes';
import { startTestApp, type TestApp } from '../support/test-app';
import { createPostgresDatabase, usingPostgres } from '../support/test-database';
import { type ReceivedWebhook, type Receiver, startReceiver } from '../support/webhook-receiver';

// Slack and Teams webhook formats end to end: the built server, started as an operator starts it
// for a first try (WEBHOOK_ALLOW_PRIVATE=true, a receiver on this machine), sends a test event and
// a replayed day's stage to a slack, a teams and a standard endpoint; then what registration refuses.

const PUBLIC_URL = 'https://bills.example.com';
const TITLE = 'Marriage and Civil Partnership (Minimum Age) Bill';

let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let server: ServerProcess;
let receiver: Receiver;
let key: string;
let pilotKey: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bp-chat-webhooks-'));

beforeAll(async () => {
  env = { DATA_DIR: dataDir, BILLS_SNAPSHOT: makeSnapshot([26, 2900]), WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL };
  if (usingPostgres()) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  }
  receiver = await startReceiver(200);
  server = await startServerProcess(env);
  await waitUntilReady(server.url, 120_000);
  for (const [email, tier] of [['chat@example.com', 'pro'], ['chat-pilot@example.com', 'pilot']]) await adminCli(['create-user', '--email', email, '--tier', tier], env);
  key = (await adminCli(['create-key', '--email', 'chat@example.com'], env)).json.api_key as string;
  pilotKey = (await adminCli(['create-key', '--email', 'chat-pilot@example.com'], env)).json.api_key as string;
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const rest = (method: string, urlPath: string, body?: unknown, as = key) =>
  fetch(`${server.url}/api/v1${urlPath}`, { method, headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** Waits until the receiver has `count` requests whose body passes `match`. */
async function arrived(match: (r: ReceivedWebhook) => boolean, count = 1): Promise<ReceivedWebhook[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = receiver.received.filter(match);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a server with WEBHOOK_ALLOW_PRIVATE=true and a local receiver', () => {
  let slack: { id: number };
  let teams: { id: number };
  let standard: { id: number; secret: string };
  const url = (name: string) => `${receiver.url}/${name}`;
  // each endpoint has its own path on the one receiver
  const isFor = (name: string) => (r: ReceivedWebhook) => r.url === `/hook/${name}`;

  it('registers slack over REST, teams over GraphQL and standard by default, each answered with its format', async () => {
    const created = await rest('POST', '/webhooks', { url: url('slack'), format: 'slack', events: ['bill.stage_changed'], all_bills: true });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ url: url('slack'), format: 'slack', events: ['bill.stage_changed'], all_bills: true, active: true });
    slack = created.body;

    const viaGraphql = await graphqlOver(server.url, `mutation { createWebhook(input: { url: "${url('teams')}", format: TEAMS, events: [BILL_STAGE_CHANGED], allBills: true }) { endpoint { id format url } } }`, key);
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.createWebhook.endpoint).toMatchObject({ format: 'TEAMS', url: url('teams') });
    teams = viaGraphql.body.data.createWebhook.endpoint;
    expect((await rest('GET', `/webhooks/${teams.id}`)).body).toMatchObject({ id: teams.id, format: 'teams' });

    const plain = await rest('POST', '/webhooks', { url: url('standard'), events: ['bill.stage_changed'], all_bills: true });
    expect(plain.body).toMatchObject({ format: 'standard', secret: expect.stringMatching(/^whsec_/) });
    standard = plain.body;
    const listed = await graphqlOver(server.url, '{ webhooks { id format } }', key);
    expect(listed.body.data.webhooks).toEqual([
      { id: slack.id, format: 'SLACK' },
      { id: teams.id, format: 'TEAMS' },
      { id: standard.id, format: 'STANDARD' },
    ]);
  });

  it('sends a test event as a Slack message and a Teams card, unsigned, and to the standard endpoint signed', async () => {
    for (const id of [slack.id, teams.id, standard.id]) expect((await rest('POST', `/webhooks/${id}/test`)).status).toBe(200);
    const [toSlack] = await arrived(isFor('slack'));
    const [toTeams] = await arrived(isFor('teams'));
    const [toStandard] = await arrived(isFor('standard'));

    for (const chat of [toSlack, toTeams]) {
      expect(chat.headers['content-type']).toBe('application/json');
      for (const header of SIGNATURE_HEADERS) expect(chat.headers[header]).toBeUndefined();
    }
    const slackBody = JSON.parse(toSlack.body);
    expect(slackBody).toEqual({ text: expect.stringContaining('Bill Progress test message'), blocks: expect.any(Array) });
    expect(slackBody.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining(`<${PUBLIC_URL}/#/webhooks|`) } });
    const teamsBody = JSON.parse(toTeams.body);
    expect(teamsBody).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', version: '1.4' } }] });

    expect(new Webhook(standard.secret).verify(toStandard.body, toStandard.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
  });

  it('sends a replayed day’s stage to each: the bill’s title, the stage, house and date, and a link to its page under PUBLIC_URL', async () => {
    const replayed = await adminCli(['replay', '--from', '2021-11-18', '--to', '2021-11-19'], env);
    expect(replayed.code).toBe(0);
    expect(replayed.json.events_by_type['bill.stage_changed']).toBeGreaterThanOrEqual(1);
    const stage = (r: ReceivedWebhook) => r.body.includes('2021-11-19') && r.body.includes('econd reading');
    const [toSlack] = await arrived((r) => isFor('slack')(r) && stage(r));
    const [toTeams] = await arrived((r) => isFor('teams')(r) && stage(r));
    const [toStandard] = await arrived((r) => isFor('standard')(r) && r.body.includes('"type":"bill.stage_changed"') && r.body.includes('"date":"2021-11-19"'));
    const link = `${PUBLIC_URL}/#/bills/2900`;

    const slackBody = JSON.parse(toSlack.body);
    expect(slackBody.text).toBe(`${TITLE}: Second reading (Commons) on 2021-11-19`);
    expect(slackBody.blocks.map((b: { type: string }) => b.type)).toEqual(['section', 'section', 'context']);
    expect(slackBody.blocks[0].text.text).toBe(`*<${link}|${TITLE}>*\nSecond reading (Commons) on 2021-11-19`);
    expect(slackBody.blocks[1].fields.map((f: { text: string }) => f.text)).toEqual(['*Stage*\nsecond reading', '*House*\nCommons', '*Date*\n2021-11-19']);

    const card = JSON.parse(toTeams.body).attachments[0].content;
    expect(card.body[0]).toMatchObject({ type: 'TextBlock', text: TITLE });
    expect(card.body.find((b: { type: string }) => b.type === 'FactSet').facts).toEqual([
      { title: 'Stage', value: 'second reading' },
      { title: 'House', value: 'Commons' },
      { title: 'Date', value: '2021-11-19' },
    ]);
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the bill in Bill Progress', url: link }]);
    for (const chat of [toSlack, toTeams]) for (const header of SIGNATURE_HEADERS) expect(chat.headers[header]).toBeUndefined();

    const event = new Webhook(standard.secret).verify(toStandard.body, toStandard.headers as Record<string, string>) as { type: string; data: { bill_id: number; stage: string } };
    expect(event).toMatchObject({ type: 'bill.stage_changed', data: { bill_id: 2900, stage: 'second_reading', house: 'Commons', date: '2021-11-19' } });
  });

  it('records each delivery with its format', async () => {
    const deliveries = async (id: number) => (await rest('GET', `/webhooks/${id}/deliveries`)).body.deliveries as { format: string; status: string }[];
    expect(new Set((await deliveries(slack.id)).map((d) => d.format))).toEqual(new Set(['slack']));
    expect(new Set((await deliveries(teams.id)).map((d) => d.format))).toEqual(new Set(['teams']));
    expect(new Set((await deliveries(standard.id)).map((d) => d.format))).toEqual(new Set(['standard']));
    const viaGraphql = await graphqlOver(server.url, `{ webhookDeliveries(id: ${teams.id}, first: 5) { format } }`, key);
    expect(viaGraphql.body.data.webhookDeliveries[0]).toEqual({ format: 'TEAMS' });
  });

  it('refuses, with a 400 that says what to do: plain http to a host that is not this machine, a host not on CHAT_WEBHOOK_HOSTS, a change of format, an unknown format', async () => {
    const http = await rest('POST', '/webhooks', { url: 'http://hooks.slack.com/services/T0/B0/X', format: 'slack', events: ['bill.stage_changed'] });
    expect(http).toEqual({ status: 400, body: { detail: 'a Slack webhook URL must use https: use the https URL Slack gave you (plain http is allowed only to a loopback address, with WEBHOOK_ALLOW_PRIVATE=true)' } });
    const privateHttp = await rest('POST', '/webhooks', { url: 'http://10.1.2.3/hook', format: 'teams', events: ['bill.stage_changed'] });
    expect(privateHttp.status).toBe(400);
    expect(privateHttp.body.detail).toMatch(/^a Teams webhook URL must use https/);
    const notListed = await rest('POST', '/webhooks', { url: 'https://chat.example.com/hook', format: 'teams', events: ['bill.stage_changed'] });
    expect(notListed).toEqual({
      status: 400,
      body: {
        detail:
          "url's host chat.example.com is not a chat webhook host this service posts Teams messages to (hooks.slack.com, *.webhook.office.com, *.logic.azure.com, *.powerplatform.com): use the URL Teams gave you, or ask the operator to add its host to CHAT_WEBHOOK_HOSTS",
      },
    });
    const gqlHttp = await graphqlOver(server.url, 'mutation { createWebhook(input: { url: "http://hooks.slack.com/services/T0/B0/X", format: SLACK, events: [BILL_STAGE_CHANGED] }) { secret } }', key);
    expect(gqlHttp.body.errors[0]).toMatchObject({ message: http.body.detail, extensions: { code: 'BAD_USER_INPUT' } });
    const gqlNotListed = await graphqlOver(server.url, 'mutation { createWebhook(input: { url: "https://chat.example.com/hook", format: TEAMS, events: [BILL_STAGE_CHANGED] }) { secret } }', key);
    expect(gqlNotListed.body.errors[0]).toMatchObject({ message: notListed.body.detail, extensions: { code: 'BAD_USER_INPUT' } });

    const change = await rest('PATCH', `/webhooks/${slack.id}`, { format: 'teams' });
    expect(change).toEqual({ status: 400, body: { detail: 'an endpoint\'s format is chosen when it is registered and stays: register a new endpoint with format "teams" and its URL, then delete this one' } });
    expect((await rest('PATCH', `/webhooks/${slack.id}`, { format: 'slack', description: 'same format' })).status).toBe(200);
    // a chat endpoint's new URL is held to its format's rules
    expect((await rest('PATCH', `/webhooks/${slack.id}`, { url: 'https://chat.example.com/hook' })).body.detail).toMatch(/^url's host chat\.example\.com is not a chat webhook host this service posts Slack messages to/);
    const unknown = await rest('POST', '/webhooks', { url: url('x'), format: 'discord', events: ['bill.stage_changed'] });
    expect(unknown).toEqual({ status: 400, body: { detail: 'format must be one of standard, slack, teams (standard: signed JSON events; slack, teams: chat messages)' } });
  });

  it('keeps Pro-only event types Pro-only for chat endpoints', async () => {
    const refused = await rest('POST', '/webhooks', { url: url('pilot'), format: 'slack', events: ['prediction.trending_up'] }, pilotKey);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^prediction\.trending_up needs the pro tier/);
    expect((await rest('POST', '/webhooks', { url: url('pilot'), format: 'slack', events: ['prediction.high_probability'] }, pilotKey)).status).toBe(200);
  });
});

describe('a server without WEBHOOK_ALLOW_PRIVATE', () => {
  let t: TestApp;
  let strictKey: string;
  beforeAll(async () => {
    // hooks.slack.com answers a private address here, as a poisoned resolver or a split-horizon DNS might
    t = await startTestApp({ webhookUrlPolicy: { allowPrivate: false, resolve: async (host) => (host === 'hooks.slack.com' ? ['10.1.2.3'] : ['93.184.215.14']) } });
    strictKey = await t.userWithKey('pro', 'strict-chat@example.com');
  });
  afterAll(() => t.close());

  const HINT = 'To test with a receiver on this machine or your own network, start the server with WEBHOOK_ALLOW_PRIVATE=true';

  it('refuses a listed host at a private address, and a loopback receiver, through REST and GraphQL, saying how to allow them', async () => {
    const post = (body: object) => t.http().post('/api/v1/webhooks').set('authorization', `Bearer ${strictKey}`).send(body);
    const privateHost = await post({ url: 'https://hooks.slack.com/services/T0/B0/X', format: 'slack', events: ['bill.stage_changed'] });
    expect(privateHost.status).toBe(400);
    expect(privateHost.body.detail).toMatch(/^address not allowed: hooks\.slack\.com resolves to 10\.1\.2\.3, a loopback, private or special-purpose address\. /);
    expect(privateHost.body.detail).toContain(HINT);
    const loopback = await post({ url: 'http://127.0.0.1:9/hook', format: 'teams', events: ['bill.stage_changed'] });
    expect(loopback.status).toBe(400);
    expect(loopback.body.detail).toMatch(/^url must be the Teams webhook URL Teams gave you \(https, on one of its hosts\); 127\.0\.0\.1 is this machine\. /);
    expect(loopback.body.detail).toContain(HINT);

    const gql = await t.graphql('mutation { createWebhook(input: { url: "https://hooks.slack.com/services/T0/B0/X", format: SLACK, events: [BILL_STAGE_CHANGED] }) { secret } }', { key: strictKey });
    expect(gql.body.errors[0]).toMatchObject({ message: privateHost.body.detail, extensions: { code: 'BAD_USER_INPUT' } });
    const gqlLoopback = await t.graphql('mutation { createWebhook(input: { url: "http://127.0.0.1:9/hook", format: TEAMS, events: [BILL_STAGE_CHANGED] }) { secret } }', { key: strictKey });
    expect(gqlLoopback.body.errors[0]).toMatchObject({ message: loopback.body.detail, extensions: { code: 'BAD_USER_INPUT' } });

    // a listed host at a public address is what a real Slack or Teams URL is
    expect((await post({ url: 'https://prod-00.westeurope.logic.azure.com/workflows/x', format: 'teams', events: ['bill.stage_changed'] })).status).toBe(200);
  });
});
