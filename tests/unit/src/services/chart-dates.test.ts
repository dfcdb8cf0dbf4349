import { historyDates, historyEnd } from '../../../../src/services/chart-dates';

describe('historyDates', () => {
  it('spans the bill’s life evenly with at most about the points asked, plus each stage date and the day before', () => {
    const dates = historyDates('2021-01-01', '2021-12-31', ['2021-03-10', '2021-06-01'], 12);
    expect(dates[0]).toBe('2021-01-01');
    expect(dates.at(-1)).toBe('2021-12-31');
    expect(dates).toEqual([...new Set(dates)].sort());
    expect(dates).toEqual(expect.arrayContaining(['2021-03-09', '2021-03-10', '2021-05-31', '2021-06-01']));
    expect(dates.length).toBeLessThanOrEqual(12 + 1 + 4);
  });

  it('leaves out stage dates outside the span, and is one point for a life of one day', () => {
    expect(historyDates('2021-01-01', '2021-01-10', ['2020-12-01', '2022-01-01'], 60)).toHaveLength(10);
    expect(historyDates('2021-01-01', '2021-01-01', [])).toEqual(['2021-01-01']);
  });
});

describe('historyEnd', () => {
  it('is today for a live bill, a month after the last stage for one that is over, never after today', () => {
    expect(historyEnd('2021-12-31', true, '2021-03-01')).toBe('2021-12-31');
    expect(historyEnd('2021-12-31', false, '2021-03-01')).toBe('2021-03-31');
    expect(historyEnd('2021-03-15', false, '2021-03-01')).toBe('2021-03-15');
  });
});
