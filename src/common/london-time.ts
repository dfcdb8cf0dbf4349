/**
 * Wall-clock time in Europe/London, read through Intl (the runtime's time-zone database), never a
 * table of offsets of our own: the local date, time and weekday of an instant, and the instant a
 * local date and time stand for, across the changes to and from British Summer Time.
 */
const ZONE = 'Europe/London';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const parts = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });

export interface LondonWallClock {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  time: string;
  /** monday … sunday */
  weekday: string;
}

/** The wall clock in London at `at`. */
export function londonWallClock(at: Date): LondonWallClock {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value])) as Record<string, string>;
  const date = `${p.year}-${p.month}-${p.day}`;
  return { date, time: `${p.hour}:${p.minute}`, weekday: weekdayOf(date) };
}

/** The day of the week of a calendar date (YYYY-MM-DD): monday … sunday. */
export const weekdayOf = (date: string): string => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];

/** London's offset from UTC at `at`, in milliseconds (0 in winter, an hour in summer). */
function offsetMs(at: number): number {
  const p = Object.fromEntries(parts.formatToParts(new Date(at)).map((x) => [x.type, x.value])) as Record<string, string>;
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant London's clocks show `time` on `date`. A time shown twice (the autumn hour repeated)
 * is its first showing; a time never shown (the spring hour skipped) is the instant it would have
 * been had the clocks not moved, an hour later by the new clock (01:30 becomes 02:30 BST).
 */
export function londonInstant(date: string, time: string): Date {
  const naive = Date.parse(`${date}T${time}:00Z`);
  // the offsets in force either side of any change that day
  const offsets = [...new Set([offsetMs(naive - 12 * 3600_000), offsetMs(naive + 12 * 3600_000)])];
  const shown = offsets.map((o) => naive - o).filter((t) => {
    const wall = londonWallClock(new Date(t));
    return wall.date === date && wall.time === time;
  });
  return new Date(shown.length ? Math.min(...shown) : naive - offsets[0]);
}
