import type { DataSource } from 'typeorm';
import { badInput, notFound } from '../../errors';
import { isCalendarDate } from '../../common/dates';
import { ParliamentarySessionEntity } from '../../db/entities/parliamentary-session.entity';
import { SessionDissolutionEntity } from '../../db/entities/session-dissolution.entity';
import { readDissolutions } from '../../ingest/freshness';

/*
 * Announced dissolutions: the live Bills API says nothing of a general election, so an operator
 * records the day its date became known and the session's last day. The nowcasts read it from the
 * announcement on (src/model/serve/session-length.ts), once the next sync has taken it in (it is in
 * the data's fingerprint); /readyz lists what is recorded.
 */

export interface DissolutionRow {
  session_id: number;
  name: string | null;
  announced: string;
  end_date: string;
  recorded_by: 'source' | 'operator';
  recorded_at: string;
}

const sessionIdOf = (value: unknown): number => {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) throw badInput('--session must be a Bills API session id, e.g. 36');
  return id;
};

const dateOf = (value: unknown, name: string): string => {
  if (!isCalendarDate(value)) throw badInput(`--${name} must be a date, YYYY-MM-DD`);
  return value;
};

/** Every recorded dissolution with its session's name, by session. */
export async function listDissolutions(dataSource: DataSource): Promise<{ dissolutions: DissolutionRow[] }> {
  const rows = await readDissolutions(dataSource);
  return { dissolutions: rows.map((d) => ({ session_id: d.sessionId, name: d.name, announced: d.announced, end_date: d.endDate, recorded_by: d.recordedBy, recorded_at: d.recordedAt.toISOString() })) };
}

/** Records (or replaces) a session's announced dissolution. The session must be stored, begun before the end, and not ended otherwise. */
export async function announceDissolution(dataSource: DataSource, args: Record<string, unknown>): Promise<DissolutionRow> {
  const sessionId = sessionIdOf(args.session);
  const announced = dateOf(args.announced, 'announced');
  const end = dateOf(args.end, 'end');
  if (end < announced) throw badInput('--end must be on or after --announced');
  const session = await dataSource.getRepository(ParliamentarySessionEntity).findOneBy({ id: sessionId });
  if (!session) throw notFound(`no session ${sessionId} is stored (a session is stored once a bill of it is synced)`);
  if (session.firstSittingDate && end < session.firstSittingDate) throw badInput(`--end is before session ${sessionId} began (${session.firstSittingDate})`);
  if (session.endDate && !session.endDateInferred && session.endDate !== end) throw badInput(`session ${sessionId} ended on ${session.endDate}`);
  await dataSource.getRepository(SessionDissolutionEntity).save({ sessionId, announced, endDate: end, recordedBy: 'operator', recordedAt: new Date() });
  return (await listDissolutions(dataSource)).dissolutions.find((d) => d.session_id === sessionId)!;
}

/** Removes a session's recorded dissolution (one read from the source comes back with the next sync from it). */
export async function removeDissolution(dataSource: DataSource, args: Record<string, unknown>): Promise<{ session_id: number; removed: DissolutionRow }> {
  const sessionId = sessionIdOf(args.session);
  const removed = (await listDissolutions(dataSource)).dissolutions.find((d) => d.session_id === sessionId);
  if (!removed) throw notFound(`no dissolution is recorded for session ${sessionId}`);
  await dataSource.getRepository(SessionDissolutionEntity).delete({ sessionId });
  return { session_id: sessionId, removed };
}
