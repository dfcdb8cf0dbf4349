/**
 * The evaluation's leak check: every scored nowcast is recomputed from the data as it stood on its
 * date, cut here by code of its own and not by truncateAt. A check that cut both sides with
 * truncateAt would agree with itself whatever truncateAt let through; this one finds any fact dated
 * after the nowcast that reached its features (a stage, a withdrawal, a session's end, another
 * private member's bill's sitting).
 */
import type { BillFacts, SessionFact } from '../serve/bill-facts';
import { isPrivateMembersBill, pmbSessionFacts, pmbSessionOf } from '../serve/pmb-session';
import type { Predictor } from '../serve/predictor';
import type { Sample } from '../train/samples';

export interface LeakCheck {
  nowcasts: number;
  differing: number;
}

/**
 * The sessions as known at the end of `date`: begun by then, with an end only if it came by then, a
 * dissolution only if announced by then, and only the private members' Fridays sat by then.
 */
const sessionsOn = (sessions: readonly SessionFact[], date: string): SessionFact[] =>
  sessions
    .filter((s) => s.startDate !== null && s.startDate <= date)
    .map((s) => {
      const known: SessionFact = { id: s.id, startDate: s.startDate, endDate: s.endDate !== null && s.endDate <= date ? s.endDate : null };
      if (s.dissolution && s.dissolution.announced <= date) known.dissolution = { announced: s.dissolution.announced, end: s.dissolution.end };
      if (s.pmbFridays) known.pmbFridays = s.pmbFridays.filter((d) => d <= date);
      return known;
    });

/** A bill's own dated facts on or before `date`; its session's private members' facts are set by the caller. */
function ownFactsOn(facts: BillFacts, date: string): BillFacts {
  return {
    ...facts,
    stages: facts.stages.map((s) => ({ ...s, dates: s.dates.filter((d) => d <= date) })),
    divisions: facts.divisions.filter((v) => v.date <= date),
    withdrawnDate: facts.withdrawnDate !== null && facts.withdrawnDate <= date ? facts.withdrawnDate : null,
  };
}

/**
 * The bills as known on each date: each cut on its own, and a private member's bill's session facts
 * counted again from its session's bills as cut (not filtered from the counts it carries).
 */
export class DataAsOf {
  private readonly byId: Map<number, BillFacts>;
  private readonly pmbSessions = new Map<string, ReturnType<typeof pmbSessionFacts>>();

  constructor(private readonly bills: readonly BillFacts[]) {
    this.byId = new Map(bills.map((b) => [b.billId, b]));
  }

  factsOn(billId: number, date: string): BillFacts {
    const cut = ownFactsOn(this.byId.get(billId)!, date);
    if (cut.pmbSession === undefined) return cut;
    return { ...cut, pmbSession: pmbSessionOf(this.pmbSessionsOn(date), cut) };
  }

  private pmbSessionsOn(date: string): ReturnType<typeof pmbSessionFacts> {
    let facts = this.pmbSessions.get(date);
    if (!facts) {
      facts = pmbSessionFacts(this.bills.filter((b) => isPrivateMembersBill(b.kind)).map((b) => ownFactsOn(b, date)));
      this.pmbSessions.set(date, facts);
    }
    return facts;
  }
}

/** How many of the scored nowcasts (`samples`, scored from their features) differ from the nowcast recomputed from the data as known on their date. */
export function checkForLeaks(predictor: Predictor, data: DataAsOf, samples: readonly Sample[], sessions: readonly SessionFact[]): LeakCheck {
  const check = { nowcasts: 0, differing: 0 };
  for (const s of samples) {
    const scored = predictor.fromFeatures(s.features, s.kind);
    const then = predictor.nowcast(data.factsOn(s.billId, s.date), s.date, sessionsOn(sessions, s.date));
    check.nowcasts++;
    if (then.status !== 'live' || JSON.stringify([scored.probabilities, scored.etaDays]) !== JSON.stringify([then.probabilities, then.timelineEtaDays])) check.differing++;
  }
  return check;
}
