import { getOperationAST, parse } from 'graphql';
import { BurstLimiter } from '../../../../src/quota/burst-limit';
import { admitBurst, rootFieldCopies } from '../../../../src/gateway/charge';

const copiesOf = (source: string) => {
  const document = parse(source);
  return Object.fromEntries(rootFieldCopies(document, getOperationAST(document)!));
};

describe('rootFieldCopies', () => {
  it('counts every copy of a root field: aliases, fragments and inline fragments included', () => {
    expect(copiesOf('{ a: me { id } b: me { id } me { id } sessions { id } }')).toEqual({ me: 3, sessions: 1 });
    expect(copiesOf('{ ...F ... on Query { me { id } } } fragment F on Query { x: me { id } y: me { id } }')).toEqual({ me: 3 });
  });

  it('leaves __typename and introspection out, and survives a fragment that spreads itself', () => {
    expect(copiesOf('{ __typename __schema { queryType { name } } me { id } }')).toEqual({ me: 1 });
    expect(copiesOf('{ ...F } fragment F on Query { me { id } ...F }')).toEqual({ me: 1 });
  });
});

describe('admitBurst', () => {
  const principal = { accountId: 1, email: 'a@example.com', tier: 'pro' as const, credential: 'api-key' as const, keyId: 1, sessionId: null };

  it('refuses 350 aliased copies of a field under a limit of 300, before any runs, and records none of them', async () => {
    const limiter = new BurstLimiter({ max: 300, windowSeconds: 10 });
    await expect(admitBurst(limiter, principal, new Map([['me', 350]]))).rejects.toThrow(/at most 300 calls of the same operation/);
    await expect(admitBurst(limiter, principal, new Map([['me', 300]]))).resolves.toBeUndefined();
    await expect(admitBurst(limiter, principal, new Map([['me', 1]]))).rejects.toThrow(/Burst limit reached/);
  });

  it('leaves anonymous requests to the per-address limits', async () => {
    const limiter = new BurstLimiter({ max: 1, windowSeconds: 10 });
    await expect(admitBurst(limiter, null, new Map([['serviceStatus', 5]]))).resolves.toBeUndefined();
  });
});
