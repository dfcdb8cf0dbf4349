import { date, days, label, percent, risk } from '../format';
import { ACTIONS, Table } from './Table';
import type * as Schema from '../generated/schema';

/** What the watchlist page selects of each bill (operations.ts WATCHLIST), typed from the schema. */
export type WatchedBill = Pick<Schema.WatchlistBill, 'billId' | 'predictionDetail'> & {
  bill: Pick<Schema.Bill, 'title'> | null;
  prediction:
    | (Pick<Schema.Prediction, 'referenceDate' | 'royalAssent' | 'nextStage30d' | 'timelineEtaDays' | 'timelineEtaScheduledFor' | 'stallRisk'> & {
        lastStage: Pick<NonNullable<Schema.Prediction['lastStage']>, 'stage' | 'house'> | null;
        riskIndicators: Pick<Schema.RiskIndicators, 'stallRiskLevel'>;
      })
    | null;
};

const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) + Math.round(n) * 86_400_000).toISOString();

/** Soonest next stage first (the ETA, which is the days to the sitting when one is scheduled); bills with no next stage or no prediction last. */
export function soonestFirst(bills: readonly WatchedBill[]): WatchedBill[] {
  const eta = (b: WatchedBill) => b.prediction?.timelineEtaDays ?? Infinity;
  return [...bills].sort((a, b) => eta(a) - eta(b) || (b.prediction?.nextStage30d ?? -1) - (a.prediction?.nextStage30d ?? -1) || a.billId - b.billId);
}

function NextStage({ p }: { p: NonNullable<WatchedBill['prediction']> }) {
  if (p.timelineEtaDays === null) return <>no next stage</>;
  if (p.timelineEtaScheduledFor) return <>scheduled for {date(p.timelineEtaScheduledFor)}</>;
  return (
    <>
      in about {days(p.timelineEtaDays)} <span class="muted">(around {date(addDays(p.referenceDate, p.timelineEtaDays))})</span>
    </>
  );
}

/** A watchlist's bills with what is coming for each: where it stands, when its next stage is due, and its chances. */
export function WatchlistBills({ bills, onRemove }: { bills: readonly WatchedBill[]; onRemove: (billId: number) => void }) {
  return (
    <Table caption="Soonest next stage first" columns={['Bill', 'Stage reached', 'Next stage', 'Next stage within 30 days', 'Royal Assent', 'Stall risk', ACTIONS]}>
      {soonestFirst(bills).map((b) => (
        <tr key={b.billId}>
          <td>
            <a href={`#/bills/${b.billId}`}>{b.bill?.title ?? `Bill ${b.billId}`}</a>
          </td>
          {b.prediction ? (
            <>
              <td>{b.prediction.lastStage ? `${label(b.prediction.lastStage.stage)} (${b.prediction.lastStage.house})` : 'before its first reading'}</td>
              <td>
                <NextStage p={b.prediction} />
              </td>
              <td>{percent(b.prediction.nextStage30d)}</td>
              <td>{percent(b.prediction.royalAssent)}</td>
              <td>{risk(b.prediction.stallRisk, b.prediction.riskIndicators.stallRiskLevel)}</td>
            </>
          ) : (
            <td colSpan={5} class="muted">
              {b.predictionDetail ?? 'no prediction'}
            </td>
          )}
          <td>
            <button type="button" aria-label={`Remove ${b.bill?.title ?? b.billId} from the watchlist`} onClick={() => onRemove(b.billId)}>
              Remove
            </button>
          </td>
        </tr>
      ))}
    </Table>
  );
}
