import { isCalendarDate } from '../../../../src/common/dates';

describe('a calendar date', () => {
  it.each(['2021-12-31', '2020-02-29', '1800-01-01', '9999-12-31'])('accepts %s', (text) => {
    expect(isCalendarDate(text)).toBe(true);
  });

  it.each(['2021-02-30', '2021-13-01', '1799-12-31', '0001-01-01', '0000-01-01', '10000-01-01', '2021-1-1', '2021-01-01\u0000', '2021-01-01T00:00:00Z', ''])('refuses %j', (text) => {
    expect(isCalendarDate(text)).toBe(false);
  });

  it('refuses what is not a string', () => {
    expect(isCalendarDate(20211231)).toBe(false);
    expect(isCalendarDate(null)).toBe(false);
  });
});
