import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../components/Status';
import { date, kindName, label, words } from '../format';
import { errorMessage, gql } from '../graphql';
import { BILL_BY_ID, BILL_SEARCH, SESSIONS } from '../operations';
import { navigate } from '../router';
import { Table } from '../components/Table';
import type * as Schema from '../generated/schema';

/** What a search selects (BILL_BY_ID, BILL_SEARCH), typed from the schema. */
export type BillSummary = Pick<Schema.Bill, 'id' | 'title' | 'kind' | 'originatingHouse' | 'outcome'> & {
  introducedSession: Pick<Schema.ParliamentarySession, 'id' | 'name'> | null;
  stages: Pick<Schema.Stage, 'stage' | 'house' | 'date'>[];
};
type Session = Pick<Schema.ParliamentarySession, 'id' | 'name'>;

export interface SearchResult {
  bills: BillSummary[];
  /** every match, beyond the page shown */
  totalCount: number;
}

/** Bills whose title holds the text (in a session, when one is given), newest session first; or the bill with that id. */
export async function searchBills(text: string, session: number | null = null): Promise<SearchResult> {
  const trimmed = text.trim();
  if (/^\d{1,9}$/.test(trimmed)) {
    const { bill } = await gql<{ bill: BillSummary | null }>(BILL_BY_ID, { id: Number(trimmed) });
    return bill ? { bills: [bill], totalCount: 1 } : { bills: [], totalCount: 0 };
  }
  const { bills } = await gql<{ bills: { totalCount: number; nodes: BillSummary[] } }>(BILL_SEARCH, { text: trimmed || null, session });
  return { bills: bills.nodes, totalCount: bills.totalCount };
}

export const currentStage = (bill: BillSummary) => bill.stages.filter((s) => s.date).at(-1) ?? bill.stages.at(-1);

const searchHref = (text: string, session: string) => `#/bills?${new URLSearchParams({ q: text, ...(session ? { session } : {}) })}`;

/** The search field, a session to narrow it to, and the results: session, kind, current stage and house of each bill. */
export function Bills({ query, session }: { query: string; session: string }) {
  const [text, setText] = useState(query);
  const [sessionChoice, setSessionChoice] = useState(session);
  const [sessions, setSessions] = useState<Session[]>([]);
  const [results, setResults] = useState<SearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    gql<{ sessions: Session[] }>(SESSIONS)
      .then((data) => setSessions([...data.sessions].reverse()))
      .catch((e) => setError(errorMessage(e)));
  }, []);
  useEffect(() => {
    setText(query);
    setSessionChoice(session);
    if (!query.trim() && !session) return setResults(null);
    setLoading(true);
    setError(null);
    searchBills(query, session ? Number(session) : null)
      .then(setResults)
      .catch((e) => setError(errorMessage(e)))
      .finally(() => setLoading(false));
  }, [query, session]);

  const sessionName = sessions.find((s) => String(s.id) === session)?.name;
  const what = [query.trim() && `“${query.trim()}”`, sessionName && `in ${sessionName}`].filter(Boolean).join(' ');
  return (
    <section>
      <h1>Bills</h1>
      <form
        role="search"
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(searchHref(text, sessionChoice));
        }}
      >
        <label for="bill-search">Search bills</label>
        <input id="bill-search" type="search" placeholder="A word of the title, or a bill id" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <label for="bill-session">Session</label>
        <select id="bill-session" value={sessionChoice} onChange={(e) => setSessionChoice(e.currentTarget.value)}>
          <option value="">Every session</option>
          {sessions.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      {loading && <Loading what="Searching" />}
      {results && !loading && (
        <BillTable
          bills={results.bills}
          caption={`${results.totalCount} ${results.totalCount === 1 ? 'bill' : 'bills'} ${what}, newest session first${results.totalCount > results.bills.length ? ` (the first ${results.bills.length} shown: choose a session to narrow it)` : ''}`}
        />
      )}
    </section>
  );
}

export function BillTable({ bills, caption }: { bills: BillSummary[]; caption: string }) {
  if (!bills.length) return <p>No bills found: try another word of the title, another session, or a bill id.</p>;
  return (
    <Table caption={caption} columns={['Bill', 'Session', 'Kind', 'Stage', 'House']}>
      {bills.map((bill) => {
        const stage = currentStage(bill);
        return (
          <tr key={bill.id}>
            <td>
              <a href={`#/bills/${bill.id}`}>{bill.title}</a> <span class="muted">#{bill.id}</span>
            </td>
            <td>{bill.introducedSession?.name ?? '—'}</td>
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
