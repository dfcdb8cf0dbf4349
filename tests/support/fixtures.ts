import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { titleBeforeRoyalAssent } from '../../src/services/bill-title';

/** The real snapshot the service ships with (shared/data/uk-bills). */
export const REAL_SNAPSHOT_DIR = loadConfig({}).snapshotDir!;

/**
 * A snapshot folder holding only the named real bills (all sessions), for fast tests.
 * `edit` may change a bill's line, e.g. to add a stage, to test updates.
 */
export function makeSnapshot(billIds: number[], options: { asOf?: string; edit?: (bill: any) => any } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-snapshot-'));
  const wanted = new Set(billIds);
  const lines = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line && wanted.has(JSON.parse(line).billId))
    .map((line) => JSON.stringify(options.edit ? options.edit(JSON.parse(line)) : JSON.parse(line)));
  writeFileSync(path.join(dir, 'bills.jsonl'), lines.join('\n') + '\n');
  writeFileSync(path.join(dir, 'sessions.json'), readFileSync(path.join(REAL_SNAPSHOT_DIR, 'sessions.json')));
  writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ asOf: options.asOf ?? '2021-12-31' }));
  return dir;
}

/** Sessions 2017-19 (30), 2019 (34) and 2019-21 (35): the smallest data that trains vintages (34's and 35's) in seconds. */
export const VINTAGE_SESSIONS = [30, 34, 35];

/** Real bills of sessions 30 (every sixth), 34 and 35: enough to train on in seconds. */
export const VINTAGE_BILL_IDS = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { billId: number; introducedSessionId: number })
  .filter((b, i) => (b.introducedSessionId === 30 && i % 6 === 0) || b.introducedSessionId === 34 || b.introducedSessionId === 35)
  .map((b) => b.billId);

/** A snapshot of VINTAGE_BILL_IDS and VINTAGE_SESSIONS alone, as of 2021-12-31; `edit` as for makeSnapshot. */
export function vintageSnapshot(edit?: (bill: any) => any): string {
  const dir = makeSnapshot(VINTAGE_BILL_IDS, { asOf: '2021-12-31', edit });
  const sessions = JSON.parse(readFileSync(path.join(dir, 'sessions.json'), 'utf8')) as { sessionId: number }[];
  writeFileSync(path.join(dir, 'sessions.json'), JSON.stringify(sessions.filter((s) => VINTAGE_SESSIONS.includes(s.sessionId))));
  return dir;
}

/** A handful of real bills of different kinds and fates, used across tests. */
export const SAMPLE_BILL_IDS = [26, 27, 40, 53, 144, 2900, 2950, 3089];

/**
 * A snapshot of the named real bills as it would have been read on `date`: bills introduced later
 * left out; stage sittings, divisions, a withdrawal and a Royal Assent after it removed; outcomes
 * and sessions as known then. The real data's undated fields are modelled as they were that day,
 * not by the rule the code applies to them, so the leak test can see a rule that is wrong: the
 * title a Bill's until Royal Assent, and the sponsor list only its lead sponsor (the real lists are
 * the final ones, undated: the member who took the bill up in the second house was added when it
 * got there, and a peer who was once an MP shows Commons as the house at introduction, so no rule
 * on that house can tell when they joined). The leak test compares nowcasts from it with nowcasts
 * from the full data.
 */
export function snapshotAsKnownOn(billIds: number[], date: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bp-snapshot-cut-'));
  const sessions = (JSON.parse(readFileSync(path.join(REAL_SNAPSHOT_DIR, 'sessions.json'), 'utf8')) as any[])
    .filter((s) => s.startDate <= date)
    .map((s) => ({
      ...s,
      endDate: s.endDate && s.endDate <= date ? s.endDate : null,
      endAnnounced: s.endAnnounced && s.endAnnounced <= date && s.endDate && s.endDate <= date ? s.endAnnounced : null,
      lastObservedSittingDate: s.lastObservedSittingDate && s.lastObservedSittingDate <= date ? s.lastObservedSittingDate : date,
      completeAtSnapshot: Boolean(s.endDate && s.endDate <= date),
    }));
  const ended = (id: number) => sessions.some((s) => s.sessionId === id && s.endDate);
  const wanted = new Set(billIds);
  const lines = readFileSync(path.join(REAL_SNAPSHOT_DIR, 'bills.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line && wanted.has(JSON.parse(line).billId))
    .map((line) => JSON.parse(line))
    .filter((bill) => bill.introducedDate && bill.introducedDate <= date)
    .map((bill) => {
      const stages = bill.stages.map((s: any) => ({ ...s, dates: s.dates.filter((d: string) => d <= date), datesAfterSessionEnd: (s.datesAfterSessionEnd ?? []).filter((d: string) => d <= date) }));
      const enacted = Boolean(bill.royalAssentDate && bill.royalAssentDate <= date);
      const withdrawn = Boolean(bill.withdrawnDate && bill.withdrawnDate <= date);
      const sessionIds = bill.sessionIds.filter((id: number) => sessions.some((s) => s.sessionId === id));
      const fell = bill.outcome === 'fell' && sessionIds.every(ended);
      return {
        ...bill,
        shortTitle: enacted ? bill.shortTitle : titleBeforeRoyalAssent(bill.shortTitle, bill.originatingHouse),
        stages,
        divisions: bill.divisions.filter((d: any) => d.date <= date),
        sponsors: bill.sponsors.slice(0, 1),
        sessionIds,
        royalAssentDate: enacted ? bill.royalAssentDate : null,
        isAct: enacted && bill.isAct,
        withdrawnDate: withdrawn ? bill.withdrawnDate : null,
        outcome: enacted ? 'royal_assent' : withdrawn ? 'withdrawn' : fell ? 'fell' : 'pending_at_snapshot',
      };
    });
  writeFileSync(path.join(dir, 'bills.jsonl'), lines.map((bill) => JSON.stringify(bill)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'sessions.json'), JSON.stringify(sessions));
  writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ asOf: date }));
  return dir;
}
