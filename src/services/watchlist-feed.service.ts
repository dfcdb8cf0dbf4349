/**
 * Watchlists' secret feed addresses (issue 33): issuing, showing, rotating and revoking the token
 * that is the credential of a watchlist's calendar (`/api/v1/calendar/{token}.ics`) and Atom feed
 * (`/api/v1/feeds/{token}.atom`), and finding the watchlist a presented token opens.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Tier } from '../db/entities/account.entity';
import type { SecretBox } from '../events/webhooks/secret-box';
import { credentialDigest } from './api-key.service';
import type { WatchlistService } from './watchlist.service';

/** A token as issued: 32 bytes of HMAC-SHA256, base64url (256 bits; calendar apps put it in a URL). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface FeedAddresses {
  calendarUrl: string;
  feedUrl: string;
}

/** The watchlist a token opens, and who owns it (the feeds follow the owner's tier). */
export interface FeedOwner {
  watchlistId: number;
  name: string;
  accountId: number;
  tier: Tier;
  /** the watchlist's bills, sorted: what the feeds show, and what their cached text depends on */
  billIds: number[];
}

/**
 * Calendar apps cannot send headers, so the address carries the credential: a token derived as
 * HMAC(key, watchlist id, salt), where the key is the server's (the one sealing webhook secrets,
 * under a purpose of its own) and the salt 32 random bytes made at each issue. The database holds
 * the salt and the token's SHA-256, never the token: requests are looked up by the hash, as API
 * keys are, and a copy of the database without the key yields no address. Because the owner's
 * server can derive it again, the watchlist's answers show the address every time (a calendar
 * address is pasted into more than one app, unlike an API key kept in one program's settings);
 * it stops working at once when rotated (a new salt) or revoked (salt and hash removed).
 */
export class WatchlistFeedService {
  private readonly key: Buffer;
  private readonly base: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly watchlists: Pick<WatchlistService, 'owned'>,
    secretBox: SecretBox,
    publicUrl: string,
  ) {
    this.key = secretBox.subkey('watchlist feed token');
    this.base = `${publicUrl.replace(/\/+$/, '')}/api/v1`;
  }

  private token(watchlistId: number, salt: string): string {
    return createHmac('sha256', this.key).update(`${watchlistId}.${salt}`).digest('base64url');
  }

  private addresses(token: string): FeedAddresses {
    return { calendarUrl: `${this.base}/calendar/${token}.ics`, feedUrl: `${this.base}/feeds/${token}.atom` };
  }

  /**
   * The addresses of the watchlists (the caller owns them), null for one whose address was
   * revoked. A watchlist that never had one gets it now: watchlists made before feeds existed
   * too, which their migration could not give one, lacking the key.
   */
  async addressesOf(watchlistIds: readonly number[]): Promise<Map<number, FeedAddresses | null>> {
    const ids = [...new Set(watchlistIds)];
    const found = new Map<number, FeedAddresses | null>();
    if (!ids.length) return found;
    type Row = { watchlist_id: number; salt: string | null; token_hash: Buffer | null };
    const read = async () => (await this.dataSource.query(`SELECT watchlist_id, salt, token_hash FROM watchlist_feed WHERE watchlist_id = ANY($1)`, [ids])) as Row[];
    let rows = await read();
    const missing = ids.filter((id) => !rows.some((r) => r.watchlist_id === id));
    if (missing.length) {
      const salts = missing.map(() => randomBytes(32).toString('base64url'));
      const hashes = missing.map((id, i) => credentialDigest(this.token(id, salts[i])));
      // two first reads at once issue one address: the second insert yields to the first
      await this.dataSource.query(
        `INSERT INTO watchlist_feed (watchlist_id, salt, token_hash, issued_at)
         SELECT w.id, s.salt, s.hash, now() FROM unnest($1::int[], $2::text[], $3::bytea[]) AS s(id, salt, hash) JOIN watchlist w ON w.id = s.id
         ON CONFLICT (watchlist_id) DO NOTHING`,
        [missing, salts, hashes],
      );
      rows = await read();
    }
    for (const r of rows) {
      if (!r.salt || !r.token_hash) found.set(r.watchlist_id, null);
      else {
        const token = this.token(r.watchlist_id, r.salt);
        // derived under another key (WEBHOOK_SECRET_KEY changed, the key file lost): that address no longer opens anything, and rotating makes one that does
        found.set(r.watchlist_id, credentialDigest(token).equals(r.token_hash) ? this.addresses(token) : null);
      }
    }
    return found;
  }

  /** A new address for the caller's watchlist; the one before answers 404 from now on. */
  async rotate(accountId: number, watchlistId: number): Promise<FeedAddresses> {
    await this.watchlists.owned(accountId, watchlistId);
    const salt = randomBytes(32).toString('base64url');
    const token = this.token(watchlistId, salt);
    await this.dataSource.query(
      `INSERT INTO watchlist_feed (watchlist_id, salt, token_hash, issued_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (watchlist_id) DO UPDATE SET salt = EXCLUDED.salt, token_hash = EXCLUDED.token_hash, issued_at = EXCLUDED.issued_at, revoked_at = NULL`,
      [watchlistId, salt, credentialDigest(token)],
    );
    return this.addresses(token);
  }

  /** The caller's watchlist has no address from now on (until rotated): the old one answers 404. */
  async revoke(accountId: number, watchlistId: number): Promise<void> {
    await this.watchlists.owned(accountId, watchlistId);
    await this.dataSource.query(
      `INSERT INTO watchlist_feed (watchlist_id, salt, token_hash, issued_at, revoked_at) VALUES ($1, NULL, NULL, now(), now())
       ON CONFLICT (watchlist_id) DO UPDATE SET salt = NULL, token_hash = NULL, revoked_at = now()`,
      [watchlistId],
    );
  }

  /**
   * The watchlist a presented token opens, or null: unknown, malformed, rotated away or revoked
   * alike, so an answer never tells which. One indexed lookup by the token's hash, with the owner's
   * tier and the watchlist's bills, read afresh every time: a revocation holds at once on every instance.
   */
  async resolve(token: string): Promise<FeedOwner | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const [row] = (await this.dataSource.query(
      `SELECT f.watchlist_id, w.name, w.account_id, a.tier,
              coalesce((SELECT array_agg(b.bill_id ORDER BY b.bill_id) FROM watchlist_bill b WHERE b.watchlist_id = f.watchlist_id), '{}') AS bill_ids
         FROM watchlist_feed f JOIN watchlist w ON w.id = f.watchlist_id JOIN account a ON a.id = w.account_id
        WHERE f.token_hash = $1`,
      [credentialDigest(token)],
    )) as { watchlist_id: number; name: string; account_id: number; tier: Tier; bill_ids: number[] }[];
    return row ? { watchlistId: row.watchlist_id, name: row.name, accountId: row.account_id, tier: row.tier, billIds: row.bill_ids.map(Number) } : null;
  }
}
