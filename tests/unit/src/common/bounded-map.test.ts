import { keepWithin } from '../../../../src/common/bounded-map';

describe('keepWithin', () => {
  it('holds at most the limit, the first set going first; a key set again keeps its place', () => {
    const map = new Map<string, number>();
    for (const [key, value] of [['a', 1], ['b', 2], ['a', 3], ['c', 4]] as const) keepWithin(map, key, value, 2);
    expect([...map]).toEqual([['b', 2], ['c', 4]]);
  });

  it('with refresh, a key set again moves last, so the least recently set goes first', () => {
    const map = new Map<string, number>();
    for (const [key, value] of [['a', 1], ['b', 2], ['a', 3], ['c', 4]] as const) keepWithin(map, key, value, 2, { refresh: true });
    expect([...map]).toEqual([['a', 3], ['c', 4]]);
  });
});
