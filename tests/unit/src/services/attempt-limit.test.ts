import { type Allowance, MemoryLoginFailureStore } from '../../../../src/attempts/login-failure-store';
import { AttemptLimit } from '../../../../src/services/attempt-limit';

/** The memory store, counting its round trips and the keys of each, in order. */
class CountingStore extends MemoryLoginFailureStore {
  readonly reserved: string[] = [];
  override async reserve(allowances: Allowance[], at: number, since: number) {
    this.reserved.push(allowances.map((a) => a.key).join(','));
    await new Promise((r) => setTimeout(r, 1));
    return super.reserve(allowances, at, since);
  }
}

const refusal = (minutes: number) => `wait ${minutes} minute(s)`;

describe('AttemptLimit', () => {
  it('costs a flood on one key set a few round trips to the store, and asks the store again once the flood is over', async () => {
    let now = 1_000_000;
    const store = new CountingStore();
    const limit = new AttemptLimit(store, 60_000, () => now);
    const flood = await Promise.allSettled(Array.from({ length: 100 }, () => limit.take([{ key: 'signup:1.1.1.1', limit: 5 }], refusal)));
    expect(flood.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(flood.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.headers['Retry-After'])).toEqual(Array(95).fill('60'));
    expect(store.reserved).toHaveLength(6);
    // a place given back is seen by the next attempt
    const granted = (flood[0] as PromiseFulfilledResult<string>).value;
    await store.release('signup:1.1.1.1', granted);
    await expect(limit.take([{ key: 'signup:1.1.1.1', limit: 5 }], refusal)).resolves.toEqual(expect.any(String));
    await expect(limit.take([{ key: 'signup:1.1.1.1', limit: 5 }], refusal)).rejects.toThrow(/wait 1 minute/);
    expect(store.reserved).toHaveLength(8);
    now += 60_001;
    await expect(limit.take([{ key: 'signup:1.1.1.1', limit: 5 }], refusal)).resolves.toEqual(expect.any(String));
  });

  it('does not queue an attempt on other keys behind a flood on one', async () => {
    const store = new CountingStore();
    const limit = new AttemptLimit(store, 60_000);
    const flood = Array.from({ length: 50 }, () => limit.take([{ key: 'signup:1.1.1.1', limit: 50 }], refusal));
    const genuine = limit.take([{ key: 'account:a@example.com|2.2.2.2', limit: 10 }], refusal);
    await Promise.all([...flood, genuine]);
    // the flood takes its turns one at a time: the genuine attempt reaches the store second
    expect(store.reserved.indexOf('account:a@example.com|2.2.2.2')).toBe(1);
  });

  it('remembers a refusal by the whole set of keys, so another account from the same address still asks the store', async () => {
    const store = new CountingStore();
    const limit = new AttemptLimit(store, 60_000);
    const keys = (email: string) => [{ key: `account:${email}|9.9.9.9`, limit: 1 }, { key: 'address:9.9.9.9', limit: 10 }];
    await limit.take(keys('a@example.com'), refusal);
    await expect(limit.take(keys('a@example.com'), refusal)).rejects.toThrow(/wait 1 minute/);
    await expect(limit.take(keys('b@example.com'), refusal)).resolves.toEqual(expect.any(String));
  });
});
