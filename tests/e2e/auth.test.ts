import { ApiKeyEntity } from '../../src/db/entities/api-key.entity';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ billIds: [26] });
});
afterAll(() => t.close());

const ME = '{ me { id email tier } }';

describe('API key authentication', () => {
  it('accepts a key as a bearer token and as X-API-Key, for the same user', async () => {
    const key = await t.userWithKey('pilot', 'both-headers@example.com');
    const bearer = await t.http().post('/graphql').set('authorization', `Bearer ${key}`).send({ query: ME });
    const header = await t.http().post('/graphql').set('x-api-key', key).send({ query: ME });
    expect(bearer.status).toBe(200);
    expect(bearer.body.data.me).toMatchObject({ email: 'both-headers@example.com', tier: 'PILOT' });
    expect(header.body.data.me).toEqual(bearer.body.data.me);
  });

  it('maps every key of a user to that user', async () => {
    const first = await t.userWithKey('pro', 'two-keys@example.com');
    const second = (await t.services.apiKeys.create('two-keys@example.com', 'laptop')).api_key;
    const a = await t.graphql(ME, { key: first });
    const b = await t.graphql(ME, { key: second });
    expect(a.body.data.me.id).toBe(b.body.data.me.id);
    expect(first).not.toBe(second);
  });

  it('answers 401 without a key', async () => {
    const res = await t.graphql('{ bill(id: 26) { id } }');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['an unknown key', { authorization: 'Bearer bp_0123abcd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a malformed key', { 'x-api-key': 'not-a-key' }],
    ['a non-bearer Authorization header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
  ])('answers 401 for %s', async (_name, headers) => {
    const res = await t.http().post('/graphql').set(headers).send({ query: ME });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('uses X-API-Key when a proxy adds its own Basic Authorization header', async () => {
    const key = await t.userWithKey('pilot');
    const res = await t.http().post('/graphql').set({ authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': key }).send({ query: ME });
    expect(res.status).toBe(200);
    expect(res.body.data.me.tier).toBe('PILOT');
  });

  it('keeps public fields of a keyless query that also asks for a protected one', async () => {
    const res = await t.graphql('{ serviceStatus { billCount } me { id } }');
    expect(res.status).toBe(401);
    expect(res.body.data).toEqual({ serviceStatus: { billCount: 1 }, me: null });
  });

  it('answers 401 for a key whose secret is wrong though its prefix is real', async () => {
    const key = await t.userWithKey('pilot');
    const forged = key.slice(0, 12) + (key[12] === 'A' ? 'B' : 'A') + key.slice(13);
    expect((await t.graphql(ME, { key: forged })).status).toBe(401);
    expect((await t.graphql(ME, { key })).status).toBe(200);
  });

  it('answers 401 once a key is revoked', async () => {
    const key = await t.userWithKey('pilot');
    expect((await t.graphql(ME, { key })).status).toBe(200);
    await t.services.apiKeys.revoke(key.slice(0, 11));
    const res = await t.graphql(ME, { key });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toBe('Invalid or revoked API key');
  });

  it('answers 403 to a Free-tier user', async () => {
    const key = await t.userWithKey('free');
    const res = await t.graphql(ME, { key });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: expect.stringMatching(/free tier/) });
  });

  it('refuses to issue a key to a Free-tier user', async () => {
    await t.services.accounts.create('free-only@example.com', 'free');
    await expect(t.services.apiKeys.create('free-only@example.com')).rejects.toThrow(/free tier: API keys need the pilot tier/);
  });

  it('stores only a hash and a short prefix of a key, and never logs it', async () => {
    const key = await t.userWithKey('pilot', 'hashed@example.com');
    await t.graphql(ME, { key });
    await t.http().post('/graphql').set('x-api-key', key).send({ query: ME });
    await t.services.apiKeys.writeLastUsed(); // written a second after use otherwise
    const rows = await t.db.dataSource.getRepository(ApiKeyEntity).find();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(12));
    const row = rows.find((r) => key.startsWith(`${r.prefix}_`))!;
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.lastUsedAt).not.toBeNull();
    const logs = t.logLines.join('');
    expect(logs).toContain('/graphql');
    expect(logs).not.toContain(key.slice(12));
  });
});

describe('errors', () => {
  it('masks an unexpected failure as an internal error with no details', async () => {
    const key = await t.userWithKey('pilot');
    const spy = jest.spyOn(t.services.bills, 'list').mockRejectedValueOnce(new Error('connection to db-7.internal refused'));
    const res = await t.graphql('{ bills { totalCount } }', { key });
    spy.mockRestore();
    expect(res.body.errors[0]).toEqual(expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }));
    expect(JSON.stringify(res.body)).not.toMatch(/db-7|stacktrace/);
  });

  it('answers 503 with the reason while bill data is loading, and /readyz says so', async () => {
    const key = await t.userWithKey('pilot');
    t.services.readiness.block('data', 'bill data is loading');
    try {
      const res = await t.graphql('{ bill(id: 26) { id } }', { key });
      expect(res.status).toBe(503);
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' }, message: expect.stringMatching(/bill data is loading/) });
      const ready = await t.http().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.detail).toMatch(/^Not ready: .*bill data is loading/);
    } finally {
      t.services.readiness.unblock('data');
    }
    // this app has no trained model: still unready, but no longer for the data
    expect((await t.http().get('/readyz')).body).toEqual({ detail: 'Not ready: models loading' });
    expect((await t.http().get('/healthz')).body).toEqual({ status: 'ok' });
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await t.http().get('/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'No such endpoint: GET /api/v1/no-such-thing' });
  });
});
