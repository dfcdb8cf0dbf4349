/**
 * What the model may know of a bill: facts with a date (stages, divisions, a withdrawal) and facts
 * fixed at introduction (kind, house, the lead sponsor's party then). A prediction for a reference date
 * uses only the dated facts on or before it. Snapshot-time summaries (outcome, furthest stage,
 * an Act's title …) are not here at all: they live in BillOutcomeFacts, which only labels read.
 */

import type { BillKind, House } from '../../vocabulary';

export type { BillKind, House };

export interface StageFact {
  seq: number;
  /** normalised stage name, e.g. second_reading */
  stage: string;
  house: House;
  /** sorted sitting dates, YYYY-MM-DD */
  dates: string[];
}

export interface DivisionFact {
  date: string;
  ayes: number;
  noes: number;
}

export interface BillFacts {
  billId: number;
  kind: BillKind;
  originatingHouse: House;
  introducedDate: string | null;
  introducedSessionId: number;
  /**
   * The lead sponsor's party was in government on the introduction date; null without sponsors.
   * Nothing else of the sponsor list is here: the list is the final one, undated, and the members
   * added to it later (the sponsor in the second house, often a peer who was once an MP, so the
   * "house at introduction" cannot tell them apart) would tell the model how far the bill got.
   */
  leadSponsorPartyInGovernment: boolean | null;
  stages: StageFact[];
  divisions: DivisionFact[];
  /** the date the bill was withdrawn, a dated fact like a stage */
  withdrawnDate: string | null;
  /**
   * A ballot bill's place in the order its session's ballot bills were presented (1 = first),
   * known on its introduction day (src/model/serve/ballot.ts); null or absent for other bills or when unknown.
   */
  ballotRank?: number | null;
  /**
   * For a private member's bill, dated facts of its session's private members' bills
   * (src/model/serve/pmb-session.ts); null or absent for other bills. Cut at a date by truncateAt, like the stages.
   */
  pmbSession?: PmbSessionFacts | null;
}

export interface PmbSessionFacts {
  /** the Commons Fridays on which a private member's bill of the session sat, sorted */
  fridays: string[];
  /** for each of the session's ballot bills that got past Commons second reading, the first day it sat at a later stage, sorted */
  ballotPastSecondReading: string[];
}

/** A session's official first day (announced ahead) and, once it has happened, its end (prorogation or dissolution). */
export interface SessionFact {
  id: number;
  startDate: string | null;
  endDate: string | null;
  /**
   * A dissolution for a general election, once it is known: the day its date became known (the
   * election called, or the date fixed in law) and the session's last day then known. Known only
   * from `announced` on; null or absent for a session ended by prorogation, or not yet announced.
   */
  dissolution?: SessionDissolution | null;
  /** the Commons Fridays on which a private member's bill of the session sat, sorted (each known from its day on); absent when not read */
  pmbFridays?: readonly string[];
}

export interface SessionDissolution {
  announced: string;
  end: string;
}

/** The answers, for labels and checking only: never an input to features. */
export interface BillOutcomeFacts {
  outcome: 'royal_assent' | 'withdrawn' | 'fell' | 'pending';
  royalAssentDate: string | null;
  /** the last session the bill existed in */
  finalSessionId: number;
  /**
   * The last day up to which the bill's stage history is known to be complete; null when it is
   * complete throughout. Stage-timing labels are censored after it, as after a training cutoff.
   */
  stageHistoryCompleteUntil: string | null;
}

/**
 * Where a stage history that lost stages is still whole. The API gave the first stages of a long
 * bill and then its last one (appended from the bill list), with `missingStageCount` stages
 * between them lost: every sitting up to the first sitting of the last stage before the gap is
 * there. A bill is not dropped for losing stages later in its life: that is known only once they
 * are lost, and it is the long government bills that lose them, so dropping them would drop bills
 * by how long they turned out to be.
 */
export function stageHistoryCompleteUntil(stageHistory: string, missingStageCount: number, stages: readonly StageFact[], introducedDate: string | null): string | null {
  if (stageHistory === 'full' || (stageHistory === 'truncated' && missingStageCount === 0)) return null;
  const lastSeq = Math.max(...stages.map((s) => s.seq));
  const beforeGap = stages.filter((s) => s.seq !== lastSeq).flatMap((s) => (s.dates[0] ? [s.dates[0]] : []));
  return beforeGap.length ? beforeGap.reduce((a, b) => (a > b ? a : b)) : (introducedDate ?? '0000-01-01');
}

export interface TrainingBill {
  facts: BillFacts;
  outcome: BillOutcomeFacts;
}
