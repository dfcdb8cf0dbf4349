import { LoginThrottle } from '../../../../src/services/login-throttle';

describe('LoginThrottle', () => {
  let now = 0;
  const throttle = () => new LoginThrottle({ perAccount: 3, perAddress: 5, windowMs: 60_000 }, () => now);
  beforeEach(() => (now = 1_000_000));

  it('refuses an account after its limit of failures from any addresses, until the oldest leaves the window', () => {
    const t = throttle();
    ['1.1.1.1', '2.2.2.2', '3.3.3.3'].forEach((address) => t.failed('a@example.com', address));
    expect(() => t.admit('a@example.com', '4.4.4.4')).toThrow(/Too many failed log-ins: try again in 1 minute/);
    expect(() => t.admit('b@example.com', '4.4.4.4')).not.toThrow();
    now += 60_001;
    expect(() => t.admit('a@example.com', '4.4.4.4')).not.toThrow();
  });

  it('refuses an address that fails at many accounts', () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) t.failed(`user${i}@example.com`, '9.9.9.9');
    expect(() => t.admit('fresh@example.com', '9.9.9.9')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED' }));
    expect(() => t.admit('fresh@example.com', '8.8.8.8')).not.toThrow();
  });

  it('forgets an account’s failures on success, but not the address’s', () => {
    const t = throttle();
    for (let i = 0; i < 2; i++) t.failed('a@example.com', '9.9.9.9');
    t.succeeded('a@example.com');
    t.failed('a@example.com', '9.9.9.9');
    expect(() => t.admit('a@example.com', '7.7.7.7')).not.toThrow();
    t.failed('b@example.com', '9.9.9.9');
    t.failed('c@example.com', '9.9.9.9');
    expect(() => t.admit('d@example.com', '9.9.9.9')).toThrow(/Too many/);
  });
});
