import { inferEndDate } from '../../../../src/ingest/session-ends';

describe("a session's inferred end (its prorogation)", () => {
  it('is its last sitting before the next session opened', () => {
    expect(inferEndDate('2026-09-08', '2026-10-20', '2026-11-27')).toBe('2026-09-08');
  });

  it('is the day before the next session opened when none of its sittings is stored', () => {
    expect(inferEndDate(null, '2026-10-20', '2026-11-27')).toBe('2026-10-19');
  });

  it('is never later than the day it is inferred', () => {
    expect(inferEndDate(null, null, '2026-11-27')).toBe('2026-11-27');
    expect(inferEndDate(null, '2026-12-01', '2026-11-27')).toBe('2026-11-27');
  });
});
