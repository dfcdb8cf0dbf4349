/** How far pmb_fridays_left's expectation is off: the private members' Fridays each ended session was expected to give at its start, against those it gave. */
import type { SessionFact } from '../serve/bill-facts';
import { sessionOutlook } from '../serve/session-length';

export interface FridaysAgainstExpected {
  sessionId: number;
  /** expected at the session's first day, from the sessions ended by then; null when none said */
  expectedAtStart: number | null;
  /** expected on the day its dissolution was announced, when one was (the end then known) */
  expectedAtAnnouncement: number | null;
  sat: number;
}

export function fridaysAgainstExpected(sessions: readonly SessionFact[], asOf: string): FridaysAgainstExpected[] {
  return sessions
    .filter((s) => s.startDate && s.endDate && s.endDate <= asOf && s.pmbFridays)
    .map((s) => {
      const announced = s.dissolution && s.dissolution.announced >= s.startDate! ? s.dissolution.announced : null;
      return {
        sessionId: s.id,
        expectedAtStart: sessionOutlook(s.id, sessions, s.startDate!).expectedPmbFridays,
        expectedAtAnnouncement: announced ? sessionOutlook(s.id, sessions, announced).expectedPmbFridays : null,
        sat: s.pmbFridays!.length,
      };
    });
}
