/** A bill's state on a date from its dated facts: the main stages it reached, its sittings and divisions, its status and progress. */
import type { BillFacts, DivisionFact, House, SessionFact } from './bill-facts';
import { daysBetween } from '../../common/dates';
import { type BillStatus, MAIN_STAGES, type MainStage } from '../../vocabulary';

/** The stages that move a bill along its passage; procedural motions and resolutions are not among them. */
export { MAIN_STAGES };
const MAIN = new Set<string>(MAIN_STAGES);
export const isMainStage = (stage: string): stage is MainStage => MAIN.has(stage);

const STEP_IN_HOUSE: Record<string, number> = { first_reading: 1, second_reading: 2, committee: 3, report: 4, third_reading: 5 };
/** Passage position: 1–5 first house, 6–10 second house, 11 ping-pong, 12 Royal Assent. */
export const MAX_PROGRESS = 12;

export interface MainEvent {
  stage: MainStage;
  house: House;
  date: string;
  seq: number;
  progress: number;
}

export type { BillStatus };

/** A bill as it stood at the end of a reference date, from its dated facts up to that date only. */
export interface BillState {
  referenceDate: string;
  status: BillStatus;
  /** every main-stage sitting on or before the date, in order */
  mainEvents: MainEvent[];
  /** the furthest passage position reached (0 before any main stage) */
  progress: number;
  lastMain: MainEvent | null;
  /** the latest sitting of any stage on or before the date */
  lastSittingDate: string | null;
  /** sittings of each stage on or before the date, by normalised stage name and house side */
  sittings: Map<string, number>;
  divisions: DivisionFact[];
  carriedOver: boolean;
  /** a carry-over motion sat on or before the date: the bill is to go on into the next session (known before that session begins) */
  carryOverMotion: boolean;
  /** the session the bill is in: where its latest sitting was, moved on by a carry-over motion */
  sessionId: number;
  daysSinceIntroduction: number;
}

/** A main stage's place in the passage (see MAX_PROGRESS). */
export function progressOf(stage: string, house: House, originatingHouse: House): number {
  if (stage === 'royal_assent') return 12;
  if (stage === 'consideration_of_amendments') return 11;
  const step = STEP_IN_HOUSE[stage] ?? 0;
  const otherHouse = house !== 'Unassigned' && originatingHouse !== 'Unassigned' && house !== originatingHouse;
  return otherHouse ? step + 5 : step;
}

/** The session sitting on a date, or the latest one begun by then (between sessions: the one just ended). */
export function sessionOn(date: string, sessions: readonly SessionFact[]): SessionFact | null {
  let found: SessionFact | null = null;
  for (const s of sessions) if (s.startDate && s.startDate <= date && (!found || s.startDate > found.startDate!)) found = s;
  return found;
}

export function billState(facts: BillFacts, date: string, sessions: readonly SessionFact[]): BillState {
  const mainEvents: MainEvent[] = [];
  const sittings = new Map<string, number>();
  let lastSittingDate: string | null = null;
  let carryOverDate: string | null = null;
  for (const stage of facts.stages) {
    for (const day of stage.dates) {
      if (day > date) break;
      if (!lastSittingDate || day > lastSittingDate) lastSittingDate = day;
      const side = stage.house === facts.originatingHouse || stage.house === 'Unassigned' ? 'first' : 'second';
      const key = `${stage.stage}:${side}`;
      sittings.set(key, (sittings.get(key) ?? 0) + 1);
      if (stage.stage === 'carry_over_motion' && (!carryOverDate || day > carryOverDate)) carryOverDate = day;
      if (isMainStage(stage.stage)) {
        mainEvents.push({ stage: stage.stage, house: stage.house, date: day, seq: stage.seq, progress: progressOf(stage.stage, stage.house, facts.originatingHouse) });
      }
    }
  }
  mainEvents.sort((a, b) => (a.date === b.date ? a.seq - b.seq : a.date < b.date ? -1 : 1));
  const progress = mainEvents.reduce((max, e) => Math.max(max, e.progress), 0);
  const divisions = facts.divisions.filter((d) => d.date <= date);

  const anchor = lastSittingDate ?? facts.introducedDate ?? date;
  let session = sessionOn(anchor, sessions);
  const introducedSession = sessions.find((s) => s.id === facts.introducedSessionId) ?? null;
  if (!session || (introducedSession && introducedSession.startDate && session.startDate && introducedSession.startDate > session.startDate)) session = introducedSession;
  let carriedOver = facts.stages.some((s) => s.dates.some((d) => d <= date) && sessionOn(s.dates[0], sessions)?.id !== facts.introducedSessionId);
  // A carry-over motion moves the bill into the session after the one it was passed in, once that
  // session has begun; until then it waits, live, in the old one. Only the sessions begun by the
  // date count: a table that already knows the next session must give the same answer as one that does not.
  let awaitingNextSession = false;
  if (carryOverDate && session && session.endDate && carryOverDate <= session.endDate && session.endDate <= date) {
    const next = sessions.filter((s) => s.startDate && s.startDate > session!.startDate! && s.startDate <= date).sort((a, b) => (a.startDate! < b.startDate! ? -1 : 1))[0];
    if (next) {
      session = next;
      carriedOver = true;
    } else awaitingNextSession = true;
  }

  let status: BillStatus = 'live';
  if (progress === MAX_PROGRESS) status = 'enacted';
  else if (facts.withdrawnDate && facts.withdrawnDate <= date) status = 'withdrawn';
  else if (session?.endDate && session.endDate < date && !awaitingNextSession) status = 'fell';

  return {
    referenceDate: date,
    status,
    mainEvents,
    progress,
    lastMain: mainEvents.at(-1) ?? null,
    lastSittingDate,
    sittings,
    divisions,
    carriedOver,
    carryOverMotion: carryOverDate !== null,
    sessionId: session?.id ?? facts.introducedSessionId,
    daysSinceIntroduction: facts.introducedDate ? Math.max(0, daysBetween(facts.introducedDate, date)) : 0,
  };
}
