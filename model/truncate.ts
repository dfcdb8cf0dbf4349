import type { BillFacts, SessionFact } from './bill-facts';
import { billState, type BillState } from './bill-state';

/**
 * The bill as it was known at the end of `date`: every stage sitting, division and withdrawal
 * after it removed, and the sponsors known then. The data's sponsor list is the final one, and a
 * member of the other house joins it only when the bill is brought there, so those count only from
 * the bill's first sitting in that house (a sponsor whose house is unknown counts from the start).
 */
export function truncateAt(facts: BillFacts, date: string): BillFacts {
  const stages = facts.stages.map((s) => ({ ...s, dates: s.dates.filter((d) => d <= date) }));
  const first = facts.originatingHouse;
  const inOtherHouse = (house: string) => (house === 'Commons' || house === 'Lords') && (first === 'Commons' || first === 'Lords') && house !== first;
  const reachedOtherHouse = stages.some((s) => inOtherHouse(s.house) && s.dates.length > 0);
  return {
    ...facts,
    stages,
    divisions: facts.divisions.filter((d) => d.date <= date),
    withdrawnDate: facts.withdrawnDate && facts.withdrawnDate <= date ? facts.withdrawnDate : null,
    sponsors: facts.sponsors.filter((s) => s.house === null || !inOtherHouse(s.house) || reachedOtherHouse),
  };
}

declare const knownOnDate: unique symbol;

/**
 * A bill as known on a date: its truncated facts and the state they put it in. The only way to
 * make one is billAsOf, so a feature computed from it cannot read anything dated later.
 */
export interface BillAsOf {
  readonly date: string;
  readonly facts: BillFacts;
  readonly state: BillState;
  readonly [knownOnDate]: true;
}

export function billAsOf(facts: BillFacts, date: string, sessions: readonly SessionFact[]): BillAsOf {
  const known = truncateAt(facts, date);
  return { date, facts: known, state: billState(known, date, sessions) } as BillAsOf;
}
