/**
 * What the retention job removes from the email channel's tables (issue 33), beside the rules of
 * retention-rules.ts and in their style: bounded deletes, nothing a reader still looks at.
 * - mail_message: rows in a final state (sent, failed, suppressed) written more than RETENTION_DAYS
 *   ago; pending ones never (the 50-a-day bound counts only today's, and an event older than that
 *   is no longer in the event log to be written again).
 * - local_mailbox: past each account's newest OUTBOX_SIZE, which is all `outbox` ever shows.
 * - email_verification: a day after the link expired (a used or expired link answers 410 until then;
 *   after it, 404).
 * - mail_deferred_event: written more than RETENTION_DAYS ago.
 * - mail_digest: occurrences more than RETENTION_DAYS ago, except each account's newest of each
 *   slot (an occurrence can only be due again within hours) and the last of each watchlist that
 *   still has digests, where its next one starts (one whose digests were switched off starts
 *   afresh when they are switched on again, and a deleted one never does).
 */
import type { DataSource } from 'typeorm';
import { OUTBOX_SIZE } from '../services/account-email.service';
import { removed, type RetentionRule, untilShort } from './retention-rule';

const DAY_MS = 86_400_000;

/** A rule of one bounded DELETE over `table`'s ids chosen by `where` ($1 the boundary, $2 the limit). */
const rule = (table: string, select: string, boundary: (now: Date) => Date | null): RetentionRule => ({
  table,
  batches: (db, now, limit) => untilShort(limit, () => removed(db, `DELETE FROM ${table} WHERE id IN (${select})`, [boundary(now), limit])),
});

export const mailRetentionRules = (retentionDays: number): RetentionRule[] => [
  rule('mail_message', `SELECT id FROM mail_message WHERE status IN ('sent', 'failed', 'suppressed') AND created_at < $1 LIMIT $2`, (now) => new Date(now.getTime() - retentionDays * DAY_MS)),
  // $1 unused (null): the newest OUTBOX_SIZE of each account stay whatever their age
  rule('local_mailbox', `SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY id DESC) AS n FROM local_mailbox WHERE $1::timestamptz IS NULL) x WHERE n > ${OUTBOX_SIZE} LIMIT $2`, () => null),
  rule('email_verification', `SELECT id FROM email_verification WHERE expires_at < $1 LIMIT $2`, (now) => new Date(now.getTime() - DAY_MS)),
  rule('mail_deferred_event', `SELECT id FROM mail_deferred_event WHERE created_at < $1 LIMIT $2`, (now) => new Date(now.getTime() - retentionDays * DAY_MS)),
  rule(
    'mail_digest',
    `SELECT id FROM (SELECT id, account_id, slot_at, covered_until, watchlist_ids, row_number() OVER (PARTITION BY account_id, slot ORDER BY slot_at DESC) AS n FROM mail_digest) x
      WHERE n > 1 AND slot_at < $1
        AND NOT EXISTS (SELECT 1 FROM unnest(x.watchlist_ids) AS w(id) JOIN watchlist_notification s ON s.watchlist_id = w.id AND s.email IN ('daily', 'weekly')
                         WHERE NOT EXISTS (SELECT 1 FROM mail_digest l WHERE l.account_id = x.account_id AND l.covered_until > x.covered_until AND w.id = ANY(l.watchlist_ids)))
      LIMIT $2`,
    (now) => new Date(now.getTime() - retentionDays * DAY_MS),
  ),
];
