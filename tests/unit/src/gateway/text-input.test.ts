import { parse, validate } from 'graphql';
import { buildAppSchema } from '../../../../src/graphql/build-schema';
import { noNulCharactersRule, rejectNulCharacters } from '../../../../src/gateway/text-input';

describe('the NUL character', () => {
  it('is refused anywhere in variables, keys included, with a 400 detail', () => {
    for (const variables of [{ name: 'a\u0000' }, { input: { billIds: [1], tags: ['x', 'y\u0000'] } }, { ['k\u0000']: 1 }]) {
      expect(() => rejectNulCharacters(variables)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', message: 'Text must not contain NUL characters (U+0000)' }));
    }
    expect(() => rejectNulCharacters({ name: 'plain', n: 3, nested: [{ ok: null }] })).not.toThrow();
    expect(() => rejectNulCharacters(undefined)).not.toThrow();
  });

  it('is refused in string literals of a document', async () => {
    const schema = await buildAppSchema();
    const errors = (query: string) => validate(schema, parse(query), [noNulCharactersRule]).map((e) => e.message);
    expect(errors('mutation { createWatchlist(input: { name: "a\\u0000" }) { id } }')).toEqual(['input.name must not contain NUL characters (U+0000)']);
    expect(errors('{ bills(filter: { titleContains: "act" }) { totalCount } }')).toEqual([]);
  });
});
