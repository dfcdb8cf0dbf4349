import type { SessionFact, TrainingBill } from './bill-facts';
import { billState } from './bill-state';
import { addDays } from './dates';
import { featureVector } from './features';
import { labelsAt, type Labels } from './labels';
import type { SittingCalendar } from './sitting-calendar';

export interface Sample {
  billId: number;
  date: string;
  kind: string;
  /** furthest passage position at the date, for the stage-aware baseline */
  progress: number;
  lastStage: string | null;
  features: number[];
  labels: Labels;
}

/** Days between the regular looks at a bill between its sittings. */
export const SAMPLE_STEP_DAYS = 28;

/**
 * A bill seen at many dates of its life: each day it sat, and every few weeks between, from
 * introduction until it was enacted, withdrawn or fell (or `until`). Only dates when the bill was
 * alive make samples; labels are what was known at `knownUntil`.
 */
export function samplesOf(bill: TrainingBill, options: { from?: string; until: string; knownUntil: string; sessions: readonly SessionFact[]; calendar: SittingCalendar }): Sample[] {
  const { facts } = bill;
  if (!facts.introducedDate) return [];
  const dates = new Set<string>();
  for (const stage of facts.stages) for (const d of stage.dates) dates.add(d);
  const lastLook = [...dates].sort().at(-1) ?? facts.introducedDate;
  const end = options.until < addDays(lastLook, 400) ? options.until : addDays(lastLook, 400);
  for (let d = facts.introducedDate; d <= end; d = addDays(d, SAMPLE_STEP_DAYS)) dates.add(d);

  const samples: Sample[] = [];
  for (const date of [...dates].sort()) {
    if (date < facts.introducedDate || date > options.until || (options.from && date < options.from)) continue;
    const state = billState(facts, date, options.sessions);
    if (state.status !== 'live') continue;
    samples.push({
      billId: facts.billId,
      date,
      kind: facts.kind,
      progress: state.progress,
      lastStage: state.lastMain?.stage ?? null,
      features: featureVector(facts, state, options.sessions, options.calendar),
      labels: labelsAt(bill, date, options.knownUntil, options.sessions),
    });
  }
  return samples;
}
