/** The delivery worker's statements on the outbox (src/events/webhooks/delivery-worker.ts). */

/**
 * Claims due rows: $1 now, $2 the claim's lapse, $3 how many, $4 slots per endpoint, $5 endpoints
 * with no free slot, $6/$7 endpoints with fewer free and how many, $8 candidates looked at, $9
 * accounts with no free slot, $10/$11 accounts with some busy and how many free, $12 slots per
 * account. The window ranks only the oldest due rows of endpoints and accounts with a free slot (a
 * bounded set, whatever the backlog); each endpoint and each account gets its free slots at most,
 * and accounts take turns: every account's oldest row, then every account's second, and so on, so
 * one account's backlog never queues another's rows behind it. The locking select re-checks the row.
 */
export const CLAIM_DUE = `WITH claimed AS (
         UPDATE webhook_delivery d SET attempt = d.attempt + 1, claimed_at = $1, next_attempt_at = $2
          WHERE d.id IN (
            SELECT id FROM webhook_delivery
             WHERE id IN (
               SELECT turns.id FROM (
                 SELECT fits.id, fits.next_attempt_at, fits.account_id,
                        row_number() OVER (PARTITION BY fits.account_id ORDER BY fits.next_attempt_at, fits.id) AS turn
                   FROM (
                     SELECT q.id, q.account_id, q.next_attempt_at,
                            row_number() OVER (PARTITION BY q.endpoint_id ORDER BY q.next_attempt_at, q.id) AS n,
                            coalesce(b.free, $4::int) AS slots
                       FROM (SELECT q.id, q.endpoint_id, e.account_id, q.next_attempt_at
                               FROM webhook_delivery q JOIN webhook_endpoint e ON e.id = q.endpoint_id AND e.active
                              WHERE q.status = 'pending' AND q.next_attempt_at <= $1 AND q.endpoint_id <> ALL($5::int[]) AND e.account_id <> ALL($9::int[])
                              ORDER BY q.next_attempt_at, q.id
                              LIMIT $8) q
                       LEFT JOIN unnest($6::int[], $7::int[]) AS b(endpoint_id, free) ON b.endpoint_id = q.endpoint_id) fits
                  WHERE fits.n <= fits.slots) turns
                LEFT JOIN unnest($10::int[], $11::int[]) AS a(account_id, free) ON a.account_id = turns.account_id
                WHERE turns.turn <= coalesce(a.free, $12::int)
                ORDER BY turns.turn, turns.next_attempt_at, turns.id
                LIMIT $3)
               AND status = 'pending' AND next_attempt_at <= $1
             FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.endpoint_id, d.event_id, d.body, d.format, d.attempt)
       SELECT c.*, e.account_id, e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
         FROM claimed c JOIN webhook_endpoint e ON e.id = c.endpoint_id`;

/**
 * Writes a batch of successes ($1…$5: id, attempt, at, status code, ms) and clears their endpoints'
 * failing_since. A success at the first attempt, the common case, adds no attempt row: the delivery's
 * last_* columns are that attempt (WebhookService.deliveries lists it from them); an attempt row
 * per success cost about a quarter of the sending rate on the embedded database.
 */
export const RECORD_DELIVERED = `WITH done AS (
           UPDATE webhook_delivery d SET status = 'delivered', claimed_at = NULL, last_attempt_at = v.at, last_status_code = v.code, last_error = NULL, last_duration_ms = v.ms
             FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::int[]) AS v(id, attempt, at, code, ms)
            WHERE d.id = v.id AND d.attempt = v.attempt AND d.claimed_at IS NOT NULL
           RETURNING d.id, d.endpoint_id, d.attempt, v.at, v.code, v.ms),
         attempts AS (
           INSERT INTO webhook_attempt (delivery_id, attempt, status_code, error, duration_ms, attempted_at) SELECT id, attempt, code, NULL, ms, at FROM done WHERE attempt > 1)
         UPDATE webhook_endpoint SET failing_since = NULL WHERE id IN (SELECT endpoint_id FROM done) AND failing_since IS NOT NULL`;

/**
 * Writes a failed attempt ($1 id, $2 the attempt it was claimed as, $3 at, $4 status code, $5
 * error, $6 ms; $7 the status after it, $8 when the next is due) and adds it to the delivery's
 * attempts, unless the claim was lost meanwhile.
 */
export const RECORD_FAILED = `WITH done AS (
           UPDATE webhook_delivery SET status = $7, next_attempt_at = $8, claimed_at = NULL, last_attempt_at = $3, last_status_code = $4, last_error = $5, last_duration_ms = $6
            WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL
           RETURNING id, attempt)
         INSERT INTO webhook_attempt (delivery_id, attempt, status_code, error, duration_ms, attempted_at) SELECT id, attempt, $4::int, $5::text, $6::int, $3::timestamptz FROM done`;

/** Undoes claims ($1 ids, $2 the attempt each was claimed as; due at $3), unless a claim lapsed and another instance took the row. */
export const HAND_BACK = `UPDATE webhook_delivery d SET attempt = d.attempt - 1, claimed_at = NULL, next_attempt_at = $3
           FROM unnest($1::int[], $2::int[]) AS v(id, attempt)
          WHERE d.id = v.id AND d.attempt = v.attempt AND d.claimed_at IS NOT NULL AND d.status = 'pending'`;
