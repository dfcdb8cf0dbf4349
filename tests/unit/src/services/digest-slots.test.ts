import { londonInstant, londonWallClock } from '../../../../src/common/london-time';
import { DIGEST_CATCH_UP_MS, dueOccurrence, nextOccurrence, slotKey } from '../../../../src/services/digest-slots';

/** Digest slots on London's wall clock (issue 33): GMT and BST, the hour skipped and the hour repeated, weekly days, the catch-up window. */
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('London wall-clock time', () => {
  it('reads the local date, time and weekday in winter and in summer', () => {
    expect(londonWallClock(new Date('2026-01-15T08:00:00Z'))).toEqual({ date: '2026-01-15', time: '08:00', weekday: 'thursday' });
    expect(londonWallClock(new Date('2026-07-15T23:30:00Z'))).toEqual({ date: '2026-07-16', time: '00:30', weekday: 'thursday' });
  });

  it('finds the instant a local time stands for, across both changes of the clocks', () => {
    expect(iso(londonInstant('2026-01-15', '08:00'))).toBe('2026-01-15T08:00:00.000Z');
    expect(iso(londonInstant('2026-07-15', '08:00'))).toBe('2026-07-15T07:00:00.000Z');
    // 29 March 2026: 01:00 GMT becomes 02:00 BST; 01:30 is never shown, and goes when it would have been
    expect(iso(londonInstant('2026-03-29', '01:30'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(londonInstant('2026-03-29', '08:00'))).toBe('2026-03-29T07:00:00.000Z');
    // 25 October 2026: 01:30 is shown twice; the first time counts
    expect(iso(londonInstant('2026-10-25', '01:30'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(londonInstant('2026-10-25', '08:00'))).toBe('2026-10-25T08:00:00.000Z');
  });
});

describe('digest slots', () => {
  const daily = { email: 'daily' as const, time: '08:00', day: 'monday' as const };
  const weekly = { email: 'weekly' as const, time: '08:00', day: 'friday' as const };

  it('names a slot as it is stored', () => {
    expect([slotKey(daily), slotKey(weekly)]).toEqual(['daily 08:00', 'weekly friday 08:00']);
  });

  it('is due from its local time, on both sides of a change of the clocks', () => {
    expect(dueOccurrence(daily, new Date('2026-03-28T07:59:00Z'))).toBeNull();
    expect(iso(dueOccurrence(daily, new Date('2026-03-28T08:01:00Z')))).toBe('2026-03-28T08:00:00.000Z');
    // the next morning is in BST: 08:00 local is 07:00 UTC
    expect(dueOccurrence(daily, new Date('2026-03-29T06:59:00Z'))).toBeNull();
    expect(iso(dueOccurrence(daily, new Date('2026-03-29T07:01:00Z')))).toBe('2026-03-29T07:00:00.000Z');
  });

  it('stays due for the catch-up window after a downtime, and no longer', () => {
    const at = new Date('2026-11-23T08:00:00Z').getTime();
    expect(iso(dueOccurrence(daily, new Date(at + DIGEST_CATCH_UP_MS)))).toBe('2026-11-23T08:00:00.000Z');
    expect(dueOccurrence(daily, new Date(at + DIGEST_CATCH_UP_MS + 60_000))).toBeNull();
  });

  it('is due weekly only on its day', () => {
    expect(dueOccurrence(weekly, new Date('2026-11-23T08:01:00Z'))).toBeNull(); // a Monday
    expect(iso(dueOccurrence(weekly, new Date('2026-11-27T08:01:00Z')))).toBe('2026-11-27T08:00:00.000Z'); // a Friday
    expect(iso(nextOccurrence(weekly, new Date('2026-11-23T08:01:00Z')))).toBe('2026-11-27T08:00:00.000Z');
    expect(iso(nextOccurrence(daily, new Date('2026-11-23T08:00:00Z')))).toBe('2026-11-24T08:00:00.000Z');
  });
});
