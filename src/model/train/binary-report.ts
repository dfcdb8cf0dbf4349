/** What the model card writes of a set of yes/no forecasts (bill-weighted.ts billWeightedReport). */

/**
 * One bin of a reliability (calibration) table: forecasts whose probability fell in
 * [lower, upper) — the last bin also includes 1 — and how often the event happened
 * among them. A well-calibrated model has observedRate ≈ meanPredicted in every bin.
 */
export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  /** Average forecast probability in the bin; null when the bin is empty. */
  meanPredicted: number | null;
  /** Fraction of the bin's forecasts whose event happened; null when the bin is empty. */
  observedRate: number | null;
}

/** The headline numbers for a set of binary forecasts, as written to the model card. */
export interface BinaryReport {
  n: number;
  positives: number;
  auc: number | null;
  brier: number | null;
  ece: number | null;
  reliability: ReliabilityBin[];
}
