/** The model card (docs/model-card.md) and its diagrams, written from a rolling evaluation by `npm run evaluate`. */
import type { Estimate } from '../train/bill-weighted';
import type { EtaEvaluation, Evaluation, MidSessionFold, OutputEvaluation } from './rolling-evaluation';
import { kindReliabilityDiagrams, kindReliabilitySections, kindsBySessionTable, skillSections, withInterval } from './model-card-skill';
import { passOrMiss, targetSections } from './model-card-targets';
import type { SeedSpread } from './seed-spread';
import { FEATURE_NAMES, FEATURE_SCHEMA_VERSION } from '../serve/features';
import { BINARY_OUTPUTS, type BinaryOutput, CLOSE_VOTE_MARGIN, DIVISIONS_KNOWN_UNTIL, NEXT_STAGE_DAYS, STALL_DAYS } from '../serve/labels';
import { KIND_SHIFT_PRIOR_BILLS } from '../serve/calibration';
import { formatMetric as f } from '../train/metrics';
import { reliabilityDiagramSvg } from './reliability-svg';
import { SAMPLE_STEP_DAYS, EVALUATION_STEP_DAYS } from '../train/samples';
import { CALIBRATION_HALF_LIFE_DAYS, CALIBRATION_SHARE, DEFAULT_CALIBRATION_DAYS, DEFAULT_ENSEMBLE_SIZES, DEFAULT_ITERATIONS, DEFAULT_WEIGHT_DECAY, FATE_CALIBRATION_DAYS } from '../train/train';
import { ETA_BIN_EDGES } from '../serve/model-artifact';
import type { FridaysAgainstExpected } from './pmb-fridays';

export interface ModelCardInput {
  evaluation: Evaluation;
  dataAsOf: string;
  bills: number;
  hiddenLayers: number[];
  ensembleSize: number;
  seedSpread: SeedSpread;
  command: string;
  /** each ended session's private members' Fridays, expected against sat (fridaysAgainstExpected) */
  pmbFridays: FridaysAgainstExpected[];
  sessionNames: Record<number, string>;
}

const MEANING: Record<BinaryOutput, string> = {
  royal_assent: 'the bill receives Royal Assent',
  next_stage_30d: `a main stage (first/second/third reading, committee, report, consideration of amendments, Royal Assent) sits within ${NEXT_STAGE_DAYS} days`,
  stall_risk: `no main stage sits within ${STALL_DAYS} days`,
  withdrawal_risk: 'the bill is withdrawn, or never reaches another main stage',
  amendment_risk: 'a report stage after committee, or a consideration of amendments (ping-pong), is still to come (proxy: the data has no amendment texts)',
  close_vote: `a later Commons division on the bill is closer than ${CLOSE_VOTE_MARGIN * 100}% of votes cast (experimental: labelled only from the division counts up to ${DIVISIONS_KNOWN_UNTIL}, so learned from bills settled by then; no input reads divisions, and no bill since can check it)`,
};

const FEATURE_SOURCES: [string, string][] = [
  ['kind_*, originates_in_lords', 'the bill’s type and house at introduction'],
  ['sponsor_party_in_government, sponsor_party_unknown', 'the lead sponsor’s party on the introduction date'],
  ['progress, in_second_house, last_stage_*, main_sittings*, report_reached, ping_pong_rounds, committee_sittings, second_reading_set_downs_first_house', 'stage sittings dated on or before *d*'],
  ['days_since_*', 'introduction date and sittings on or before *d*'],
  ['carried_over, days_since_session_start', 'sittings and carry-over motions on or before *d* (carried_over is 1 from the day of the carry-over motion, known before the next session begins, or a sitting in a later session); the session’s official first day (State Opening, announced ahead)'],
  ['money_resolution', 'a money resolution for the bill dated on or before *d* (of the ballot bills with one, three in four were enacted; of those without, one in five)'],
  ['dissolution_announced, dissolution_days_left', 'a dissolution of the session for a general election announced on or before *d* (a snapshot’s `endAnnounced`, or recorded by an operator on the live source): 1, and the days from *d* to the session’s last day; 0 before the announcement. Wash-ups differ: of the government bills before Parliament on the announcement day, 12 of 12 were enacted in 2010, 12 of 15 in 2017, 3 of 16 in 2019'],
  ['sitting_share_next_*_days', 'the same window in earlier years, from sitting dates up to the training cutoff'],
  ['day_of_year_*', 'the date itself'],
  ['session_after_election, session_days_left_expected', 'the sessions begun and ended by *d*: more than 30 days between the previous session’s end and this one’s first sitting (a general election), and the median length of the ended sessions of the same sort minus the days into this one (next_stage_30d’s networks do not read the days left: it cost them AUC)'],
  ['pmb_fridays_left, ballot_bills_past_second_reading', 'for a private member’s bill, its session’s private members’ bills’ sittings on or before *d*: the Fridays the session is expected to give them less those they have had in the Commons (a share of 20; expected: the Fridays per day the ended sessions of the same sort gave, after an election or not, times the session’s announced length, else its expected length or the days it has run; see Private members’ Fridays), and how many of the session’s ballot bills have sat at a stage after Commons second reading (the proof it was agreed); 0 for other bills'],
  ['ballot_position, ballot_first_fridays', 'a ballot bill’s place in the order its session’s ballot bills were presented (by introduction day, then bill id): ballot bills introduced on or before its introduction day. The data has no ballot position, and this order stands in for the draw (in which the first seven get the first sitting Fridays): explanations call it the place in the order of presentation, not in the ballot'],
];


function outputRow(name: string, e: OutputEvaluation): string {
  return `| ${name} | ${e.model.n} | ${f(e.model.auc)} | ${f(e.model.brier)} | ${f(e.byKind.brier)} | ${f(e.byKindAndStage.brier)} | ${f(e.skillVsKind)} | ${f(e.skillVsKindAndStage)} | ${f(e.model.ece)} | ${f(e.byKindAndStage.ece)} |`;
}

const OUTPUT_HEADER = `| output | n | AUC | Brier | Brier (a) kind | Brier (b) kind × stage | skill vs (a) | skill vs (b) | ECE | ECE (b) |
|---|---|---|---|---|---|---|---|---|---|`;

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
const ratioOf = (eta: EtaEvaluation) => ratio(eta.model.median, eta.baseline.median);

/** next_stage_30d and the ETA scored as they are served, by a model retrained inside the session. */
function midSessionSection(ev: Evaluation): string[] {
  const row = (name: string, m: MidSessionFold) => {
    const e = m.nextStage;
    return `| ${name} | ${m.cutoff} | ${m.bills} | ${m.nowcasts} | ${f(e.model.auc)} | ${f(e.model.brier)} | ${f(e.byKindAndStage.brier)} | ${f(ratio(e.model.brier, e.byKindAndStage.brier))} | ${f(e.model.ece)} | ${m.eta.n} | ${f(m.eta.model.median, 1)} | ${f(m.eta.baseline.median, 1)} | ${f(ratioOf(m.eta))} |`;
  };
  return [
    '## Mid-session folds: the next stage and the ETA as served',
    '',
    `The served model retrains as a session runs, so next_stage_30d and the ETA are served by a model that has seen the session’s first months. Each fold trains those two outputs on the facts up to the 31 December inside a test session (a session without one has no fold) and scores the session’s bills every ${EVALUATION_STEP_DAYS} days from 1 January to the session’s end, each bill weighing 1, against the kind × stage tables of the same cutoff: (b) for next_stage_30d, the median days to the next stage by kind and last stage for the ETA.`,
    '',
    '| fold | trained up to | bills | nowcasts | next_stage_30d AUC | Brier | Brier (b) | Brier / (b) | ECE | ETA n | ETA median abs. error (days) | table’s | model / table |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...ev.midSession.folds.map((m) => row(m.session!, m)),
    row('pooled', ev.midSession.pooled),
    '',
  ];
}

/** pmb_fridays_left's expectation against what each session gave. */
function pmbFridaysSection(rows: readonly FridaysAgainstExpected[], names: Record<number, string>): string[] {
  const scored = rows.filter((r) => r.expectedAtStart !== null);
  const meanError = scored.length ? scored.reduce((sum, r) => sum + Math.abs(r.expectedAtStart! - r.sat), 0) / scored.length : null;
  return [
    '## Private members’ Fridays',
    '',
    `pmb_fridays_left expects a session’s private members’ Fridays from the sessions ended by the date (no constant: Standing Order 14’s thirteen is not what sessions give). At each ended session’s first day, the Fridays expected against those it gave; where a dissolution was announced during the session, the expectation on that day too (its end then known). Mean absolute error at the start: ${f(meanError, 1)} Fridays over ${scored.length} sessions.`,
    '',
    '| session | expected at its start | expected on the announcement day | sat |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${names[r.sessionId] ?? r.sessionId} | ${r.expectedAtStart === null ? 'none (no ended session with Fridays)' : f(r.expectedAtStart, 1)} | ${r.expectedAtAnnouncement === null ? '' : f(r.expectedAtAnnouncement, 1)} | ${r.sat} |`),
    '',
  ];
}

/** The model card (Markdown) and its reliability diagrams (SVG, by file name). */
export function renderModelCard(input: ModelCardInput): { markdown: string; svgs: Record<string, string> } {
  const { evaluation: ev } = input;
  const pooled = ev.pooled.outputs;
  const svgs: Record<string, string> = {};
  for (const o of BINARY_OUTPUTS) {
    svgs[`reliability-${o.replace(/_/g, '-')}.svg`] = reliabilityDiagramSvg({
      title: `${o}: reliability, pooled over the test sessions`,
      series: [
        { name: 'model', bins: pooled[o].model.reliability },
        { name: 'baseline (b) kind × stage', bins: pooled[o].byKindAndStage.reliability },
      ],
    });
  }

  const point = (value: number | null): Estimate => ({ value, low: null, high: null });
  type Target = [name: string, value: string, ok: boolean | null];
  const target = (name: string, e: Estimate, ok: (v: number) => boolean, digits = 3): Target => [name, withInterval(e, digits), e.value === null ? null : ok(e.value)];
  const { skill } = ev;
  const snapshot = ev.snapshotDay.skill?.pooled.outputs.royal_assent;
  const targets: Target[] = [
    target('royal_assent Brier / baseline (b) Brier ≤ 0.85', skill.pooled.outputs.royal_assent.brierRatio, (v) => v <= 0.85),
    target('royal_assent ECE ≤ 0.04', skill.pooled.outputs.royal_assent.model.ece, (v) => v <= 0.04),
    target('at the snapshot date (see below): royal_assent Brier / baseline (b) Brier ≤ 1', snapshot?.brierRatio ?? point(null), (v) => v <= 1),
    target('royal_assent AUC ≥ 0.96', skill.pooled.outputs.royal_assent.model.auc, (v) => v >= 0.96),
    target('next_stage_30d AUC ≥ 0.93', skill.pooled.outputs.next_stage_30d.model.auc, (v) => v >= 0.93),
    target('next_stage_30d Brier / baseline (b) Brier ≤ 0.85', skill.pooled.outputs.next_stage_30d.brierRatio, (v) => v <= 0.85),
    target('next_stage_30d ECE ≤ 0.03', skill.pooled.outputs.next_stage_30d.model.ece, (v) => v <= 0.03),
    target('timeline_eta median abs. error / baseline’s ≤ 0.60', skill.pooled.eta.medianRatio, (v) => v <= 0.6),
    target('mid-session folds (see below): timeline_eta median abs. error / the kind × stage table’s ≤ 0.75', point(ratioOf(ev.midSession.pooled.eta)), (v) => v <= 0.75),
    target('mid-session folds: next_stage_30d Brier / baseline (b) Brier ≤ 0.85', point(ev.midSession.pooled.nextStage.model.brier === null ? null : ratio(ev.midSession.pooled.nextStage.model.brier, ev.midSession.pooled.nextStage.byKindAndStage.brier)), (v) => v <= 0.85),
    target('seed spread of P(Royal Assent): mean < 0.02', point(input.seedSpread.meanSpread), (v) => v < 0.02, 4),
    target('seed spread of P(Royal Assent): max < 0.1', point(input.seedSpread.maxSpread), (v) => v < 0.1, 4),
    target('leak check: test nowcasts that differ when recomputed from the facts known on their date = 0', point(ev.leakCheck.differing), (v) => v === 0, 0),
  ];

  const lines: string[] = [];
  lines.push('# Model card: Bill Progress nowcasts', '');
  lines.push(`Regenerated by \`${input.command}\` (do not edit by hand). Data: ${input.bills} real UK Parliament bills as known on ${input.dataAsOf}. Feature schema version ${FEATURE_SCHEMA_VERSION}.`, '');
  lines.push('Contains Parliamentary information licensed under the Open Parliament Licence v3.0.', '');
  lines.push('## Targets', '');
  lines.push(`On the test sessions (${ev.folds.map((x) => x.session.name).join(', ')}) and by kind first; then the pooled targets, each bill weighing 1, in brackets the 90% bootstrap interval over bills (see Skill by kind). A Brier or z target passes or misses on the figure itself, the interval saying how firmly; an intercept or slope target passes when its interval contains the ideal value.`, '');
  lines.push(...targetSections(ev.targets, (id) => ev.folds.find((x) => x.session.id === id)?.session.name ?? String(id)));
  lines.push('### Pooled over kinds, and the rest', '');
  lines.push('| target | value (90% interval) | result |', '|---|---|---|');
  for (const [name, value, ok] of targets) lines.push(`| ${name} | ${value} | ${passOrMiss(ok)} |`);
  lines.push('');
  lines.push('## What is predicted', '', 'Every prediction is a **nowcast** for a reference date *d*: every feature is computed from the bill as truncated at *d* (`truncateAt` in `src/model/serve/truncate.ts`): stages, sitting dates and a withdrawal dated on or before *d*; facts fixed at introduction (kind, originating house, the lead sponsor’s party being in government then); the official first day of the bill’s session (not the first sitting seen in the data, which a mislabelled stage can put in the session before); and the sitting calendar learned from the training data. It never reads a bill’s outcome, furthest stage, title, or a session end later than *d*: those live in a separate type that only the labels can see. Nor does it read anything of the sponsor list but the lead sponsor’s party: the list is the final one and undated (the member who takes a bill up in the second house joins it when the bill gets there, and a peer who was once an MP shows Commons as the house at introduction), nor Commons divisions, which the data has only until ' + DIVISIONS_KNOWN_UNTIL + ' and the live Bills API not at all, so training and serving would see different inputs. A past-date nowcast shows the bill’s title as it stood (a Bill, not yet an Act).', '');
  lines.push('| output | label: after *d* … |', '|---|---|');
  for (const o of BINARY_OUTPUTS) lines.push(`| ${o} | ${MEANING[o]} |`);
  lines.push('| timeline_eta | days from *d* to the next main-stage sitting (point estimate: the median, given that the bill moves, of the distribution next_stage_30d is read from: so it is the wait *if* the bill moves, within 30 days exactly when next_stage_30d is at least half the chance of a next stage at all) |', '');
  lines.push('A bill that is already enacted, withdrawn, or whose session has ended (without a carry-over motion) is settled: its outputs follow from its status (e.g. enacted: Royal Assent 1, no next stage, no ETA) and no network runs.', '');
  lines.push('## Method', '');
  lines.push(`- **Samples**: each bill on a calendar grid (every ${SAMPLE_STEP_DAYS} days, the same days for every bill, whatever its sittings), from introduction until it was settled as known on that day; ${ev.folds.map((x) => `${x.trainingSamples} training samples before ${x.session.name}`).join(', ')}. Sampling on a bill’s own sittings, or up to its last one, would tell the model when and how long it lived.`);
  lines.push('- **Censoring**: a label whose answer lies after the training cutoff (a 30-day window still open, a bill still alive) is left out of that output’s training set, never counted as a failure. The fate outputs (royal_assent, stall, withdrawal, amendment, close vote) learn only from sessions that had ended by the cutoff: in a running session the early Royal Assents are known and the failures are not, which would bias them upwards. A bill whose stage history the API truncated (the long ones, which lost stages after their twentieth) is kept: its stage-timing labels are censored from the first sitting of its last stage before the gap, where a stage seen still proves one sat and its absence proves nothing; which bills lose stages is known only once they have had that many, so leaving them out would leave out the long government bills.');
  const more = Object.entries(DEFAULT_ENSEMBLE_SIZES).map(([output, n]) => `${n} for ${output}`).join(', ');
  const decay = Object.entries(DEFAULT_WEIGHT_DECAY).map(([output, d]) => `${output}'s by 1 − ${d} × the learning rate after each pass over the rows`).join('; ');
  lines.push(`- **Networks**: per output, ${input.ensembleSize} brain.js feed-forward network${input.ensembleSize > 1 ? 's, averaged,' : ''}${more ? ` (${more}: the headline probability, whose seed spread is reported below)` : ''} (sigmoid, hidden layers [${input.hiddenLayers.join(', ')}], ${DEFAULT_ITERATIONS} iterations)${decay ? `; the weights from the inputs to the hidden units decay (${decay}), so the seeds' networks extrapolate alike where the data has few bills` : ''}; bills in id order, rows shuffled and weights drawn from seeded generators, so the same data gives the same model; next_stage_30d and the ETA are read from one distribution of the days to the next stage (\`src/model/serve/next-stage.ts\`): its mass within 30 days is the calibrated next_stage_30d network’s; the ETA networks give shares of each interval of days (${ETA_BIN_EDGES.slice(1).join(', ')} days; a longer wait counts in the last) and of no next stage (learned from bills that fell or were withdrawn first), which spread that mass within the 30 days and split the rest between the later intervals and no next stage; the ETA is the distribution’s median given that the bill moves (spread evenly within an interval). So the ETA is 30 days or less exactly when next_stage_30d is at least half the chance of a next stage at all. A sitting scheduled *k* days ahead moves both: given that the bill moves, it moves that day (ETA *k*), and next_stage_30d becomes the chance it moves at all when *k* ≤ 30, else 0.`);
  const halfLives = Object.entries(CALIBRATION_HALF_LIFE_DAYS).map(([output, days]) => `${days} days (${output})`).join(', ');
  lines.push(`- **Calibration**: Platt scaling (with Platt’s smoothed targets) on held-out bills: one in ${CALIBRATION_SHARE} bills (by a hash of its id) of the sessions that ended in the ${DEFAULT_CALIBRATION_DAYS} days before the cutoff for next_stage_30d (its pace drifts), in the ${FATE_CALIBRATION_DAYS} days before it for the fate outputs (enough bills of each kind), whose labels are all known; the networks do not train on them. Split by bill, never by sample date. The pooled scaling is adjusted for each kind by that kind’s held-out bills, each bill weighing 1 whatever its number of samples, the adjustment shrunk toward none as if ${KIND_SHIFT_PRIOR_BILLS} bills of the kind agreed with the pooled scaling${halfLives ? `; in that adjustment a held-out bill’s weight halves with every ${halfLives} between its session’s end and the cutoff, since a kind’s pass rate drifts between sessions` : ''}.`);
  lines.push(`- **Evaluation**: rolling origin by session: for each of the last ${ev.folds.length} complete sessions (${ev.folds.map((x) => x.session.name).join(', ')}), train on facts dated before it began, then score nowcasts of its bills every ${EVALUATION_STEP_DAYS} days of the session (a calendar grid), with outcomes as known on ${input.dataAsOf}. Baselines are fitted on training samples on the same ${EVALUATION_STEP_DAYS}-day grid: (a) the rate by bill kind; (b) the rate by kind and furthest main stage reached by *d* (cells under 20 samples fall back to (a)). ETA baseline: median days to the next stage for the kind and last main stage.`);
  lines.push(`- **Which folds chose the design**: these same test sessions were used both to choose the design (features, network sizes, weight decay, ensemble sizes, calibration windows) and to report it here, so the figures are in sample for those choices and likely somewhat optimistic. Royal Assent’s calibration half-life was chosen on the design folds below, not on these. The targets by kind and the comparison of the risks with the rate by kind measure the model and change nothing in it. The design folds, the ${ev.folds.length} complete sessions before them, are scored by \`npm run evaluate -- --design\` (figures printed, the card unchanged): a design choice made on them leaves this card an honest report. Bills of sessions after ${input.dataAsOf} are not in the data; nothing here is scored on them.`, '');
  lines.push('## Leak checks', '');
  lines.push(`- This evaluation recomputed each of its ${ev.leakCheck.nowcasts} scored test nowcasts from the data as known on the nowcast’s date, cut by code of its own (\`src/model/evaluate/leak-check.ts\`: each bill’s stages, divisions and withdrawal on or before the date, a private member’s bill’s session facts counted again from its session’s bills so cut, the sessions begun and ended by then), not by \`truncateAt\`, so a fact that \`truncateAt\` let through would show: ${ev.leakCheck.differing} differed (\`tests/unit/src/model/evaluate/leak-check.test.ts\` makes \`truncateAt\` leak and the check finds it).`);
  lines.push('- `tests/integration/nowcast-leak.test.ts`: nowcasts for 2021-06-30 are byte-identical from a database holding the facts known that day and from one holding six more months of real data (Royal Assents, the final sponsor lists, Act titles). Its “known that day” data models the undated fields as they were, not by the code’s rule: a Bill’s title until Royal Assent, and only the lead sponsor in each list.');
  lines.push('- `tests/unit/src/model/serve/truncate.test.ts`: the features of a bill at *d* equal those of the bill truncated at *d*, on real bills and with invented later facts added (stages, divisions, a withdrawal, sponsors of either house); and every feature takes more than one value among the bills of the last two sessions (a feature 0 for every recent bill would mean training and serving see different inputs).', '');
  lines.push('## Features and what each is known from', '', '| features | known from |', '|---|---|');
  for (const [names, source] of FEATURE_SOURCES) lines.push(`| ${names} | ${source} |`);
  lines.push('', `All ${FEATURE_NAMES.length}: ${FEATURE_NAMES.map((n) => `\`${n}\``).join(', ')}.`, '');
  lines.push('## Seed spread', '');
  lines.push(`The model trained on the whole data with seeds ${input.seedSpread.seeds.join(', ')}; P(Royal Assent) compared on ${input.seedSpread.n} nowcasts (the live bills of the last two sessions, every ${EVALUATION_STEP_DAYS} days): mean spread (max − min across seeds) ${f(input.seedSpread.meanSpread, 4)}, largest ${f(input.seedSpread.maxSpread, 4)}.`, '');
  lines.push(...skillSections(ev));
  lines.push('## Results, pooled over the test sessions', '', `${ev.pooled.testSamples} test nowcasts of ${ev.pooled.bills} bills, each bill weighing 1 (n counts nowcasts). Brier skill = 1 − Brier(model) / Brier(baseline); positive is better than the baseline. ECE: expected calibration error over 10 equal-width bins.`, '');
  lines.push(OUTPUT_HEADER);
  for (const o of BINARY_OUTPUTS) lines.push(outputRow(o, pooled[o]));
  lines.push('');
  lines.push('| timeline_eta | n | median abs. error (days) | mean abs. error (days) |', '|---|---|---|---|');
  lines.push(`| model | ${ev.pooled.eta.n} | ${f(ev.pooled.eta.model.median, 1)} | ${f(ev.pooled.eta.model.mean, 1)} |`);
  lines.push(`| baseline (kind × last stage median) | ${ev.pooled.eta.n} | ${f(ev.pooled.eta.baseline.median, 1)} | ${f(ev.pooled.eta.baseline.mean, 1)} |`, '');
  lines.push('## Results by test session', '');
  for (const fold of ev.folds) {
    lines.push(`### ${fold.session.name} (session ${fold.session.id}, ${fold.session.startDate} to ${fold.session.endDate}); trained on facts up to ${fold.cutoff}`, '');
    lines.push(`${fold.testSamples} test nowcasts of ${fold.bills} bills, each bill weighing 1.`, '', OUTPUT_HEADER);
    for (const o of BINARY_OUTPUTS) lines.push(outputRow(o, fold.outputs[o]));
    lines.push('', `timeline_eta: n ${fold.eta.n}, median abs. error ${f(fold.eta.model.median, 1)} days (baseline ${f(fold.eta.baseline.median, 1)}), mean ${f(fold.eta.model.mean, 1)} (baseline ${f(fold.eta.baseline.mean, 1)}).`, '');
  }
  lines.push(...midSessionSection(ev));
  lines.push(...pmbFridaysSection(input.pmbFridays, input.sessionNames));
  lines.push(...kindReliabilitySections(ev));
  lines.push('## Reliability (pooled)', '', 'Each table: predicted-probability bin, nowcasts in it, mean predicted and observed rate (each bill weighing 1). The diagrams beside this file compare the model with baseline (b).', '');
  for (const o of BINARY_OUTPUTS) {
    lines.push(`### ${o}`, '', `![${o} reliability](model-card/reliability-${o.replace(/_/g, '-')}.svg)`, '', '| bin | n | mean predicted | observed |', '|---|---|---|---|');
    for (const bin of pooled[o].model.reliability) lines.push(`| ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} | ${bin.count} | ${f(bin.meanPredicted)} | ${f(bin.observedRate)} |`);
    lines.push('');
  }
  lines.push('## Explanations', '');
  lines.push('An explanation (`explain=true`, `Prediction.explanations`) measures a live bill against a stated reference: a typical bill of its kind introduced the same day in the same house and session (its carry-over motions too), whose passage kept to its kind’s median timetable up to *d* (the median days from introduction to each passage position among the kind’s bills settled by the cutoff, one sitting per stage, no divisions, short of Royal Assent), with the kind’s commonest sponsor and, for a ballot bill, its median place in the order of presentation (`src/model/serve/typical-bill.ts`). The bill and the reference differ in up to four parts (stage reached with its sittings and divisions, days since the last main stage, sponsors, place in the order of presentation); each mix of parts is built as a bill’s facts (the path retimed so its last main stage falls on the other’s day, when both fall after the introduction day) and run through the same truncation and features as a nowcast, so the networks see only bills that could exist. Each part’s effect is its exact Shapley value over the 2^4 mixes: the effects add up to the prediction minus the reference’s, are deterministic, and depend on the seed only through the networks (`tests/unit/src/model/serve/explain-real.test.ts`).', '');
  lines.push('## Risk indicators (deterministic, from facts up to *d*)', '');
  lines.push('- `controversy_score` = 0.3 × min(1, ln(1+divisions)/ln 11) + 0.3 × closeness of the closest division (1 − margin/0.5, floored at 0; 0 without divisions) + 0.2 × min(1, ping-pong sittings/4) + 0.2 × min(1, committee sittings / (2 × the median for the bill’s kind)).');
  lines.push('- `momentum_score` = 0.5 × min(1, median gap between main stages for the kind / days since the last main stage) + 0.5 × min(1, main-stage sittings in the last 90 days / 3); 0 for a settled bill.');
  lines.push('- Levels: low below 0.3, medium from 0.3 to 0.7, high above 0.7.', '');
  lines.push('## What the model cannot know', '');
  lines.push('- **Future recesses and prorogation.** The sitting calendar is learned from earlier years; an early dissolution (2017, 2019) or an unusual recess is not foreseen before it is announced: a dissolution’s end is known from its announcement on (dissolution_announced; on the live source only once an operator records it), a prorogation’s only when it happens.');
  lines.push('- **Private Members’ Bills’ second readings** are often set-down dates on which the bill was objected to or not reached; a dated second reading is not proof it passed.');
  lines.push(`- **Divisions** exist only for the Commons and only until ${DIVISIONS_KNOWN_UNTIL}, and the live Bills API has none: no feature reads them. close_vote is labelled from them, so it is learned only from bills settled by then and predicted from the stages alone; its figures above are for the one test session with division data, and no later bill can check it. controversy_score reads divisions where a bill has them, which no bill since July 2018 does.`);
  lines.push('- **Amendments** are not in the data: amendment_risk predicts the stages where amendments are considered, not their number or significance.');
  lines.push('- **Politics**: government majority, whipping, public salience, committee membership and debate length are not in the data.');
  lines.push('- **Pace and pass rates drift between sessions** (a minority government, a pandemic); next_stage_30d calibrates on bills of the sessions ended in the last two years (the fate outputs on about eight), and the per-session tables show how far results move. A calibration fitted on earlier sessions cannot foresee a session unlike them: 2017-19 (a minority government) and 2019 (dissolved three weeks in) lost more of their government bills than any session before them, and the model of 2019-21, which learned from those two, then expected too few of its own to pass; ballot bills’ pass rate swings from session to session. The table below sets each test session’s government and ballot bills beside the sessions before it: these shifts carry most of those kinds’ calibration error on the test sessions.');
  lines.push('- timeline_eta is a wait conditional on the bill moving; for a bill that will probably never move, read it with next_stage_30d and stall_risk. How the mass past 30 days splits between a later stage and none is learned from bills whose fate is known and bills that moved: in a session still running at the cutoff the bills yet to move are censored, which leans that split toward a later stage.');
  lines.push('- **Seeds still matter**: each output averages seeded networks, which narrows but does not remove what the seed changes (see Seed spread); every further member costs another training of that output at the first start.', '');
  lines.push(...kindsBySessionTable(ev.kindsBySession));
  lines.push('## Not done yet', '');
  lines.push('- A discrete-time survival model of the next main stage (weekly hazard, censored bills included) in place of the shares of the ETA networks, which learn only from bills whose next stage, or its absence, is known.');
  lines.push('- Features of the calendar and the queue: the private members’ Fridays announced at a session’s start (pmb_fridays_left expects them from the ended sessions and counts those used so far, from the Fridays of the session’s private members’ bills), time in the current stage by kind, programme and carry-over motions, Lords starters.');
  lines.push('- An ensemble trained after the first start (serve one network at once, switch to the averaged ensemble when its background training ends), to bring the seed spread under the targets without slowing the first start.');
  return { markdown: lines.join('\n') + '\n', svgs: { ...svgs, ...kindReliabilityDiagrams(ev) } };
}
