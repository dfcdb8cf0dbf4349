import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../components/Status';
import { date, days, label, percent } from '../format';
import { errorMessage, gql } from '../graphql';
import { IMMINENT } from '../operations';
import { Table } from '../components/Table';
import type * as Schema from '../generated/schema';

type ImminentBill = Pick<Schema.ImminentBill, 'billId' | 'timelineEtaDays' | 'nextStageProbability' | 'royalAssentProbability' | 'predictedDate' | 'urgencyLevel' | 'billTitle' | 'originatingHouse'>;

/** The bills likely to move soon (specification 4.3): open to every tier, and it costs no prediction. */
export function Imminent() {
  const [daysAhead, setDaysAhead] = useState(14);
  const [minProbability, setMinProbability] = useState(0.5);
  const [bills, setBills] = useState<ImminentBill[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setBills(null);
    setError(null);
    gql<{ imminentBills: { bills: ImminentBill[] } }>(IMMINENT, { days: daysAhead, min: minProbability })
      .then((data) => setBills(data.imminentBills.bills))
      .catch((e) => setError(errorMessage(e)));
  }, [daysAhead, minProbability]);

  return (
    <section>
      <h1>Imminent</h1>
      <p class="muted">Live bills whose next stage is expected soon, most urgent first. Open to every account; it uses none of your daily predictions.</p>
      <form class="inline" onSubmit={(e) => e.preventDefault()}>
        <label for="days-ahead">Within (days)</label>
        <input id="days-ahead" type="number" min={1} max={30} value={daysAhead} onChange={(e) => setDaysAhead(Math.min(30, Math.max(1, Number(e.currentTarget.value) || 1)))} />
        <label for="min-probability">At least (chance of the next stage)</label>
        <select id="min-probability" value={String(minProbability)} onChange={(e) => setMinProbability(Number(e.currentTarget.value))}>
          {[0, 0.25, 0.5, 0.75].map((p) => (
            <option key={p} value={String(p)}>
              {percent(p)}
            </option>
          ))}
        </select>
      </form>
      <ErrorMessage error={error} />
      {!bills && !error && <Loading />}
      {bills && !bills.length && <p>No bill is expected to move within {daysAhead} days at that chance.</p>}
      {bills && bills.length > 0 && (
        <Table caption={`${bills.length} bills`} columns={['Bill', 'Urgency', 'Next stage in', 'Expected on', 'Chance of the next stage', 'Royal Assent']}>
          {bills.map((b) => (
            <tr key={b.billId}>
              <td>
                <a href={`#/bills/${b.billId}`}>{b.billTitle}</a> <span class="muted">({label(b.originatingHouse)})</span>
              </td>
              <td>
                <span class={`urgency ${b.urgencyLevel.toLowerCase()}`}>{label(b.urgencyLevel)}</span>
              </td>
              <td>{days(b.timelineEtaDays)}</td>
              <td>{date(b.predictedDate)}</td>
              <td>{percent(b.nextStageProbability)}</td>
              <td>{percent(b.royalAssentProbability)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
