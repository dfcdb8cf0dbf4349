import { FEATURE_NAMES, readsFeature } from './features';
import type { BillAsOf } from './truncate';

/** One reason for a prediction: what about the bill, and how much it moves the probability. */
export interface Factor {
  factor: string;
  /** the prediction minus the prediction with this factor at its typical value, in probability (signed) */
  effect: number;
}

export const EXPLAINED_OUTPUTS = ['royal_assent', 'next_stage_30d'] as const;
export type ExplainedOutput = (typeof EXPLAINED_OUTPUTS)[number];
export type Explanations = Record<ExplainedOutput, Factor[]>;

/** Factors shown per prediction at most. */
export const MAX_FACTORS = 5;

const KIND_WORDS: Record<string, string> = {
  government: 'government bill',
  pmb_ballot: "private member's bill (ballot)",
  pmb_ten_minute_rule: "private member's bill (ten minute rule)",
  pmb_presentation: "private member's bill (presentation)",
  pmb_lords: "private member's bill from the Lords",
  private: 'private bill',
  hybrid: 'hybrid bill',
  consolidation: 'consolidation bill',
};
const STAGE_WORDS: Record<string, string> = {
  first_reading: 'first reading',
  second_reading: 'second reading',
  committee: 'committee stage',
  report: 'report stage',
  third_reading: 'third reading',
  consideration_of_amendments: 'ping-pong (consideration of amendments)',
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/** Features that move together, each group one factor a reader can name. */
interface FactorGroup {
  prefixes: string[];
  /** `reads`: whether the explained output's networks read a feature, so the words name only what they use */
  words: (bill: BillAsOf, features: Record<string, number>, reads: (feature: string) => boolean) => string;
  /** bills the factor can describe (all when absent): setting it to its typical value must make a bill that could exist */
  appliesTo?: (bill: BillAsOf) => boolean;
}

const GROUPS: FactorGroup[] = [
  { prefixes: ['kind_'], words: ({ facts }) => KIND_WORDS[facts.kind] ?? facts.kind },
  { prefixes: ['originates_in_lords'], words: ({ facts }) => (facts.originatingHouse === 'Lords' ? 'started in the Lords' : 'started in the Commons') },
  {
    prefixes: ['sponsor_party_'],
    words: ({ facts }) => (facts.leadSponsorPartyInGovernment === null ? 'no sponsor party known' : facts.leadSponsorPartyInGovernment ? "sponsor's party in government" : "sponsor's party not in government"),
  },
  {
    prefixes: ['progress', 'in_second_house', 'last_stage_', 'report_reached', 'ping_pong_rounds'],
    words: ({ state, facts }) => {
      const last = state.lastMain;
      if (!last) return 'no main stage yet';
      const house = last.house === facts.originatingHouse || last.stage === 'consideration_of_amendments' ? '' : ' in the second house';
      return `stage reached: ${STAGE_WORDS[last.stage] ?? last.stage}${house}`;
    },
  },
  { prefixes: ['days_since_introduction'], words: ({ state }) => `${plural(state.daysSinceIntroduction, 'day')} since introduction` },
  {
    prefixes: ['days_since_last_main_stage', 'days_since_last_sitting'],
    words: ({ state, date }) => (state.lastMain ? `${plural(Math.round((Date.parse(date) - Date.parse(state.lastMain.date)) / 86_400_000), 'day')} since its last main stage` : 'no main stage since introduction'),
  },
  {
    prefixes: ['main_sittings'],
    words: ({ state, date }) => `${plural(state.mainEvents.filter((e) => Date.parse(date) - Date.parse(e.date) < 90 * 86_400_000).length, 'main-stage sitting')} in the last 90 days`,
  },
  { prefixes: ['second_reading_set_downs_first_house'], words: ({ state }) => `second reading set down ${plural(state.sittings.get('second_reading:first') ?? 0, 'time')}` },
  { prefixes: ['committee_sittings'], words: ({ state }) => plural((state.sittings.get('committee:first') ?? 0) + (state.sittings.get('committee:second') ?? 0), 'committee sitting') },
  { prefixes: ['carried_over'], words: ({ state }) => (state.carriedOver ? 'carried over from an earlier session' : 'in its first session') },
  { prefixes: ['days_since_session_start'], words: (_, f) => `how far into the session it is (${Math.round(Math.expm1(f.days_since_session_start * Math.log1p(800)))} days)` },
  {
    prefixes: ['pmb_fridays_left', 'ballot_bills_past_second_reading'],
    words: ({ facts, date }) => {
      const past = facts.pmbSession?.ballotPastSecondReading.length ?? 0;
      return `the session so far: ${plural(past, 'ballot bill')} past second reading, ${plural(facts.pmbSession?.fridays.filter((d) => d <= date).length ?? 0, "private members' Friday")} used`;
    },
    appliesTo: ({ facts }) => Boolean(facts.pmbSession),
  },
  {
    prefixes: ['ballot_position', 'ballot_first_fridays'],
    words: ({ facts }) => `drawn ${ordinal(facts.ballotRank!)} in the private members' bill ballot`,
    // another kind of bill has no place in the ballot: what its kind does is the kind factor's
    appliesTo: ({ facts }) => Boolean(facts.ballotRank),
  },
  {
    prefixes: ['session_'],
    words: (_, f, reads) => {
      const session = f.session_after_election ? 'a first session after a general election' : 'a session not after an election';
      return reads('session_days_left_expected') ? `${session}: about ${plural(Math.round(Math.expm1(f.session_days_left_expected * Math.log1p(800))), 'day')} of it usually left` : session;
    },
  },
  {
    prefixes: ['sitting_share_next_', 'day_of_year_'],
    words: (_, f) => `the calendar ahead: Parliament usually sits about ${Math.round(f.sitting_share_next_30_days * 100)}% of its busiest pace in the next 30 days`,
  },
];

const INDEXES = GROUPS.map((g) => FEATURE_NAMES.flatMap((name, i) => (g.prefixes.some((p) => name.startsWith(p)) ? [i] : [])));

/**
 * Why the model says what it says, honestly from the model: for each factor, the prediction is
 * recomputed with that factor's features set to their typical value (the training mean), and the
 * factor's effect is the difference. Up to MAX_FACTORS per output, largest effect first.
 */
export function explain(bill: BillAsOf, features: number[], typical: readonly number[], predict: (output: ExplainedOutput, features: number[]) => number): Explanations {
  const named = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, features[i]]));
  const result = {} as Explanations;
  for (const output of EXPLAINED_OUTPUTS) {
    const actual = predict(output, features);
    const factors = GROUPS.flatMap((group, g) => {
      if (group.appliesTo && !group.appliesTo(bill)) return [];
      const counterfactual = [...features];
      for (const i of INDEXES[g]) counterfactual[i] = typical[i];
      return [{ factor: group.words(bill, named, (feature) => readsFeature(output, feature)), effect: Math.round((actual - predict(output, counterfactual)) * 1000) / 1000 }];
    });
    result[output] = factors
      .filter((f) => f.effect !== 0)
      .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect) || (a.factor < b.factor ? -1 : 1))
      .slice(0, MAX_FACTORS);
  }
  return result;
}
