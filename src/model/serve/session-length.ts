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
  /** the session's last day, once a dissolution announced by the date has fixed it; null otherwise */
  announcedEnd: string | null;
  /**
   * How many Fridays the session's private members' bills may expect in all: the Fridays per day
   * the ended sessions of the same sort gave them (those in which none sat left out: the data's
   * first two sessions hold five bills), times this session's length: the announced one, else the
   * expected one, or the days already run when it has run longer. Null when no ended session says.
   */
  expectedPmbFridays: number | null;
}

/** The end of a session that a dissolution announced on or before `date` has fixed; null when none is known then. */
export function announcedEndOn(session: SessionFact, date: string): string | null {
  const d = session.dissolution;
  return d && d.announced <= date ? d.end : null;
}

const median = (values: number[]): number | null => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length ? (sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2) : null;
};

const fridaysBy = (s: SessionFact, date: string) => (s.pmbFridays ?? []).filter((d) => d <= date).length;

/** Private members' Fridays per session day over the given ended sessions (those with none left out); null when none had any. */
function fridaysPerDay(ended: readonly SessionFact[], date: string): number | null {
  const sat = ended.filter((s) => fridaysBy(s, date) > 0);
  const days = sat.reduce((sum, s) => sum + daysBetween(s.startDate!, s.endDate!), 0);
  return days > 0 ? sat.reduce((sum, s) => sum + fridaysBy(s, date), 0) / days : null;
}

/** What was knowable on `date` about how long session `sessionId` would run: only sessions begun, and ends reached, by then. */
export function sessionOutlook(sessionId: number, sessions: readonly SessionFact[], date: string): SessionOutlook {
  const ordered = started(sessions, date).map((s) => ({ ...s, endDate: s.endDate && s.endDate <= date ? s.endDate : null }));
  const current = ordered.find((s) => s.id === sessionId);
  if (!current) return { afterElection: false, expectedLengthDays: null, announcedEnd: null, expectedPmbFridays: null };
  const sort = afterElection(current, ordered);
  const ended = ordered.filter((s) => s !== current && s.endDate);
  const alike = ended.filter((s) => afterElection(s, ordered) === sort);
  const pool = alike.length ? alike : ended;
  const expectedLengthDays = median(pool.map((s) => daysBetween(s.startDate!, s.endDate!)));
  const announcedEnd = current.endDate ?? announcedEndOn(current, date);
  const rate = fridaysPerDay(alike, date) ?? fridaysPerDay(ended, date);
  const daysRun = daysBetween(current.startDate!, date);
  const length = announcedEnd ? daysBetween(current.startDate!, announcedEnd) : expectedLengthDays === null ? null : Math.max(expectedLengthDays, daysRun);
  return { afterElection: sort, expectedLengthDays, announcedEnd: current.endDate ? null : announcedEnd, expectedPmbFridays: rate === null || length === null ? null : rate * length };
}
