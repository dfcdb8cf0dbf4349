import { ApiKeyService, AUTH_CACHE_MS, AUTH_STALE_MS, EMBEDDED_AUTH_CACHE_MS, CREDENTIALS_POLL_MS, MAX_UNKNOWN_KEYS, UNKNOWN_KEY_MS } from '../../../../src/services/api-key.service';
import { AccountService } from '../../../../src/services/account.service';
import { openTestDatabase, type TestDatabase } from '../../../support/test-database';

// How keys are cached: verified ones briefly, unknown ones briefly too, and revocation honoured.
let db: TestDatabase;
let now = 1_000_000;
let accounts: AccountService;
let keys: ApiKeyService;
let email: string;
let emails = 0;

const forged = (prefixHex: string, secretChar = 'a') => `bp_${prefixHex}_${secretChar.repeat(43)}`;

beforeAll(async () => {
  db = await openTestDatabase();
  accounts = new AccountService(db.dataSource);
});
afterAll(() => db.close());
beforeEach(async () => {
  now = 1_000_000;
  keys = new ApiKeyService(db.dataSource, accounts, () => now);
  email = `keys${++emails}@example.com`;
  await accounts.create(email, 'pilot');
});

describe('unknown keys', () => {
  it('are looked up once, then remembered as unknown for a short while', async () => {
    const key = forged('0badc0de');
    for (let i = 0; i < 50; i++) expect(await keys.authenticate(key)).toBeNull();
    expect(keys.lookups).toBe(1);
    now += UNKNOWN_KEY_MS + 1;
    expect(await keys.authenticate(key)).toBeNull();
    expect(keys.lookups).toBe(2);
  });

  it('with a prefix no key has are all answered by one lookup of that prefix', async () => {
    for (const c of 'abcdefghij') expect(await keys.authenticate(forged('0badc0de', c))).toBeNull();
    expect(keys.lookups).toBe(1);
  });

  it('with a real prefix and a wrong secret do not shadow the real key', async () => {
    const real = (await keys.create(email)).api_key;
    const wrong = `${real.slice(0, 12)}${real.at(12) === 'a' ? 'b' : 'a'}${real.slice(13)}`;
    expect(await keys.authenticate(wrong)).toBeNull();
    expect(await keys.authenticate(real)).toMatchObject({ email });
  });

  it('are remembered up to a bound, oldest forgotten first, and never push out a verified key', async () => {
    const real = (await keys.create(email)).api_key;
    await keys.authenticate(real);
    for (let i = 0; i <= MAX_UNKNOWN_KEYS; i++) await keys.authenticate(forged(i.toString(16).padStart(8, '0')));
    const lookups = keys.lookups;
    expect(await keys.authenticate(forged('00000000'))).toBeNull(); // the oldest, forgotten: looked up again
    expect(keys.lookups).toBe(lookups + 1);
    expect(await keys.authenticate(forged(MAX_UNKNOWN_KEYS.toString(16).padStart(8, '0')))).toBeNull(); // the newest, remembered
    expect(keys.lookups).toBe(lookups + 1);
    expect(keys.isTrusted(real)).toBe(true);
    expect(await keys.authenticate(real)).toMatchObject({ email });
    expect(keys.lookups).toBe(lookups + 1);
  }, 120_000);

  it('are forgotten when a key is created, here or (at the next poll) in another process', async () => {
    const other = new ApiKeyService(db.dataSource, accounts, () => now);
    await keys.checkForChanges();
    expect(await keys.authenticate(forged('0badc0de'))).toBeNull();
    await other.create(email);
    await keys.checkForChanges();
    expect(await keys.authenticate(forged('0badc0de'))).toBeNull();
    expect(keys.lookups).toBe(2);
  });
});

describe('verified keys', () => {
  it('are trusted without the database until AUTH_CACHE_MS has passed, then verified again in the background', async () => {
    const real = (await keys.create(email)).api_key;
    expect(keys.isTrusted(real)).toBe(false);
    await keys.authenticate(real);
    await keys.authenticate(real);
    expect(keys.lookups).toBe(1);
    expect(keys.isTrusted(real)).toBe(true);
    now += AUTH_CACHE_MS + 1;
    // answered from the cache while the database is asked again
    expect(await keys.authenticate(real)).toMatchObject({ email });
    expect(await keys.authenticate(real)).toMatchObject({ email });
    expect(keys.lookups).toBe(2);
    await keys.reverified();
    now += AUTH_CACHE_MS - 1;
    await keys.authenticate(real);
    expect(keys.lookups).toBe(2);
  });

  it('on the embedded database are trusted EMBEDDED_AUTH_CACHE_MS, and a revocation made through the service is still honoured at once', async () => {
    const embedded = new ApiKeyService(db.dataSource, accounts, () => now, EMBEDDED_AUTH_CACHE_MS);
    const issued = await embedded.create(email);
    await embedded.authenticate(issued.api_key);
    now += AUTH_CACHE_MS * 10;
    expect(await embedded.authenticate(issued.api_key)).toMatchObject({ email });
    expect(embedded.lookups).toBe(1);
    now += EMBEDDED_AUTH_CACHE_MS;
    await embedded.authenticate(issued.api_key);
    expect(embedded.lookups).toBe(2);
    await embedded.revoke(issued.prefix);
    expect(await embedded.authenticate(issued.api_key)).toBeNull();
  });

  it('are verified before the request goes on once they are older than AUTH_CACHE_MS + AUTH_STALE_MS', async () => {
    const real = (await keys.create(email)).api_key;
    await keys.authenticate(real);
    now += AUTH_CACHE_MS + AUTH_STALE_MS + 1;
    expect(keys.isTrusted(real)).toBe(false);
    expect(await keys.authenticate(real)).toMatchObject({ email });
    expect(keys.lookups).toBe(2);
  });

  it('are dropped when the background verification finds them revoked, even before any poll', async () => {
    const other = new ApiKeyService(db.dataSource, accounts, () => now);
    const issued = await keys.create(email);
    await keys.authenticate(issued.api_key);
    await other.revoke(issued.prefix);
    now += AUTH_CACHE_MS + 1;
    await keys.authenticate(issued.api_key);
    await keys.reverified();
    expect(await keys.authenticate(issued.api_key)).toBeNull();
  });

  it('are not cached from a verification that was under way when the cache was dropped', async () => {
    const issued = await keys.create(email);
    const verifying = keys.authenticate(issued.api_key);
    keys.forgetVerified();
    expect(await verifying).toMatchObject({ email });
    expect(keys.isTrusted(issued.api_key)).toBe(false);
  });

  it('are refused at once after a revocation in the same process', async () => {
    const issued = await keys.create(email);
    expect(await keys.authenticate(issued.api_key)).toMatchObject({ email });
    await keys.revoke(issued.prefix);
    expect(await keys.authenticate(issued.api_key)).toBeNull();
    expect(keys.isTrusted(issued.api_key)).toBe(false);
  });

  it('are refused after a revocation in another process or instance once this one polls', async () => {
    const other = new ApiKeyService(db.dataSource, accounts, () => now);
    const issued = await keys.create(email);
    await keys.checkForChanges();
    expect(await keys.authenticate(issued.api_key)).toMatchObject({ email });
    await other.revoke(issued.prefix);
    expect(await keys.authenticate(issued.api_key)).toMatchObject({ email }); // cached until the poll
    await keys.checkForChanges();
    expect(await keys.authenticate(issued.api_key)).toBeNull();
  });
});

describe('the poll of changes made elsewhere', () => {
  it('runs often enough that a revocation in another process or instance is honoured within 1 s', () => {
    expect(CREDENTIALS_POLL_MS).toBeLessThanOrEqual(1_000);
  });

  it('refuses a key revoked by another instance at its next poll, without any request in between', async () => {
    const other = new ApiKeyService(db.dataSource, accounts, () => now);
    const issued = await keys.create(email);
    const polls: Array<() => void> = [];
    const nextPoll = () => new Promise<void>((resolve) => polls.push(resolve));
    const stop = keys.watch(10, () => polls.shift()?.());
    try {
      await nextPoll();
      expect(await keys.authenticate(issued.api_key)).toMatchObject({ email });
      await other.revoke(issued.prefix);
      await nextPoll();
      await nextPoll(); // a poll that began before the revocation may not have seen it
      expect(keys.isTrusted(issued.api_key)).toBe(false);
      expect(await keys.authenticate(issued.api_key)).toBeNull();
    } finally {
      stop();
    }
  });
});

describe('the last use of a key', () => {
  it('is written shortly after the key is verified, never while the request waits', async () => {
    const issued = await keys.create(email);
    await keys.authenticate(issued.api_key);
    const lastUsed = async () => ((await db.dataSource.query('SELECT last_used_at FROM api_key WHERE id = $1', [issued.id])) as { last_used_at: unknown }[])[0].last_used_at;
    expect(await lastUsed()).toBeNull();
    await keys.writeLastUsed();
    expect(await lastUsed()).not.toBeNull();
  });
});
