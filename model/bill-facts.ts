/**
 * What the model may know of a bill: facts with a date (stages, divisions, a withdrawal) and facts
 * fixed at introduction (kind, house, sponsors' party then). A prediction for a reference date
 * uses only the dated facts on or before it. Snapshot-time summaries (outcome, furthest stage,
 * an Act's title …) are not here at all: they live in BillOutcomeFacts, which only labels read.
 */

import type { BillKind, House } from '../src/vocabulary';

export type { BillKind, House };

export interface StageFact {
  seq: number;
  /** normalised stage name, e.g. second_reading */
  stage: string;
  house: House;
  /** sorted sitting dates, YYYY-MM-DD */
  dates: string[];
}

/** A sponsor as the data gives it: the list is not dated, so when each became known follows from their house. */
export interface SponsorFact {
  /** the member's house when the bill was introduced; null when unknown (an organisation) */
  house: House | null;
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
  /** the lead sponsor's party was in government on the introduction date; null without sponsors */
  leadSponsorPartyInGovernment: boolean | null;
  /**
   * The bill's final sponsor list (undated): a member of the second house is added only when the
   * bill reaches that house, so read it through truncateAt, never directly.
   */
  sponsors: SponsorFact[];
  stages: StageFact[];
  divisions: DivisionFact[];
  /** the date the bill was withdrawn, a dated fact like a stage */
  withdrawnDate: string | null;
  /**
   * A ballot bill's place in the order its session's ballot bills were presented (1 = first),
   * known on its introduction day (model/ballot.ts); null or absent for other bills or when unknown.
   */
  ballotRank?: number | null;
}

/** A session's first sitting and, once it has happened, its end (prorogation or dissolution). */
export interface SessionFact {
  id: number;
  startDate: string | null;
  endDate: string | null;
}

/** The answers, for labels and checking only: never an input to features. */
export interface BillOutcomeFacts {
  outcome: 'royal_assent' | 'withdrawn' | 'fell' | 'pending';
  royalAssentDate: string | null;
  /** the last session the bill existed in */
  finalSessionId: number;
  /** false when the API lost some stages (long bills): stage-timing labels are unreliable then */
  fullStageHistory: boolean;
}

export interface TrainingBill {
  facts: BillFacts;
  outcome: BillOutcomeFacts;
}
