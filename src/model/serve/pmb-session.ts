import type { BillFacts, BillKind, PmbSessionFacts, SessionFact, StageFact } from './bill-facts';
import { isMainStage } from './bill-state';
import { toDayNumber } from '../../common/dates';
import { pushTo } from '../../common/multimap';

/**
 * What a private member's bill's chances follow besides its own stages: the Fridays the Commons
 * gives private members' bills (Standing Order 14 sets thirteen, but sessions have given 0 to 18:
 * 18 in the long 2010-12 and 2017-19, 7 in 2019-21; sessionOutlook expects them from the ended
 * sessions), of which the ones already used are gone, and how the session's ballot bills have fared so far (a session in which the
 * government lets ballot bills through passes many). Both are dated facts of the session's other
 * bills, attached to each private member's bill and cut at the reference date with its own stages.
 */
export const PRIVATE_MEMBERS_KINDS: readonly BillKind[] = ['pmb_ballot', 'pmb_ten_minute_rule', 'pmb_presentation', 'pmb_lords'];
export const isPrivateMembersBill = (kind: BillKind) => PRIVATE_MEMBERS_KINDS.includes(kind);

/** A bill of the session, as far as these facts need it. */
export type PmbSessionPeer = Pick<BillFacts, 'kind' | 'introducedSessionId'> & { stages: Pick<StageFact, 'stage' | 'house' | 'dates'>[] };

// 1970-01-01 was a Thursday
const isFriday = (date: string) => (toDayNumber(date) % 7 + 7) % 7 === 1;

/** The first day a ballot bill sat at a main stage after its Commons second reading: the proof that second reading was agreed (a set-down date is not). */
function pastSecondReading(stages: PmbSessionPeer['stages']): string | null {
  let first: string | null = null;
  for (const s of stages) {
    if (!isMainStage(s.stage) || (s.house === 'Commons' && (s.stage === 'first_reading' || s.stage === 'second_reading'))) continue;
    if (s.dates[0] && (!first || s.dates[0] < first)) first = s.dates[0];
  }
  return first;
}

/** Each session's private members' Fridays and ballot bills past second reading, from its private members' bills. */
export function pmbSessionFacts(peers: Iterable<PmbSessionPeer>): Map<number, PmbSessionFacts> {
  const fridays = new Map<number, Set<string>>();
  const past = new Map<number, string[]>();
  for (const peer of peers) {
    if (!isPrivateMembersBill(peer.kind)) continue;
    const session = peer.introducedSessionId;
    const days = fridays.get(session) ?? fridays.set(session, new Set()).get(session)!;
    for (const s of peer.stages) if (s.house === 'Commons') for (const d of s.dates) if (isFriday(d)) days.add(d);
    const passed = peer.kind === 'pmb_ballot' ? pastSecondReading(peer.stages) : null;
    if (passed) pushTo(past, session, passed);
  }
  const sessions = new Set([...fridays.keys(), ...past.keys()]);
  return new Map([...sessions].map((id) => [id, { fridays: [...(fridays.get(id) ?? [])].sort(), ballotPastSecondReading: (past.get(id) ?? []).sort() }]));
}

/** A bill's session facts from its sessions' (pmbSessionFacts): none for a bill that is not a private member's. */
export const pmbSessionOf = (bySession: ReadonlyMap<number, PmbSessionFacts>, bill: Pick<BillFacts, 'kind' | 'introducedSessionId'>): PmbSessionFacts | null =>
  isPrivateMembersBill(bill.kind) ? (bySession.get(bill.introducedSessionId) ?? { fridays: [], ballotPastSecondReading: [] }) : null;

/** The sessions with their private members' Fridays (SessionFact.pmbFridays) from each session's facts (pmbSessionFacts). */
export const withPmbFridays = <S extends SessionFact>(sessions: readonly S[], bySession: ReadonlyMap<number, PmbSessionFacts>): S[] =>
  sessions.map((s) => ({ ...s, pmbFridays: bySession.get(s.id)?.fridays ?? [] }));

/** Sets every private member's bill's session facts from the given bills (all of each session's private members' bills must be among them). */
export function assignPmbSessionFacts<T extends BillFacts>(bills: T[]): T[] {
  const bySession = pmbSessionFacts(bills);
  for (const b of bills) b.pmbSession = pmbSessionOf(bySession, b);
  return bills;
}
