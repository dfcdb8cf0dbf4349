import type { BillFacts } from './bill-facts';

/**
 * The private members' bill ballot: twenty members are drawn at the start of a session, and the
 * first seven drawn take the first seven sitting Fridays for their second readings. The data has
 * no ballot position. It has the order in which the session's ballot bills were presented (by
 * introduction date, then Bills API bill id), and a ballot bill's rank in that order stands in for
 * its place in the draw: the features read it, and the explanations name it as what it is, the
 * place in the order of presentation. It is known on the bill's introduction day: it reads only
 * bills introduced on or before that day.
 */
export const BALLOT_SLOTS = 20;
/** places in the draw that get one of the first sitting Fridays for second reading (read off the order of presentation) */
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
