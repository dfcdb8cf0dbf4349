import { judgeChallenger, judgedAfter, MIN_JUDGED, scoreOnRecentOutcomes, type VersionScores } from '../../../../../src/model/train/challenger';
import { Predictor } from '../../../../../src/model/serve/predictor';
import { trainModel, type TrainingData } from '../../../../../src/model/train/train';
import { loadSnapshotTrainingData } from '../../../../../src/services/training-data';
import { REAL_SNAPSHOT_DIR } from '../../../../support/fixtures';

const scores = (ra: number | null, ns: number | null, recentRa: number | null = ra, recentNs: number | null = ns, n = 40): VersionScores => ({
  last_session: { royal_assent: { n, brier: ra }, next_stage_30d: { n, brier: ns } },
  last_90_days: { royal_assent: { n, brier: recentRa }, next_stage_30d: { n, brier: recentNs } },
});
const fair = (judged: VersionScores, against: VersionScores) => ({ judged, against });

describe('judgeChallenger', () => {
  it('promotes a challenger whose trial is within Brier × 1.02 + 0.001 of the serving version on every check', () => {
    // 0.2 × 1.02 + 0.001 = 0.205
    expect(judgeChallenger(fair(scores(0.205, 0.1), scores(0.2, 0.1))).promote).toBe(true);
    expect(judgeChallenger(fair(scores(0.15, 0.05), scores(0.2, 0.1))).promote).toBe(true);
  });

  it('rejects a challenger whose trial is worse beyond the tolerance on any one check, naming it', () => {
    const verdict = judgeChallenger(fair(scores(0.2, 0.1, 0.2, 0.11), scores(0.2, 0.1)));
    expect(verdict.promote).toBe(false);
    expect(verdict.checks.filter((c) => !c.passed)).toEqual([
      { compared: 'trial_vs_serving', window: 'last_90_days', output: 'next_stage_30d', challenger: 0.11, serving: 0.1, n: 40, limit: expect.closeTo(0.103, 9), judged: true, passed: false },
    ]);
  });

  it('records, and does not judge, a check on fewer than MIN_JUDGED nowcasts or none', () => {
    const few = judgeChallenger(fair(scores(0.5, 0.5, 0.5, 0.5, MIN_JUDGED - 1), scores(0.1, 0.1, 0.1, 0.1, MIN_JUDGED - 1)));
    expect(few.promote).toBe(true);
    expect(few.checks.every((c) => !c.judged && c.n === MIN_JUDGED - 1)).toBe(true);
    expect(judgeChallenger(fair(scores(0.5, 0.5, 0.5, 0.5, MIN_JUDGED), scores(0.1, 0.1, 0.1, 0.1, MIN_JUDGED))).promote).toBe(false);
    expect(judgeChallenger(fair(scores(null, null, 0.1, 0.1), scores(null, null, 0.1, 0.1))).promote).toBe(true);
  });

  it('rejects a challenger that scores worse than its own trial on the outcomes it learned (a failed fit), though the trial beats the serving version', () => {
    const verdict = judgeChallenger(fair(scores(0.15, 0.1), scores(0.2, 0.1)), fair(scores(0.3, 0.1), scores(0.15, 0.1)));
    expect(verdict.promote).toBe(false);
    expect(verdict.checks.filter((c) => !c.passed).map((c) => [c.compared, c.window, c.output])).toEqual([
      ['challenger_vs_trial', 'last_session', 'royal_assent'],
      ['challenger_vs_trial', 'last_90_days', 'royal_assent'],
    ]);
  });
});

describe('scoreOnRecentOutcomes', () => {
  const asOf = '2021-12-31';
  let data: TrainingData;
  /** the real bills of 2017-19 to 2019-21 and the sessions, with a small model trained on them */
  const train = (cutoff: string) => new Predictor(trainModel(data, { cutoff, iterations: 1, hiddenLayers: [2], ensembleSize: 1 }));
  beforeAll(async () => {
    const all = await loadSnapshotTrainingData(REAL_SNAPSHOT_DIR);
    data = { bills: all.bills.filter((b) => b.facts.introducedSessionId >= 30 && b.facts.introducedSessionId <= 35), sessions: all.sessions };
  });

  it('never scores a version on an outcome known at its training cutoff: one trained on every outcome known today is scored on none', () => {
    const challenger = train(asOf);
    const scores = scoreOnRecentOutcomes(challenger, data, asOf, judgedAfter([challenger.artifact]));
    for (const window of Object.values(scores)) for (const s of Object.values(window)) expect(s).toEqual({ n: 0, brier: null });
  });

  it('scores versions trained before the last session ended on that session’s fates, resolved after both cutoffs', () => {
    // 2019-21 ended on 2021-04-29: its fates were unknown to versions trained up to 2021-03-31
    const trial = train('2021-03-31');
    const champion = train('2020-12-31');
    const after = judgedAfter([trial.artifact, champion.artifact]);
    expect(after).toBe('2021-03-31');
    const scored = scoreOnRecentOutcomes(trial, data, asOf, after);
    const everything = scoreOnRecentOutcomes(trial, data, asOf, '2017-01-01');
    expect(scored.last_session.royal_assent.n).toBeGreaterThan(0);
    // the Royal Assents of the session known by the cutoff are left out
    expect(scored.last_session.royal_assent.n).toBeLessThan(everything.last_session.royal_assent.n);
    expect(scored.last_session.next_stage_30d.n).toBeLessThan(everything.last_session.next_stage_30d.n);
    expect(scoreOnRecentOutcomes(champion, data, asOf, after).last_session.royal_assent.n).toBe(scored.last_session.royal_assent.n);
  });
});
