import type { KindCalibration } from './calibration';
import type { KindStageTable } from './kind-stage-table';
import type { BinaryOutput } from './labels';
import type { TypicalBill } from './typical-bill';

/**
 * Everything a trained model version is: pure data (JSON), stored in the database as one value.
 * The predictor is a function of this and a bill's facts; nothing else.
 */
export interface ModelArtifact {
  featureSchemaVersion: number;
  /** the last date whose facts the model learned from */
  cutoff: string;
  seed: number;
  featureNames: string[];
  /** Parliament's sitting dates up to the cutoff (see SittingCalendar) */
  sittingDates: string[];
  /** brain.js NeuralNetwork.toJSON() of each probability's networks (an ensemble, averaged) */
  networks: Record<BinaryOutput, object[]>;
  /** applied to the ensemble's mean, by the bill's kind group */
  calibration: Record<BinaryOutput, KindCalibration>;
  /** brain.js networks giving shares of the days to the next main stage over the intervals of ETA_BIN_EDGES (one output each) and of no next stage (the last output), averaged: read with next_stage_30d as one distribution (next-stage.ts) */
  eta: object[];
  /** the typical bill of each kind group: what explanations measure a bill against */
  typicalBills: Record<string, TypicalBill>;
  /** the baseline its forecasts are judged against: rates and ETAs by kind and stage of its training samples */
  kindStageTable: KindStageTable;
  /** medians by bill kind used by the risk indicators */
  norms: {
    committeeSittings: Record<string, number>;
    mainStageGapDays: Record<string, number>;
  };
  /** training samples per output, and per split */
  sampleCounts: Record<string, number>;
  /** how the calibrated outputs scored on the calibration bills (held out of recently ended sessions) */
  calibrationPeriodMetrics: Record<BinaryOutput, { n: number; auc: number | null; brier: number | null }>;
}

/** The longest time to a next stage the ETA networks can express. */
export const ETA_CAP_DAYS = 730;
/**
 * The ETA networks' intervals of days to the next main stage: (0, 7], (7, 14], … (365, 730]; a
 * longer wait counts in the last. Finer at the start, where government bills' waits are.
 */
export const ETA_BIN_EDGES: readonly number[] = [0, 7, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365, ETA_CAP_DAYS];
