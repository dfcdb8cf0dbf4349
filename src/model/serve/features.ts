/** The network's inputs for a bill as known on a date, the schema version they are stored under, and which inputs each output reads. */
import type { BillKind, SessionFact } from './bill-facts';
import { daysBetween, toDayNumber } from '../../common/dates';
import type { SittingCalendar } from './sitting-calendar';
import type { BillAsOf } from './truncate';
import { BALLOT_FIRST_FRIDAYS, BALLOT_SLOTS } from './ballot';
import { sessionOutlook } from './session-length';

/**
 * Bumped whenever the features or the artifact change meaning: a model version is only served for
 * its own schema, so a stored older one is retrained at start instead of misread.
 * 2: every feature reads the bill truncated at the date (sponsors as known then).
 * 3: a ballot bill's place in the order its session's ballot bills were presented (ballot_position, ballot_first_fridays).
 * 4: how long the session may still run (session_after_election, session_days_left_expected).
 * 5: the ETA networks give a distribution over intervals of days (ETA_BIN_EDGES), not log1p(days).
 * 6: only dated facts: no sponsor count (the list is undated), no divisions (none after July 2018
 *    nor from the live source), no no_main_stage_yet (0 for every bill since 2019); sessions begin on
 *    their official start. A private member's bill's session: its Fridays left, its ballot bills past
 *    second reading (src/model/serve/pmb-session.ts).
 *    The artifact holds the typical bill of each kind (explanations' reference), not feature means.
 * 7: the ETA networks give one more output, no next stage; next_stage_30d and the ETA are read
 *    from one distribution (src/model/serve/next-stage.ts).
 * 8: dated facts of the session and the bill: pmb_fridays_left from the Fridays the ended sessions
 *    gave per day and the session's known or expected length (no constant thirteen); money_resolution;
 *    carried_over from the carry-over motion's day; an announced dissolution (dissolution_announced,
 *    dissolution_days_left), known from its announcement on.
 *    The artifact holds the kind × stage table of its training samples (kind-stage-table.ts), the
 *    baseline its forecasts of record are judged against.
 */
export const FEATURE_SCHEMA_VERSION = 8;

const KIND_GROUPS: Record<BillKind, string> = {
  government: 'government',
  pmb_ballot: 'pmb_ballot',
  pmb_ten_minute_rule: 'pmb_ten_minute_rule',
  pmb_presentation: 'pmb_presentation',
  pmb_lords: 'pmb_lords',
  private: 'other_kind',
  hybrid: 'other_kind',
  consolidation: 'other_kind',
};
/** The kinds the model tells apart (the rare ones pooled): for features and per-kind calibration. */
export const kindGroup = (kind: BillKind): string => KIND_GROUPS[kind];
const KINDS = ['government', 'pmb_ballot', 'pmb_ten_minute_rule', 'pmb_presentation', 'pmb_lords', 'other_kind'];
const LAST_STAGES = ['first_reading', 'second_reading', 'committee', 'report', 'third_reading', 'consideration_of_amendments'];

/** log-scale a count or a number of days into [0, 1], saturating at `cap` */
const logScale = (value: number, cap: number) => Math.min(1, Math.log1p(Math.max(0, value)) / Math.log1p(cap));
const share = (value: number, cap: number) => Math.min(1, Math.max(0, value) / cap);
/** pmb_fridays_left's scale: a share of this many Fridays (sessions have given private members' bills 0 to 18) */
export const PMB_FRIDAYS_SCALE = 20;
/** dissolution_days_left's scale: a wash-up is days; an end fixed in law can be known years ahead */
const DISSOLUTION_DAYS_CAP = 800;

export const FEATURE_NAMES: readonly string[] = [
  ...KINDS.map((k) => `kind_${k}`),
  'originates_in_lords',
  'sponsor_party_in_government',
  'sponsor_party_unknown',
  'progress',
  'in_second_house',
  ...LAST_STAGES.map((s) => `last_stage_${s}`),
  'days_since_introduction',
  'days_since_last_main_stage',
  'days_since_last_sitting',
  'main_sittings',
  'main_sittings_last_30_days',
  'main_sittings_last_90_days',
  'second_reading_set_downs_first_house',
  'committee_sittings',
  'report_reached',
  'ping_pong_rounds',
  'carried_over',
  'days_since_session_start',
  'sitting_share_next_7_days',
  'sitting_share_next_30_days',
  'sitting_share_next_200_days',
  'day_of_year_sin',
  'day_of_year_cos',
  'ballot_position',
  'ballot_first_fridays',
  'session_after_election',
  'session_days_left_expected',
  'pmb_fridays_left',
  'ballot_bills_past_second_reading',
  'money_resolution',
  'dissolution_announced',
  'dissolution_days_left',
];

/**
 * The features an output's networks read: all but those the rolling evaluation found to hurt it,
 * which are set to 0 (a constant input the network cannot use). next_stage_30d does without the
 * expected days left in the session: with it, its AUC fell from 0.930 to 0.923–0.926.
 */
const WITHOUT: Partial<Record<string, readonly number[]>> = {
  next_stage_30d: [FEATURE_NAMES.indexOf('session_days_left_expected')],
};
export function inputsFor(output: string, features: readonly number[]): number[] {
  const masked = WITHOUT[output];
  if (!masked) return features as number[];
  const input = [...features];
  for (const i of masked) input[i] = 0;
  return input;
}

/**
 * The network's input for a live bill on the date it is known at (billAsOf: truncated there).
 * Reads only that bill, the sessions begun by then (their official first days, ends reached) and the model's own calendar.
 */
export function featureVector(bill: BillAsOf, sessions: readonly SessionFact[], calendar: SittingCalendar): number[] {
  const { facts, state } = bill;
  const d = bill.date;
  const kind = KIND_GROUPS[facts.kind];
  const lastMain = state.lastMain;
  const daysSinceLastMain = lastMain ? daysBetween(lastMain.date, d) : state.daysSinceIntroduction;
  const daysSinceLastSitting = state.lastSittingDate ? daysBetween(state.lastSittingDate, d) : state.daysSinceIntroduction;
  const recentMain = (days: number) => state.mainEvents.filter((e) => daysBetween(e.date, d) < days).length;
  const sittings = (key: string) => state.sittings.get(key) ?? 0;
  const sessionStart = sessions.find((s) => s.id === state.sessionId)?.startDate;
  const daysIntoSession = sessionStart && sessionStart <= d ? daysBetween(sessionStart, d) : 0;
  const dayOfYear = (toDayNumber(d) - toDayNumber(`${d.slice(0, 4)}-01-01`)) / 366;
  const outlook = sessionOutlook(state.sessionId, sessions, d);
  const daysLeft = outlook.expectedLengthDays === null ? 0 : Math.max(0, outlook.expectedLengthDays - daysIntoSession);
  const pmb = facts.pmbSession;

  return [
    ...KINDS.map((k) => (k === kind ? 1 : 0)),
    facts.originatingHouse === 'Lords' ? 1 : 0,
    facts.leadSponsorPartyInGovernment ? 1 : 0,
    facts.leadSponsorPartyInGovernment === null ? 1 : 0,
    state.progress / 12,
    state.progress >= 6 && state.progress <= 10 ? 1 : 0,
    ...LAST_STAGES.map((s) => (lastMain?.stage === s ? 1 : 0)),
    logScale(state.daysSinceIntroduction, 1000),
    logScale(daysSinceLastMain, 1000),
    logScale(daysSinceLastSitting, 1000),
    logScale(state.mainEvents.length, 50),
    share(recentMain(30), 5),
    share(recentMain(90), 10),
    share(sittings('second_reading:first'), 6),
    logScale(sittings('committee:first') + sittings('committee:second'), 40),
    sittings('report:first') + sittings('report:second') > 0 ? 1 : 0,
    share(sittings('consideration_of_amendments:first') + sittings('consideration_of_amendments:second'), 5),
    state.carriedOver || state.carryOverMotion ? 1 : 0,
    logScale(daysIntoSession, 800),
    calendar.expectedSittingShare(d, 7),
    calendar.expectedSittingShare(d, 30),
    calendar.expectedSittingShare(d, 200),
    0.5 + 0.5 * Math.sin(2 * Math.PI * dayOfYear),
    0.5 + 0.5 * Math.cos(2 * Math.PI * dayOfYear),
    facts.ballotRank ? share(facts.ballotRank, BALLOT_SLOTS) : 0,
    facts.ballotRank && facts.ballotRank <= BALLOT_FIRST_FRIDAYS ? 1 : 0,
    outlook.afterElection ? 1 : 0,
    logScale(daysLeft, 800),
    pmb && outlook.expectedPmbFridays !== null ? share(outlook.expectedPmbFridays - pmb.fridays.filter((day) => sessionStart && day >= sessionStart).length, PMB_FRIDAYS_SCALE) : 0,
    pmb ? share(pmb.ballotPastSecondReading.length, BALLOT_SLOTS) : 0,
    sittings('money_resolution:first') + sittings('money_resolution:second') > 0 ? 1 : 0,
    outlook.announcedEnd ? 1 : 0,
    outlook.announcedEnd ? logScale(daysBetween(d, outlook.announcedEnd), DISSOLUTION_DAYS_CAP) : 0,
  ];
}
