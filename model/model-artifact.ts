import type { PlattScaling } from './calibration';
import type { BinaryOutput } from './labels';

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
  /** brain.js NeuralNetwork.toJSON() of each probability network */
  networks: Record<BinaryOutput, object>;
  calibration: Record<BinaryOutput, PlattScaling>;
  /** brain.js network predicting log1p(days to next main stage) / log1p(ETA_CAP_DAYS) */
  eta: object;
  /** medians by bill kind used by the risk indicators */
  norms: {
    committeeSittings: Record<string, number>;
    mainStageGapDays: Record<string, number>;
  };
  /** training samples per output, and per split */
  sampleCounts: Record<string, number>;
  /** how the calibrated outputs scored on the calibration period (the most recent data the nets did not train on) */
  calibrationPeriodMetrics: Record<BinaryOutput, { n: number; auc: number | null; brier: number | null }>;
}

/** The longest time to a next stage the ETA network can express. */
export const ETA_CAP_DAYS = 730;
