/**
 * The token of a watchlist's one-click unsubscribe link (RFC 8058), derived, not stored: the
 * watchlist's id and an HMAC of it under a subkey of the server's secret key (as the feed tokens
 * are derived), so the link works without a log-in and a copy of the database alone forges none.
 * It only ever turns that watchlist's email off, so it needs no rotation.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/;

export class UnsubscribeTokens {
  /** `key`: SecretBox.subkey('watchlist email unsubscribe') */
  constructor(private readonly key: Buffer) {}

  private mac(watchlistId: number): Buffer {
    return createHmac('sha256', this.key).update(`watchlist-email-off:${watchlistId}`).digest();
  }

  tokenFor(watchlistId: number): string {
    return `${watchlistId}.${this.mac(watchlistId).toString('base64url')}`;
  }

  /** The watchlist a token stands for, or null for one this server did not make. */
  watchlistOf(token: string): number | null {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const id = Number(match[1]);
    const given = Buffer.from(match[2], 'base64url');
    const expected = this.mac(id);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }
}
