/**
 * Measures that weigh every sample alike (each sample its own bill), which the tests hold the
 * bill-weighted ones and the reliability diagram against. The service reports only the
 * bill-weighted measures, so these live with the tests. A bad probability, label or estimate
 * throws from bill-weighted.ts's own checks.
 */
import { BillSet, eceStatistic, meanAbsoluteErrorStatistic, medianAbsoluteErrorStatistic, weightedReliability } from '../../src/model/train/bill-weighted';
import type { BinaryReport, ReliabilityBin } from '../../src/model/train/binary-report';
import { auc, brier, type BinaryOutcome } from '../../src/model/train/metrics';

/** One point estimate of a quantity and the value that was observed. */
export interface RegressionOutcome {
  predicted: number;
  actual: number;
}

function validateBinCount(bins: number): void {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`metrics: bins must be a positive integer (got ${String(bins)})`);
}

function ownBills<T extends object>(samples: readonly T[]): { bills: BillSet; samples: (T & { billId: number })[] } {
  return { bills: new BillSet(samples.keys()), samples: samples.map((s, billId) => ({ ...s, billId })) };
}

/** Equal-width bins over [0, 1]; a forecast of 1 is in the last; empty bins are kept, with nulls. */
export function reliabilityTable(samples: BinaryOutcome[], bins = 10): ReliabilityBin[] {
  validateBinCount(bins);
  return weightedReliability(ownBills(samples).samples, bins).map(({ bills: _bills, ...bin }) => bin);
}

export function expectedCalibrationError(samples: BinaryOutcome[], bins = 10): number | null {
  validateBinCount(bins);
  const own = ownBills(samples);
  return eceStatistic(own.bills, own.samples, bins)(own.bills.ones());
}

export function medianAbsoluteError(samples: RegressionOutcome[]): number | null {
  const own = ownBills(samples);
  return medianAbsoluteErrorStatistic(own.bills, own.samples)(own.bills.ones());
}

export function meanAbsoluteError(samples: RegressionOutcome[]): number | null {
  const own = ownBills(samples);
  return meanAbsoluteErrorStatistic(own.bills, own.samples)(own.bills.ones());
}

export function binaryReport(samples: BinaryOutcome[], bins = 10): BinaryReport {
  validateBinCount(bins);
  return {
    n: samples.length,
    positives: samples.reduce((acc, s) => acc + s.y, 0),
    auc: auc(samples),
    brier: brier(samples),
    ece: expectedCalibrationError(samples, bins),
    reliability: reliabilityTable(samples, bins),
  };
}
