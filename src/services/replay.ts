import { addDays, daysBetween, isCalendarDate } from '../common/dates';
import type { ServiceClock } from '../common/clock';
import { AppError, badInput } from '../errors';
import type { EventRefresh } from './events-refresh';

/** Days one replay may span: ten years of history. */
export const MAX_REPLAY_DAYS = 3_660;

export interface ReplayDay {
  day: string;
  bills: number;
  events: number;
  ms: number;
}

export interface ReplayReport {
  from: string;
  to: string;
  days: number;
  events: number;
  events_by_type: Record<string, number>;
  ms_per_day: number;
}

/**
 * Moves the service's day from `from` to `to`, one day at a time, running the events refresh for
 * each: a nowcast sees only facts dated up to its day, so the events of real history fire in
 * order. The service stays on `to` afterwards (until restart).
 */
export async function replay(refresh: EventRefresh, clock: ServiceClock, from: unknown, to: unknown, onDay?: (progress: ReplayDay) => void): Promise<ReplayReport> {
  if (!isCalendarDate(from)) throw badInput('--from must be a date, YYYY-MM-DD');
  if (!isCalendarDate(to)) throw badInput('--to must be a date, YYYY-MM-DD');
  if (to < from) throw badInput(`--to ${to} is before --from ${from}`);
  const days = daysBetween(from, to) + 1;
  if (days > MAX_REPLAY_DAYS) throw badInput(`a replay spans at most ${MAX_REPLAY_DAYS} days; ${from} to ${to} is ${days}`);
  const notReady = await refresh.notReady();
  if (notReady) throw new AppError('SERVICE_UNAVAILABLE', `cannot replay: ${notReady}`);
  const byType: Record<string, number> = {};
  let events = 0;
  const started = performance.now();
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const dayStarted = performance.now();
    clock.moveTo(day);
    const report = await refresh.run(day);
    for (const e of report.events) byType[e.type] = (byType[e.type] ?? 0) + 1;
    events += report.events.length;
    onDay?.({ day, bills: report.bills, events: report.events.length, ms: Math.round(performance.now() - dayStarted) });
  }
  return { from, to, days, events, events_by_type: byType, ms_per_day: Math.round(((performance.now() - started) / days) * 10) / 10 };
}
