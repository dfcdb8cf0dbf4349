import type { KindCalibration } from './calibration';
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
  /** brain.js NeuralNetwork.toJSON() of each probability's networks (an ensemble, averaged) */
  networks: Record<BinaryOutput, object[]>;
  /** applied to the ensemble's mean, by the bill's kind group */
  calibration: Record<BinaryOutput, KindCalibration>;
  /** brain.js networks predicting log1p(days to next main stage) / log1p(ETA_CAP_DAYS), averaged */
  eta: object[];
  /** the mean of each feature over the training samples: a factor's typical value in explanations */
  typicalFeatures: number[];
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

/** The longest time to a next stage the ETA network can express. */
export const ETA_CAP_DAYS = 730;
