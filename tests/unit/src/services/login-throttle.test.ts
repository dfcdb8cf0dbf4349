import { MemoryLoginFailureStore } from '../../../../src/quota/login-failure-store';
import { LoginThrottle } from '../../../../src/services/login-throttle';

describe('LoginThrottle', () => {
  let now = 0;
  const throttle = () => new LoginThrottle({ perAccount: 3, perAddress: 5, windowMs: 60_000 }, new MemoryLoginFailureStore(), () => now);
  beforeEach(() => (now = 1_000_000));

  it('refuses an account from an address after its limit of failures there, until the oldest leaves the window', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await t.failed('a@example.com', '1.1.1.1');
    await expect(t.admit('a@example.com', '1.1.1.1')).rejects.toThrow(/Too many failed log-ins: try again in 1 minute/);
    await expect(t.admit('b@example.com', '1.1.1.1')).resolves.toBeUndefined();
    now += 60_001;
    await expect(t.admit('a@example.com', '1.1.1.1')).resolves.toBeUndefined();
  });

  it('a stranger failing at an account from one address does not lock its owner out at another', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await t.failed('owner@example.com', '6.6.6.6');
    await expect(t.admit('owner@example.com', '6.6.6.6')).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    await expect(t.admit('owner@example.com', '1.2.3.4')).resolves.toBeUndefined();
    // guesses spread over addresses are each held to the limit of their address
    for (const address of ['2.2.2.2', '3.3.3.3']) for (let i = 0; i < 3; i++) await t.failed('owner@example.com', address);
    await expect(t.admit('owner@example.com', '2.2.2.2')).rejects.toThrow(/Too many/);
    await expect(t.admit('owner@example.com', '1.2.3.4')).resolves.toBeUndefined();
  });

  it('refuses an address that fails at many accounts', async () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) await t.failed(`user${i}@example.com`, '9.9.9.9');
    await expect(t.admit('fresh@example.com', '9.9.9.9')).rejects.toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    await expect(t.admit('fresh@example.com', '8.8.8.8')).resolves.toBeUndefined();
  });

  it('forgets an account’s failures on success, but not the address’s', async () => {
    const t = throttle();
    for (let i = 0; i < 2; i++) await t.failed('a@example.com', '9.9.9.9');
    await t.succeeded('a@example.com', '9.9.9.9');
    await t.failed('a@example.com', '9.9.9.9');
    await expect(t.admit('a@example.com', '9.9.9.9')).resolves.toBeUndefined();
    await t.failed('b@example.com', '9.9.9.9');
    await t.failed('c@example.com', '9.9.9.9');
    await expect(t.admit('d@example.com', '9.9.9.9')).rejects.toThrow(/Too many/);
  });
});
