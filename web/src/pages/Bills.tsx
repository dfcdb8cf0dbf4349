import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../components/Status';
import { date, kindName, label, words } from '../format';
import { errorMessage, gql } from '../graphql';
import { BILL_BY_ID, BILL_SEARCH } from '../operations';
import { navigate } from '../router';
import { Table } from '../components/Table';
import type * as Schema from '../generated/schema';

/** What a search selects (BILL_BY_ID, BILL_SEARCH), typed from the schema. */
export type BillSummary = Pick<Schema.Bill, 'id' | 'title' | 'kind' | 'originatingHouse' | 'outcome'> & { stages: Pick<Schema.Stage, 'stage' | 'house' | 'date'>[] };

/** Bills whose title holds the text, or the bill with that id. */
export async function searchBills(text: string): Promise<BillSummary[]> {
  const trimmed = text.trim();
  if (/^\d{1,9}$/.test(trimmed)) {
    const { bill } = await gql<{ bill: BillSummary | null }>(BILL_BY_ID, { id: Number(trimmed) });
    return bill ? [bill] : [];
  }
  const { bills } = await gql<{ bills: { nodes: BillSummary[] } }>(BILL_SEARCH, { text: trimmed });
  return bills.nodes;
}

export const currentStage = (bill: BillSummary) => bill.stages.filter((s) => s.date).at(-1) ?? bill.stages.at(-1);

/** The search field and its results: kind, current stage and house of each bill. */
export function Bills({ query }: { query: string }) {
  const [text, setText] = useState(query);
  const [results, setResults] = useState<BillSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setText(query);
    if (!query.trim()) return setResults(null);
    setLoading(true);
    setError(null);
    searchBills(query)
      .then(setResults)
      .catch((e) => setError(errorMessage(e)))
      .finally(() => setLoading(false));
  }, [query]);

  return (
    <section>
      <h1>Bills</h1>
      <form
        role="search"
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`#/bills?q=${encodeURIComponent(text)}`);
        }}
      >
        <label for="bill-search">Search bills</label>
        <input id="bill-search" type="search" placeholder="A word of the title, or a bill id" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      {loading && <Loading what="Searching" />}
      {results && !loading && <BillTable bills={results} caption={`${results.length} ${results.length === 1 ? 'bill' : 'bills'} for “${query}”`} />}
    </section>
  );
}

export function BillTable({ bills, caption }: { bills: BillSummary[]; caption: string }) {
  if (!bills.length) return <p>No bills found: try another word of the title, or a bill id.</p>;
  return (
    <Table caption={caption} columns={['Bill', 'Kind', 'Stage', 'House']}>
      {bills.map((bill) => {
        const stage = currentStage(bill);
        return (
          <tr key={bill.id}>
            <td>
              <a href={`#/bills/${bill.id}`}>{bill.title}</a> <span class="muted">#{bill.id}</span>
            </td>
            <td>{kindName(bill.kind)}</td>
            <td>
              {stage ? label(stage.stage) : '—'} {stage?.date && <span class="muted">({date(stage.date)})</span>}
              {bill.outcome !== 'PENDING' && <span class={`tag ${bill.outcome.toLowerCase()}`}>{words(bill.outcome)}</span>}
            </td>
            <td>{label(bill.originatingHouse)}</td>
          </tr>
        );
      })}
    </Table>
  );
}
