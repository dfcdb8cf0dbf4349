import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KNOWN_SESSIONS, SessionLedger } from '../../../../src/ingest/bills-api/sessions';
import { SnapshotSource } from '../../../../src/ingest/snapshot.source';
import { REAL_SNAPSHOT_DIR } from '../../../support/fixtures';

/** The snapshot's sessions.json: each session's official first day (State Opening or first sitting) and end. */
const snapshotSessions = JSON.parse(readFileSync(path.join(REAL_SNAPSHOT_DIR, 'sessions.json'), 'utf8')) as { sessionId: number; name: string; startDate: string; endDate: string | null }[];

describe("a session's start is its official first day, the same from either source", () => {
  it("the live source's session table has the snapshot's start and end dates for every session the snapshot holds", () => {
    for (const s of snapshotSessions) {
      const known = KNOWN_SESSIONS.find((k) => k.sessionId === s.sessionId);
      expect({ id: s.sessionId, name: known?.name, startDate: known?.startDate, endDate: s.endDate === null ? null : known?.endDate }).toEqual({ id: s.sessionId, name: s.name, startDate: s.startDate, endDate: s.endDate });
    }
    expect(KNOWN_SESSIONS.every((k) => k.startDate)).toBe(true);
  });

  it('the snapshot source gives sessions.json’s start date, not the first sitting seen in its bills', async () => {
    const sessions = await new SnapshotSource(REAL_SNAPSHOT_DIR).sessions();
    // a mislabelled stage of bill 1313 (2014-04-29) is the first sitting seen for 2014-15, which opened on 2014-06-04
    expect(sessions.find((s) => s.sessionId === 27)).toMatchObject({ startDate: '2014-06-04', firstObservedSittingDate: '2014-04-29' });
  });

  it('the live source gives its table’s start date, whatever sittings its bills show', () => {
    const ledger = new SessionLedger();
    ledger.noteSessionIds([27]);
    expect(ledger.records().find((s) => s.sessionId === 27)).toMatchObject({ startDate: '2014-06-04' });
  });
});
