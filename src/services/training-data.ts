import type { DataSource } from 'typeorm';
import { BillStageEntity } from '../../entities/bill-stage.entity';
import { BillEntity } from '../../entities/bill.entity';
import { DivisionEntity } from '../../entities/division.entity';
import { ParliamentarySessionEntity } from '../../entities/parliamentary-session.entity';
import type { BillFacts, PmbSessionFacts, SessionFact, TrainingBill } from '../../model/bill-facts';
import { assignPmbSessionFacts, isPrivateMembersBill, PRIVATE_MEMBERS_KINDS, pmbSessionFacts, pmbSessionOf } from '../../model/pmb-session';
import { assignBallotRanks, ballotRank, type Rankable } from '../../model/ballot';
import type { TrainingData } from '../../model/train';
import { type BillRecord, type SessionRecord, sessionStartOf } from '../ingest/bill-record';
import { SnapshotSource } from '../ingest/snapshot.source';
import { pushTo } from '../../model/multimap';

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

/** The facts of the given bills (all when `ids` is omitted), as the predictor reads them. */
export async function loadBillFacts(dataSource: DataSource, ids?: number[]): Promise<Map<number, { facts: BillFacts; bill: BillEntity }>> {
  const [bills, stages, divisions] = await Promise.all([
    ids ? dataSource.getRepository(BillEntity).createQueryBuilder('b').where('b.id = ANY(:ids)', { ids }).getMany() : dataSource.getRepository(BillEntity).find(),
    dataSource.getRepository(BillStageEntity).createQueryBuilder('s').where(ids ? 's.billId = ANY(:ids)' : '1=1', { ids }).orderBy('s.billId').addOrderBy('s.seq').getMany(),
    dataSource.getRepository(DivisionEntity).createQueryBuilder('d').where(ids ? 'd.billId = ANY(:ids)' : '1=1', { ids }).getMany(),
  ]);
  const stagesOf = groupBy(stages);
  const divisionsOf = groupBy(divisions);
  const [ballotPeers, pmbSessions] = await Promise.all([ballotBillsOf(dataSource, bills, !ids), pmbSessionsOf(dataSource, bills, ids ? null : stages)]);
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

const rankable = (b: BillEntity): Rankable => ({ billId: b.id, kind: b.kind, introducedDate: b.introducedDate, introducedSessionId: b.introducedSessionId });

/** The ballot bills a given bill's rank counts among: those of the given ballot bills' sessions (from `bills` itself when it holds every bill). */
async function ballotBillsOf(dataSource: DataSource, bills: BillEntity[], all: boolean): Promise<Rankable[]> {
  const ballot = bills.filter((b) => b.kind === 'pmb_ballot');
  if (all || !ballot.length) return ballot.map(rankable);
  const sessions = [...new Set(ballot.map((b) => b.introducedSessionId))];
  const peers = await dataSource.getRepository(BillEntity).createQueryBuilder('b').select(['b.id', 'b.kind', 'b.introducedDate', 'b.introducedSessionId']).where('b.kind = :kind AND b.introducedSessionId = ANY(:sessions)', { kind: 'pmb_ballot', sessions }).getMany();
  return peers.map(rankable);
}

/**
 * The private members' bill facts of the sessions of the given bills' private members' bills, from
 * every private member's bill of those sessions (`allStages`: every stored stage, when the caller
 * loaded them all).
 */
async function pmbSessionsOf(dataSource: DataSource, bills: BillEntity[], allStages: BillStageEntity[] | null): Promise<Map<number, PmbSessionFacts>> {
  const sessions = [...new Set(bills.filter((b) => isPrivateMembersBill(b.kind)).map((b) => b.introducedSessionId))];
  if (!sessions.length) return new Map();
  const peers = allStages
    ? bills.filter((b) => isPrivateMembersBill(b.kind))
    : await dataSource.getRepository(BillEntity).createQueryBuilder('b').select(['b.id', 'b.kind', 'b.introducedSessionId']).where('b.kind = ANY(:kinds) AND b.introducedSessionId = ANY(:sessions)', { kinds: PRIVATE_MEMBERS_KINDS, sessions }).getMany();
  const stages = allStages ?? (await dataSource.getRepository(BillStageEntity).createQueryBuilder('s').where('s.billId = ANY(:ids)', { ids: peers.map((p) => p.id) }).getMany());
  const stagesOf = groupBy(stages);
  return pmbSessionFacts(peers.map((p) => ({ kind: p.kind, introducedSessionId: p.introducedSessionId, stages: (stagesOf.get(p.id) ?? []).map((s) => ({ stage: s.stage, house: s.house, dates: s.sittingDates })) })));
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
