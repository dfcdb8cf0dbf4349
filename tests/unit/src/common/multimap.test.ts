import { pushTo } from '../../../../src/common/multimap';

it('keeps each key’s values in the order they came, a list per key', () => {
  const lists = new Map<string, number[]>();
  pushTo(lists, 'a', 1);
  pushTo(lists, 'b', 2);
  pushTo(lists, 'a', 3);
  expect([...lists]).toEqual([
    ['a', [1, 3]],
    ['b', [2]],
  ]);
});
