import type { SessionFact } from './bill-facts';
import { daysBetween } from '../../common/dates';

/**
 * How long a session is likely to run, from the sessions that had ended by the date. The first
 * session of a Parliament follows a general election, and the gap before it (dissolution, the
 * campaign) is over a month where a prorogation takes days; those sessions ran long (2010-12,
 * 2017-19, 2019-21: 16 to 28 months) against about a year for the others.
 */
export const ELECTION_GAP_DAYS = 30;

const started = (sessions: readonly SessionFact[], date: string) =>
  sessions.filter((s) => s.startDate && s.startDate <= date).sort((a, b) => (a.startDate! < b.startDate! ? -1 : 1));

/** Whether a session began more than a month after the one before it ended; false when none before it is known. */
function afterElection(session: SessionFact, ordered: readonly SessionFact[]): boolean {
  const i = ordered.indexOf(session);
  const previous = i > 0 ? ordered[i - 1] : null;
  return Boolean(previous?.endDate && session.startDate && daysBetween(previous.endDate, session.startDate) > ELECTION_GAP_DAYS);
}

export interface SessionOutlook {
  /** the session began after a general election */
  afterElection: boolean;
  /** the median length of the ended sessions of the same sort (after an election or not), in days; null when none */
  expectedLengthDays: number | null;
}

/** What was knowable on `date` about how long session `sessionId` would run: only sessions begun, and ends reached, by then. */
export function sessionOutlook(sessionId: number, sessions: readonly SessionFact[], date: string): SessionOutlook {
  const ordered = started(sessions, date).map((s) => ({ ...s, endDate: s.endDate && s.endDate <= date ? s.endDate : null }));
  const current = ordered.find((s) => s.id === sessionId);
  if (!current) return { afterElection: false, expectedLengthDays: null };
  const sort = afterElection(current, ordered);
  const ended = ordered.filter((s) => s !== current && s.endDate);
  const alike = ended.filter((s) => afterElection(s, ordered) === sort);
  const pool = alike.length ? alike : ended;
  const lengths = pool.map((s) => daysBetween(s.startDate!, s.endDate!)).sort((a, b) => a - b);
  const mid = lengths.length >> 1;
  return { afterElection: sort, expectedLengthDays: lengths.length ? (lengths.length % 2 ? lengths[mid] : (lengths[mid - 1] + lengths[mid]) / 2) : null };
}
