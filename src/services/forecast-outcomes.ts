import type { SessionFact, TrainingBill } from '../model/serve/bill-facts';
import { fateDate, labelsAt } from '../model/serve/labels';
import { addDays } from '../common/dates';

/** The outputs the track record scores, each with the rule by which its forecasts resolve. */
export const SCORED_OUTPUTS = ['royal_assent', 'next_stage_30d', 'timeline_eta'] as const;
export type ScoredOutput = (typeof SCORED_OUTPUTS)[number];

/** What followed a forecast, once known. */
export interface ForecastOutcome {
  /** 1 or 0 for a probability; for the ETA the days the next stage took, or null when there was none */
  outcome: number | null;
  /** the day the answer was settled: the fate, the next stage, or the end of the 30 days */
  resolvedOn: string;
}

const earlier = (a: string | null, b: string) => (a !== null && a < b ? a : b);

/**
 * How a forecast made on `forecastDate` resolved, as the data knows it on `today`, or null while it
 * is open. The answers are the training labels' (labels.ts, with `today` as the cutoff), so the
 * record scores what the model was trained to forecast:
 * - royal_assent: 1 when the bill was enacted, 0 when it was withdrawn or its last session ended
 *   without it; on that day.
 * - next_stage_30d: 1 when a main stage sat within the 30 days after the forecast (on the day it
 *   sat), 0 once the 30 days passed without one, or the bill's fate came first (on that day).
 * - timeline_eta: the days to the next main stage, on the day it sat; no next stage (null) when the
 *   bill's fate came first, on that day.
 * A stage history known to have lost stages is open from where the loss begins, as in training.
 */
export function forecastOutcome(output: ScoredOutput, forecastDate: string, bill: TrainingBill, sessions: readonly SessionFact[], today: string): ForecastOutcome | null {
  const labels = labelsAt(bill, forecastDate, today, sessions);
  const fate = fateDate(bill, sessions);
  const nextStage = labels.timeline_eta === null ? null : addDays(forecastDate, labels.timeline_eta);
  switch (output) {
    case 'royal_assent':
      return labels.royal_assent === null ? null : { outcome: labels.royal_assent, resolvedOn: fate! };
    case 'next_stage_30d':
      if (labels.next_stage_30d === null) return null;
      // a stage that sat where the history has lost stages proves the move, not its day: the 30 days' end bounds it
      return { outcome: labels.next_stage_30d, resolvedOn: (labels.next_stage_30d ? nextStage : null) ?? earlier(fate, addDays(forecastDate, 30)) };
    case 'timeline_eta':
      if (labels.timeline_eta !== null) return { outcome: labels.timeline_eta, resolvedOn: nextStage! };
      return labels.no_next_stage ? { outcome: null, resolvedOn: fate! } : null;
  }
}
