import { type BillFacts, type BillOutcomeFacts, type PmbSessionFacts, type SessionFact, type StageFact, stageHistoryCompleteUntil, type TrainingBill } from '../model/serve/bill-facts';
import { ballotRank, type Rankable } from '../model/serve/ballot';
import { isPrivateMembersBill, pmbSessionFacts, pmbSessionOf, type PmbSessionPeer, withPmbFridays } from '../model/serve/pmb-session';
import { pushTo } from '../common/multimap';
import type { TrainingData } from '../model/train/train';

// Training data as the database hands it over: pages of JSON rows, read on the server's thread
// without being parsed (training-data.ts), parsed and joined into bills' facts in the worker thread
// that trains on them (train-worker.ts). Parsing thousands of rows and joining them holds a thread
// for hundreds of milliseconds; the worker's thread holds no requests. Imports no database code:
// the worker loads this file.

/** What a bill's facts and outcome take from its row (BillEntity's property names). */
export interface BillRow {
  id: number;
  kind: BillFacts['kind'];
  originatingHouse: BillFacts['originatingHouse'];
  introducedDate: string | null;
  introducedSessionId: number;
  leadSponsorPartyInGovernment: boolean | null;
  withdrawnDate: string | null;
  outcome: TrainingBill['outcome']['outcome'];
  royalAssentDate: string | null;
  sessionIds: number[];
  stageHistory: string;
  missingStageCount: number;
}

/** What a bill's facts take from a stage record. */
export interface StageRow {
  billId: number;
  seq: number;
  stage: string;
  house: BillFacts['originatingHouse'];
  sittingDates: string[];
}

/** What a bill's facts take from a division. */
export interface DivisionRow {
  billId: number;
  date: string;
  ayes: number;
  noes: number;
}

/**
 * Every stored bill, stage record and division as JSON arrays of rows, a page each, with the
 * sessions: one consistent view of the data (one repeatable-read transaction).
 */
export interface TrainingPages {
  pages: {
    /** BillRow pages, each row with `at`, its place in the table (ctid, "(block,offset)") */
    bills: string[];
    /** StageRow pages */
    stages: string[];
    /** DivisionRow pages, each row with `at` as bills' */
    divisions: string[];
  };
  sessions: SessionFact[];
  /** how many bills the pages hold */
  billCount: number;
}

/** What a training reads: pages from the database, or training data made in memory (a snapshot folder, tests). */
export type TrainingInput = TrainingData | TrainingPages;

export const isTrainingPages = (input: TrainingInput): input is TrainingPages => 'pages' in input;

type Placed<T> = T & { at: string };

/** A row's place in its table: the order a plain scan of the table returns rows in. */
function place(at: string): number {
  const [block, offset] = at.slice(1, -1).split(',');
  return Number(block) * 65_536 + Number(offset);
}

/**
 * Rows in the order a plain scan of their table gives (what every training read before the pages
 * did), so that the data trained and scored on is the same, in the same order, as it was.
 */
function inTableOrder<T>(pages: readonly string[]): T[] {
  const rows = pages.flatMap((page) => JSON.parse(page) as Placed<T>[]).map((row) => ({ row, at: place(row.at) }));
  rows.sort((a, b) => a.at - b.at);
  return rows.map(({ row }) => {
    const { at: _at, ...rest } = row;
    return rest as T;
  });
}

export function groupByBill<T extends { billId: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) pushTo(groups, row.billId, row);
  return groups;
}

export const rankable = (b: Pick<BillRow, 'id' | 'kind' | 'introducedDate' | 'introducedSessionId'>): Rankable => ({ billId: b.id, kind: b.kind, introducedDate: b.introducedDate, introducedSessionId: b.introducedSessionId });

export function asPmbPeers(bills: readonly Pick<BillRow, 'id' | 'kind' | 'introducedSessionId'>[], stagesOf: ReadonlyMap<number, readonly Omit<StageRow, 'billId' | 'seq'>[]>): PmbSessionPeer[] {
  return bills.map((p) => ({ kind: p.kind, introducedSessionId: p.introducedSessionId, stages: (stagesOf.get(p.id) ?? []).map((s) => ({ stage: s.stage, house: s.house, dates: s.sittingDates })) }));
}

/** A bill's facts, as the predictor reads them, from its row, its stages and divisions, and what it reads of its session's other bills. */
export function billFacts(
  bill: Omit<BillRow, 'outcome' | 'royalAssentDate' | 'sessionIds' | 'stageHistory' | 'missingStageCount'>,
  stages: readonly Omit<StageRow, 'billId'>[],
  divisions: readonly Omit<DivisionRow, 'billId'>[],
  ballotPeers: readonly Rankable[],
  pmbSessions: ReadonlyMap<number, PmbSessionFacts>,
): BillFacts {
  return {
    billId: bill.id,
    kind: bill.kind,
    originatingHouse: bill.originatingHouse,
    introducedDate: bill.introducedDate,
    introducedSessionId: bill.introducedSessionId,
    leadSponsorPartyInGovernment: bill.leadSponsorPartyInGovernment,
    stages: stages.map((s) => ({ seq: s.seq, stage: s.stage, house: s.house, dates: s.sittingDates })),
    divisions: divisions.map((d) => ({ date: d.date, ayes: d.ayes, noes: d.noes })),
    withdrawnDate: bill.withdrawnDate,
    ballotRank: ballotRank(rankable(bill), ballotPeers),
    pmbSession: pmbSessionOf(pmbSessions, bill),
  };
}

/** What became of a bill, for its labels (and a forecast of record's outcome), from its row and its stages as facts. */
export function outcomeFacts(bill: Pick<BillRow, 'outcome' | 'royalAssentDate' | 'introducedSessionId' | 'sessionIds' | 'stageHistory' | 'missingStageCount' | 'introducedDate'>, stages: readonly StageFact[]): BillOutcomeFacts {
  return {
    outcome: bill.outcome,
    royalAssentDate: bill.royalAssentDate,
    finalSessionId: Math.max(bill.introducedSessionId, ...bill.sessionIds),
    stageHistoryCompleteUntil: stageHistoryCompleteUntil(bill.stageHistory, bill.missingStageCount, stages, bill.introducedDate),
  };
}

/** The training data the pages hold: every bill's facts (ballot ranks and private members' sessions from all of them) and outcome. */
export function trainingDataFromPages({ pages, sessions }: TrainingPages): TrainingData {
  const bills = inTableOrder<BillRow>(pages.bills);
  // stage records by bill, each bill's in order (the pages come by stage id)
  const stages = pages.stages.flatMap((page) => JSON.parse(page) as StageRow[]);
  stages.sort((a, b) => a.billId - b.billId || a.seq - b.seq);
  const stagesOf = groupByBill(stages);
  const divisionsOf = groupByBill(inTableOrder<DivisionRow>(pages.divisions));
  const ballotPeers = bills.filter((b) => b.kind === 'pmb_ballot').map(rankable);
  const pmbs = bills.filter((b) => isPrivateMembersBill(b.kind));
  const pmbSessions = pmbs.length ? pmbSessionFacts(asPmbPeers(pmbs, stagesOf)) : new Map<number, PmbSessionFacts>();
  return {
    bills: bills.map((bill) => {
      const facts = billFacts(bill, stagesOf.get(bill.id) ?? [], divisionsOf.get(bill.id) ?? [], ballotPeers, pmbSessions);
      return { facts, outcome: outcomeFacts(bill, facts.stages) };
    }),
    sessions: withPmbFridays(sessions, pmbSessions),
  };
}

/** The training data of either kind of input (in a worker thread: pages are parsed there). */
export const trainingDataOf = (input: TrainingInput): TrainingData => (isTrainingPages(input) ? trainingDataFromPages(input) : input);
