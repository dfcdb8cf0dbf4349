/** Each test session's watched kinds beside the sessions its model learned from: the drift of pass rates the card shows. */
import { BillSet, billWeightedReport, meanForecastStatistic } from '../train/bill-weighted';
import { kindGroup } from '../serve/features';
import { billCount, forecasts, type ScoredNowcast, WATCHED_KINDS } from './skill-by-kind';
import { sessionsKnownAt, type TrainingData } from '../train/train';

/** An earlier session with fewer bills of the kind says little about its pass rate. */
const MIN_EARLIER_BILLS = 5;

/**
 * One kind in one test session beside the sessions its model learned from: how many of its bills
 * were enacted, what the model and the kind × stage table expected, and the enacted shares of the
 * same kind in the sessions that had ended by the fold's cutoff (Royal Assents dated by then).
 */
export interface KindInSession {
  session: string;
  kind: string;
  bills: number;
  enacted: number;
  /** mean P(Royal Assent) over the bill's nowcasts, then over bills (each bill weighing 1) */
  modelMean: number | null;
  tableMean: number | null;
  modelEce: number | null;
  earlier: { sessions: number; lowestShare: number; highestShare: number } | null;
}

/** Bill-weighted mean of one forecaster's Royal Assent probabilities. */
function meanOf(nowcasts: readonly ScoredNowcast[], by: 'model' | 'byKindAndStage'): number | null {
  const samples = forecasts(nowcasts, 'royal_assent', by);
  const bills = new BillSet(samples.map((s) => s.billId));
  return meanForecastStatistic(bills, samples)(bills.ones());
}

/** The enacted share of a kind's bills in each session that had ended by `cutoff`, counting only Royal Assents dated by then. */
function earlierShares(data: TrainingData, kind: string, cutoff: string): KindInSession['earlier'] {
  const ended = new Set(sessionsKnownAt(data.sessions, cutoff).flatMap((s) => (s.endDate ? [s.id] : [])));
  const bySession = new Map<number, { bills: number; enacted: number }>();
  for (const bill of data.bills) {
    if (!ended.has(bill.facts.introducedSessionId) || kindGroup(bill.facts.kind) !== kind) continue;
    const session = bySession.get(bill.facts.introducedSessionId) ?? bySession.set(bill.facts.introducedSessionId, { bills: 0, enacted: 0 }).get(bill.facts.introducedSessionId)!;
    session.bills++;
    if (bill.outcome.royalAssentDate !== null && bill.outcome.royalAssentDate <= cutoff) session.enacted++;
  }
  const shares = [...bySession.values()].filter((s) => s.bills >= MIN_EARLIER_BILLS).map((s) => s.enacted / s.bills);
  return shares.length ? { sessions: shares.length, lowestShare: Math.min(...shares), highestShare: Math.max(...shares) } : null;
}

/** Each test session's government and ballot bills: what happened, what was expected, and what earlier sessions had shown. */
export function kindsBySession(data: TrainingData, folds: readonly { session: { id: number; name: string }; cutoff: string }[], nowcasts: readonly ScoredNowcast[]): KindInSession[] {
  return folds.flatMap((fold) =>
    WATCHED_KINDS.flatMap((kind) => {
      const own = nowcasts.filter((n) => n.foldSessionId === fold.session.id && n.kind === kind && n.outputs.royal_assent);
      if (!own.length) return [];
      const model = forecasts(own, 'royal_assent', 'model');
      return [
        {
          session: fold.session.name,
          kind,
          bills: billCount(model),
          enacted: billCount(model.filter((s) => s.y === 1)),
          modelMean: meanOf(own, 'model'),
          tableMean: meanOf(own, 'byKindAndStage'),
          modelEce: billWeightedReport(model).ece,
          earlier: earlierShares(data, kind, fold.cutoff),
        },
      ];
    }),
  );
}
