import { parse } from 'graphql';
import { buildAppSchema } from '../../../../src/graphql/build-schema';
import { Gateway, type GatewayRequest } from '../../../../src/gateway/pipeline';
import { startTestApp, type TestApp } from '../../../support/test-app';

let t: TestApp;
let gateway: Gateway;
const outcomes: { status: number; accountId: number | null }[] = [];
const admitted: GatewayRequest[] = [];
beforeAll(async () => {
  t = await startTestApp({ billIds: [26], burstLimit: 5 });
  gateway = new Gateway(t.services, await buildAppSchema(), {
    admit: (request) => {
      admitted.push(request);
      if (request.clientAddress === '203.0.113.9') throw new Error('blocked address');
    },
    settled: (_request, outcome) => outcomes.push({ status: outcome.status, accountId: outcome.principal?.accountId ?? null }),
  });
});
afterAll(() => t.close());

const request = (headers: Record<string, string>, clientAddress = '127.0.0.1'): GatewayRequest => ({ credentials: { kind: 'http-headers', headers }, requestId: 'r1', clientAddress });

describe('the gateway pipeline', () => {
  it('runs the admit hook first, before any credential is read', async () => {
    await expect(gateway.start(request({ authorization: 'Basic x' }, '203.0.113.9'))).rejects.toThrow('blocked address');
    expect(admitted.at(-1)?.clientAddress).toBe('203.0.113.9');
  });

  it('turns a credential into a principal and charges the API call when the request starts', async () => {
    const email = `pipeline-${Date.now()}@example.com`;
    const key = await t.userWithKey('pilot', email);
    const context = await gateway.start(request({ 'x-api-key': key }));
    expect(context.user).toMatchObject({ email, tier: 'pilot' });
    expect((await t.services.quotas.store.take(context.user!.accountId, '2026-11-22', 'calls', 0, 1000)).used).toBe(1);
    expect(gateway.headers(context)).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '999' });
  });

  it('is anonymous without a credential, and refuses an unknown key', async () => {
    expect((await gateway.start(request({}))).user).toBeNull();
    await expect(gateway.start(request({ authorization: 'Bearer bp_00000000_nope' }))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('applies the burst limit to every copy of a root field before any runs', async () => {
    const context = await gateway.start(request({ authorization: `Bearer ${await t.userWithKey('pro')}` }));
    const six = gateway.operations.prepare(parse(`{ ${Array.from({ length: 6 }, (_, i) => `m${i}: me { id }`).join(' ')} }`), null, 'six-me');
    await expect(gateway.execute(six, {}, context)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    const five = gateway.operations.prepare(parse(`{ ${Array.from({ length: 5 }, (_, i) => `m${i}: me { id }`).join(' ')} }`), null, 'five-me');
    expect((await gateway.execute(five, {}, context)).data).toEqual(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`m${i}`, { id: context.user!.accountId }])));
  });

  it('tells the settled hook how the request ended', () => {
    gateway.finish(request({}), null, 401);
    expect(outcomes.at(-1)).toEqual({ status: 401, accountId: null });
  });

  it('runs the admit hook once for a request a door admitted at its edge', async () => {
    const edge = request({}, '198.51.100.7');
    const before = admitted.length;
    await gateway.admitAtEdge(edge);
    await gateway.start(edge);
    expect(admitted.slice(before)).toEqual([edge]);
    expect(() => gateway.admitAtEdge(request({}, '203.0.113.9'))).toThrow('blocked address');
  });

  it('reports a refusal answered before the pipeline once, and never a request the pipeline settled or a success', () => {
    const refusedEarly = request({});
    const count = outcomes.length;
    gateway.finishBeforePipeline(refusedEarly, 405);
    gateway.finishBeforePipeline(refusedEarly, 405);
    const settled = request({});
    gateway.finish(settled, null, 400);
    gateway.finishBeforePipeline(settled, 400);
    gateway.finishBeforePipeline(request({}), 200);
    expect(outcomes.slice(count)).toEqual([
      { status: 405, accountId: null },
      { status: 400, accountId: null },
    ]);
  });
});
