import type { BillFacts, SessionFact } from './bill-facts';
import { billState, type BillState } from './bill-state';

/**
 * The bill as it was known at the end of `date`: every stage sitting, division and withdrawal
 * after it removed, and so are the later sittings of its session's private members' bills. The undated facts of the data (the final sponsor list, the final title) are
 * not in BillFacts at all, so nothing here needs a date for them.
 */
export function truncateAt(facts: BillFacts, date: string): BillFacts {
  return {
    ...facts,
    stages: facts.stages.map((s) => ({ ...s, dates: s.dates.filter((d) => d <= date) })),
    divisions: facts.divisions.filter((d) => d.date <= date),
    withdrawnDate: facts.withdrawnDate && facts.withdrawnDate <= date ? facts.withdrawnDate : null,
    pmbSession: facts.pmbSession && { fridays: facts.pmbSession.fridays.filter((d) => d <= date), ballotPastSecondReading: facts.pmbSession.ballotPastSecondReading.filter((d) => d <= date) },
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
