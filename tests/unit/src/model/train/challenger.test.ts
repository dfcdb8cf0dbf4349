import { judgeChallenger, type VersionScores } from '../../../../../src/model/train/challenger';

const scores = (ra: number | null, ns: number | null, recentRa: number | null = ra, recentNs: number | null = ns): VersionScores => ({
  last_session: { royal_assent: { n: 10, brier: ra }, next_stage_30d: { n: 10, brier: ns } },
  last_90_days: { royal_assent: { n: 10, brier: recentRa }, next_stage_30d: { n: 10, brier: recentNs } },
});

describe('judgeChallenger', () => {
  it('promotes a challenger within Brier × 1.02 + 0.001 of the serving version on every check', () => {
    // 0.2 × 1.02 + 0.001 = 0.205
    expect(judgeChallenger(scores(0.205, 0.1), scores(0.2, 0.1)).promote).toBe(true);
    expect(judgeChallenger(scores(0.15, 0.05), scores(0.2, 0.1)).promote).toBe(true);
  });

  it('rejects a challenger worse beyond the tolerance on any one check, naming it', () => {
    const verdict = judgeChallenger(scores(0.2, 0.1, 0.2, 0.11), scores(0.2, 0.1));
    expect(verdict.promote).toBe(false);
    expect(verdict.checks.filter((c) => !c.passed)).toEqual([{ window: 'last_90_days', output: 'next_stage_30d', challenger: 0.11, serving: 0.1, limit: expect.closeTo(0.103, 9), passed: false }]);
  });

  it('passes a check neither version can be scored on (no resolved nowcast in the window)', () => {
    expect(judgeChallenger(scores(null, null, 0.1, 0.1), scores(null, null, 0.1, 0.1)).promote).toBe(true);
  });
});
