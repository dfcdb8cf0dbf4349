import type { BillRecord, SessionRecord } from '../bill-record';

export interface KnownSession {
  sessionId: number;
  name: string;
  /** the session's first day (State Opening or first sitting) */
  startDate: string;
  /** prorogation or dissolution date; null while running */
  endDate: string | null;
}

/**
 * Sessions whose names and dates are settled public facts. Ids 18–36, their start dates and the end
 * dates to 35 are the snapshot's sessions.json (the Commons Library's dates; a test checks that they
 * agree); 36–38 were prorogued on 28 April 2022, 26 October 2023 and 24 May 2024, and 37–39 opened
 * on 10 May 2022, 7 November 2023 and 9 July 2024.
 * The Bills API skips ids 31–33. A later session is named by its id until added here, and its
 * predecessor's end is inferred when it appears (src/ingest/session-ends.ts).
 */
export const KNOWN_SESSIONS: readonly KnownSession[] = [
  { sessionId: 18, name: '2004-05', startDate: '2004-11-23', endDate: '2005-04-07' },
  { sessionId: 19, name: '2005-06', startDate: '2005-05-11', endDate: '2006-11-08' },
  { sessionId: 20, name: '2006-07', startDate: '2006-11-15', endDate: '2007-10-30' },
  { sessionId: 21, name: '2007-08', startDate: '2007-11-06', endDate: '2008-11-26' },
  { sessionId: 22, name: '2008-09', startDate: '2008-12-03', endDate: '2009-11-12' },
  { sessionId: 23, name: '2009-10', startDate: '2009-11-18', endDate: '2010-04-08' },
  { sessionId: 24, name: '2010-12', startDate: '2010-05-18', endDate: '2012-05-01' },
  { sessionId: 25, name: '2012-13', startDate: '2012-05-09', endDate: '2013-04-25' },
  { sessionId: 26, name: '2013-14', startDate: '2013-05-08', endDate: '2014-05-14' },
  { sessionId: 27, name: '2014-15', startDate: '2014-06-04', endDate: '2015-03-26' },
  { sessionId: 28, name: '2015-16', startDate: '2015-05-18', endDate: '2016-05-12' },
  { sessionId: 29, name: '2016-17', startDate: '2016-05-18', endDate: '2017-04-27' },
  { sessionId: 30, name: '2017-19', startDate: '2017-06-13', endDate: '2019-10-08' },
  { sessionId: 34, name: '2019', startDate: '2019-10-14', endDate: '2019-11-05' },
  { sessionId: 35, name: '2019-21', startDate: '2019-12-17', endDate: '2021-04-29' },
  { sessionId: 36, name: '2021-22', startDate: '2021-05-11', endDate: '2022-04-28' },
  { sessionId: 37, name: '2022-23', startDate: '2022-05-10', endDate: '2023-10-26' },
  { sessionId: 38, name: '2023-24', startDate: '2023-11-07', endDate: '2024-05-24' },
  { sessionId: 39, name: '2024-26', startDate: '2024-07-09', endDate: null },
];

/** What the normaliser needs to know about sessions; `SessionLedger` is the implementation the source uses. */
export interface SessionKnowledge {
  endDate(sessionId: number): string | null;
  hasEnded(sessionId: number): boolean;
}

/**
 * Collects the sessions seen in normalised bills and answers `SessionKnowledge` from them plus a
 * table of known sessions. A session without a known end date counts as ended once a later one
 * has been seen, so a bill of a past session is `fell`, not `pending`, even when its end date is unknown.
 */
export class SessionLedger implements SessionKnowledge {
  private readonly known = new Map<number, KnownSession>();
  private readonly observed = new Map<number, { first: string | null; last: string | null }>();
  private latest: number | null = null;

  constructor(known: readonly KnownSession[] = KNOWN_SESSIONS) {
    for (const s of known) this.known.set(s.sessionId, s);
  }

  noteSessionIds(ids: Iterable<number>): void {
    for (const id of ids) {
      if (!this.observed.has(id)) this.observed.set(id, { first: null, last: null });
      if (this.latest === null || id > this.latest) this.latest = id;
    }
  }

  /** Records the bill's sessions and the sitting dates of its stages, per stage session. */
  observe(bill: BillRecord): void {
    this.noteSessionIds([bill.introducedSessionId, ...bill.sessionIds]);
    for (const stage of bill.stages) {
      const sessionId = stage.sessionId ?? bill.introducedSessionId;
      this.noteSessionIds([sessionId]);
      const seen = this.observed.get(sessionId)!;
      for (const date of stage.dates) {
        if (seen.first === null || date < seen.first) seen.first = date;
        if (seen.last === null || date > seen.last) seen.last = date;
      }
    }
  }

  latestSessionId(): number | null {
    return this.latest;
  }

  endDate(sessionId: number): string | null {
    return this.known.get(sessionId)?.endDate ?? null;
  }

  hasEnded(sessionId: number): boolean {
    return this.endDate(sessionId) !== null || (this.latest !== null && sessionId < this.latest);
  }

  /** Known sessions and every session seen, by id. */
  records(): SessionRecord[] {
    const ids = new Set<number>([...this.known.keys(), ...this.observed.keys()]);
    return [...ids]
      .sort((a, b) => a - b)
      .map((sessionId) => {
        const seen = this.observed.get(sessionId);
        const known = this.known.get(sessionId);
        return {
          sessionId,
          name: known?.name ?? String(sessionId),
          startDate: known?.startDate ?? null,
          endDate: this.endDate(sessionId),
          // the API says nothing of a dissolution: an operator records one (admin announce-dissolution)
          endAnnounced: null,
          firstObservedSittingDate: seen?.first ?? null,
          lastObservedSittingDate: seen?.last ?? null,
        };
      });
  }
}
