import type { BillFacts, SessionFact, StageFact, TrainingBill } from './bill-facts';
import { MAX_PROGRESS } from './bill-state';
import { addDays, daysBetween } from '../../common/dates';
import { kindGroup } from './features';
import { pushTo } from '../../common/multimap';
import { billAsOf } from './truncate';

/**
 * The typical bill of a kind, the reference an explanation measures a bill against: how far and
 * how fast the kind's bills went, and whose party sponsored them, learned from the bills whose passage was
 * over (enacted, withdrawn or fallen) by the training cutoff.
 */
export interface TypicalBill {
  /**
   * For passage positions 1 to 11 (bill-state's progress): the median number of days from
   * introduction to reaching it, counting a bill that never reached it as never; null where most
   * of the kind's bills never did. Never decreasing: a bill reaches a position no later than the next.
   */
  daysToPosition: (number | null)[];
  /** the lead sponsor's party was in government, for most of the kind's bills whose sponsor's party is known; null: none is */
  leadSponsorPartyInGovernment: boolean | null;
  /** the median place of the kind's ballot bills in the order of presentation (ballot.ts); null for a kind with none */
  ballotRank: number | null;
}

/** The last position before Royal Assent: a reference is a live bill, like the bills it explains. */
const LAST_LIVE_POSITION = MAX_PROGRESS - 1;

/**
 * Stages that tie a bill to its sessions rather than move it along (a carry-over motion keeps it
 * alive into the next session): a reference keeps the explained bill's, so it is live in the same session.
 */
export const SESSION_STAGES: ReadonlySet<string> = new Set(['carry_over_motion', 'revival_motion', 'bill_reintroduced']);

const lowerMedian = (sorted: number[]) => sorted[Math.floor((sorted.length - 1) / 2)];

/** The typical bill of each kind group (features' kindGroup), from the bills settled by the cutoff. */
export function typicalBills(bills: readonly TrainingBill[], sessions: readonly SessionFact[], cutoff: string): Record<string, TypicalBill> {
  const reached = new Map<string, number[][]>();
  const party = new Map<string, (boolean | null)[]>();
  const ranks = new Map<string, number[]>();
  for (const { facts: all } of bills) {
    if (!all.introducedDate || all.introducedDate > cutoff) continue;
    const { facts, state } = billAsOf(all, cutoff, sessions);
    if (state.status === 'live') continue;
    const group = kindGroup(facts.kind);
    const days = Array.from({ length: LAST_LIVE_POSITION }, (_, i) => {
      const first = state.mainEvents.find((e) => e.progress >= i + 1);
      return first ? Math.max(0, daysBetween(facts.introducedDate!, first.date)) : Infinity;
    });
    // a position reached no later than the next one, whatever order the data dates them in
    for (let i = days.length - 2; i >= 0; i--) days[i] = Math.min(days[i], days[i + 1]);
    pushTo(reached, group, days);
    pushTo(party, group, facts.leadSponsorPartyInGovernment);
    if (facts.ballotRank) pushTo(ranks, group, facts.ballotRank);
  }
  const result: Record<string, TypicalBill> = {};
  for (const [group, rows] of reached) {
    const votes = party.get(group)!;
    const count = (value: boolean | null) => votes.filter((v) => v === value).length;
    // many older bills have no sponsor in the data: a missing record is not what is typical of a kind
    const commonest = count(true) + count(false) === 0 ? null : count(true) >= count(false);
    const sorted = (values: number[] | undefined) => [...(values ?? [])].sort((a, b) => a - b);
    result[group] = {
      daysToPosition: Array.from({ length: LAST_LIVE_POSITION }, (_, i) => {
        const days = lowerMedian(sorted(rows.map((r) => r[i])));
        return Number.isFinite(days) ? days : null;
      }),
      leadSponsorPartyInGovernment: commonest,
      ballotRank: ranks.get(group)?.length ? lowerMedian(sorted(ranks.get(group))) : null,
    };
  }
  return result;
}

/** A kind no settled bill of the training data had: introduced and no further, with no sponsor. */
const UNKNOWN_KIND: TypicalBill = { daysToPosition: [0], leadSponsorPartyInGovernment: null, ballotRank: null };

const STAGE_AT_STEP = ['first_reading', 'second_reading', 'committee', 'report', 'third_reading'];

/** The main stage that brings a bill to a passage position (1–11) from a house. */
function stageAt(position: number, originatingHouse: BillFacts['originatingHouse']): Pick<StageFact, 'stage' | 'house'> {
  if (position === LAST_LIVE_POSITION) return { stage: 'consideration_of_amendments', house: originatingHouse };
  const otherHouse = originatingHouse === 'Commons' ? 'Lords' : 'Commons';
  return position <= 5 ? { stage: STAGE_AT_STEP[position - 1], house: originatingHouse } : { stage: STAGE_AT_STEP[position - 6], house: otherHouse };
}

/**
 * The reference for a bill on a date: a bill of the same kind, introduced the same day in the same
 * house and session (its carry-over motions too), whose passage kept to its kind's median
 * timetable up to the date (one sitting per stage, no divisions, stopping short of Royal Assent),
 * with the kind's usual sponsor and, for a ballot bill, the middle place in the order of presentation.
 * Everything the date and the session decide is the bill's own: only the bill's own story differs.
 */
export function referenceBill(facts: BillFacts, date: string, typical: TypicalBill = UNKNOWN_KIND): BillFacts {
  const twoHouses = facts.originatingHouse === 'Commons' || facts.originatingHouse === 'Lords';
  const stages: StageFact[] = [];
  if (facts.introducedDate) {
    typical.daysToPosition.forEach((days, i) => {
      const position = i + 1;
      if (days === null || (!twoHouses && position > 5)) return;
      const day = addDays(facts.introducedDate!, days);
      if (day <= date) stages.push({ seq: position, ...stageAt(position, facts.originatingHouse), dates: [day] });
    });
  }
  return {
    ...facts,
    leadSponsorPartyInGovernment: typical.leadSponsorPartyInGovernment,
    ballotRank: facts.ballotRank ? (typical.ballotRank ?? facts.ballotRank) : facts.ballotRank,
    stages: [...stages, ...facts.stages.filter((s) => SESSION_STAGES.has(s.stage)).map((s) => ({ ...s, seq: s.seq + 100 }))],
    divisions: [],
    withdrawnDate: null,
  };
}
