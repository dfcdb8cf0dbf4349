import { MemoryLoginFailureStore } from '../../../../src/quota/login-failure-store';
import { LoginThrottle } from '../../../../src/services/login-throttle';

describe('LoginThrottle', () => {
  let now = 0;
  const throttle = () => new LoginThrottle({ perAccount: 3, perAddress: 5, windowMs: 60_000 }, new MemoryLoginFailureStore(), () => now);
  beforeEach(() => (now = 1_000_000));

  it('refuses an account after its limit of failures from any addresses, until the oldest leaves the window', async () => {
    const t = throttle();
    for (const address of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) await t.failed('a@example.com', address);
    await expect(t.admit('a@example.com', '4.4.4.4')).rejects.toThrow(/Too many failed log-ins: try again in 1 minute/);
    await expect(t.admit('b@example.com', '4.4.4.4')).resolves.toBeUndefined();
    now += 60_001;
    await expect(t.admit('a@example.com', '4.4.4.4')).resolves.toBeUndefined();
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
    await t.succeeded('a@example.com');
    await t.failed('a@example.com', '9.9.9.9');
    await expect(t.admit('a@example.com', '7.7.7.7')).resolves.toBeUndefined();
    await t.failed('b@example.com', '9.9.9.9');
    await t.failed('c@example.com', '9.9.9.9');
    await expect(t.admit('d@example.com', '9.9.9.9')).rejects.toThrow(/Too many/);
  });
});
