/** Calendar arithmetic on YYYY-MM-DD strings, in UTC so no time zone can shift a day. */

const DAY_MS = 86_400_000;

export const toDayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export const fromDayNumber = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => fromDayNumber(toDayNumber(date) + days);

export const daysBetween = (from: string, to: string): number => toDayNumber(to) - toDayNumber(from);
