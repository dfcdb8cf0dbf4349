import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BillSponsorEntity } from '../db/entities/bill-sponsor.entity';
import { BillStageEntity } from '../db/entities/bill-stage.entity';
import { BillEntity } from '../db/entities/bill.entity';
import { DivisionEntity } from '../db/entities/division.entity';
import { ParliamentarySessionEntity } from '../db/entities/parliamentary-session.entity';
import { SyncStateEntity } from '../db/entities/sync-state.entity';
import { insertJsonRows } from '../db/json-rows';
import { readInPages } from '../db/rows-in-pages';
import { type BillRecord, type SessionRecord, sessionStartOf } from './bill-record';
import type { BillSource, SkippedBill } from './bill-source';
import { recordScheduledSittings } from './scheduled-sittings';
import { type InferredSessionEnd, settleEndedSessions } from './session-ends';
import { sittingFirstSeenDays } from './sitting-first-seen';

export interface IngestProgress {
  /** bills the source expects to yield, when it knows */
  total: number | null;
  done: number;
  changed: number;
}

export interface IngestOptions {
  batchSize?: number;
  /** stops between batches (shutdown): what was written stays, the next run carries on */
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** the service's day, for a source that dates nothing (the live API): its sittings after the day are recorded as scheduled; default the UTC date */
  today?: string;
}

export interface IngestReport {
  source: string;
  asOf: string | null;
  sessions: number;
  billsSeen: number;
  billsChanged: number;
  billsUnchanged: number;
  /** bills the source could not read and left out; the next run tries them again */
  billsSkipped: number;
  skipped: SkippedBill[];
  /** sessions this run found to have ended because a later one appeared; their end dates are inferred */
  sessionsEndInferred: InferredSessionEnd[];
  /** stored bills left pending by earlier runs whose last session has now ended: they fell */
  billsFell: number;
  /** future sitting dates this run saw for the first time (new, or a stage's date moved) */
  sittingsScheduled: number;
  dataFingerprint: string;
  durationMs: number;
}

const sourceKind = (source: BillSource): SyncStateEntity['sourceKind'] => (source.name.startsWith('snapshot:') ? 'snapshot' : 'bills-api');

export const contentHash = (record: BillRecord): string => createHash('sha256').update(JSON.stringify(record)).digest('hex');

/**
 * Writes what a source yields into the database. Idempotent: a bill whose normalised record is
 * unchanged is not touched, so running it twice changes nothing. Bills are written a few dozen to
 * a transaction, each whole: an interrupted run keeps the ones it finished, and the next run carries
 * on from there (the cursor moves only when a run completes).
 * A run that skipped bills keeps the previous cursor, so an incremental source offers them again.
 */
export async function ingest(dataSource: DataSource, source: BillSource, options: IngestOptions = {}): Promise<IngestReport> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 250;
  const kind = sourceKind(source);
  const [asOf, syncStates] = await Promise.all([source.asOf(), dataSource.getRepository(SyncStateEntity).find()]);
  const previous = syncStates.find((state) => state.sourceKind === kind) ?? null;

  // a snapshot's day is its as-of date: sittings after it were set down when it was taken
  const today = asOf ?? options.today ?? new Date().toISOString().slice(0, 10);
  // a first sync (none completed yet) brings what was there before the service followed anything
  const firstSync = syncStates.length === 0;
  const progress: IngestProgress = { total: null, done: 0, changed: 0 };
  let sittingsScheduled = 0;
  let cursor = previous?.cursor ?? null;
  for await (const batch of source.bills({
    since: previous?.cursor?.toISOString() ?? null,
    batchSize,
    onTotal: (total) => (progress.total = total),
  })) {
    options.signal?.throwIfAborted();
    const { changed, scheduled } = await writeBatch(dataSource, batch, today, firstSync);
    sittingsScheduled += scheduled;
    progress.done += batch.length;
    progress.changed += changed;
    for (const record of batch) {
      const updated = record.lastUpdate ? new Date(record.lastUpdate) : null;
      if (updated && !Number.isNaN(updated.getTime()) && (!cursor || updated > cursor)) cursor = updated;
    }
    options.onProgress?.({ ...progress });
  }

  // Asked after the bills: a live source learns of sessions from the bills it reads.
  const settled = await mergeSessions(dataSource, await source.sessions());

  const skipped = [...(source.skipped?.() ?? [])];
  if (skipped.length) cursor = previous?.cursor ?? null;

  const dataFingerprint = await fingerprint(dataSource);
  await dataSource.getRepository(SyncStateEntity).save({
    sourceKind: kind,
    sourceName: source.name,
    asOf,
    cursor,
    completedAt: new Date(),
    billsSeen: progress.done,
    billsChanged: progress.changed,
    dataFingerprint,
  });

  return {
    source: source.name,
    asOf,
    sessions: await dataSource.getRepository(ParliamentarySessionEntity).count(),
    billsSeen: progress.done,
    billsChanged: progress.changed,
    billsUnchanged: progress.done - progress.changed,
    billsSkipped: skipped.length,
    skipped,
    sessionsEndInferred: settled.inferred,
    billsFell: settled.billsFell,
    sittingsScheduled,
    dataFingerprint,
    durationMs: Date.now() - started,
  };
}

/**
 * Adds what a source knows of sessions to what is stored, never erasing: an incremental live sync
 * sees only some bills, so it knows less of a session's sittings than an earlier full read did.
 * A known end date (the source's table or snapshot) replaces an inferred one, and a known start date
 * the first sitting seen (a mislabelled stage can show a sitting before the session began). Then sessions that a
 * later one shows to have ended, and the stored bills that fell with them, are settled.
 */
async function mergeSessions(dataSource: DataSource, sessions: SessionRecord[]) {
  const now = new Date();
  return dataSource.transaction(async (manager) => {
    for (const s of sessions) {
      await manager.query(
        `INSERT INTO parliamentary_session (id, name, end_date, first_sitting_date, last_sitting_date, learned_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET
           name = EXCLUDED.name,
           end_date = COALESCE(EXCLUDED.end_date, parliamentary_session.end_date),
           end_date_inferred = parliamentary_session.end_date_inferred AND EXCLUDED.end_date IS NULL,
           end_inferred_at = CASE WHEN EXCLUDED.end_date IS NULL THEN parliamentary_session.end_inferred_at END,
           first_sitting_date = COALESCE($7::date, LEAST(EXCLUDED.first_sitting_date, parliamentary_session.first_sitting_date)),
           last_sitting_date = GREATEST(EXCLUDED.last_sitting_date, parliamentary_session.last_sitting_date)`,
        [s.sessionId, s.name, s.endDate, sessionStartOf(s), s.lastObservedSittingDate, now, s.startDate],
      );
      // a source that knows a dissolution (a snapshot's endAnnounced) replaces what was recorded of it
      if (s.endAnnounced && s.endDate) {
        await manager.query(
          `INSERT INTO session_dissolution (session_id, announced, end_date, recorded_by, recorded_at) VALUES ($1, $2, $3, 'source', $4)
           ON CONFLICT (session_id) DO UPDATE SET announced = EXCLUDED.announced, end_date = EXCLUDED.end_date, recorded_by = 'source', recorded_at = EXCLUDED.recorded_at
           WHERE session_dissolution.announced <> EXCLUDED.announced OR session_dissolution.end_date <> EXCLUDED.end_date OR session_dissolution.recorded_by <> 'source'`,
          [s.sessionId, s.endAnnounced, s.endDate, now],
        );
      }
    }
    return settleEndedSessions(manager, now);
  });
}

/**
 * Bills written in one transaction. Each statement of a write holds this thread on the embedded
 * database (PGlite runs in it; its session pool starts each statement in a turn of its own), and a
 * transaction holds its one session: small groups and small statements keep requests answered
 * during a sync (a statement of 20 rows takes a few milliseconds; of 50, up to tens).
 */
const BILLS_PER_TRANSACTION = 25;
const ROWS_PER_STATEMENT = 20;

/** A batch's content hashes, BILLS_PER_TRANSACTION bills a turn: hashing a whole batch at once held the thread for tens of milliseconds. */
async function contentHashesInTurns(batch: readonly BillRecord[]): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  for (let i = 0; i < batch.length; i += BILLS_PER_TRANSACTION) {
    if (i > 0) await nextTurn();
    for (const record of batch.slice(i, i + BILLS_PER_TRANSACTION)) hashes.set(record.billId, contentHash(record));
  }
  return hashes;
}

/** Writes the bills of a batch that differ from what is stored, and their scheduled sittings; returns how many of each. */
async function writeBatch(dataSource: DataSource, batch: BillRecord[], today: string, firstSync: boolean): Promise<{ changed: number; scheduled: number }> {
  const hashes = await contentHashesInTurns(batch);
  const stored = (await dataSource.query('SELECT id, content_hash FROM bill WHERE id = ANY($1)', [[...hashes.keys()]])) as { id: number; content_hash: string }[];
  const storedHash = new Map(stored.map((b) => [b.id, b.content_hash]));
  const isChanged = (r: BillRecord) => storedHash.get(r.billId) !== hashes.get(r.billId);
  const changed = batch.filter(isChanged);
  const unchanged = batch.filter((r) => !isChanged(r));
  const now = new Date();
  // the unchanged bills' sittings are compared too (a database that stored a bill before it kept them learns them now)
  let scheduled = unchanged.length ? await dataSource.transaction((manager) => recordScheduledSittings(manager, unchanged, today, now)) : 0;
  for (let i = 0; i < changed.length; i += BILLS_PER_TRANSACTION) {
    const group = changed.slice(i, i + BILLS_PER_TRANSACTION);
    // one transaction: a bill is written whole with its sittings or not at all, and an interrupted sync keeps the groups it finished
    scheduled += await dataSource.transaction(async (manager) => {
      await writeChanged(manager, group, hashes, now, firstSync ? null : today);
      return recordScheduledSittings(manager, group, today, now);
    });
  }
  return { changed: changed.length, scheduled };
}

/** `seenDay`: the day a stage's new first sitting date is first seen (null on a first sync; see sitting-first-seen.ts). */
async function writeChanged(manager: EntityManager, changed: BillRecord[], hashes: Map<number, string>, now: Date, seenDay: string | null): Promise<void> {
  const ids = changed.map((r) => r.billId);
  const firstSeen = await sittingFirstSeenDays(manager, changed, seenDay);
  await insertJsonRows(manager, BillEntity, changed.map((r) => toBillEntity(r, hashes.get(r.billId)!, now)), { upsertOn: ['id'], rowsPerStatement: ROWS_PER_STATEMENT });
  // Children are replaced whole: the source's record is the truth for the bill.
  for (const table of ['bill_sponsor', 'bill_stage', 'division']) {
    await manager.query(`DELETE FROM ${table} WHERE bill_id = ANY($1)`, [ids]);
  }
  await insertJsonRows(manager, BillSponsorEntity, changed.flatMap(sponsorRows), { rowsPerStatement: ROWS_PER_STATEMENT });
  await insertJsonRows(manager, BillStageEntity, changed.flatMap((r) => stageRows(r, firstSeen)), { rowsPerStatement: ROWS_PER_STATEMENT });
  await insertJsonRows(manager, DivisionEntity, changed.flatMap(divisionRows), { rowsPerStatement: ROWS_PER_STATEMENT });
}

function toBillEntity(r: BillRecord, hash: string, now: Date): Partial<BillEntity> {
  return {
    id: r.billId,
    title: r.shortTitle,
    longTitle: r.longTitle,
    summary: r.summary,
    billTypeId: r.billTypeId,
    billType: r.billType,
    category: r.billTypeCategory,
    kind: r.billKind,
    originatingHouse: r.originatingHouse,
    introducedSessionId: r.introducedSessionId,
    sessionIds: r.sessionIds,
    sponsorOrganisations: r.sponsorOrganisations,
    leadSponsorPartyInGovernment: r.leadSponsorPartyInGovernment,
    isAct: r.isAct,
    withdrawnDate: r.withdrawnDate,
    outcome: r.outcome,
    introducedDate: r.introducedDate,
    royalAssentDate: r.royalAssentDate,
    stageHistory: r.stageHistory,
    missingStageCount: r.missingStageCount,
    sourceUpdatedAt: r.lastUpdate ? new Date(r.lastUpdate) : null,
    contentHash: hash,
    ingestedAt: now,
  };
}

const sponsorRows = (r: BillRecord): Partial<BillSponsorEntity>[] =>
  r.sponsors.map((s, position) => ({
    billId: r.billId,
    position,
    memberId: s.memberId,
    name: s.name,
    partyAtIntroduction: s.partyAtIntroduction,
    houseAtIntroduction: s.houseAtIntroduction,
  }));

const stageRows = (r: BillRecord, firstSeen: ReadonlyMap<number, string | null>): Partial<BillStageEntity>[] =>
  r.stages.map((s) => ({
    id: s.billStageId,
    billId: r.billId,
    seq: s.seq,
    stageId: s.stageId,
    stage: s.stage,
    description: s.description,
    abbr: s.abbr,
    house: s.house,
    sessionId: s.sessionId,
    phase: s.phase,
    sittingDates: s.dates,
    datesAfterSessionEnd: s.datesAfterSessionEnd,
    fromCurrentStage: s.fromCurrentStage,
    sittingFirstSeenDay: firstSeen.get(s.billStageId) ?? null,
  }));

const divisionRows = (r: BillRecord): Partial<DivisionEntity>[] =>
  r.divisions.map((d) => ({
    billId: r.billId,
    house: d.house,
    date: d.date,
    number: d.number,
    title: d.title,
    ayes: d.ayesInclTellers,
    noes: d.noesInclTellers,
    stage: d.stage,
    billStageId: d.billStageId,
    source: d.source,
  }));

/** Changes exactly when what nowcasts read changes: a stored bill's content, the sessions, the record of scheduled sittings. */
async function fingerprint(dataSource: DataSource): Promise<string> {
  const hash = createHash('sha256');
  await readInPages<{ id: number; content_hash: string }>(dataSource, 'bill', 'id, content_hash', (rows) => {
    for (const row of rows) hash.update(`${row.id}:${row.content_hash}\n`);
  });
  // what a sync learns of sessions (their sittings, their ends) moves nowcasts as bills do; when it
  // learned them does not, so the same data fingerprints alike in every database
  const sessions = await dataSource.query('SELECT id, name, end_date, first_sitting_date, last_sitting_date FROM parliamentary_session ORDER BY id');
  for (const session of sessions) hash.update(`${JSON.stringify(session)}\n`);
  // an announced dissolution moves nowcasts from its announcement on (an operator's record among them)
  const dissolutions = await dataSource.query('SELECT session_id, announced::text AS announced, end_date::text AS end_date FROM session_dissolution ORDER BY session_id');
  for (const dissolution of dissolutions) hash.update(`dissolution ${JSON.stringify(dissolution)}\n`);
  // the record of scheduled sittings moves nowcasts too (a scheduled next stage is the ETA), and by
  // the days it was seen and superseded, which a past-date nowcast reads: they are in it
  const sittings = await dataSource.query(
    `SELECT bill_id, bill_stage_id, scheduled_for::text AS scheduled_for, first_seen_day::text AS first_seen_day, superseded_day::text AS superseded_day
     FROM scheduled_sitting ORDER BY bill_id, bill_stage_id, first_seen_day, scheduled_for, superseded_day`,
  );
  for (const sitting of sittings) hash.update(`${JSON.stringify(sitting)}\n`);
  return hash.digest('hex');
}
