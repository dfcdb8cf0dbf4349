import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { addDays } from '../common/dates';

/** A session whose end the service worked out itself, because a later session appeared. */
export interface InferredSessionEnd {
  sessionId: number;
  name: string;
  endDate: string;
  /** the later session whose bills showed that this one had ended */
  nextSessionId: number;
}

export interface SettledSessions {
  /** sessions whose end was inferred by this call */
  inferred: InferredSessionEnd[];
  /** stored bills that were pending in a session now over, and are now `fell` */
  billsFell: number;
}

interface SessionRow {
  id: number;
  name: string;
  end_date: string | null;
  first: string | null;
}

/**
 * Brings what is stored in line with what is now known of sessions; run after each sync has merged
 * its sessions, in the same transaction.
 *
 * 1. A session without an end date that has a later session stored has ended (session ids grow
 *    with time; the Bills API has no sessions endpoint to say so). Its end, the prorogation, is
 *    inferred as its last stored sitting before the next session's first sitting (else the day
 *    before that first sitting; never after `now`), and recorded as inferred, with when.
 * 2. A stored bill still `pending` whose last session has ended fell with that session: a carried-over
 *    bill lists the later session in `session_ids` and stays pending. This is the source's own rule
 *    (normalise.ts deriveOutcome) applied to bills an incremental sync did not re-read, which would
 *    otherwise stay live for ever. The content hash changes with the outcome, so predictions and the
 *    events refresh take the bill up again.
 */
export async function settleEndedSessions(manager: EntityManager, now: Date): Promise<SettledSessions> {
  const today = now.toISOString().slice(0, 10);
  const sessions = (await manager.query(`SELECT id, name, end_date::text AS end_date, first_sitting_date::text AS first FROM parliamentary_session ORDER BY id`)) as SessionRow[];

  const inferred: InferredSessionEnd[] = [];
  for (const [i, session] of sessions.entries()) {
    const next = sessions[i + 1];
    if (session.end_date !== null || !next) continue;
    session.end_date = inferEndDate(await lastSittingBefore(manager, session.id, next.first ?? addDays(today, 1)), next.first, today);
    inferred.push({ sessionId: session.id, name: session.name, endDate: session.end_date, nextSessionId: next.id });
  }
  for (const s of inferred) {
    await manager.query(
      `UPDATE parliamentary_session SET end_date = $2, end_date_inferred = true, end_inferred_at = $3 WHERE id = $1 AND end_date IS NULL`,
      [s.sessionId, s.endDate, now],
    );
  }

  const endOf = new Map(sessions.filter((s) => s.end_date !== null).map((s) => [s.id, s.end_date!]));
  const pending = (await manager.query(`SELECT id, introduced_session_id, session_ids, content_hash FROM bill WHERE outcome = 'pending' ORDER BY id`)) as {
    id: number;
    introduced_session_id: number;
    session_ids: number[];
    content_hash: string;
  }[];
  let billsFell = 0;
  for (const bill of pending) {
    const endDate = endOf.get(Math.max(bill.introduced_session_id, ...bill.session_ids));
    if (endDate === undefined) continue;
    const contentHash = createHash('sha256').update(`${bill.content_hash}\nfell with its session, ended ${endDate}`).digest('hex');
    await manager.query(`UPDATE bill SET outcome = 'fell', content_hash = $2, ingested_at = $3 WHERE id = $1`, [bill.id, contentHash, now]);
    billsFell++;
  }
  return { inferred, billsFell };
}

/**
 * The latest stored sitting of a session's stages before `before`. A session's stored last sitting
 * will not do: the API shows sittings set down ahead, and those after the prorogation never happened.
 */
async function lastSittingBefore(manager: EntityManager, sessionId: number, before: string): Promise<string | null> {
  const [row] = (await manager.query(
    `SELECT max(d)::text AS last FROM bill_stage s JOIN bill b ON b.id = s.bill_id, unnest(s.sitting_dates) AS d
     WHERE coalesce(s.session_id, b.introduced_session_id) = $1 AND d < $2`,
    [sessionId, before],
  )) as { last: string | null }[];
  return row?.last ?? null;
}

/**
 * The prorogation: the session's last sitting before the next session's first one; the day before
 * that first sitting when no sitting of it is stored; never after today.
 */
export function inferEndDate(lastSittingBeforeNext: string | null, nextFirstSitting: string | null, today: string): string {
  const end = lastSittingBeforeNext ?? (nextFirstSitting !== null ? addDays(nextFirstSitting, -1) : today);
  return end < today ? end : today;
}
