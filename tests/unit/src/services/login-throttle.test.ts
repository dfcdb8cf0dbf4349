import { MemoryLoginFailureStore } from '../../../../src/attempts/login-failure-store';
import { LoginThrottle } from '../../../../src/services/login-throttle';

describe('LoginThrottle', () => {
  let now = 0;
  const throttle = (store = new MemoryLoginFailureStore()) => new LoginThrottle({ perAccount: 3, perAddress: 5, windowMs: 60_000 }, store, () => now);
  /** a password check that fails: its place, taken before the check, is kept */
  const fail = async (t: LoginThrottle, email: string, address: string | undefined) => void (await t.admit(email, address));
  beforeEach(() => (now = 1_000_000));

  it('refuses an account from an address after its limit of failures there, until the oldest leaves the window', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, 'a@example.com', '1.1.1.1');
    await expect(t.admit('a@example.com', '1.1.1.1')).rejects.toThrow(/Too many failed log-ins: try again in 1 minute/);
    await expect(t.admit('b@example.com', '1.1.1.1')).resolves.toBeDefined();
    now += 60_001;
    await expect(t.admit('a@example.com', '1.1.1.1')).resolves.toBeDefined();
  });

  it('gives attempts sent at once the same number of checks as attempts sent one by one', async () => {
    const t = throttle();
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => t.admit('a@example.com', '1.1.1.1')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(Array(37).fill('RATE_LIMITED'));
    // the address's limit holds as surely across accounts
    const spread = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => t.admit(`user${i}@example.com`, '2.2.2.2')));
    expect(spread.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
  });

  it('a stranger failing at an account from one address does not lock its owner out at another', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, 'owner@example.com', '6.6.6.6');
    await expect(t.admit('owner@example.com', '6.6.6.6')).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    await expect(t.admit('owner@example.com', '1.2.3.4')).resolves.toBeDefined();
    // guesses spread over addresses are each held to the limit of their address
    for (const address of ['2.2.2.2', '3.3.3.3']) for (let i = 0; i < 3; i++) await fail(t, 'owner@example.com', address);
    await expect(t.admit('owner@example.com', '2.2.2.2')).rejects.toThrow(/Too many/);
    await expect(t.admit('owner@example.com', '1.2.3.4')).resolves.toBeDefined();
  });

  it('refuses an address that fails at many accounts', async () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) await fail(t, `user${i}@example.com`, '9.9.9.9');
    await expect(t.admit('fresh@example.com', '9.9.9.9')).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    await expect(t.admit('fresh@example.com', '8.8.8.8')).resolves.toBeDefined();
  });

  it('forgets an account’s failures on success, but not the address’s', async () => {
    const t = throttle();
    for (let i = 0; i < 2; i++) await fail(t, 'a@example.com', '9.9.9.9');
    await (await t.admit('a@example.com', '9.9.9.9')).succeeded();
    await fail(t, 'a@example.com', '9.9.9.9');
    await fail(t, 'a@example.com', '9.9.9.9');
    // the account has failed twice since its success, the address four times
    await fail(t, 'b@example.com', '9.9.9.9');
    await expect(t.admit('d@example.com', '9.9.9.9')).rejects.toThrow(/Too many/);
  });

  it('does not count successful log-ins against the address: many people behind one address keep logging in', async () => {
    const t = throttle();
    for (let i = 0; i < 20; i++) await (await t.admit(`person${i}@example.com`, '7.7.7.7')).succeeded();
    for (let i = 0; i < 5; i++) await fail(t, `person${i}@example.com`, '7.7.7.7');
    await expect(t.admit('person9@example.com', '7.7.7.7')).rejects.toThrow(/Too many/);
  });

  it('counts an unknown address’s attempts per account only', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, 'a@example.com', undefined);
    await expect(t.admit('a@example.com', undefined)).rejects.toThrow(/Too many/);
    await expect(t.admit('b@example.com', undefined)).resolves.toBeDefined();
  });
});
