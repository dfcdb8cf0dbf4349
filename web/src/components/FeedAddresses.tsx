/**
 * A watchlist's secret calendar (iCalendar) and Atom addresses (issue 33), each with a copy
 * button, and the token's rotation and revocation: the address is the only credential a calendar
 * app sends, so a leaked one is replaced here and the old one answers 404 at once.
 */
import { useState } from 'preact/hooks';
import { errorMessage, gql } from '../graphql';
import { REVOKE_FEED_TOKEN, ROTATE_FEED_TOKEN } from '../operations';
import { CopyButton } from './CopyButton';
import { ErrorMessage, Notice } from './Status';

export interface FeedUrls {
  calendarUrl: string | null;
  feedUrl: string | null;
}

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <p class="feed-label">{label}</p>
      <p class="key-row">
        <code>{value}</code>
        <CopyButton class="secondary" value={value} label={`Copy the ${label.toLowerCase()}`} />
      </p>
    </div>
  );
}

export function FeedAddresses({ watchlistId, urls, onChange }: { watchlistId: number; urls: FeedUrls; onChange(urls: FeedUrls): void }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const rotate = async () => {
    if (urls.calendarUrl && !confirm('Make new addresses? Calendars and feed readers using the old ones stop updating at once.')) return;
    setError(null);
    try {
      const { rotateWatchlistFeedToken } = await gql<{ rotateWatchlistFeedToken: FeedUrls }>(ROTATE_FEED_TOKEN, { id: watchlistId });
      onChange(rotateWatchlistFeedToken);
      setNotice('New addresses made: the old ones no longer work.');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const revoke = async () => {
    if (!confirm('Turn the calendar and feed addresses off? Anyone using them stops receiving updates.')) return;
    setError(null);
    try {
      await gql(REVOKE_FEED_TOKEN, { id: watchlistId });
      onChange({ calendarUrl: null, feedUrl: null });
      setNotice('The addresses are off: make new ones to subscribe again.');
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div>
      <p class="hint">Secret addresses: anyone who has one can read this watchlist’s calendar or events, without logging in. Subscribe to them in a calendar app or a feed reader.</p>
      {urls.calendarUrl && urls.feedUrl ? (
        <>
          <CopyRow label="Calendar address" value={urls.calendarUrl} />
          <CopyRow label="Atom feed address" value={urls.feedUrl} />
        </>
      ) : (
        <p>No addresses: they were turned off.</p>
      )}
      <div class="actions">
        <button type="button" class="secondary" onClick={rotate}>
          {urls.calendarUrl ? 'Make new addresses' : 'Make addresses'}
        </button>
        {urls.calendarUrl && (
          <button type="button" class="danger" onClick={revoke}>
            Turn addresses off
          </button>
        )}
      </div>
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}
    </div>
  );
}
