import { DateScalar } from '../../../../src/graphql/date.scalar';

describe('DateScalar', () => {
  it('answers a valid date as itself, every time it is serialised', () => {
    expect(DateScalar.serialize('2021-12-31')).toBe('2021-12-31');
    expect(DateScalar.serialize('2021-12-31')).toBe('2021-12-31');
  });

  it('still refuses an impossible date on output after valid ones were remembered', () => {
    DateScalar.serialize('2021-02-28');
    expect(() => DateScalar.serialize('2021-02-30')).toThrow();
    expect(() => DateScalar.serialize('2021-02-30')).toThrow();
  });

  it('validates input every time: an impossible date is refused', () => {
    DateScalar.serialize('2021-02-28');
    expect(() => DateScalar.parseValue('2021-02-30')).toThrow();
    expect(DateScalar.parseValue('2021-02-28')).toBe('2021-02-28');
  });
});
