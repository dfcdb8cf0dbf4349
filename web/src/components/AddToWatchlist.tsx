import { useEffect, useState } from 'preact/hooks';
import { errorMessage, gql } from '../graphql';
import { ADD_BILLS_TO_WATCHLIST, WATCHLIST_NAMES } from '../operations';
import { ErrorMessage, Notice } from './Status';

/** On a bill's page (Pilot and above): puts the bill on one of the user's watchlists. */
export function AddToWatchlist({ billId }: { billId: number }) {
  const [watchlists, setWatchlists] = useState<{ id: number; name: string }[]>([]);
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    gql<{ watchlists: { id: number; name: string }[] }>(WATCHLIST_NAMES).then(
      (data) => {
        setWatchlists(data.watchlists);
        setChosen(String(data.watchlists[0]?.id ?? ''));
      },
      () => setWatchlists([]),
    );
  }, [billId]);

  if (!watchlists.length) return null;
  const add = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    try {
      const { addBillsToWatchlist } = await gql<{ addBillsToWatchlist: { name: string } }>(ADD_BILLS_TO_WATCHLIST, {
        id: Number(chosen),
        bills: [billId],
      });
      setDone(`Added to “${addBillsToWatchlist.name}”.`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <form class="inline" onSubmit={add}>
      <label for="watchlist-choice">Watchlist</label>
      <select id="watchlist-choice" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
        {watchlists.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <button type="submit">Add to watchlist</button>
      {done && <Notice>{done}</Notice>}
      <ErrorMessage error={error} />
    </form>
  );
}
