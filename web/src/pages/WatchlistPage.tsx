import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading, Notice } from '../components/Status';
import { Thresholds } from '../components/Thresholds';
import { kindName } from '../format';
import { errorMessage, gql } from '../graphql';
import { ADD_BILLS_TO_WATCHLIST, DELETE_WATCHLIST, REMOVE_BILL_FROM_WATCHLIST, RENAME_WATCHLIST, WATCHLIST } from '../operations';
import { navigate } from '../router';
import { type BillSummary, searchBills } from './Bills';
import { type WatchedBill, WatchlistBills } from '../components/WatchlistBills';
import { WatchlistChannels } from '../components/WatchlistChannels';
import type * as Schema from '../generated/schema';

type Watchlist = Pick<Schema.Watchlist, 'id' | 'name'> & { bills: WatchedBill[] };

/** One watchlist: rename, delete, its bills with today's predictions, adding bills from search, its thresholds, and its email, feeds and CSV. */
export function WatchlistPage({ id }: { id: number }) {
  const [watchlist, setWatchlist] = useState<Watchlist | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<string | null>(null);

  const load = () =>
    gql<{ watchlist: Watchlist }>(WATCHLIST, { id })
      .then((data) => {
        setWatchlist(data.watchlist);
        setName(data.watchlist.name);
      })
      .catch((e) => setError(errorMessage(e)));
  useEffect(() => void load(), [id]);

  const run = async (action: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNotice(null);
    try {
      await action();
      if (done) setNotice(done);
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  if (!watchlist) return error ? <ErrorMessage error={error} /> : <Loading />;

  const rename = (event: Event) => {
    event.preventDefault();
    void run(() => gql(RENAME_WATCHLIST, { id, name: name.trim() }), 'Renamed.');
  };
  const remove = async () => {
    if (!confirm(`Delete the watchlist “${watchlist.name}” and its thresholds?`)) return;
    try {
      await gql(DELETE_WATCHLIST, { id });
      navigate('#/watchlists');
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <section>
      <p>
        <a href="#/watchlists">← Watchlists</a>
      </p>
      <h1>{watchlist.name}</h1>
      <form class="inline" onSubmit={rename}>
        <label for="watchlist-name">Name</label>
        <input id="watchlist-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Rename</button>
        <button type="button" class="danger" onClick={remove}>
          Delete watchlist
        </button>
      </form>
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}

      <h2>Bills</h2>
      {watchlist.bills.length ? (
        <WatchlistBills bills={watchlist.bills} onRemove={(bill) => run(() => gql(REMOVE_BILL_FROM_WATCHLIST, { id, bill }))} />
      ) : (
        <p>No bills yet: add some below.</p>
      )}
      <AddBills onAdd={(billId) => run(() => gql(ADD_BILLS_TO_WATCHLIST, { id, bills: [billId] }), 'Bill added.')} />
      <Thresholds watchlistId={id} bills={watchlist.bills.map((b) => ({ id: b.billId, title: b.bill?.title ?? `Bill ${b.billId}` }))} />
      <WatchlistChannels watchlistId={id} />
    </section>
  );
}

function AddBills({ onAdd }: { onAdd: (billId: number) => void }) {
  const [text, setText] = useState('');
  const [results, setResults] = useState<BillSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      setResults((await searchBills(text)).bills);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <>
      <h3>Add bills</h3>
      <form role="search" class="inline" onSubmit={search}>
        <label for="watchlist-search">Search bills to add</label>
        <input id="watchlist-search" type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      {results && !results.length && <p>No bills found.</p>}
      {results && results.length > 0 && (
        <ul class="cards">
          {results.map((b) => (
            <li key={b.id}>
              {b.title} <span class="muted">
                #{b.id} · {b.introducedSession?.name ?? 'session unknown'} · {kindName(b.kind)}
              </span>{' '}
              <button type="button" aria-label={`Add ${b.title}`} onClick={() => onAdd(b.id)}>
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
