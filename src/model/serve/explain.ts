/** Explanations: a prediction's factors measured against a typical bill of its kind, as exact Shapley values over the parts of the bill's story. */
import type { BillFacts, SessionFact, StageFact } from './bill-facts';
import { isMainStage } from './bill-state';
import { daysBetween, fromDayNumber, toDayNumber } from '../../common/dates';
import { billAsOf, type BillAsOf } from './truncate';
import { SESSION_STAGES } from './typical-bill';

/** One reason for a prediction: what about the bill, and how much it moves the probability. */
export interface Factor {
  factor: string;
  /** its share of the prediction minus the reference's (a Shapley value), in probability (signed) */
  effect: number;
}

/** What the factors are measured from: the typical bill of the explained bill's kind on the same date (typical-bill.ts). */
export interface ExplanationReference {
  description: string;
  probabilities: Record<ExplainedOutput, number>;
}

export const EXPLAINED_OUTPUTS = ['royal_assent', 'next_stage_30d'] as const;
export type ExplainedOutput = (typeof EXPLAINED_OUTPUTS)[number];
/** Each output's factors add up, to rounding, to the prediction minus the reference's; a settled bill has no factors and no reference. */
export type Explanations = Record<ExplainedOutput, Factor[]> & { reference: ExplanationReference | null };

/** Factors per prediction at most: every factor there is, so that they add up. */
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

/**
 * The parts of a bill's own story that an explanation tells apart. Each can be taken from the
 * bill or from its reference while the rest comes from the other, and every mix is a bill that
 * could exist (see hybrid()): same kind, house, introduction, session and date throughout.
 */
type Part = 'passage' | 'pace' | 'sponsors' | 'ballot';

const lastMainDate = (facts: BillFacts): string | null =>
  facts.stages.reduce<string | null>((last, s) => (isMainStage(s.stage) && s.dates.length && (!last || s.dates.at(-1)! > last) ? s.dates.at(-1)! : last), null);

const WORDS: Record<Part, (bill: BillAsOf) => string> = {
  // the part holds every sitting of the bill's path, not only its stage: the words say both
  passage: ({ state, facts, date }) => {
    const last = state.lastMain;
    const sittings = [...state.sittings.values()].reduce((sum, n) => sum + n, 0);
    const lastSitting = state.lastSittingDate ? `, the last ${plural(daysBetween(state.lastSittingDate, date), 'day')} ago` : '';
    const stage = last ? `stage reached: ${STAGE_WORDS[last.stage] ?? last.stage}${last.house === facts.originatingHouse || last.stage === 'consideration_of_amendments' ? '' : ' in the second house'}` : 'no main stage yet';
    return `${stage} (${plural(sittings, 'sitting')}${lastSitting})`;
  },
  pace: ({ state, date }) => (state.lastMain ? `${plural(daysBetween(state.lastMain.date, date), 'day')} since its last main stage` : 'no main stage since introduction'),
  sponsors: ({ facts }) =>
    facts.leadSponsorPartyInGovernment === null
      ? 'no sponsor party known'
      : facts.leadSponsorPartyInGovernment ? "sponsor's party in government" : "sponsor's party not in government",
  // the data has the order of presentation, not the draw (src/model/serve/ballot.ts): the words say which
  ballot: ({ facts }) => `presented ${ordinal(facts.ballotRank!)} of its session's ballot bills`,
};

/**
 * `path`'s stages and divisions moved in time so that its last main stage sits on `target`: days
 * since introduction up to that stage scaled by one factor (order kept, introduction fixed), later
 * sittings shifted by the same number of days, none after the date. Only a path with a main stage
 * after its introduction day moves, and only to a target after that day: squeezing a passage into
 * its first day, or stretching a first day, would make a bill unlike any real one.
 */
function retimed(path: BillFacts, introduced: string | null, target: string | null, date: string): Pick<BillFacts, 'stages' | 'divisions'> {
  const last = lastMainDate(path);
  const story = path.stages.filter((s) => !SESSION_STAGES.has(s.stage));
  if (!introduced || !last || !target || last === target || daysBetween(introduced, last) <= 0 || daysBetween(introduced, target) <= 0) return { stages: story, divisions: path.divisions };
  const start = toDayNumber(introduced);
  const from = toDayNumber(last) - start;
  const to = toDayNumber(target) - start;
  const end = toDayNumber(date);
  const move = (day: string) => {
    const d = toDayNumber(day) - start;
    if (d <= 0) return day;
    return fromDayNumber(Math.min(end, start + (d <= from ? Math.round((d * to) / from) : d - from + to)));
  };
  return {
    stages: story.map((s) => ({ ...s, dates: s.dates.map(move) })),
    divisions: path.divisions.map((v) => ({ ...v, date: move(v.date) })),
  };
}

/** The bill with the parts in `own` from itself and the others from its reference. */
function hybrid(bill: BillFacts, reference: BillFacts, own: ReadonlySet<Part>, date: string): BillFacts {
  const from = (part: Part) => (own.has(part) ? bill : reference);
  const { stages, divisions } = retimed(from('passage'), bill.introducedDate, lastMainDate(from('pace')), date);
  return {
    ...bill,
    leadSponsorPartyInGovernment: from('sponsors').leadSponsorPartyInGovernment,
    ballotRank: from('ballot').ballotRank,
    stages: [...stages, ...bill.stages.filter((s: StageFact) => SESSION_STAGES.has(s.stage))],
    divisions,
  };
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Why the model says what it says, against a stated reference (typical-bill.ts referenceBill):
 * each part of the bill's story gets its Shapley value, the average over every order of swapping
 * the reference's parts for the bill's of the change that part makes to the prediction. Exact by
 * enumerating every mix of parts (at most 2^4), so the effects add up to the prediction minus the
 * reference's; each mix is run through billAsOf and `features`, so the networks only ever see a
 * bill that could exist. `features` gives a bill's network input, `predict` an output's probability.
 */
export function explain(
  bill: BillAsOf,
  reference: BillFacts,
  sessions: readonly SessionFact[],
  features: (bill: BillAsOf) => number[],
  predict: (output: ExplainedOutput, features: number[]) => number,
): Explanations {
  const parts: Part[] = ['passage', 'pace', 'sponsors'];
  if (bill.facts.ballotRank) parts.push('ballot');
  const n = parts.length;
  const bills = Array.from({ length: 2 ** n }, (_, mask) =>
    mask === 2 ** n - 1 ? bill : billAsOf(hybrid(bill.facts, reference, new Set(parts.filter((_, i) => mask & (1 << i))), bill.date), bill.date, sessions),
  );
  const inputs = bills.map(features);
  const referenceBill = bills[0];
  const result = { reference: { description: describeReference(referenceBill), probabilities: {} } } as Explanations & { reference: ExplanationReference };
  for (const output of EXPLAINED_OUTPUTS) {
    const value = inputs.map((x) => predict(output, x));
    const factors = parts.map((part, i) => {
      let effect = 0;
      for (let mask = 0; mask < 2 ** n; mask++) {
        if (mask & (1 << i)) continue;
        const size = [...parts.keys()].filter((j) => mask & (1 << j)).length;
        effect += ((factorial(size) * factorial(n - size - 1)) / factorial(n)) * (value[mask | (1 << i)] - value[mask]);
      }
      return { factor: WORDS[part](bill), effect: round(effect) };
    });
    result.reference.probabilities[output] = round(value[0]);
    result[output] = factors
      .filter((f) => f.effect !== 0)
      .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect) || (a.factor < b.factor ? -1 : 1))
      .slice(0, MAX_FACTORS);
  }
  return result;
}

/** The reference in words: what it is, and where its story stands on the date. */
function describeReference(reference: BillAsOf): string {
  const { facts } = reference;
  const house = facts.originatingHouse === 'Lords' || facts.originatingHouse === 'Commons' ? ` in the ${facts.originatingHouse}` : '';
  const ballot = facts.ballotRank ? `; ${WORDS.ballot(reference)}` : '';
  return (
    `a typical ${KIND_WORDS[facts.kind] ?? facts.kind} introduced the same day${house}, at its kind's median pace: ` +
    `${WORDS.passage(reference)}, ${WORDS.pace(reference)}; ${WORDS.sponsors(reference)}${ballot}`
  );
}
