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
/**
 * The challenger_vs_trial checks' tolerance: on outcomes both learned, two trainings a week of data
 * apart differ by their seeds (the card's seed spread: a Brier difference up to about 0.06), so
 * these catch only a gross failure (a failed fit, NaN, a constant model), not a close call.
 */
export const GROSS_FAILURE_TOLERANCE = { relative: 0.1, absolute: 0.02 } as const;

/**
 * Fewest resolved nowcasts a check is judged on: weekly retrains leave few outcomes resolved since
 * the serving version's cutoff, and a Brier score of a handful is noise. A check with fewer is
 * recorded, not judged.
 */
export const MIN_JUDGED = 30;

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
export function scoreOnRecentOutcomes(predictor: Predictor, data: TrainingData, asOf: string, resolvedAfter: string | null): VersionScores {
  const sessions = sessionsKnownAt(data.sessions, asOf);
  const calendar = new SittingCalendar(predictor.artifact.sittingDates);
  const bills = new Map(data.bills.map((b) => [b.facts.billId, b]));
  const score = (samples: ReturnType<typeof samplesOf>): WindowScores => {
    const outcomes: Record<ChallengeOutput, BinaryOutcome[]> = { royal_assent: [], next_stage_30d: [] };
    for (const s of samples) {
      const { probabilities } = predictor.fromFeatures(s.features, s.kind);
      // the labels as known at resolvedAfter: an answer already known then is left out (null: none is)
      const earlier = resolvedAfter === null ? null : labelsAt(bills.get(s.billId)!, s.date, resolvedAfter, sessions);
      for (const o of CHALLENGE_OUTPUTS) {
        const y = s.labels[o];
        if (y !== null && (earlier === null || earlier[o] === null)) outcomes[o].push({ p: probabilities[o], y });
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

/**
 * What a check compares. `trial_vs_serving`: the challenger's trial (its training on the serving
 * version's facts) against the serving version, on outcomes neither learned: is the training as
 * good as what serves? `challenger_vs_trial`: the version that would serve against its trial (or
 * against the serving version, when that was trained the same day), on every outcome resolved in
 * the window, most of which both learned, with GROSS_FAILURE_TOLERANCE: a challenger that learned
 * more and still scores far worse is a failed fit. (Bad new data it learned would make it look
 * better here, not worse: nothing here catches that.) In these checks `challenger` is the
 * challenger's Brier and `serving` its reference's.
 */
export type ChallengeComparison = 'trial_vs_serving' | 'challenger_vs_trial';

export interface ChallengeCheck {
  compared: ChallengeComparison;
  window: ChallengeWindow;
  output: ChallengeOutput;
  /** the Brier score of the version judged (the trial, or the challenger itself) */
  challenger: number | null;
  /** the Brier score of the version it is judged against (the serving version, or the trial) */
  serving: number | null;
  /** the nowcasts scored */
  n: number;
  /** the challenger's Brier may be at most this */
  limit: number | null;
  /** both were scored on at least MIN_JUDGED nowcasts; a check not judged passes */
  judged: boolean;
  passed: boolean;
}

export interface ChallengeVerdict {
  promote: boolean;
  checks: ChallengeCheck[];
}

/** The scores of one comparison: the version judged, and the one it is judged against, on the same nowcasts. */
export interface ComparedScores {
  judged: VersionScores;
  against: VersionScores;
}

/**
 * Champion/challenger: the challenger serves only when no judged check finds the version judged
 * worse beyond the tolerance; a check on fewer than MIN_JUDGED nowcasts is recorded and passes.
 * `sanity` (challenger_vs_trial) may be left out (the unit tests of the fair checks).
 */
export function judgeChallenger(fair: ComparedScores, sanity?: ComparedScores): ChallengeVerdict {
  const checks: ChallengeCheck[] = [];
  const compare = (compared: ChallengeComparison, { judged, against }: ComparedScores) => {
    const tolerance = compared === 'trial_vs_serving' ? TOLERANCE : GROSS_FAILURE_TOLERANCE;
    for (const window of ['last_session', 'last_90_days'] as const) {
      for (const output of CHALLENGE_OUTPUTS) {
        const c = judged[window][output];
        const s = against[window][output];
        const limit = s.brier === null ? null : s.brier * (1 + tolerance.relative) + tolerance.absolute;
        const n = Math.min(c.n, s.n);
        const isJudged = c.brier !== null && limit !== null && n >= MIN_JUDGED;
        checks.push({ compared, window, output, challenger: c.brier, serving: s.brier, n, limit, judged: isJudged, passed: !isJudged || c.brier! <= limit! });
      }
    }
  };
  compare('trial_vs_serving', fair);
  if (sanity) compare('challenger_vs_trial', sanity);
  return { promote: checks.every((c) => c.passed), checks };
}
