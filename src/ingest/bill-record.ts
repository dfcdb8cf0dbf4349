/**
 * The normalised shape every bill source produces and the ingest writer stores.
 * It follows the snapshot format of shared/data/uk-bills (see its README), so the snapshot
 * source is a near pass-through and the live Bills API source maps the API's JSON onto it.
 * Dates are ISO `YYYY-MM-DD` strings; absent values are null.
 */

// `pending` (BillOutcome) is a bill still before Parliament when the source was read (the snapshot says `pending_at_snapshot`).
import type { BillKind, BillOutcome, House, StagePhase } from '../vocabulary';

export type { BillKind, BillOutcome, House, StagePhase };

export interface SessionRecord {
  sessionId: number;
  name: string;
  /**
   * The session's official first day (State Opening or first sitting), announced ahead; null when
   * the source does not know it. A session's boundary: the first sitting seen in the bills can be
   * a mislabelled stage of the session before.
   */
  startDate: string | null;
  /** null while the session is running */
  endDate: string | null;
  /** for a session ended by a dissolution for a general election: the day its end became known (called, or fixed in law); null when not known to the source (always for the live Bills API) */
  endAnnounced?: string | null;
  firstObservedSittingDate: string | null;
  lastObservedSittingDate: string | null;
}

export interface SponsorRecord {
  memberId: number | null;
  name: string;
  /** the party on the introduction date (the live API's from the Members API's party history); null without an affiliation then */
  partyAtIntroduction: string | null;
  houseAtIntroduction: string | null;
}

export interface StageRecord {
  /** the API's sortOrder, 1 = first stage */
  seq: number;
  billStageId: number;
  stageId: number;
  /** normalised stage name, e.g. `second_reading` (see the data README for the vocabulary) */
  stage: string;
  description: string;
  abbr: string | null;
  house: House;
  sessionId: number | null;
  /** sitting dates, sorted and de-duplicated; empty when the stage never sat */
  dates: string[];
  /** dates later than the end of the stage's session, which cannot have happened */
  datesAfterSessionEnd: string[];
  phase: StagePhase | null;
  fromCurrentStage: boolean;
}

export interface DivisionRecord {
  house: House;
  date: string;
  number: number;
  title: string;
  ayesInclTellers: number;
  noesInclTellers: number;
  stage: string | null;
  billStageId: number | null;
  source: string;
}

export interface BillRecord {
  billId: number;
  shortTitle: string;
  longTitle: string | null;
  /** HTML, as the API gives it */
  summary: string | null;
  billTypeId: number;
  billType: string;
  billTypeCategory: string;
  billKind: BillKind;
  originatingHouse: House;
  introducedSessionId: number;
  sessionIds: number[];
  sponsors: SponsorRecord[];
  sponsorOrganisations: string[];
  leadSponsorPartyInGovernment: boolean | null;
  isAct: boolean;
  withdrawnDate: string | null;
  outcome: BillOutcome;
  introducedDate: string | null;
  royalAssentDate: string | null;
  /** the source's last-update time, ISO 8601 with its zone offset, when it has one; drives incremental sync */
  lastUpdate: string | null;
  stageHistory: 'full' | 'truncated' | 'current_stage_only';
  missingStageCount: number;
  stages: StageRecord[];
  divisions: DivisionRecord[];
}

/** When a session began: its official start where the source knows it, else the first sitting seen. */
export const sessionStartOf = (s: SessionRecord): string | null => s.startDate ?? s.firstObservedSittingDate;
