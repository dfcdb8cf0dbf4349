import { RepeatFilter } from '../../../../src/common/repeat-filter';

describe('RepeatFilter', () => {
  it('lets a key through on its second sighting, then counts it afresh', () => {
    const repeats = new RepeatFilter(10);
    expect(repeats.repeated('a')).toBe(false);
    expect(repeats.repeated('b')).toBe(false);
    expect(repeats.repeated('a')).toBe(true);
    expect(repeats.repeated('a')).toBe(false);
  });

  it('remembers at most its bound of first sightings, the oldest forgotten first', () => {
    const repeats = new RepeatFilter(3);
    for (const key of ['a', 'b', 'c', 'd']) repeats.repeated(key);
    expect(repeats.repeated('a')).toBe(false);
    expect(repeats.repeated('d')).toBe(true);
  });
});
