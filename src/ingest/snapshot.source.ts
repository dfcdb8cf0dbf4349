import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { BillRecord, SessionRecord } from './bill-record';
import type { BillBatchOptions, BillSource } from './bill-source';
import { SnapshotFormatError } from './snapshot-format-error';

export { SnapshotFormatError };

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const house = z.enum(['Commons', 'Lords', 'Unassigned']);

const snapshotInfoSchema = z.object({ asOf: date });

const sessionSchema = z.object({
  sessionId: z.number().int(),
  name: z.string(),
  startDate: date.nullable().optional(),
  endDate: date.nullable(),
  endAnnounced: date.nullable().optional(),
  firstObservedSittingDate: date.nullable().optional(),
  lastObservedSittingDate: date.nullable().optional(),
});

const stageSchema = z.object({
  seq: z.number().int(),
  billStageId: z.number().int(),
  stageId: z.number().int(),
  stage: z.string(),
  description: z.string(),
  abbr: z.string().nullable().optional(),
  house,
  sessionId: z.number().int().nullable().optional(),
  dates: z.array(date),
  datesAfterSessionEnd: z.array(date).optional(),
  phase: z.enum(['first_house', 'second_house', 'ping_pong', 'royal_assent']).nullable().optional(),
  fromCurrentStage: z.boolean().optional(),
});

const divisionSchema = z.object({
  house,
  date,
  number: z.number().int(),
  title: z.string(),
  ayesInclTellers: z.number().int(),
  noesInclTellers: z.number().int(),
  stage: z.string().nullable().optional(),
  billStageId: z.number().int().nullable().optional(),
  source: z.string(),
});

/** The fields of a snapshot line the service keeps; snapshot-time summaries (furthestStage …) are dropped. */
const billLineSchema = z.object({
  billId: z.number().int().positive(),
  shortTitle: z.string(),
  longTitle: z.string().nullable(),
  summary: z.string().nullable(),
  billTypeId: z.number().int(),
  billType: z.string(),
  billTypeCategory: z.string(),
  billKind: z.enum(['government', 'pmb_ballot', 'pmb_ten_minute_rule', 'pmb_presentation', 'pmb_lords', 'private', 'hybrid', 'consolidation']),
  originatingHouse: house,
  introducedSessionId: z.number().int(),
  sessionIds: z.array(z.number().int()),
  sponsors: z.array(
    z.object({
      memberId: z.number().int().nullable(),
      name: z.string(),
      partyAtIntroduction: z.string().nullable(),
      houseAtIntroduction: z.string().nullable(),
    }),
  ),
  sponsorOrganisations: z.array(z.string()),
  leadSponsorPartyInGovernment: z.boolean().nullable(),
  isAct: z.boolean(),
  withdrawnDate: date.nullable(),
  outcome: z.enum(['royal_assent', 'withdrawn', 'fell', 'pending_at_snapshot', 'pending']),
  introducedDate: date.nullable(),
  royalAssentDate: date.nullable(),
  lastUpdate: z.string().nullable(),
  stageHistory: z.enum(['full', 'truncated', 'current_stage_only']),
  missingStageCount: z.number().int(),
  stages: z.array(stageSchema),
  divisions: z.array(divisionSchema),
});

function parseOrExplain<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SnapshotFormatError(`${where}: ${issue.path.join('.') || '(root)'} ${issue.message}`);
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SnapshotFormatError(`${file}: ${(error as Error).message}`);
  }
}

export function toBillRecord(line: z.infer<typeof billLineSchema>): BillRecord {
  return {
    billId: line.billId,
    shortTitle: line.shortTitle,
    longTitle: line.longTitle,
    summary: line.summary,
    billTypeId: line.billTypeId,
    billType: line.billType,
    billTypeCategory: line.billTypeCategory,
    billKind: line.billKind,
    originatingHouse: line.originatingHouse,
    introducedSessionId: line.introducedSessionId,
    sessionIds: line.sessionIds,
    sponsors: line.sponsors.map((s) => ({
      memberId: s.memberId,
      name: s.name,
      partyAtIntroduction: s.partyAtIntroduction,
      houseAtIntroduction: s.houseAtIntroduction,
    })),
    sponsorOrganisations: line.sponsorOrganisations,
    leadSponsorPartyInGovernment: line.leadSponsorPartyInGovernment,
    isAct: line.isAct,
    withdrawnDate: line.withdrawnDate,
    outcome: line.outcome === 'pending_at_snapshot' ? 'pending' : line.outcome,
    introducedDate: line.introducedDate,
    royalAssentDate: line.royalAssentDate,
    lastUpdate: line.lastUpdate,
    stageHistory: line.stageHistory,
    missingStageCount: line.missingStageCount,
    stages: line.stages.map((s) => ({
      seq: s.seq,
      billStageId: s.billStageId,
      stageId: s.stageId,
      stage: s.stage,
      description: s.description,
      abbr: s.abbr ?? null,
      house: s.house,
      sessionId: s.sessionId ?? null,
      dates: [...new Set(s.dates)].sort(),
      datesAfterSessionEnd: s.datesAfterSessionEnd ?? [],
      phase: s.phase ?? null,
      fromCurrentStage: s.fromCurrentStage ?? false,
    })),
    divisions: line.divisions.map((d) => ({
      house: d.house,
      date: d.date,
      number: d.number,
      title: d.title,
      ayesInclTellers: d.ayesInclTellers,
      noesInclTellers: d.noesInclTellers,
      stage: d.stage ?? null,
      billStageId: d.billStageId ?? null,
      source: d.source,
    })),
  };
}

/** A folder in the format of shared/data/uk-bills: bills.jsonl, sessions.json, snapshot.json. */
export class SnapshotSource implements BillSource {
  readonly name: string;

  constructor(private readonly dir: string) {
    this.name = `snapshot:${path.resolve(dir)}`;
  }

  async asOf(): Promise<string> {
    const file = path.join(this.dir, 'snapshot.json');
    return parseOrExplain(snapshotInfoSchema, await readJson(file), file).asOf;
  }

  async sessions(): Promise<SessionRecord[]> {
    const file = path.join(this.dir, 'sessions.json');
    const sessions = parseOrExplain(z.array(sessionSchema), await readJson(file), file);
    return sessions.map((s) => ({
      sessionId: s.sessionId,
      name: s.name,
      startDate: s.startDate ?? null,
      endDate: s.endDate,
      endAnnounced: s.endAnnounced ?? null,
      firstObservedSittingDate: s.firstObservedSittingDate ?? null,
      lastObservedSittingDate: s.lastObservedSittingDate ?? null,
    }));
  }

  async *bills({ batchSize, onTotal }: BillBatchOptions): AsyncIterable<BillRecord[]> {
    const file = path.join(this.dir, 'bills.jsonl');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new SnapshotFormatError(`${file}: ${(error as Error).message}`);
    }
    const lines = text.split('\n');
    onTotal?.(lines.filter((l) => l.trim()).length);
    let batch: BillRecord[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].trim()) continue;
      let json: unknown;
      try {
        json = JSON.parse(lines[i]);
      } catch (error) {
        throw new SnapshotFormatError(`${file} line ${i + 1}: ${(error as Error).message}`);
      }
      batch.push(toBillRecord(parseOrExplain(billLineSchema, json, `${file} line ${i + 1}`)));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
}
