import type { DataSource, EntityManager } from 'typeorm';
import { BillEntity } from '../db/entities/bill.entity';
import { DivisionEntity } from '../db/entities/division.entity';
import { ParliamentarySessionEntity } from '../db/entities/parliamentary-session.entity';
import { SessionDissolutionEntity } from '../db/entities/session-dissolution.entity';
import { SyncStateEntity } from '../db/entities/sync-state.entity';
import type { BillFacts, PmbSessionFacts, SessionFact, TrainingBill } from '../model/serve/bill-facts';
import { assignPmbSessionFacts, isPrivateMembersBill, PRIVATE_MEMBERS_KINDS, pmbSessionFacts, withPmbFridays } from '../model/serve/pmb-session';
import { assignBallotRanks, type Rankable } from '../model/serve/ballot';
import type { TrainingData } from '../model/train/train';
import { type BillRecord, type SessionRecord, sessionStartOf } from '../ingest/bill-record';
import { SnapshotSource } from '../ingest/snapshot.source';
import { selectJsonRows } from '../db/json-rows';
import { readJsonPages } from '../db/rows-in-pages';
import { asPmbPeers, billFacts, groupByBill, outcomeFacts, rankable, type StageRow, trainingDataFromPages, type TrainingPages } from './training-pages';

// With training-pages.ts, the only place stored bills become the model's inputs: facts for features, outcomes for labels.

export const sessionFactFromRecord = (s: SessionRecord): SessionFact => ({
  id: s.sessionId,
  startDate: sessionStartOf(s),
  endDate: s.endDate,
  dissolution: s.endAnnounced && s.endDate ? { announced: s.endAnnounced, end: s.endDate } : null,
});

export function trainingBillFromRecord(r: BillRecord): TrainingBill {
  return {
    facts: {
      billId: r.billId,
      kind: r.billKind,
      originatingHouse: r.originatingHouse,
      introducedDate: r.introducedDate,
      introducedSessionId: r.introducedSessionId,
      leadSponsorPartyInGovernment: r.leadSponsorPartyInGovernment,
      stages: r.stages.map((s) => ({ seq: s.seq, stage: s.stage, house: s.house, dates: s.dates })),
      divisions: r.divisions.map((d) => ({ date: d.date, ayes: d.ayesInclTellers, noes: d.noesInclTellers })),
      withdrawnDate: r.withdrawnDate,
    },
    outcome: outcomeFacts(r, r.stages),
  };
}

/**
 * What bills' facts read from the other bills of their sessions, by session: the ballot bills a
 * ballot bill's rank counts among, and the private members' bill facts. Read once per session for
 * as long as the data stands: a caller that reads facts a slice at a time (the events refresh, the
 * active nowcasts) would otherwise read every private member's bill of a session, and its stages,
 * again for each slice.
 */
export class SessionPeers {
  readonly ballot = new Map<number, Rankable[]>();
  readonly pmb = new Map<number, PmbSessionFacts | undefined>();
}

/**
 * The facts of the given bills (all when `ids` is omitted), as the predictor reads them. `peers`
 * keeps what was read of the bills' sessions for the next call; it must be replaced when the data changes.
 */
export async function loadBillFacts(dataSource: DataSource, ids?: number[], peers: SessionPeers = new SessionPeers()): Promise<Map<number, { facts: BillFacts; bill: BillEntity }>> {
  const [bills, stages, divisions] = await Promise.all([
    ids ? dataSource.getRepository(BillEntity).createQueryBuilder('b').where('b.id = ANY(:ids)', { ids }).getMany() : dataSource.getRepository(BillEntity).find(),
    stagesOfBills(dataSource, ids ?? null),
    dataSource.getRepository(DivisionEntity).createQueryBuilder('d').where(ids ? 'd.billId = ANY(:ids)' : '1=1', { ids }).getMany(),
  ]);
  const stagesOf = groupByBill(stages);
  const divisionsOf = groupByBill(divisions);
  const [ballotPeers, pmbSessions] = await Promise.all([ballotBillsOf(dataSource, bills, !ids, peers), pmbSessionsOf(dataSource, bills, ids ? null : stagesOf, peers)]);
  return new Map(bills.map((bill) => [bill.id, { bill, facts: billFacts(bill, stagesOf.get(bill.id) ?? [], divisionsOf.get(bill.id) ?? [], ballotPeers, pmbSessions) }]));
}

/** The stage records of the given bills (all when null), each bill's in order: thousands for a session's private members' bills or for training. */
const stagesOfBills = (dataSource: DataSource, ids: readonly number[] | null): Promise<StageRow[]> =>
  selectJsonRows<StageRow>(
    dataSource.manager,
    `SELECT bill_id AS "billId", seq, stage, house, sitting_dates AS "sittingDates" FROM bill_stage WHERE $1::int[] IS NULL OR bill_id = ANY($1)`,
    [ids],
    'r."billId", r.seq',
  );

const sessionsOf = (bills: readonly BillEntity[]) => [...new Set(bills.map((b) => b.introducedSessionId))];

/** The ballot bills a given bill's rank counts among: those of the given ballot bills' sessions (from `bills` itself when it holds every bill). */
async function ballotBillsOf(dataSource: DataSource, bills: BillEntity[], all: boolean, known: SessionPeers): Promise<Rankable[]> {
  const ballot = bills.filter((b) => b.kind === 'pmb_ballot');
  if (all || !ballot.length) return ballot.map(rankable);
  const sessions = sessionsOf(ballot);
  const unread = sessions.filter((id) => !known.ballot.has(id));
  if (unread.length) {
    const peers = await dataSource.getRepository(BillEntity).createQueryBuilder('b').select(['b.id', 'b.kind', 'b.introducedDate', 'b.introducedSessionId']).where('b.kind = :kind AND b.introducedSessionId = ANY(:sessions)', { kind: 'pmb_ballot', sessions: unread }).getMany();
    for (const id of unread) known.ballot.set(id, []);
    for (const peer of peers) known.ballot.get(peer.introducedSessionId)!.push(rankable(peer));
  }
  return sessions.flatMap((id) => known.ballot.get(id)!);
}

/**
 * The private members' bill facts of the sessions of the given bills' private members' bills, from
 * every private member's bill of those sessions (`allStagesOf`: every stored stage by bill, when the
 * caller loaded them all), each session read once into `known`.
 */
async function pmbSessionsOf(dataSource: DataSource, bills: BillEntity[], allStagesOf: Map<number, StageRow[]> | null, known: SessionPeers): Promise<Map<number, PmbSessionFacts>> {
  const pmbs = bills.filter((b) => isPrivateMembersBill(b.kind));
  if (!pmbs.length) return new Map();
  if (allStagesOf) return pmbSessionFacts(asPmbPeers(pmbs, allStagesOf));
  const sessions = sessionsOf(pmbs);
  const unread = sessions.filter((id) => !known.pmb.has(id));
  if (unread.length) {
    const peers = await dataSource.getRepository(BillEntity).createQueryBuilder('b').select(['b.id', 'b.kind', 'b.introducedSessionId']).where('b.kind = ANY(:kinds) AND b.introducedSessionId = ANY(:sessions)', { kinds: PRIVATE_MEMBERS_KINDS, sessions: unread }).getMany();
    const stages = await stagesOfBills(dataSource, peers.map((p) => p.id));
    const facts = pmbSessionFacts(asPmbPeers(peers, groupByBill(stages)));
    for (const id of unread) known.pmb.set(id, facts.get(id));
  }
  return new Map(sessions.flatMap((id) => (known.pmb.get(id) ? [[id, known.pmb.get(id)!] as const] : [])));
}

/** The stored sessions with their dissolutions (from the source, or recorded by an operator): what every nowcast and training reads of them. */
async function storedSessionFacts(manager: Pick<EntityManager, 'getRepository'>): Promise<SessionFact[]> {
  const [sessions, dissolutions] = await Promise.all([
    manager.getRepository(ParliamentarySessionEntity).find({ order: { id: 'ASC' } }),
    manager.getRepository(SessionDissolutionEntity).find(),
  ]);
  const dissolutionOf = new Map(dissolutions.map((d) => [d.sessionId, { announced: d.announced, end: d.endDate }]));
  return sessions.map((s) => ({ id: s.id, startDate: s.firstSittingDate, endDate: s.endDate, dissolution: dissolutionOf.get(s.id) ?? null }));
}

/** The sessions as nowcasts read them: with their dissolutions and their private members' Fridays (from every stored private member's bill). */
export async function loadSessionFacts(dataSource: DataSource): Promise<SessionFact[]> {
  const [sessions, fridays] = await Promise.all([
    storedSessionFacts(dataSource.manager),
    dataSource.query(
      `SELECT b.introduced_session_id AS "sessionId", array_agg(DISTINCT d::text ORDER BY d::text) AS fridays
         FROM bill b JOIN bill_stage s ON s.bill_id = b.id CROSS JOIN LATERAL unnest(s.sitting_dates) AS d
        WHERE b.kind = ANY($1) AND s.house = 'Commons' AND extract(isodow FROM d) = 5
        GROUP BY b.introduced_session_id`,
      [PRIVATE_MEMBERS_KINDS],
    ) as Promise<{ sessionId: number; fridays: string[] }[]>,
  ]);
  const fridaysOf = new Map(fridays.map((f) => [f.sessionId, f.fridays]));
  return sessions.map((s) => ({ ...s, pmbFridays: fridaysOf.get(s.id) ?? [] }));
}

/** What a version trains on: the stored data as pages for its worker, and the fingerprint of the data state they were read in. */
export interface TrainingSet {
  data: TrainingPages;
  fingerprint: string;
}

/**
 * Everything stored, as pages of JSON rows for a training's worker thread to parse and join
 * (training-pages.ts), with the sessions and the data's fingerprint, all in one repeatable-read
 * transaction: a version records the data it learned from. The event loop turns between pages; on
 * the embedded database a read of every bill, stage and division at once, and the joining of them,
 * held it (and every request) for a second or more, at every restart whose vintages were still to train.
 */
export function readTrainingSet(dataSource: DataSource): Promise<TrainingSet> {
  return dataSource.transaction('REPEATABLE READ', async (manager) => {
    const bills = await readJsonPages(
      manager,
      'bill',
      `id, ctid::text AS at, kind, originating_house AS "originatingHouse", introduced_date AS "introducedDate", introduced_session_id AS "introducedSessionId",
       lead_sponsor_party_in_government AS "leadSponsorPartyInGovernment", withdrawn_date AS "withdrawnDate", outcome, royal_assent_date AS "royalAssentDate",
       session_ids AS "sessionIds", stage_history AS "stageHistory", missing_stage_count AS "missingStageCount"`,
    );
    const stages = await readJsonPages(manager, 'bill_stage', `id, bill_id AS "billId", seq, stage, house, sitting_dates AS "sittingDates"`);
    const divisions = await readJsonPages(manager, 'division', `id, ctid::text AS at, bill_id AS "billId", date, ayes, noes`);
    const sessions = await storedSessionFacts(manager);
    const [state] = await manager.getRepository(SyncStateEntity).find({ order: { completedAt: 'DESC' }, take: 1 });
    return {
      data: {
        pages: { bills: bills.pages, stages: stages.pages, divisions: divisions.pages },
        sessions,
        billCount: bills.rows,
      },
      fingerprint: state?.dataFingerprint ?? 'none',
    };
  });
}

/** Everything stored, as training data in this thread (tests, tools): a training hands the pages to its worker instead. */
export async function loadTrainingData(dataSource: DataSource): Promise<TrainingData> {
  return trainingDataFromPages((await readTrainingSet(dataSource)).data);
}

/** A snapshot folder read straight into training data, without a database (evaluation, benchmarks). */
export async function loadSnapshotTrainingData(dir: string): Promise<TrainingData & { asOf: string; sessionNames: Record<number, string> }> {
  const source = new SnapshotSource(dir);
  const bills: TrainingBill[] = [];
  for await (const batch of source.bills({ since: null, batchSize: 1000 })) bills.push(...batch.map(trainingBillFromRecord));
  assignBallotRanks(bills.map((b) => b.facts));
  assignPmbSessionFacts(bills.map((b) => b.facts));
  const sessions = await source.sessions();
  return {
    bills,
    sessions: withPmbFridays(sessions.map(sessionFactFromRecord), pmbSessionFacts(bills.map((b) => b.facts))),
    asOf: await source.asOf(),
    sessionNames: Object.fromEntries(sessions.map((s) => [s.sessionId, s.name])),
  };
}
