/** Champion/challenger: a retrained version's Brier scores on recent resolved outcomes, and whether it may replace the serving one. */
import { addDays } from '../../common/dates';
import { brier, type BinaryOutcome } from './metrics';
import type { Predictor } from '../serve/predictor';
import { EVALUATION_STEP_DAYS, samplesOf } from './samples';
import { SittingCalendar } from '../serve/sitting-calendar';
import { labelsAt } from '../serve/labels';
import { lastCompleteSessions, sessionsKnownAt, type TrainingData } from './train';

/** The outputs a retrained version is judged on: what customers read first. */
export const CHALLENGE_OUTPUTS = ['royal_assent', 'next_stage_30d'] as const;
export type ChallengeOutput = (typeof CHALLENGE_OUTPUTS)[number];
/** The recent window of resolved nowcasts, in days before the data's as-of date. */
export const RECENT_DAYS = 90;
/**
 * A challenger serves if, on every check both versions can be scored on, its Brier score is at most
 * the serving version's × (1 + RELATIVE) + ABSOLUTE: retrains on a week more of data differ by
 * noise, and a strict "better" would keep a stale version serving for ever.
 */
export const TOLERANCE = { relative: 0.02, absolute: 0.001 } as const;

export type ChallengeWindow = 'last_session' | 'last_90_days';
export type WindowScores = Record<ChallengeOutput, { n: number; brier: number | null }>;
export type VersionScores = Record<ChallengeWindow, WindowScores>;

/**
 * Brier scores of a version's nowcasts on (a) the bills of the most recent ended session, at every
 * evaluation grid day of the session, and (b) every live bill at the grid days of the last
 * RECENT_DAYS: in both, only nowcasts whose outcome was unknown at `resolvedAfter` and known by
 * `asOf`. Pass the latest training cutoff of the versions compared: an outcome known by then may
 * have been a training label of one of them, and a version scored on its own labels looks better
 * than it is. Each version uses its own sitting calendar, as it does when it serves.
 */
export function scoreOnRecentOutcomes(predictor: Predictor, data: TrainingData, asOf: string, resolvedAfter: string): VersionScores {
  const sessions = sessionsKnownAt(data.sessions, asOf);
  const calendar = new SittingCalendar(predictor.artifact.sittingDates);
  const bills = new Map(data.bills.map((b) => [b.facts.billId, b]));
  const score = (samples: ReturnType<typeof samplesOf>): WindowScores => {
    const outcomes: Record<ChallengeOutput, BinaryOutcome[]> = { royal_assent: [], next_stage_30d: [] };
    for (const s of samples) {
      const { probabilities } = predictor.fromFeatures(s.features, s.kind);
      // the labels as known at resolvedAfter: an answer already known then is left out
      const earlier = labelsAt(bills.get(s.billId)!, s.date, resolvedAfter, sessions);
      for (const o of CHALLENGE_OUTPUTS) {
        const y = s.labels[o];
        if (y !== null && earlier[o] === null) outcomes[o].push({ p: probabilities[o], y });
      }
    }
    return Object.fromEntries(CHALLENGE_OUTPUTS.map((o) => [o, { n: outcomes[o].length, brier: brier(outcomes[o]) }])) as WindowScores;
  };
  const [session] = lastCompleteSessions(sessions, asOf, 1);
  const sessionSamples = session
    ? data.bills
        .filter((b) => b.facts.introducedSessionId === session.id)
        .flatMap((bill) => samplesOf(bill, { from: session.startDate!, until: session.endDate!, knownUntil: asOf, sessions, calendar, stepDays: EVALUATION_STEP_DAYS }))
    : [];
  const recentSamples = data.bills.flatMap((bill) => samplesOf(bill, { from: addDays(asOf, -RECENT_DAYS), until: asOf, knownUntil: asOf, sessions, calendar, stepDays: EVALUATION_STEP_DAYS }));
  return { last_session: score(sessionSamples), last_90_days: score(recentSamples) };
}

/** The latest training cutoff of the versions compared: they are all scored only on outcomes resolved after it. */
export const judgedAfter = (artifacts: readonly { cutoff: string }[]) => artifacts.map((a) => a.cutoff).reduce((a, b) => (a > b ? a : b));

export interface ChallengeCheck {
  window: ChallengeWindow;
  output: ChallengeOutput;
  challenger: number | null;
  serving: number | null;
  /** the challenger's Brier may be at most this */
  limit: number | null;
  passed: boolean;
}

export interface ChallengeVerdict {
  promote: boolean;
  checks: ChallengeCheck[];
}

/** Champion/challenger: the challenger serves only when no check finds it worse beyond the tolerance. A check without samples passes. */
export function judgeChallenger(challenger: VersionScores, serving: VersionScores): ChallengeVerdict {
  const checks: ChallengeCheck[] = [];
  for (const window of ['last_session', 'last_90_days'] as const) {
    for (const output of CHALLENGE_OUTPUTS) {
      const c = challenger[window][output].brier;
      const s = serving[window][output].brier;
      const limit = s === null ? null : s * (1 + TOLERANCE.relative) + TOLERANCE.absolute;
      checks.push({ window, output, challenger: c, serving: s, limit, passed: c === null || limit === null || c <= limit });
    }
  }
  return { promote: checks.every((c) => c.passed), checks };
}
