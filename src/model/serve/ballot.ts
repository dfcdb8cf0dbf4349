import type { BillFacts } from './bill-facts';

/**
 * The private members' bill ballot: the twenty members drawn at the start of a session present
 * their bills on one day, in the order of the draw, and the first seven take the first seven
 * sitting Fridays for their second readings. The data has no ballot position, but the Bills API
 * numbered the bills in the order they were presented, so a ballot bill's rank among its
 * session's ballot bills (by introduction date, then bill id) is its place in that order. It is
 * known on the bill's introduction day: it reads only bills introduced on or before that day.
 */
export const BALLOT_SLOTS = 20;
/** ballot positions that get one of the first sitting Fridays for second reading */
export const BALLOT_FIRST_FRIDAYS = 7;

export type Rankable = Pick<BillFacts, 'billId' | 'kind' | 'introducedDate' | 'introducedSessionId'>;

const before = (a: Rankable, b: Rankable) => a.introducedDate! < b.introducedDate! || (a.introducedDate === b.introducedDate && a.billId < b.billId);

/** 1 for the first ballot bill presented in its session; null for a bill that is not a ballot bill. */
export function ballotRank(bill: Rankable, others: Iterable<Rankable>): number | null {
  if (bill.kind !== 'pmb_ballot' || !bill.introducedDate) return null;
  let rank = 1;
  for (const o of others) if (o.kind === 'pmb_ballot' && o.introducedDate && o.introducedSessionId === bill.introducedSessionId && before(o, bill)) rank++;
  return rank;
}

/** Sets every ballot bill's rank among the given bills (all of its session's ballot bills must be among them). */
export function assignBallotRanks<T extends BillFacts>(bills: T[]): T[] {
  const ballot = bills.filter((b) => b.kind === 'pmb_ballot');
  for (const b of bills) b.ballotRank = ballotRank(b, ballot);
  return bills;
}
