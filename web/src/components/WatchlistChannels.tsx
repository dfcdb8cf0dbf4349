/**
 * Where a watchlist's news goes besides the page (issue 33): email (the address's status, the
 * notification setting, a test email, the next digest's preview), the secret calendar and Atom addresses, and the
 * predictions as a CSV file. One request loads them all.
 */
import { useEffect, useState } from 'preact/hooks';
import type { EmailStatus } from '../generated/schema';
import { errorMessage, gql } from '../graphql';
import { WATCHLIST_CHANNELS, WATCHLIST_CSV } from '../operations';
import { useSession } from '../session';
import { EmailStatusLine } from './EmailStatusLine';
import { FeedAddresses, type FeedUrls } from './FeedAddresses';
import { NextDigest, type NextDigestPreview } from './NextDigest';
import { type NotificationSetting, NotificationSettings } from './NotificationSettings';
import { ErrorMessage, Loading, Notice } from './Status';

interface Channels {
  me: { email: string; emailStatus: EmailStatus; nextDigest: NextDigestPreview | null };
  watchlist: FeedUrls & { id: number };
  watchlistNotifications: NotificationSetting;
}

export function WatchlistChannels({ watchlistId }: { watchlistId: number }) {
  const { me } = useSession();
  const [channels, setChannels] = useState<Channels | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saves, setSaves] = useState(0);

  useEffect(() => {
    gql<Channels>(WATCHLIST_CHANNELS, { id: watchlistId }).then(setChannels, (e) => setError(errorMessage(e)));
  }, [watchlistId]);

  if (!channels) return error ? <ErrorMessage error={error} /> : <Loading what="Loading the email settings" />;
  return (
    <>
      <h2>Email notifications</h2>
      <EmailStatusLine email={channels.me.email} status={channels.me.emailStatus} />
      <NotificationSettings
        key={channels.watchlistNotifications.watchlistId}
        initial={channels.watchlistNotifications}
        pro={me?.tier === 'PRO'}
        onSaved={(saved) => {
          setChannels({ ...channels, watchlistNotifications: saved });
          setSaves(saves + 1);
        }}
      />
      <NextDigest initial={channels.me.nextDigest} watchlistId={watchlistId} reload={saves} />
      <h2>Calendar and feed</h2>
      <FeedAddresses watchlistId={watchlistId} urls={channels.watchlist} onChange={(urls) => setChannels({ ...channels, watchlist: { ...channels.watchlist, ...urls } })} />
      <h2>Export</h2>
      <DownloadCsv watchlistId={watchlistId} />
    </>
  );
}

/**
 * "Download CSV": the server writes the file (the same as REST's predictions.csv) and answers it
 * as text through one of the dashboard's own GraphQL documents, because the session cookie never
 * opens the REST door; the page hands the text to the browser as a file.
 */
function DownloadCsv({ watchlistId }: { watchlistId: number }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      const { watchlistPredictionsCsv: file } = await gql<{ watchlistPredictionsCsv: { filename: string; csv: string; rows: number } }>(WATCHLIST_CSV, { id: watchlistId });
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: file.filename });
      document.body.append(link);
      link.click();
      link.remove();
      // after the click has started the download: revoking at once can cancel it in some browsers
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNotice(`Saved ${file.filename} (${file.rows} ${file.rows === 1 ? 'bill' : 'bills'}).`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p class="hint">Today’s predictions of every bill here, one row each, for a spreadsheet. It counts as the predictions it holds, as opening the bills does.</p>
      <button type="button" class="secondary" disabled={busy} onClick={download}>
        Download CSV
      </button>
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}
    </>
  );
}
