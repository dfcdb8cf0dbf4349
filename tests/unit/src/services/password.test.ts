import { decoyHash, hashPassword, parseNewPassword, verifyPassword } from '../../../../src/services/password';

describe('passwords', () => {
  it('are hashed with scrypt at N=2^15, r=8, p=1 by default, salted, never containing the password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('horse');
  });

  it('verify the right password only', async () => {
    const cost = { N: 1024, r: 8, p: 1 };
    const stored = await hashPassword('correct horse battery', cost);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('anything', decoyHash(cost))).resolves.toBe(false);
    await expect(verifyPassword('anything', 'not a hash')).resolves.toBe(false);
  });

  it('are checked for a log-in before the new passwords of sign-ups waiting ahead of it are hashed', async () => {
    const cost = { N: 4096, r: 8, p: 1 };
    const stored = await hashPassword('correct horse battery', cost);
    const finished: string[] = [];
    const signUps = Array.from({ length: 20 }, (_, i) => hashPassword(`new password ${i}`, cost).then(() => finished.push(`sign-up ${i}`)));
    const logIn = verifyPassword('correct horse battery', stored).then(() => finished.push('log-in'));
    await Promise.all([...signUps, logIn]);
    // it starts as soon as one of the running sign-ups ends (the exact order is the queue's test);
    // beside the next ones it may finish after a few of them on a busy machine, never after most
    expect(finished.indexOf('log-in')).toBeLessThan(8);
  });

  it('must be 10 to 200 characters', () => {
    expect(() => parseNewPassword('short')).toThrow('password must be between 10 and 200 characters');
    expect(() => parseNewPassword('x'.repeat(201))).toThrow(/between 10 and 200/);
    expect(() => parseNewPassword(12345678901)).toThrow(/between 10 and 200/);
    expect(parseNewPassword('ten chars!')).toBe('ten chars!');
  });
});
