import { type Evaluation, type MidSessionFold, summarise } from '../../../../../src/model/evaluate/rolling-evaluation';
import { renderModelCard } from '../../../../../src/model/evaluate/model-card';
import { type ScoredNowcast, skillByKind } from '../../../../../src/model/evaluate/skill-by-kind';
import { trustTable } from '../../../../../src/model/evaluate/trust-table';
import { targets } from '../../../../../src/model/evaluate/kind-targets';

const nowcast = (billId: number, kind: string, model: number, table: number, y: 0 | 1, date: string): ScoredNowcast => ({
  billId,
  kind,
  foldSessionId: 35,
  date,
  progress: 2,
  outputs: { royal_assent: { y, model, byKind: table, byKindAndStage: table }, next_stage_30d: { y, model, byKind: table, byKindAndStage: table } },
  eta: { actual: 20, model: 25, baseline: 40 },
});

/** A mid-session fold whose ETA errs 25 days against the table's 40 (ratio 0.625) and whose next_stage_30d scores as the nowcasts above. */
const midFold = (session: string | undefined, cutoff: string): MidSessionFold => {
  const nowcasts = Array.from({ length: 30 }, (_, i) => ({ ...nowcast(i, 'government', i % 2 ? 0.95 : 0.05, 0.5, i % 2 ? 1 : 0, '2020-01-09'), eta: { actual: 20, model: 45, baseline: 60 } }));
  const { outputs, eta } = summarise(nowcasts, ['next_stage_30d']);
  return { session, cutoff, bills: 30, nowcasts: 30, nextStage: outputs.next_stage_30d, eta };
};

/** Government bills forecast well; ballot bills forecast far too low (half of them pass). */
function evaluation(): Evaluation {
  const nowcasts = [
    ...Array.from({ length: 30 }, (_, i) => nowcast(i, 'government', i % 2 ? 0.95 : 0.05, 0.5, i % 2 ? 1 : 0, i < 15 ? '2020-03-05' : '2020-03-19')),
    ...Array.from({ length: 30 }, (_, i) => nowcast(100 + i, 'pmb_ballot', 0.05, 0.4, i % 2 ? 1 : 0, i < 15 ? '2020-03-05' : '2020-03-19')),
  ];
  const skill = skillByKind(nowcasts, { replicates: 200 });
  const fold = { session: { id: 35, name: '2019-21', startDate: '2019-12-17', endDate: '2021-04-29' }, cutoff: '2019-12-16', trainingSamples: 1000, testSamples: nowcasts.length, bills: 60, ...summarise(nowcasts) };
  return {
    folds: [fold],
    pooled: { ...summarise(nowcasts), testSamples: nowcasts.length, bills: 60 },
    skill,
    snapshotDay: { asOf: '2021-12-31', daysIntoSession: 234, liveAtAsOf: 150, days: [{ session: '2019-21', date: '2020-03-05', bills: 30 }], skill: skillByKind(nowcasts.filter((n) => n.date === '2020-03-05'), { replicates: 200 }) },
    midSession: { folds: [midFold('2019-21', '2019-12-31')], pooled: midFold(undefined, 'each test session’s 1 January') },
    leakCheck: { nowcasts: nowcasts.length, differing: 0 },
    kindsBySession: [
      { session: '2019-21', kind: 'government', bills: 30, enacted: 15, modelMean: 0.5, tableMean: 0.5, modelEce: 0.05, earlier: { sessions: 9, lowestShare: 0.88, highestShare: 1 } },
      { session: '2019-21', kind: 'pmb_ballot', bills: 30, enacted: 15, modelMean: 0.05, tableMean: 0.4, modelEce: 0.45, earlier: null },
    ],
    trust: trustTable(nowcasts, { testSessions: ['2019-21'], outcomesAsOf: '2021-12-31' }),
    targets: targets(nowcasts, { replicates: 200 }),
    nowcasts,
  };
}

const card = () =>
  renderModelCard({
    evaluation: evaluation(),
    dataAsOf: '2021-12-31',
    bills: 60,
    hiddenLayers: [6],
    ensembleSize: 3,
    seedSpread: { seeds: [1, 2], n: 10, meanSpread: 0.001, maxSpread: 0.01 },
    command: 'npm run evaluate',
    pmbFridays: [
      { sessionId: 35, expectedAtStart: 19.4, expectedAtAnnouncement: null, sat: 7 },
      { sessionId: 34, expectedAtStart: 0.8, expectedAtAnnouncement: 0.7, sat: 0 },
    ],
    sessionNames: { 34: '2019', 35: '2019-21' },
  });

const targetRow = (markdown: string, start: string) => markdown.split('\n').find((line) => line.startsWith(`| ${start}`));

describe('the model card', () => {
  it('scores next_stage_30d and the ETA on mid-session folds, as they are served, against the target of 0.75 of the table’s ETA error', () => {
    const { markdown } = card();
    expect(targetRow(markdown, 'mid-session folds (see below): timeline_eta median abs. error / the kind × stage table’s ≤ 0.75')).toMatch(/\| 0\.625 \| \*\*PASS\*\* \|$/);
    expect(markdown).toContain('## Mid-session folds: the next stage and the ETA as served');
    expect(markdown.split('\n').find((line) => line.startsWith('| 2019-21 | 2019-12-31 | 30 | 30 |'))).toMatch(/\| 25\.0 \| 40\.0 \| 0\.625 \|$/);
  });

  it('sets the private members’ Fridays each session was expected to give at its start beside those it gave', () => {
    const { markdown } = card();
    expect(markdown).toContain('## Private members’ Fridays');
    expect(markdown).toContain('| 2019-21 | 19.4 |  | 7 |');
    expect(markdown).toContain('| 2019 | 0.8 | 0.7 | 0 |');
    expect(markdown).toContain('Mean absolute error at the start: 6.6 Fridays over 2 sessions');
    expect(markdown).not.toContain('thirteen a session');
  });

  it('judges each watched kind by Brier against its kind × stage table, intercept, slope and Spiegelhalter’s z, not by ECE', () => {
    const { markdown } = card();
    expect(targetRow(markdown, 'government (30 bills, 1 session): royal_assent Brier − kind × stage table’s (b) ≤ 0')).toMatch(/\| 0\.\d{3} − 0\.250 = −0\.\d{4} \(.+\) \| \*\*PASS\*\* \|$/);
    expect(targetRow(markdown, 'private members’ ballot (30 bills, 1 session): royal_assent Brier')).toMatch(/\*\*MISS\*\* \|$/);
    // ballot bills forecast 0.05, half of them pass: far more Acts than forecast
    expect(targetRow(markdown, 'private members’ ballot (30 bills, 1 session): calibration intercept')).toMatch(/\| \+2\.94 \(.+\) \| \*\*MISS\*\* \|$/);
    expect(targetRow(markdown, 'private members’ ballot (30 bills, 1 session): Spiegelhalter’s z, |z| ≤ 2')).toMatch(/\*\*MISS\*\* \|$/);
    expect(targetRow(markdown, 'government (30 bills, 1 session): Spiegelhalter’s z, |z| ≤ 2')).toMatch(/\*\*PASS\*\* \|$/);
    expect(markdown).not.toContain('ECE ≤ 0.08 |');
    expect(markdown).toContain('| 2019-21 | private members’ ballot | 30 | +2.94 |');
    expect(targetRow(markdown, 'royal_assent ECE ≤ 0.04')).toBeDefined();
    expect(targetRow(markdown, 'at the snapshot date')).toBeDefined();
  });

  it('shows a per-kind table beside the pooled row, and says how the snapshot date is scored', () => {
    const { markdown } = card();
    expect(markdown).toContain('## Skill by kind');
    expect(markdown).toMatch(/\| all bills \| 60 \| 60 \| 30 \|/);
    expect(markdown).toMatch(/\| government \| 30 \| 30 \| 15 \|/);
    expect(markdown).toMatch(/\| private members’ ballot \| 30 \| 30 \| 15 \|/);
    expect(markdown).toContain('150 bills were live then, and their nowcasts on that day cannot be scored here');
    expect(markdown).toContain('used both to choose the design');
  });

  it('sets each test session’s watched kinds beside the enacted shares of the sessions before it', () => {
    const { markdown } = card();
    expect(markdown).toContain('| 2019-21 | government | 30 | 15 (50%) | 0.500 | 0.500 | 0.050 | 88%–100% (9 sessions) |');
    expect(markdown).toContain('| 2019-21 | private members’ ballot | 30 | 15 (50%) | 0.050 | 0.400 | 0.450 | — |');
  });

  it('draws Royal Assent reliability for government and ballot bills, and keeps no work diary', () => {
    const { markdown, svgs } = card();
    expect(Object.keys(svgs)).toEqual(expect.arrayContaining(['reliability-royal-assent-government.svg', 'reliability-royal-assent-pmb-ballot.svg']));
    expect(markdown).toContain('](model-card/reliability-royal-assent-pmb-ballot.svg)');
    expect(markdown).not.toMatch(/\(issue \d+\)|session \d+ of work/i);
  });
});
