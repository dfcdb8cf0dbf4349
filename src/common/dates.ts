/** Calendar arithmetic on YYYY-MM-DD strings, in UTC so no time zone can shift a day. */

const DAY_MS = 86_400_000;

export const toDayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export const fromDayNumber = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => fromDayNumber(toDayNumber(date) + days);

export const daysBetween = (from: string, to: string): number => toDayNumber(to) - toDayNumber(from);

/** The years a date may fall in: the data starts in the 19th century; four digits end at 9999. */
export const FIRST_YEAR = 1800;
export const LAST_YEAR = 9999;

/**
 * YYYY-MM-DD of a day that exists (Date.parse alone would roll 2021-02-30 over to 2 March), in the
 * years FIRST_YEAR to LAST_YEAR: anything earlier is a client's mistake, not a day to compute for.
 */
export const isCalendarDate = (text: unknown): text is string =>
  typeof text === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  Number(text.slice(0, 4)) >= FIRST_YEAR &&
  !Number.isNaN(toDayNumber(text)) &&
  fromDayNumber(toDayNumber(text)) === text;
