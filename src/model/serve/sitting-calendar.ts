import { toDayNumber } from '../../common/dates';

/**
 * When Parliament sat, learned from the sitting dates in the training data and stored with the
 * model, so a nowcast depends only on the model version and the bill's own facts. Whether the
 * Houses sit in the coming weeks (summer, conference, Christmas and Easter recesses, prorogation)
 * is the strongest signal for "next stage within 30 days"; future recess dates are not in the
 * data, so the expected sitting share of a window is read off the same window in earlier years.
 */
/** Parliament sits about 150 days a year; fewer recorded days means the data does not cover that year. */
const MIN_SITTINGS_IN_A_COVERED_YEAR = 100;

export class SittingCalendar {
  private readonly firstDay: number;
  /** cumulative[i] = sitting days before firstDay + i */
  private readonly cumulative: Int32Array;
  private readonly years: number[];
  private readonly cache = new Map<string, number>();

  constructor(readonly sittingDates: readonly string[]) {
    const days = [...new Set(sittingDates)].map(toDayNumber).sort((a, b) => a - b);
    this.firstDay = days[0] ?? 0;
    const span = days.length ? days[days.length - 1] - this.firstDay + 2 : 1;
    const counts = new Int32Array(span);
    for (const day of days) counts[day - this.firstDay + 1]++;
    for (let i = 1; i < span; i++) counts[i] += counts[i - 1];
    this.cumulative = counts;
    const perYear = new Map<number, number>();
    for (const d of new Set(sittingDates)) perYear.set(Number(d.slice(0, 4)), (perYear.get(Number(d.slice(0, 4))) ?? 0) + 1);
    // A year the data barely covers (the first bills of the API start in late 2004) would look like one long recess.
    this.years = [...perYear].filter(([, n]) => n >= MIN_SITTINGS_IN_A_COVERED_YEAR).map(([y]) => y).sort((a, b) => a - b);
  }

  /** sitting days in (day, day + horizon] */
  private sittingsAfter(day: number, horizon: number): number {
    const at = (d: number) => this.cumulative[Math.min(this.cumulative.length - 1, Math.max(0, d - this.firstDay + 1))];
    return at(day + horizon) - at(day);
  }

  /**
   * Sitting days in the `horizon` days after `date`, averaged over the same window in every
   * earlier year with data (a window must lie wholly before `date`), relative to the busiest
   * pace Parliament keeps (four days a week). 0 when no earlier year is known.
   */
  expectedSittingShare(date: string, horizon: number): number {
    const key = `${date}/${horizon}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const year = Number(date.slice(0, 4));
    const day = toDayNumber(date);
    let total = 0;
    let yearsSeen = 0;
    for (const y of this.years) {
      const start = toDayNumber(`${y}${date.slice(4)}`);
      if (Number.isNaN(start) || start + horizon >= day || y >= year) continue;
      total += this.sittingsAfter(start, horizon);
      yearsSeen++;
    }
    const share = yearsSeen ? Math.min(1, total / yearsSeen / ((horizon * 4) / 7)) : 0;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(key, share);
    return share;
  }
}
