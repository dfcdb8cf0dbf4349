/**
 * Maps Bills API JSON onto the normalised `BillRecord` of the snapshot format
 * (shared/data/uk-bills/README.md, "Record format"), so both sources feed the writer the same thing.
 * The rules below were checked against the snapshot's bills.jsonl: fed its 2,861 bills rebuilt as API
 * JSON (with the session of 2021-22 still running), they reproduce every stage's name, phase, dates and
 * dates after the session end, and each bill's kind, outcome, introducedDate, royalAssentDate and
 * leadSponsorPartyInGovernment.
 *
 * What the live API cannot give, and how it is handled:
 * - Sponsors' party and house are the member's *current* ones as the Bills API reports them, not
 *   those on the introduction date (the snapshot used the Members API's dated party history).
 * - There is no sessions endpoint: names and end dates come from `KNOWN_SESSIONS`, and a session is
 *   also taken to have ended once a later session id has been seen (ids grow with time).
 * - There are no divisions: `divisions` is always empty.
 */
import type {
  BillKind,
  BillOutcome,
  BillRecord,
  House,
  SessionRecord,
  SponsorRecord,
  StagePhase,
  StageRecord,
} from '../bill-record';
import type { ApiBill, ApiBillSummary, ApiBillType, ApiHouse, ApiSponsor, ApiStageSummary } from './api-types';

/** Normalised stage names by Bills API stage id, exactly as the data README's table. */
export const STAGE_NAMES: Readonly<Record<number, string>> = {
  1: 'first_reading',
  6: 'first_reading',
  2: 'second_reading',
  7: 'second_reading',
  3: 'committee',
  8: 'committee',
  48: 'committee',
  49: 'committee',
  4: 'report',
  9: 'report',
  5: 'third_reading',
  10: 'third_reading',
  12: 'consideration_of_amendments',
  13: 'consideration_of_amendments',
  42: 'consideration_of_amendments',
  11: 'royal_assent',
  14: 'programme_motion',
  15: 'money_resolution',
  36: 'ways_and_means_resolution',
  28: 'allocation_of_time_motion',
  29: 'allocation_of_time_motion',
  25: 'second_reading_committee',
  30: 'second_reading_committee',
  24: 'order_of_commitment_discharged',
  26: 'order_of_commitment_discharged',
  27: 'committee_negatived',
  18: 'carry_over_motion',
  19: 'carry_over_motion',
  20: 'suspension_motion',
  31: 'suspension_motion',
  33: 'suspension_motion',
  32: 'revival_motion',
  34: 'revival_motion',
  21: 'bill_reintroduced',
  22: 'bill_reintroduced',
  23: 'private_bill_petition',
  16: 'standing_orders_examination',
  17: 'standing_orders_examination',
  41: 'standing_orders_examination',
  44: 'standing_orders_examination',
  35: 'instruction',
  37: 'instruction',
  38: 'legislative_grand_committee',
  43: 'select_committee',
  46: 'select_committee',
  47: 'select_committee',
  39: 'reconsideration',
  40: 'consequential_consideration',
};

/** A stage id the table does not know (the API may add some) keeps its id and description but gets this name. */
export const UNKNOWN_STAGE = 'other';

/** The stages whose appearance in the other house starts the second-house phase. */
const PASSAGE_STAGES: ReadonlySet<string> = new Set(['first_reading', 'second_reading', 'committee', 'report', 'third_reading']);

/** billTypeId → billKind, as used throughout the snapshot's bills.jsonl. */
export const BILL_KIND_BY_TYPE_ID: Readonly<Record<number, BillKind>> = {
  1: 'government',
  2: 'pmb_lords',
  3: 'consolidation',
  4: 'hybrid',
  5: 'pmb_ten_minute_rule',
  6: 'private',
  7: 'pmb_ballot',
  8: 'pmb_presentation',
};

/** Used when `/BillTypes` is unavailable or lacks an id; names and categories as in the snapshot. */
export const FALLBACK_BILL_TYPES: readonly ApiBillType[] = [
  { id: 1, category: 'Public', name: 'Government Bill' },
  { id: 2, category: 'Public', name: "Private Members' Bill (Starting in the House of Lords)" },
  { id: 3, category: 'Public', name: 'Consolidation Bill' },
  { id: 4, category: 'Private', name: 'Hybrid Bill' },
  { id: 5, category: 'Public', name: "Private Members' Bill (under the Ten Minute Rule)" },
  { id: 6, category: 'Private', name: 'Private Bill' },
  { id: 7, category: 'Public', name: "Private Members' Bill (Ballot Bill)" },
  { id: 8, category: 'Public', name: "Private Members' Bill (Presentation Bill)" },
];

export interface KnownSession {
  sessionId: number;
  name: string;
  /** prorogation or dissolution date; null while running */
  endDate: string | null;
}

/**
 * Sessions whose names and end dates are settled public facts. Ids 18–35 and their end dates are the
 * snapshot's sessions.json; 36–38 were prorogued on 28 April 2022, 26 October 2023 and 24 May 2024.
 * The Bills API skips ids 31–33. Later sessions are named by their id until added here.
 */
export const KNOWN_SESSIONS: readonly KnownSession[] = [
  { sessionId: 18, name: '2004-05', endDate: '2005-04-07' },
  { sessionId: 19, name: '2005-06', endDate: '2006-11-08' },
  { sessionId: 20, name: '2006-07', endDate: '2007-10-30' },
  { sessionId: 21, name: '2007-08', endDate: '2008-11-26' },
  { sessionId: 22, name: '2008-09', endDate: '2009-11-12' },
  { sessionId: 23, name: '2009-10', endDate: '2010-04-08' },
  { sessionId: 24, name: '2010-12', endDate: '2012-05-01' },
  { sessionId: 25, name: '2012-13', endDate: '2013-04-25' },
  { sessionId: 26, name: '2013-14', endDate: '2014-05-14' },
  { sessionId: 27, name: '2014-15', endDate: '2015-03-26' },
  { sessionId: 28, name: '2015-16', endDate: '2016-05-12' },
  { sessionId: 29, name: '2016-17', endDate: '2017-04-27' },
  { sessionId: 30, name: '2017-19', endDate: '2019-10-08' },
  { sessionId: 34, name: '2019', endDate: '2019-11-05' },
  { sessionId: 35, name: '2019-21', endDate: '2021-04-29' },
  { sessionId: 36, name: '2021-22', endDate: '2022-04-28' },
  { sessionId: 37, name: '2022-23', endDate: '2023-10-26' },
  { sessionId: 38, name: '2023-24', endDate: '2024-05-24' },
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
        return {
          sessionId,
          name: this.known.get(sessionId)?.name ?? String(sessionId),
          endDate: this.endDate(sessionId),
          firstObservedSittingDate: seen?.first ?? null,
          lastObservedSittingDate: seen?.last ?? null,
        };
      });
  }
}

/** The `YYYY-MM-DD` part of an API date-time; null for anything else. */
export function toIsoDate(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return match ? match[1]! : null;
}

const LONDON_OFFSET = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'longOffset' });

/** Europe/London's UTC offset at an instant, as `+HH:MM`. */
function londonOffset(utcMs: number): string {
  const name = LONDON_OFFSET.formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /([+-])(\d{1,2})(?::?(\d{2}))?/.exec(name);
  return match ? `${match[1]}${match[2]!.padStart(2, '0')}:${match[3] ?? '00'}` : '+00:00';
}

const OFFSET_MS = (offset: string): number => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An API date-time with its zone made explicit. The Bills API writes UK local time without a zone
 * (its RSS feed gives the same instants as `+01:00` in summer), and `new Date()` would read such a
 * string in whatever zone the process runs in. The API's digits are kept; a string that already has
 * a zone, or is not a date-time, is returned unchanged.
 */
export function withLondonOffset(value: string): string {
  const match = DATE_TIME.exec(value.trim());
  if (!match || match[4] || !match[2]) return value;
  const time = match[2].length === 5 ? `${match[2]}:00` : match[2];
  const asIfUtc = Date.parse(`${match[1]}T${time}Z`);
  if (Number.isNaN(asIfUtc)) return value;
  // Two passes find the offset in force at the local time, not at the same wall-clock reading in UTC.
  const offset = londonOffset(asIfUtc - OFFSET_MS(londonOffset(asIfUtc)));
  return `${value.trim()}${offset}`;
}

/**
 * An ISO date-time as nanoseconds since the epoch, keeping the API's seven fractional digits that
 * `Date.parse` would cut to milliseconds. A missing zone means UK local time, as in the API. Null when unreadable.
 */
export function timeKey(value: string): bigint | null {
  const match = DATE_TIME.exec(withLondonOffset(value).trim());
  if (!match) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : BigInt(ms) * 1_000_000n;
  }
  const [, date, time = '00:00:00', fraction = '', zone = 'Z'] = match;
  const normalisedZone = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${normalisedZone}`);
  if (Number.isNaN(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}

export function toHouse(value: ApiHouse | string | null | undefined): House {
  return value === 'Commons' || value === 'Lords' ? value : 'Unassigned';
}

export function stageName(stageId: number): string {
  return STAGE_NAMES[stageId] ?? UNKNOWN_STAGE;
}

/**
 * billKind for a bill type. Ids 1–8 are fixed; for an id the API adds later the type's name and
 * category decide, and a bill type nothing fits is an error rather than a silent guess.
 */
export function billKindFor(billType: ApiBillType, originatingHouse: House): BillKind {
  const byId = BILL_KIND_BY_TYPE_ID[billType.id];
  if (byId) return byId;
  const name = (billType.name ?? '').toLowerCase();
  if (name.includes('hybrid') || billType.category === 'Hybrid') return 'hybrid';
  if (name.includes('consolidation')) return 'consolidation';
  if (name.includes('government')) return 'government';
  if (name.includes('private members')) {
    if (name.includes('ten minute')) return 'pmb_ten_minute_rule';
    if (name.includes('ballot')) return 'pmb_ballot';
    if (name.includes('presentation')) return 'pmb_presentation';
    if (name.includes('lords') || originatingHouse === 'Lords') return 'pmb_lords';
  }
  if (billType.category === 'Private') return 'private';
  throw new Error(`Bills API bill type ${billType.id} (${billType.name ?? 'unnamed'}, ${billType.category}) has no billKind mapping`);
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

function normaliseStage(stage: ApiStageSummary, sessions: SessionKnowledge, fromCurrentStage: boolean): StageRecord {
  const all = sortedUnique((stage.stageSittings ?? []).map((s) => toIsoDate(s.date)).filter((d): d is string => d !== null));
  const sessionId = typeof stage.sessionId === 'number' ? stage.sessionId : null;
  const end = sessionId === null ? null : sessions.endDate(sessionId);
  return {
    seq: stage.sortOrder,
    billStageId: stage.id,
    stageId: stage.stageId,
    stage: stageName(stage.stageId),
    description: stage.description ?? '',
    abbr: stage.abbreviation ?? null,
    house: toHouse(stage.house),
    sessionId,
    dates: end === null ? all : all.filter((d) => d <= end),
    datesAfterSessionEnd: end === null ? [] : all.filter((d) => d > end),
    phase: null,
    fromCurrentStage,
  };
}

/**
 * Phase of each stage, in order: `first_house` until the first passage stage in the other house,
 * `second_house` from there, `ping_pong` from the first consideration of amendments, `royal_assent`
 * from Royal Assent. A phase never goes back, so later procedural stages keep the phase reached.
 */
export function assignPhases(stages: readonly StageRecord[], originatingHouse: House): StageRecord[] {
  // One private bill in the data originates in `Unassigned`; its first housed stage stands in.
  const firstHouse = originatingHouse !== 'Unassigned' ? originatingHouse : (stages.find((s) => s.house !== 'Unassigned')?.house ?? 'Unassigned');
  let phase: StagePhase = 'first_house';
  return stages.map((s) => {
    if (s.stage === 'royal_assent') phase = 'royal_assent';
    else if (s.stage === 'consideration_of_amendments' && phase !== 'royal_assent') phase = 'ping_pong';
    else if (phase === 'first_house' && PASSAGE_STAGES.has(s.stage) && s.house !== 'Unassigned' && s.house !== firstHouse) phase = 'second_house';
    return { ...s, phase };
  });
}

export interface NormalisedSponsors {
  sponsors: SponsorRecord[];
  sponsorOrganisations: string[];
}

/** Members become sponsors; an organisation counts only where the API gives no member (as in the data). */
export function normaliseSponsors(apiSponsors: readonly ApiSponsor[] | null | undefined): NormalisedSponsors {
  const ordered = [...(apiSponsors ?? [])].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
  const sponsors: SponsorRecord[] = [];
  const sponsorOrganisations: string[] = [];
  for (const s of ordered) {
    if (s.member && (s.member.name || s.member.memberId)) {
      sponsors.push({
        memberId: typeof s.member.memberId === 'number' ? s.member.memberId : null,
        name: s.member.name ?? '',
        partyAtIntroduction: s.member.party ?? null,
        houseAtIntroduction: s.member.house && s.member.house !== 'All' ? s.member.house : null,
      });
    } else if (s.organisation?.name) {
      sponsorOrganisations.push(s.organisation.name);
    }
  }
  return { sponsors, sponsorOrganisations };
}

/** Governing parties by date, last day inclusive (the data README's rule). */
const GOVERNMENTS: ReadonlyArray<{ until: string | null; parties: readonly string[] }> = [
  { until: '2010-05-11', parties: ['Labour'] },
  { until: '2015-05-07', parties: ['Conservative', 'Liberal Democrat'] },
  { until: '2024-07-04', parties: ['Conservative'] },
  { until: null, parties: ['Labour'] },
];

/**
 * Whether the party was in government on the date. "Labour (Co-op)" counts as Labour. As in the
 * snapshot, an unknown party or date gives false; only "no sponsor at all" is null (decided by the caller).
 */
export function partyInGovernment(party: string | null, date: string | null): boolean {
  if (!party || !date) return false;
  const base = party.replace(/\s*\(Co-op\)\s*$/i, '').trim();
  const government = GOVERNMENTS.find((g) => g.until === null || date <= g.until)!;
  return government.parties.includes(base);
}

/**
 * `royal_assent` (isAct, or a dated Royal Assent stage — isAct is wrong for a few bills),
 * `withdrawn`, `fell` (defeated, or every session of the bill has ended), else `pending`.
 */
export function deriveOutcome(input: {
  isAct: boolean;
  royalAssentDate: string | null;
  withdrawnDate: string | null;
  isDefeated: boolean;
  sessionIds: readonly number[];
  sessions: SessionKnowledge;
}): BillOutcome {
  if (input.isAct || input.royalAssentDate) return 'royal_assent';
  if (input.withdrawnDate) return 'withdrawn';
  if (input.isDefeated) return 'fell';
  const lastSession = Math.max(...input.sessionIds);
  return Number.isFinite(lastSession) && input.sessions.hasEnded(lastSession) ? 'fell' : 'pending';
}

export interface NormaliseInput {
  /** the `/Bills` list item; its `lastUpdate` is what incremental sync compared against */
  summary: ApiBillSummary;
  detail: ApiBill;
  /** every item of `/Bills/{id}/Stages` */
  stages: readonly ApiStageSummary[];
  /** the bill's type from `/BillTypes`; `FALLBACK_BILL_TYPES` when absent */
  billType?: ApiBillType;
  sessions: SessionKnowledge;
}

/** One bill's API responses → `BillRecord`. */
export function normaliseBill(input: NormaliseInput): BillRecord {
  const { summary, detail, sessions } = input;
  const billTypeId = detail.billTypeId ?? summary.billTypeId;
  const billType = input.billType ?? FALLBACK_BILL_TYPES.find((t) => t.id === billTypeId);
  if (!billType) throw new Error(`Bills API bill ${detail.billId}: unknown bill type ${billTypeId}`);
  const originatingHouse = toHouse(detail.originatingHouse ?? summary.originatingHouse);

  const listed = [...input.stages].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => normaliseStage(s, sessions, false));
  const current = detail.currentStage ?? summary.currentStage;
  let stageHistory: BillRecord['stageHistory'] = 'full';
  let missingStageCount = 0;
  // Like the snapshot: a current stage missing from the list is appended, and the gap before it counted.
  if (current && !listed.some((s) => s.billStageId === current.id)) {
    const maxSeq = listed.reduce((m, s) => Math.max(m, s.seq), 0);
    if (current.sortOrder > maxSeq) {
      listed.push(normaliseStage(current, sessions, true));
      stageHistory = listed.length === 1 ? 'current_stage_only' : 'truncated';
      missingStageCount = Math.max(0, current.sortOrder - listed.length);
    }
  }
  const stages = assignPhases(listed, originatingHouse);

  const firstReading = stages.find((s) => s.stage === 'first_reading' && s.house === originatingHouse && s.dates.length > 0);
  const allDates = stages.flatMap((s) => s.dates).sort();
  const introducedDate = firstReading?.dates[0] ?? allDates[0] ?? null;
  const royalAssentDate = stages.find((s) => s.stage === 'royal_assent' && s.dates.length > 0)?.dates[0] ?? null;
  const withdrawnDate = toIsoDate(detail.billWithdrawn ?? summary.billWithdrawn);

  const introducedSessionId = detail.introducedSessionId ?? summary.introducedSessionId;
  const sessionIds = [...new Set([introducedSessionId, ...(detail.includedSessionIds ?? summary.includedSessionIds ?? [])])].sort((a, b) => a - b);

  const { sponsors, sponsorOrganisations } = normaliseSponsors(detail.sponsors);
  // The list's value, not the detail's: it is the one incremental sync compared, and if the bill changed
  // in between, the older stamp only makes the next run fetch it again.
  const lastUpdate = summary.lastUpdate ?? detail.lastUpdate ?? null;
  const lead = sponsors[0];

  return {
    billId: detail.billId,
    shortTitle: detail.shortTitle ?? summary.shortTitle ?? '',
    longTitle: detail.longTitle ?? null,
    summary: detail.summary ?? null,
    billTypeId,
    billType: billType.name ?? String(billTypeId),
    billTypeCategory: billType.category,
    billKind: billKindFor(billType, originatingHouse),
    originatingHouse,
    introducedSessionId,
    sessionIds,
    sponsors,
    sponsorOrganisations,
    leadSponsorPartyInGovernment: lead ? partyInGovernment(lead.partyAtIntroduction, introducedDate) : null,
    isAct: detail.isAct ?? summary.isAct,
    withdrawnDate,
    outcome: deriveOutcome({
      isAct: detail.isAct ?? summary.isAct,
      royalAssentDate,
      withdrawnDate,
      isDefeated: detail.isDefeated ?? summary.isDefeated,
      sessionIds,
      sessions,
    }),
    introducedDate,
    royalAssentDate,
    lastUpdate: lastUpdate ? withLondonOffset(lastUpdate) : null,
    stageHistory,
    missingStageCount,
    stages,
    divisions: [],
  };
}
