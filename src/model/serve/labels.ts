/** The outputs the model predicts and their labels: what happened after a date as far as it was known at the cutoff, censored beyond it. */
import type { SessionFact, TrainingBill } from './bill-facts';
import { isMainStage } from './bill-state';
import { addDays, daysBetween } from '../../common/dates';
import type { PredictionOutput } from '../../vocabulary';

/** The probabilities the model predicts, each its own network (their order seeds their training); the ETA has networks of its own. */
export const BINARY_OUTPUTS = ['royal_assent', 'next_stage_30d', 'stall_risk', 'withdrawal_risk', 'amendment_risk', 'close_vote'] as const satisfies readonly Exclude<PredictionOutput, 'timeline_eta'>[];
export type BinaryOutput = (typeof BINARY_OUTPUTS)[number];

/** Commons division counts in the data stop here (The Public Whip, to 17 July 2018). */
export const DIVISIONS_KNOWN_UNTIL = '2018-07-17';
export const STALL_DAYS = 200;
export const NEXT_STAGE_DAYS = 30;
/** a division closer than this share of votes cast is a close vote */
export const CLOSE_VOTE_MARGIN = 0.1;

/** Margin of a division as a share of votes cast (0 = tied). */
export const divisionMargin = (ayes: number, noes: number) => (ayes + noes > 0 ? Math.abs(ayes - noes) / (ayes + noes) : 1);

export type Labels = Record<BinaryOutput, 0 | 1 | null> & {
  /** days from the reference date to the next main-stage sitting; null when none is known */
  timeline_eta: number | null;
  /** known that no main stage follows the date: the bill fell or was withdrawn first */
  no_next_stage: boolean;
};

/** The date a bill's fate was settled and known, or null while it was still alive at the snapshot. */
export function fateDate(bill: TrainingBill, sessions: readonly SessionFact[]): string | null {
  const { outcome } = bill;
  if (outcome.outcome === 'royal_assent') return outcome.royalAssentDate;
  if (outcome.outcome === 'withdrawn') return bill.facts.withdrawnDate;
  if (outcome.outcome === 'fell') return sessions.find((s) => s.id === outcome.finalSessionId)?.endDate ?? null;
  return null;
}

/**
 * What happened after `date`, as far as it was known at `knownUntil` (the training cutoff).
 * A label whose answer lies beyond the cutoff is null: censored, never counted as a failure.
 */
export function labelsAt(bill: TrainingBill, date: string, knownUntil: string, sessions: readonly SessionFact[]): Labels {
  const facts = bill.facts;
  const fate = fateDate(bill, sessions);
  const fateKnown = fate !== null && fate <= knownUntil;
  // a stage history that lost stages is censored where the loss begins, as the data is at the cutoff
  const completeUntil = bill.outcome.stageHistoryCompleteUntil;
  const timingKnownUntil = completeUntil !== null && completeUntil < knownUntil ? completeUntil : knownUntil;
  const fateInTiming = fate !== null && fate <= timingKnownUntil;

  const laterMain: string[] = [];
  let amendedAfter: string | null = null;
  let firstCommittee: string | null = null;
  for (const stage of facts.stages) {
    if (stage.stage === 'committee' && stage.dates[0] && (!firstCommittee || stage.dates[0] < firstCommittee)) firstCommittee = stage.dates[0];
  }
  for (const stage of facts.stages) {
    for (const day of stage.dates) {
      if (day <= date || day > knownUntil) continue;
      if (isMainStage(stage.stage)) laterMain.push(day);
      const amended = stage.stage === 'consideration_of_amendments' || (stage.stage === 'report' && firstCommittee !== null && firstCommittee < day);
      if (amended && (!amendedAfter || day < amendedAfter)) amendedAfter = day;
    }
  }
  laterMain.sort();
  const next = laterMain[0] ?? null;

  // a stage seen in the window proves one sat in it; its absence counts only where the history is whole
  const within = (days: number): 0 | 1 | null => {
    if (next && daysBetween(date, next) <= days) return 1;
    if (addDays(date, days) <= timingKnownUntil || fateInTiming) return 0;
    return null;
  };

  const withdrawnAfter = facts.withdrawnDate && facts.withdrawnDate > date && facts.withdrawnDate <= knownUntil;
  const divisionsKnownUntil = knownUntil < DIVISIONS_KNOWN_UNTIL ? knownUntil : DIVISIONS_KNOWN_UNTIL;
  // The close-vote window runs to the bill's fate. Only where it closed while divisions were still
  // recorded could either answer have been seen: a close vote in a window still open is labelled
  // no more than its absence would be, or the label would pick positives by what happened later.
  const closeVote: 0 | 1 | null =
    fate !== null && fate <= divisionsKnownUntil ? (facts.divisions.some((v) => v.date > date && v.date <= fate && divisionMargin(v.ayes, v.noes) < CLOSE_VOTE_MARGIN) ? 1 : 0) : null;

  return {
    royal_assent: bill.outcome.royalAssentDate && bill.outcome.royalAssentDate <= knownUntil ? 1 : fateKnown ? 0 : null,
    next_stage_30d: within(NEXT_STAGE_DAYS),
    timeline_eta: next && next <= timingKnownUntil ? daysBetween(date, next) : null,
    no_next_stage: !next && fateInTiming,
    stall_risk: within(STALL_DAYS) === null ? null : ((1 - within(STALL_DAYS)!) as 0 | 1),
    withdrawal_risk: withdrawnAfter ? 1 : next ? 0 : fateKnown ? 1 : null,
    amendment_risk: amendedAfter ? 1 : fateInTiming ? 0 : null,
    close_vote: closeVote,
  };
}
