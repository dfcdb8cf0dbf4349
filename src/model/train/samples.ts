/** Training and evaluation samples: each bill seen on a common grid of days through its life, with its features and labels. */
import type { BillKind, SessionFact, TrainingBill } from '../serve/bill-facts';
import { fromDayNumber, toDayNumber } from '../../common/dates';
import { featureVector } from '../serve/features';
import { labelsAt, type Labels } from '../serve/labels';
import type { SittingCalendar } from '../serve/sitting-calendar';
import { billAsOf } from '../serve/truncate';

export interface Sample {
  billId: number;
  date: string;
  kind: BillKind;
  /** the session the bill was in on the date (moved on by a carry-over) */
  sessionId: number;
  /** furthest passage position at the date, for the stage-aware baseline */
  progress: number;
  lastStage: string | null;
  features: number[];
  labels: Labels;
}

/**
 * Days between the looks at a bill: one calendar grid for every bill (day numbers divisible by
 * it). Training looks every 28 days (the first start must train in well under a minute); the
 * evaluation scores every 14 days, a grid that contains the training one.
 */
export const SAMPLE_STEP_DAYS = 28;
export const EVALUATION_STEP_DAYS = 14;

/** The grid days from `from` to `until`, both included. */
export function gridDates(from: string, until: string, step = SAMPLE_STEP_DAYS): string[] {
  const dates: string[] = [];
  for (let day = Math.ceil(toDayNumber(from) / step) * step; day <= toDayNumber(until); day += step) dates.push(fromDayNumber(day));
  return dates;
}

/**
 * A bill seen on every grid day from its introduction until it was enacted, withdrawn or fell
 * (as known on that day), or `until`. The grid ignores the bill's own sittings: sampling on them,
 * or up to its last one, would tell the model when the bill moved and how long it lived. Labels
 * are what was known at `knownUntil`.
 */
export function samplesOf(bill: TrainingBill, options: { from?: string; until: string; knownUntil: string; sessions: readonly SessionFact[]; calendar: SittingCalendar; stepDays?: number }): Sample[] {
  const { facts } = bill;
  if (!facts.introducedDate) return [];
  const from = options.from && options.from > facts.introducedDate ? options.from : facts.introducedDate;
  const samples: Sample[] = [];
  for (const date of gridDates(from, options.until, options.stepDays)) {
    const known = billAsOf(facts, date, options.sessions);
    // settled for good (a carried-over bill is live in its next session, not fallen)
    if (known.state.status !== 'live') break;
    samples.push({
      billId: facts.billId,
      date,
      kind: facts.kind,
      sessionId: known.state.sessionId,
      progress: known.state.progress,
      lastStage: known.state.lastMain?.stage ?? null,
      features: featureVector(known, options.sessions, options.calendar),
      labels: labelsAt(bill, date, options.knownUntil, options.sessions),
    });
  }
  return samples;
}
