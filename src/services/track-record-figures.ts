import type { ForecastSource } from '../db/entities/forecast-of-record.entity';
import type { BillKind } from '../vocabulary';
import { fitLogistic, logit } from '../model/serve/calibration';
import { seededRandom } from '../common/seeded-random';
import { daysBetween } from '../common/dates';
import { pushTo } from '../common/multimap';
import type { ScoredOutput } from './forecast-outcomes';

/**
 * The track record's figures (issue 35, item 2), computed from resolved forecasts of record alone,
 * each forecast weighing one, so that anyone holding the CSV of them can compute the same figures.
 * Intervals resample sessions (a session's forecasts shift together: one government's programme,
 * one election), never single forecasts.
 */

/** A forecast of record with what followed it. */
export interface ResolvedForecast {
  billId: number;
  kind: BillKind;
  forecastDate: string;
  output: ScoredOutput;
  value: number;
  tableValue: number;
  modelVersion: number;
  trainedThrough: string;
  source: ForecastSource;
  /** the session the forecast's day fell in: the unit the intervals resample */
  sessionId: number;
  /** 1 or 0; for the ETA the days it took, null when there was no next stage */
  outcome: number | null;
  resolvedOn: string;
}

/** The track record's kinds of bill: the rare ones (private, hybrid, consolidation) together. */
export const RECORD_KINDS: Record<BillKind, string> = {
  government: 'government',
  pmb_ballot: 'ballot',
  pmb_presentation: 'presentation',
  pmb_lords: 'lords',
  pmb_ten_minute_rule: 'ten_minute_rule',
  private: 'other',
  hybrid: 'other',
  consolidation: 'other',
};

/** How long a forecast waited for its answer, in days from its day to the day it resolved. */
export const HORIZONS = [
  { name: '0-30', upTo: 30 },
  { name: '31-90', upTo: 90 },
  { name: '91-180', upTo: 180 },
  { name: '181-365', upTo: 365 },
  { name: 'over_365', upTo: Infinity },
] as const;

export const INTERVAL_LEVEL = 0.9;
export const REPLICATES = 1000;
const SEED = 35;
const RELIABILITY_BINS = 10;

/** A figure and its 90% interval over sessions resampled; null where it cannot be computed (no forecast, a single session). */
export interface Interval {
  value: number | null;
  low: number | null;
  high: number | null;
}

export interface ReliabilityRow {
  lower: number;
  upper: number;
  meanForecast: number | null;
  observedFrequency: number | null;
  count: number;
}

export interface ProbabilityScores {
  count: number;
  brier: Interval;
  tableBrier: Interval;
  /** 1 − brier / tableBrier: above 0, the model beat the kind × stage table */
  skill: Interval;
  reliability: ReliabilityRow[];
  /** α of outcome ~ σ(α + logit(forecast)): 0 when right on average */
  calibrationIntercept: number | null;
  /** β of outcome ~ σ(α + β·logit(forecast)): 1 when neither too bold nor too timid */
  calibrationSlope: number | null;
}

export interface EtaScores {
  /** forecasts whose bill had a next stage, which the errors are measured on */
  count: number;
  /** forecasts whose bill had no next stage (its fate came first) */
  noNextStage: number;
  medianAbsoluteErrorDays: Interval;
  tableMedianAbsoluteErrorDays: Interval;
  /** 1 − the model's median absolute error / the table's */
  skill: Interval;
}

export type Scores = ProbabilityScores | EtaScores;

export interface OutputFigures {
  output: ScoredOutput;
  overall: Scores;
  byKind: Record<string, Scores>;
  byHorizon: Record<string, Scores>;
}

export const horizonOf = (f: Pick<ResolvedForecast, 'forecastDate' | 'resolvedOn'>) => HORIZONS.find((h) => daysBetween(f.forecastDate, f.resolvedOn) <= h.upTo)!.name;

/** The value at quantile q of sorted values, interpolating between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  return sorted[below] + (sorted[Math.ceil(position)] - sorted[below]) * (position - below);
}

/** A figure over sessions: on the sessions as they are, and its percentile interval over replicates drawing as many sessions with replacement. */
function overSessions<S>(sessions: readonly S[], figure: (drawn: readonly S[]) => number | null): Interval {
  const value = sessions.length ? figure(sessions) : null;
  if (value === null || sessions.length < 2) return { value, low: null, high: null };
  const random = seededRandom(SEED);
  const draws: number[] = [];
  for (let r = 0; r < REPLICATES; r++) {
    const drawn = Array.from({ length: sessions.length }, () => sessions[Math.floor(random() * sessions.length)]);
    const x = figure(drawn);
    if (x !== null && Number.isFinite(x)) draws.push(x);
  }
  if (draws.length < 0.9 * REPLICATES) return { value, low: null, high: null };
  draws.sort((a, b) => a - b);
  return { value, low: quantile(draws, (1 - INTERVAL_LEVEL) / 2), high: quantile(draws, (1 + INTERVAL_LEVEL) / 2) };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) pushTo(groups, key(item), item);
  return groups;
}

/** The forecasts of each session, in the order of the sessions. */
const bySession = <T extends { sessionId: number }>(items: readonly T[]): T[][] =>
  [...groupBy(items, (item) => item.sessionId)].sort(([a], [b]) => a - b).map(([, group]) => group);

const binOf = (p: number) => Math.min(RELIABILITY_BINS - 1, Math.floor(p * RELIABILITY_BINS + 1e-9));

function probabilityScores(forecasts: readonly ResolvedForecast[]): ProbabilityScores {
  // per session: forecasts, and the squared errors of the model and of the table, summed
  const sessions = bySession(forecasts).map((fs) => ({
    n: fs.length,
    model: fs.reduce((sum, f) => sum + (f.value - f.outcome!) ** 2, 0),
    table: fs.reduce((sum, f) => sum + (f.tableValue - f.outcome!) ** 2, 0),
  }));
  const total = (drawn: readonly (typeof sessions)[number][], key: 'model' | 'table') => {
    const n = drawn.reduce((sum, s) => sum + s.n, 0);
    return n ? drawn.reduce((sum, s) => sum + s[key], 0) / n : null;
  };
  const skill = (drawn: readonly (typeof sessions)[number][]) => {
    const [model, table] = [total(drawn, 'model'), total(drawn, 'table')];
    return model === null || !table ? null : 1 - model / table;
  };
  const bins = Array.from({ length: RELIABILITY_BINS }, () => ({ forecast: 0, observed: 0, count: 0 }));
  for (const f of forecasts) {
    const bin = bins[binOf(f.value)];
    bin.forecast += f.value;
    bin.observed += f.outcome!;
    bin.count += 1;
  }
  const events = forecasts.reduce((sum, f) => sum + f.outcome!, 0);
  const fitted = events > 0 && events < forecasts.length;
  const x = forecasts.map((f) => logit(f.value));
  const y = forecasts.map((f) => f.outcome!);
  const slope = fitted ? fitLogistic(x, y, null, 0).u : null;
  return {
    count: forecasts.length,
    brier: overSessions(sessions, (drawn) => total(drawn, 'model')),
    tableBrier: overSessions(sessions, (drawn) => total(drawn, 'table')),
    skill: overSessions(sessions, skill),
    reliability: bins.map((b, i) => ({
      lower: i / RELIABILITY_BINS,
      upper: (i + 1) / RELIABILITY_BINS,
      meanForecast: b.count ? b.forecast / b.count : null,
      observedFrequency: b.count ? b.observed / b.count : null,
      count: b.count,
    })),
    calibrationIntercept: fitted ? fitLogistic(x, y, null, 0, { fixedSlope: 1 }).v : null,
    calibrationSlope: slope !== null && Number.isFinite(slope) ? slope : null,
  };
}

/** How many of a sorted array's values are at most x. */
function countUpTo(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ordinary median (the mean of the middle two of an even count) of the drawn sessions' values
 * together, a session drawn twice counting twice: found by bisection over `union` (every session's
 * values, sorted), so a replicate costs a few hundred look-ups, not a sort of every value.
 */
function medianOf(drawn: readonly Float64Array[], union: Float64Array): number | null {
  const times = new Map<Float64Array, number>();
  for (const s of drawn) times.set(s, (times.get(s) ?? 0) + 1);
  let total = 0;
  for (const [s, m] of times) total += m * s.length;
  if (!total) return null;
  const nth = (k: number) => {
    let lo = 0;
    let hi = union.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      let atMost = 0;
      for (const [s, m] of times) atMost += m * countUpTo(s, union[mid]);
      if (atMost > k) hi = mid;
      else lo = mid + 1;
    }
    return union[lo];
  };
  return (nth(Math.floor((total - 1) / 2)) + nth(Math.ceil((total - 1) / 2))) / 2;
}

function etaScores(forecasts: readonly ResolvedForecast[]): EtaScores {
  const moved = forecasts.filter((f) => f.outcome !== null);
  const sorted = (values: Iterable<number>) => Float64Array.from(values).sort();
  const sessions = bySession(moved).map((fs) => ({
    model: sorted(fs.map((f) => Math.abs(f.value - f.outcome!))),
    table: sorted(fs.map((f) => Math.abs(f.tableValue - f.outcome!))),
  }));
  const union = { model: sorted(sessions.flatMap((s) => [...s.model])), table: sorted(sessions.flatMap((s) => [...s.table])) };
  const error = (drawn: readonly (typeof sessions)[number][], key: 'model' | 'table') => medianOf(drawn.map((s) => s[key]), union[key]);
  return {
    count: moved.length,
    noNextStage: forecasts.length - moved.length,
    medianAbsoluteErrorDays: overSessions(sessions, (drawn) => error(drawn, 'model')),
    tableMedianAbsoluteErrorDays: overSessions(sessions, (drawn) => error(drawn, 'table')),
    skill: overSessions(sessions, (drawn) => {
      const [model, table] = [error(drawn, 'model'), error(drawn, 'table')];
      return model === null || !table ? null : 1 - model / table;
    }),
  };
}

const scoresOf = (output: ScoredOutput, forecasts: readonly ResolvedForecast[]): Scores => (output === 'timeline_eta' ? etaScores(forecasts) : probabilityScores(forecasts));


/** One output's figures: over all its forecasts, by kind of bill and by horizon. */
export function outputFigures(output: ScoredOutput, forecasts: readonly ResolvedForecast[]): OutputFigures {
  const mine = forecasts.filter((f) => f.output === output);
  const grouped = (key: (f: ResolvedForecast) => string) => Object.fromEntries([...groupBy(mine, key)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, fs]) => [k, scoresOf(output, fs)]));
  return { output, overall: scoresOf(output, mine), byKind: grouped((f) => RECORD_KINDS[f.kind]), byHorizon: grouped(horizonOf) };
}
