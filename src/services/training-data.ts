import type { DataSource } from 'typeorm';
import type { BillStageEntity } from '../db/entities/bill-stage.entity';
import { BillEntity } from '../db/entities/bill.entity';
import { DivisionEntity } from '../db/entities/division.entity';
import { ParliamentarySessionEntity } from '../db/entities/parliamentary-session.entity';
import type { BillFacts, PmbSessionFacts, SessionFact, TrainingBill } from '../model/serve/bill-facts';
import { assignPmbSessionFacts, isPrivateMembersBill, PRIVATE_MEMBERS_KINDS, pmbSessionFacts, pmbSessionOf, type PmbSessionPeer } from '../model/serve/pmb-session';
import { assignBallotRanks, ballotRank, type Rankable } from '../model/serve/ballot';
import type { TrainingData } from '../model/train/train';
import { type BillRecord, type SessionRecord, sessionStartOf } from '../ingest/bill-record';
import { SnapshotSource } from '../ingest/snapshot.source';
import { pushTo } from '../common/multimap';
import { selectJsonRows } from '../db/json-rows';

// The only place stored bills become the model's inputs: facts for features, outcomes for labels.

export const sessionFactFromRecord = (s: SessionRecord): SessionFact => ({ id: s.sessionId, startDate: sessionStartOf(s), endDate: s.endDate });

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
    outcome: {
      outcome: r.outcome,
      royalAssentDate: r.royalAssentDate,
      finalSessionId: Math.max(r.introducedSessionId, ...r.sessionIds),
      fullStageHistory: r.stageHistory === 'full',
    },
  };
}

function groupBy<T extends { billId: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) pushTo(groups, row.billId, row);
  return groups;
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
  const stagesOf = groupBy(stages);
  const divisionsOf = groupBy(divisions);
  const [ballotPeers, pmbSessions] = await Promise.all([ballotBillsOf(dataSource, bills, !ids, peers), pmbSessionsOf(dataSource, bills, ids ? null : stagesOf, peers)]);
  const result = new Map(
    bills.map((bill) => [
      bill.id,
      {
        bill,
        facts: {
          billId: bill.id,
          kind: bill.kind,
          originatingHouse: bill.originatingHouse,
          introducedDate: bill.introducedDate,
          introducedSessionId: bill.introducedSessionId,
          leadSponsorPartyInGovernment: bill.leadSponsorPartyInGovernment,
          stages: (stagesOf.get(bill.id) ?? []).map((s) => ({ seq: s.seq, stage: s.stage, house: s.house, dates: s.sittingDates })),
          divisions: (divisionsOf.get(bill.id) ?? []).map((d) => ({ date: d.date, ayes: d.ayes, noes: d.noes })),
          withdrawnDate: bill.withdrawnDate,
          ballotRank: ballotRank(rankable(bill), ballotPeers),
          pmbSession: pmbSessionOf(pmbSessions, bill),
        },
      },
    ]),
  );
  return result;
}

/** What a bill's facts take from a stage record. */
type StageRow = Pick<BillStageEntity, 'billId' | 'seq' | 'stage' | 'house' | 'sittingDates'>;

/** The stage records of the given bills (all when null), each bill's in order: thousands for a session's private members' bills or for training. */
const stagesOfBills = (dataSource: DataSource, ids: readonly number[] | null): Promise<StageRow[]> =>
  selectJsonRows<StageRow>(
    dataSource.manager,
    `SELECT bill_id AS "billId", seq, stage, house, sitting_dates AS "sittingDates" FROM bill_stage WHERE $1::int[] IS NULL OR bill_id = ANY($1)`,
    [ids],
    'r."billId", r.seq',
  );

const rankable = (b: BillEntity): Rankable => ({ billId: b.id, kind: b.kind, introducedDate: b.introducedDate, introducedSessionId: b.introducedSessionId });

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
  if (allStagesOf) return pmbSessionFacts(asPeers(pmbs, allStagesOf));
  const sessions = sessionsOf(pmbs);
  const unread = sessions.filter((id) => !known.pmb.has(id));
  if (unread.length) {
    const peers = await dataSource.getRepository(BillEntity).createQueryBuilder('b').select(['b.id', 'b.kind', 'b.introducedSessionId']).where('b.kind = ANY(:kinds) AND b.introducedSessionId = ANY(:sessions)', { kinds: PRIVATE_MEMBERS_KINDS, sessions: unread }).getMany();
    const stages = await stagesOfBills(dataSource, peers.map((p) => p.id));
    const facts = pmbSessionFacts(asPeers(peers, groupBy(stages)));
    for (const id of unread) known.pmb.set(id, facts.get(id));
  }
  return new Map(sessions.flatMap((id) => (known.pmb.get(id) ? [[id, known.pmb.get(id)!] as const] : [])));
}

function asPeers(bills: readonly BillEntity[], stagesOf: Map<number, StageRow[]>): PmbSessionPeer[] {
  return bills.map((p) => ({ kind: p.kind, introducedSessionId: p.introducedSessionId, stages: (stagesOf.get(p.id) ?? []).map((s) => ({ stage: s.stage, house: s.house, dates: s.sittingDates })) }));
}

export async function loadSessionFacts(dataSource: DataSource): Promise<SessionFact[]> {
  const sessions = await dataSource.getRepository(ParliamentarySessionEntity).find({ order: { id: 'ASC' } });
  return sessions.map((s) => ({ id: s.id, startDate: s.firstSittingDate, endDate: s.endDate }));
}

/** Everything stored, as training data: facts and the outcomes labels are made from. */
export async function loadTrainingData(dataSource: DataSource): Promise<TrainingData> {
  const [facts, sessions] = await Promise.all([loadBillFacts(dataSource), loadSessionFacts(dataSource)]);
  const bills = [...facts.values()].map(({ facts: f, bill }) => ({
    facts: f,
    outcome: {
      outcome: bill.outcome,
      royalAssentDate: bill.royalAssentDate,
      finalSessionId: Math.max(bill.introducedSessionId, ...bill.sessionIds),
      fullStageHistory: bill.stageHistory === 'full',
    },
  }));
  return { bills, sessions };
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
    sessions: sessions.map(sessionFactFromRecord),
    asOf: await source.asOf(),
    sessionNames: Object.fromEntries(sessions.map((s) => [s.sessionId, s.name])),
  };
}
