import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../components/Status';
import { dateTime } from '../format';
import { errorMessage, gql } from '../graphql';
import { CREATE_WATCHLIST, WATCHLISTS } from '../operations';
import { navigate } from '../router';
import { useSession } from '../session';
import type * as Schema from '../generated/schema';

type WatchlistSummary = Pick<Schema.Watchlist, 'id' | 'name' | 'description' | 'billCount' | 'updatedAt'>;

/** The user's watchlists, and a form for a new one (Pilot and above). */
export function Watchlists() {
  const { me } = useSession();
  const [watchlists, setWatchlists] = useState<WatchlistSummary[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (me?.tier === 'FREE') return;
    gql<{ watchlists: WatchlistSummary[] }>(WATCHLISTS)
      .then((data) => setWatchlists(data.watchlists))
      .catch((e) => setError(errorMessage(e)));
  }, [me]);

  if (me?.tier === 'FREE') {
    return (
      <section>
        <h1>Watchlists</h1>
        <p class="callout">
          Watchlists, with alert thresholds on their bills, are for the Pilot tier or above. Pilot gives 5 thresholds per watchlist and 100 predictions a day; ask the service’s operator to
          upgrade your account.
        </p>
      </section>
    );
  }

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const { createWatchlist } = await gql<{ createWatchlist: { id: number } }>(CREATE_WATCHLIST, { input: { name: name.trim() } });
      navigate(`#/watchlists/${createWatchlist.id}`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <section>
      <h1>Watchlists</h1>
      <form class="inline" onSubmit={create}>
        <label for="new-watchlist">New watchlist name</label>
        <input id="new-watchlist" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Create watchlist</button>
      </form>
      <ErrorMessage error={error} />
      {!watchlists && !error && <Loading />}
      {watchlists && !watchlists.length && <p>No watchlists yet.</p>}
      {watchlists && watchlists.length > 0 && (
        <ul class="cards">
          {watchlists.map((w) => (
            <li key={w.id}>
              <a href={`#/watchlists/${w.id}`}>{w.name}</a>
              <span class="muted">
                {' '}
                · {w.billCount} {w.billCount === 1 ? 'bill' : 'bills'} · changed {dateTime(w.updatedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
