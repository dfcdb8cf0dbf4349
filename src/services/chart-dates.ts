import { addDays, daysBetween } from '../common/dates';

/** Points on a bill's chart at most, besides its stage dates. */
export const HISTORY_POINTS = 60;
/** A bill that is over is charted this long past its last stage (the model's view of a finished bill flattens out). */
const AFTER_LAST_STAGE_DAYS = 30;

/**
 * The dates to nowcast a bill at for its chart: evenly spaced from its first date to its last
 * (today for a live bill; shortly after its last stage otherwise, never after today), plus each
 * stage date and the day before it, so the chart shows what each stage changed. Sorted, unique.
 */
export function historyDates(first: string, last: string, stageDates: readonly string[], points = HISTORY_POINTS): string[] {
  if (last < first) return [first];
  const span = daysBetween(first, last);
  const step = Math.max(1, Math.ceil(span / points));
  const dates = new Set<string>();
  for (let day = 0; day < span; day += step) dates.add(addDays(first, day));
  dates.add(last);
  for (const date of stageDates) {
    if (date < first || date > last) continue;
    dates.add(date);
    if (date > first) dates.add(addDays(date, -1));
  }
  return [...dates].sort();
}

/** The last date of a bill's chart: today while it is live, else a month after its last stage (never after today). */
export function historyEnd(today: string, live: boolean, lastStageDate: string | null): string {
  if (live || !lastStageDate) return today;
  const end = addDays(lastStageDate, AFTER_LAST_STAGE_DAYS);
  return end < today ? end : today;
}
