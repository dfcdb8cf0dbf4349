/**
 * The Royal Assent targets of the kinds people watch (government, ballot bills), judged so that
 * chance alone rarely fails a calibrated model: Brier against the kind × stage table with an
 * interval that resamples sessions, calibration intercept and slope with such intervals, and
 * Spiegelhalter's z. And the risks served beside a baseline by bill kind alone, so a risk that
 * loses to it is measured, not assumed.
 */
import { aucStatistic, BillSet, type BillStatistic, bootstrap, type BootstrapOptions, brierStatistic, type Estimate, memoised } from '../train/bill-weighted';
import { calibrationInLargeStatistic, calibrationSlopeStatistic, differenceStatistic, sessionResample, spiegelhalterStatistic } from '../train/calibration-statistics';
import type { BinaryOutput } from '../serve/labels';
import { forecasts, type ScoredNowcast, WATCHED_KINDS } from './skill-by-kind';

/** |z| at or below this: calibration not rejected at about the 5% level. */
export const SPIEGELHALTER_LIMIT = 2;

export interface KindTargets {
  kind: string;
  bills: number;
  sessions: number;
  modelBrier: Estimate;
  tableBrier: Estimate;
  /** model − table on the same resampled bills: at or below 0, the model is no worse */
  brierDifference: Estimate;
  /** calibration-in-the-large (slope fixed at 1): 0 is ideal */
  intercept: Estimate;
  /** 1 is ideal */
  slope: Estimate;
  spiegelhalterZ: number | null;
}

/** One test session's calibration-in-the-large for one kind. */
export interface SessionCalibration {
  sessionId: number;
  kind: string;
  bills: number;
  intercept: number | null;
}

export interface RiskVsKind {
  output: BinaryOutput;
  /** 'all' or a kind */
  group: string;
  bills: number;
  modelBrier: Estimate;
  kindBrier: Estimate;
  brierDifference: Estimate;
  /** within one kind the baseline gives every bill the same rate (AUC 0.5): above it, the model ranks the kind's bills */
  modelAuc: Estimate;
}

export interface Targets {
  kinds: KindTargets[];
  bySession: SessionCalibration[];
  risks: RiskVsKind[];
}

/** The risks item 8 of the targets measures against the rate by kind. */
export const RISKS_VS_KIND: readonly BinaryOutput[] = ['stall_risk', 'withdrawal_risk'];

const sessionsOf = (nowcasts: readonly ScoredNowcast[]) => new Map(nowcasts.map((n) => [n.billId, n.foldSessionId]));

function resampled<K extends string>(nowcasts: readonly ScoredNowcast[], statistics: (bills: BillSet) => Record<K, BillStatistic>, options: BootstrapOptions): { bills: BillSet; estimates: Record<K, Estimate> } {
  const bills = new BillSet(nowcasts.map((n) => n.billId));
  return { bills, estimates: bootstrap(bills, statistics(bills), { ...options, resample: sessionResample(bills, sessionsOf(nowcasts)) }) };
}

function kindTargets(kind: string, nowcasts: readonly ScoredNowcast[], options: BootstrapOptions): KindTargets {
  const model = forecasts(nowcasts, 'royal_assent', 'model');
  const table = forecasts(nowcasts, 'royal_assent', 'byKindAndStage');
  const { bills, estimates: e } = resampled(model.length ? nowcasts : [], (set) => {
    const m = memoised(brierStatistic(set, model));
    const t = memoised(brierStatistic(set, table));
    return { model: m, table: t, difference: differenceStatistic(m, t), intercept: calibrationInLargeStatistic(set, model), slope: calibrationSlopeStatistic(set, model) };
  }, options);
  return {
    kind,
    bills: bills.size,
    sessions: new Set(nowcasts.map((n) => n.foldSessionId)).size,
    modelBrier: e.model,
    tableBrier: e.table,
    brierDifference: e.difference,
    intercept: e.intercept,
    slope: e.slope,
    spiegelhalterZ: bills.size ? spiegelhalterStatistic(bills, model)(bills.ones()) : null,
  };
}

function riskVsKind(output: BinaryOutput, group: string, nowcasts: readonly ScoredNowcast[], options: BootstrapOptions): RiskVsKind {
  const known = nowcasts.filter((n) => n.outputs[output]);
  const model = forecasts(known, output, 'model');
  const kind = forecasts(known, output, 'byKind');
  const { bills, estimates: e } = resampled(known, (set) => {
    const m = memoised(brierStatistic(set, model));
    const k = memoised(brierStatistic(set, kind));
    return { model: m, kind: k, difference: differenceStatistic(m, k), auc: aucStatistic(set, model) };
  }, options);
  return { output, group, bills: bills.size, modelBrier: e.model, kindBrier: e.kind, brierDifference: e.difference, modelAuc: e.auc };
}

/** The targets on the scored nowcasts of the evaluation's folds. */
export function targets(nowcasts: readonly ScoredNowcast[], options: BootstrapOptions = {}): Targets {
  const ofKind = (kind: string) => nowcasts.filter((n) => n.kind === kind && n.outputs.royal_assent);
  const sessionIds = [...new Set(nowcasts.map((n) => n.foldSessionId))].sort((a, b) => a - b);
  const bySession = WATCHED_KINDS.flatMap((kind) =>
    sessionIds.flatMap((sessionId): SessionCalibration[] => {
      const model = forecasts(ofKind(kind).filter((n) => n.foldSessionId === sessionId), 'royal_assent', 'model');
      if (!model.length) return [];
      const bills = new BillSet(model.map((s) => s.billId));
      return [{ sessionId, kind, bills: bills.size, intercept: calibrationInLargeStatistic(bills, model)(bills.ones()) }];
    }),
  );
  const groups: [string, readonly ScoredNowcast[]][] = [['all', nowcasts], ...WATCHED_KINDS.map((k): [string, ScoredNowcast[]] => [k, nowcasts.filter((n) => n.kind === k)])];
  return {
    kinds: WATCHED_KINDS.map((kind) => kindTargets(kind, ofKind(kind), options)),
    bySession,
    risks: RISKS_VS_KIND.flatMap((o) => groups.map(([group, ns]) => riskVsKind(o, group, ns, options))),
  };
}

/** Whether an interval contains a value (null when there is no interval). */
export const covers = (e: Estimate, ideal: number): boolean | null => (e.low === null || e.high === null ? null : e.low <= ideal && ideal <= e.high);
