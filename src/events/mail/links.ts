/**
 * The links every email about a watchlist carries (instant alerts and digests alike): its
 * notification settings on the dashboard, its one-click unsubscribe page and the mailto beside it,
 * and the List-Unsubscribe headers of RFC 2369 and RFC 8058 made from them.
 */
import { fromAddress } from './compose';
import type { UnsubscribeTokens } from './unsubscribe';

export interface WatchlistMailLinks {
  settingsUrl: string;
  /** the one-click page (POST turns the watchlist's email off; GET shows a button that does) */
  unsubscribeUrl: string;
  /** the mailto alternative: a message to the sender's address with the token in its subject */
  unsubscribeMailto: string;
}

/** The links of one watchlist's emails, under PUBLIC_URL (no trailing slash), from the MAIL_FROM address. */
export function watchlistMailLinks(publicUrl: string, from: string, tokens: UnsubscribeTokens, watchlistId: number): WatchlistMailLinks {
  const token = tokens.tokenFor(watchlistId);
  return {
    settingsUrl: `${publicUrl}/#/watchlists/${watchlistId}`,
    unsubscribeUrl: `${publicUrl}/email/unsubscribe/${token}`,
    unsubscribeMailto: `mailto:${fromAddress(from)}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`,
  };
}

/** List-Unsubscribe with both ways, and List-Unsubscribe-Post for one click (sent whatever PUBLIC_URL's scheme). */
export const unsubscribeHeaders = (links: WatchlistMailLinks): Record<string, string> => ({
  'List-Unsubscribe': `<${links.unsubscribeUrl}>, <${links.unsubscribeMailto}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
