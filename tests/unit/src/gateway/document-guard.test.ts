import { AppError } from '../../../../src/errors';
import { DocumentGuard, documentProblem, GUARD_TEXT_KEPT, GUARD_TEXT_KEPT_TOTAL } from '../../../../src/gateway/document-guard';

const limits = { maxTokens: 200, maxSameName: 3, maxSpreads: 2, maxFragments: 3 };

describe('the limits a GraphQL document meets before validation', () => {
  it('lets an ordinary document through', () => {
    expect(documentProblem('query Q($id: Int!) { a: bill(id: $id) { id title } b: bill(id: 2) { ...B } } fragment B on Bill { id stages { stage } }', limits)).toBeNull();
  });

  it('leaves syntax errors to the GraphQL server', () => {
    expect(documentProblem('{ bill(', limits)).toBeNull();
  });

  it('refuses more tokens than the limit', () => {
    expect(documentProblem(`{ ${Array.from({ length: 100 }, (_, i) => `a${i}: me { id }`).join(' ')} }`, limits)).toBe('The query has more than 200 tokens, over the limit');
  });

  it('refuses a response name repeated beyond the limit, directly, in inline fragments or through fragments', () => {
    expect(documentProblem('{ me { id } me { id } me { id } }', limits)).toBeNull();
    expect(documentProblem('{ me { id } me { id } me { id } me { id } }', limits)).toMatch(/"me" is selected more than 3 times/);
    expect(documentProblem('{ me { id } ... on Query { me { id } ... on Query { me { id } me { id } } } }', limits)).toMatch(/"me"/);
    expect(documentProblem('{ ...A ...A } fragment A on Query { ...B ...B } fragment B on Query { x: me { id } }', limits)).toMatch(/"x"/);
    // in a nested selection set too
    expect(documentProblem('{ bill(id: 1) { id id id id } }', limits)).toMatch(/"id"/);
  });

  it('refuses more fragment spreads in one selection set, or more fragments, than the limits', () => {
    expect(documentProblem('{ ...A ...B ...C } fragment A on Query { a: me { id } } fragment B on Query { b: me { id } } fragment C on Query { c: me { id } }', limits)).toMatch(/spreads more than 2 fragments/);
    const four = ['A', 'B', 'C', 'D'].map((f) => `fragment ${f} on Query { ${f.toLowerCase()}: me { id } }`).join(' ');
    expect(documentProblem(`{ ...A } ${four}`, limits)).toBe('The query defines 4 fragments, over the limit of 3');
  });

  it('does not loop on fragments that spread each other', () => {
    expect(documentProblem('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }', limits)).toBeNull();
  });
});

describe('the document guard step every GraphQL door calls', () => {
  it('refuses a document beyond the limits as the client’s mistake (400, BAD_USER_INPUT) naming the limit', () => {
    let refused: unknown;
    try {
      new DocumentGuard(limits).guard('{ me { id } me { id } me { id } me { id } }');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, message: expect.stringMatching(/"me" is selected more than 3 times/) });
  });

  it('lets a document within the limits through, and leaves a missing or non-text query to the GraphQL server', () => {
    const guard = new DocumentGuard(limits);
    expect(() => guard.guard('{ me { id } }')).not.toThrow();
    expect(() => guard.guard(undefined)).not.toThrow();
    expect(() => guard.guard({ query: '{ me { id } }' })).not.toThrow();
  });
});

describe('the document guard that remembers its verdicts per query text', () => {
  const counting = () => {
    const checked: string[] = [];
    const guard = new DocumentGuard(limits, (text, given) => {
      checked.push(text);
      return documentProblem(text, given);
    });
    return { guard, checked };
  };

  it('checks a repeated document once, and refuses a repeated bad one every time with the same detail', () => {
    const { guard, checked } = counting();
    const bad = '{ me { id } me { id } me { id } me { id } }';
    for (let i = 0; i < 3; i++) {
      expect(() => guard.guard('{ me { id } }')).not.toThrow();
      expect(() => guard.guard(bad)).toThrow(/"me" is selected more than 3 times/);
    }
    expect(checked).toEqual(['{ me { id } }', bad]);
  });

  it('checks each distinct text, and leaves a non-text query to the GraphQL server', () => {
    const { guard, checked } = counting();
    guard.guard('{ me { id } }');
    guard.guard('{ me { email } }');
    guard.guard(undefined);
    expect(checked).toEqual(['{ me { id } }', '{ me { email } }']);
  });

  it('forgets the least recently checked texts past its bound in characters, so it is checked again', () => {
    const checked: string[] = [];
    const guard = new DocumentGuard(limits, (text, given) => (checked.push(text), documentProblem(text, given)), 1_000);
    guard.guard('{ me { id } }');
    for (let i = 0; i < 100; i++) {
      guard.guard(`{ a${i}: me { id } }`);
      expect(guard.keptCharacters).toBeLessThanOrEqual(1_000);
    }
    guard.guard('{ me { id } }');
    expect(checked.filter((text) => text === '{ me { id } }')).toHaveLength(2);
  });

  it('keeps no more text than its bound however long the unique texts are', () => {
    const guard = new DocumentGuard(limits, documentProblem, GUARD_TEXT_KEPT_TOTAL);
    const long = (i: number) => `{ ${'x'.repeat(GUARD_TEXT_KEPT - 20)}${i}: me { id } }`;
    for (let i = 0; i < 400; i++) guard.guard(long(i));
    expect(guard.keptCharacters).toBeLessThanOrEqual(GUARD_TEXT_KEPT_TOTAL);
    expect(guard.keptCharacters).toBeGreaterThan(GUARD_TEXT_KEPT_TOTAL / 2);
  });
});
