/**
 * Maps Bills API JSON onto the normalised `BillRecord` of the snapshot format
 * (shared/data/uk-bills/README.md, "Record format"), so both sources feed the writer the same thing.
 * The rules below were checked against the snapshot's bills.jsonl: fed its 2,861 bills rebuilt as API
 * JSON (with the session of 2021-22 still running), they reproduce every stage's name, phase, dates and
 * dates after the session end, and each bill's kind, outcome, introducedDate, royalAssentDate and
 * leadSponsorPartyInGovernment.
 *
 * What the live API cannot give, and how it is handled:
 * - Sponsors' party on the introduction date comes from the Members API's dated party history
 *   (`partyOn`, read by the source: party-history.ts), as the snapshot's did; without it, the
 *   member's current party as the Bills API reports it. The house is always the current one.
 * - There is no sessions endpoint: names and end dates come from `KNOWN_SESSIONS`, and a session is
 *   also taken to have ended once a later session id has been seen (ids grow with time).
 * - There are no divisions: `divisions` is always empty.
 */
import type { BillOutcome, BillRecord } from '../bill-record';
import { toIsoDate, withLondonOffset } from './api-dates';
import type { ApiBill, ApiBillSummary, ApiBillType, ApiStageSummary } from './api-types';
import { billKindFor, FALLBACK_BILL_TYPES } from './bill-types';
import type { SessionKnowledge } from './sessions';
import { normaliseSponsors, partyInGovernment } from './sponsors';
import { assignPhases, normaliseStage, toHouse } from './stages';

/**
 * `royal_assent` (isAct, or a dated Royal Assent stage — isAct is wrong for a few bills),
 * `withdrawn`, `fell` (defeated, or every session of the bill has ended), else `pending`.
 */
export function deriveOutcome(input: {
  isAct: boolean;
  royalAssentDate: string | null;
  withdrawnDate: string | null;
  isDefeated: boolean;
  sessionIds: readonly number[];
  sessions: SessionKnowledge;
}): BillOutcome {
  if (input.isAct || input.royalAssentDate) return 'royal_assent';
  if (input.withdrawnDate) return 'withdrawn';
  if (input.isDefeated) return 'fell';
  const lastSession = Math.max(...input.sessionIds);
  return Number.isFinite(lastSession) && input.sessions.hasEnded(lastSession) ? 'fell' : 'pending';
}

export interface NormaliseInput {
  /** the `/Bills` list item; its `lastUpdate` is what incremental sync compared against */
  summary: ApiBillSummary;
  detail: ApiBill;
  /** every item of `/Bills/{id}/Stages` */
  stages: readonly ApiStageSummary[];
  /** the bill's type from `/BillTypes`; `FALLBACK_BILL_TYPES` when absent */
  billType?: ApiBillType;
  sessions: SessionKnowledge;
  /** a member's party on a date, from the dated party history; undefined where it is not known */
  partyOn?: (memberId: number, date: string | null) => string | null | undefined;
}

/** One bill's API responses → `BillRecord`. */
export function normaliseBill(input: NormaliseInput): BillRecord {
  const { summary, detail, sessions } = input;
  const billTypeId = detail.billTypeId ?? summary.billTypeId;
  const billType = input.billType ?? FALLBACK_BILL_TYPES.find((t) => t.id === billTypeId);
  if (!billType) throw new Error(`Bills API bill ${detail.billId}: unknown bill type ${billTypeId}`);
  const originatingHouse = toHouse(detail.originatingHouse ?? summary.originatingHouse);

  const listed = [...input.stages].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => normaliseStage(s, sessions, false));
  const current = detail.currentStage ?? summary.currentStage;
  let stageHistory: BillRecord['stageHistory'] = 'full';
  let missingStageCount = 0;
  // Like the snapshot: a current stage missing from the list is appended, and the gap before it counted.
  if (current && !listed.some((s) => s.billStageId === current.id)) {
    const maxSeq = listed.reduce((m, s) => Math.max(m, s.seq), 0);
    if (current.sortOrder > maxSeq) {
      listed.push(normaliseStage(current, sessions, true));
      stageHistory = listed.length === 1 ? 'current_stage_only' : 'truncated';
      missingStageCount = Math.max(0, current.sortOrder - listed.length);
    }
  }
  const stages = assignPhases(listed, originatingHouse);

  const firstReading = stages.find((s) => s.stage === 'first_reading' && s.house === originatingHouse && s.dates.length > 0);
  const allDates = stages.flatMap((s) => s.dates).sort();
  const introducedDate = firstReading?.dates[0] ?? allDates[0] ?? null;
  const royalAssentDate = stages.find((s) => s.stage === 'royal_assent' && s.dates.length > 0)?.dates[0] ?? null;
  const withdrawnDate = toIsoDate(detail.billWithdrawn ?? summary.billWithdrawn);

  const introducedSessionId = detail.introducedSessionId ?? summary.introducedSessionId;
  const sessionIds = [...new Set([introducedSessionId, ...(detail.includedSessionIds ?? summary.includedSessionIds ?? [])])].sort((a, b) => a - b);

  const partyOn = input.partyOn;
  const { sponsors, sponsorOrganisations } = normaliseSponsors(detail.sponsors, partyOn && ((memberId) => partyOn(memberId, introducedDate)));
  // The list's value, not the detail's: it is the one incremental sync compared, and if the bill changed
  // in between, the older stamp only makes the next run fetch it again.
  const lastUpdate = summary.lastUpdate ?? detail.lastUpdate ?? null;
  const lead = sponsors[0];

  return {
    billId: detail.billId,
    shortTitle: detail.shortTitle ?? summary.shortTitle ?? '',
    longTitle: detail.longTitle ?? null,
    summary: detail.summary ?? null,
    billTypeId,
    billType: billType.name ?? String(billTypeId),
    billTypeCategory: billType.category,
    billKind: billKindFor(billType, originatingHouse),
    originatingHouse,
    introducedSessionId,
    sessionIds,
    sponsors,
    sponsorOrganisations,
    leadSponsorPartyInGovernment: lead ? partyInGovernment(lead.partyAtIntroduction, introducedDate) : null,
    isAct: detail.isAct ?? summary.isAct,
    withdrawnDate,
    outcome: deriveOutcome({
      isAct: detail.isAct ?? summary.isAct,
      royalAssentDate,
      withdrawnDate,
      isDefeated: detail.isDefeated ?? summary.isDefeated,
      sessionIds,
      sessions,
    }),
    introducedDate,
    royalAssentDate,
    lastUpdate: lastUpdate ? withLondonOffset(lastUpdate) : null,
    stageHistory,
    missingStageCount,
    stages,
    divisions: [],
  };
}
