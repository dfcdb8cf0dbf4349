/**
 * The model card's sections on skill by kind: per-kind tables with bootstrap intervals, the
 * snapshot-day comparison, and per-kind reliability (tables, and diagrams for the kinds people
 * watch most).
 */
import { BOOTSTRAP_LEVEL, BOOTSTRAP_REPLICATES, type Estimate } from '../train/bill-weighted';
import type { Evaluation } from './rolling-evaluation';
import { formatMetric as f } from '../train/metrics';
import { reliabilityDiagramSvg } from './reliability-svg';
import type { KindInSession } from './session-drift';
import { type GroupSkill, type SkillByKind, WATCHED_KINDS } from './skill-by-kind';
import { SKILL_OUTPUTS } from '../serve/trust';

const KIND_NAMES: Record<string, string> = {
  government: 'government',
  pmb_ballot: 'private members’ ballot',
  pmb_presentation: 'private members’ presentation',
  pmb_lords: 'private members’, Lords',
  pmb_ten_minute_rule: 'private members’ ten-minute rule',
  other_kind: 'private, hybrid, consolidation',
};
export const kindName = (kind: string) => KIND_NAMES[kind] ?? kind;

/** "0.125 (0.101–0.150)": a figure and its interval. */
export function withInterval(e: Estimate, digits = 3): string {
  if (e.value === null) return '—';
  return e.low === null || e.high === null ? f(e.value, digits) : `${f(e.value, digits)} (${f(e.low, digits)}–${f(e.high, digits)})`;
}

const groups = (skill: SkillByKind): [string, GroupSkill][] => [['all bills', skill.pooled], ...Object.entries(skill.byKind).map(([k, g]): [string, GroupSkill] => [kindName(k), g])];

function skillTables(skill: SkillByKind): string[] {
  const lines: string[] = [];
  for (const o of SKILL_OUTPUTS) {
    lines.push(`### ${o}`, '', '| kind | bills | nowcasts | bills with the event | AUC | Brier | Brier (b) kind × stage | Brier / (b) | ECE | ECE (b) |', '|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, g] of groups(skill)) {
      const r = g.outputs[o];
      lines.push(`| ${name} | ${r.bills} | ${r.nowcasts} | ${r.positiveBills} | ${withInterval(r.model.auc)} | ${withInterval(r.model.brier)} | ${withInterval(r.table.brier)} | ${withInterval(r.brierRatio)} | ${withInterval(r.model.ece)} | ${withInterval(r.table.ece)} |`);
    }
    lines.push('');
  }
  lines.push('### timeline_eta', '', '| kind | bills | nowcasts | median abs. error (days) | baseline’s | model / baseline | mean abs. error (days) | baseline’s |', '|---|---|---|---|---|---|---|---|');
  for (const [name, g] of groups(skill)) {
    const e = g.eta;
    lines.push(`| ${name} | ${e.bills} | ${e.nowcasts} | ${withInterval(e.model.median, 1)} | ${withInterval(e.baseline.median, 1)} | ${withInterval(e.medianRatio)} | ${withInterval(e.model.mean, 1)} | ${withInterval(e.baseline.mean, 1)} |`);
  }
  lines.push('');
  return lines;
}

/** The card's "Skill by kind" and "At the snapshot date" sections. */
export function skillSections(ev: Evaluation): string[] {
  const lines: string[] = [];
  lines.push('## Skill by kind', '');
  lines.push(
    `Every figure here weighs each bill 1: a bill’s nowcasts (one every 14 days while it lives) share one unit of weight, so a bill that lives two years counts no more than one that falls in a month. In brackets, a ${BOOTSTRAP_LEVEL * 100}% bootstrap interval over bills: ${BOOTSTRAP_REPLICATES} resamples of the test bills with replacement (seeded, so the card is reproducible), each figure recomputed on each; the model and the table are compared on the same resampled bills, so *Brier / (b)* below 1 with its whole interval below 1 means the model beats the kind × stage table for that kind beyond what the choice of bills explains. (b) is the Royal Assent or next-stage rate of the bill’s kind and furthest stage in the training data. ECE: expected calibration error over 10 equal-width bins, bins weighted by bills. A figure without an interval could not be computed on more than a tenth of the resamples (an AUC where a kind has a handful of Acts). ECE’s interval is that of the ECE measured on resampled bills: sampling noise only ever adds calibration gaps, so where the ECE is small its interval can lie above it; read it as the ECE another draw of as many bills might show.`,
    '',
  );
  lines.push(...skillTables(ev.skill));
  const s = ev.snapshotDay;
  lines.push('## At the snapshot date', '');
  lines.push(
    `The data ends on ${s.asOf}; ${s.liveAtAsOf} bills were live then, and their nowcasts on that day cannot be scored here: their outcomes lie after the data. What can be scored is the same moment of the test sessions: ${
      s.daysIntoSession === null ? 'no session was running on the as-of date, so there is no such moment.' : `the evaluation day ${s.daysIntoSession} days (or up to 13 fewer, the 14-day grid) into each test session, as ${s.asOf} is into its session, and the bills live on it: ${s.days.map((d) => (d.date ? `${d.session} on ${d.date} (${d.bills} bills)` : `${d.session} (shorter than that: none)`)).join(', ')}. One nowcast per bill, so each bill weighs 1 here as everywhere.`
    }`,
    '',
  );
  if (s.skill) lines.push(...skillTables(s.skill));
  return lines;
}

/** Per-kind Royal Assent reliability tables, bills and nowcasts in each bin. */
export function kindReliabilitySections(ev: Evaluation): string[] {
  const lines: string[] = ['## Royal Assent reliability by kind', '', 'Bins of the predicted probability; *bills* is the bins’ share of the bills (each bill weighing 1), *nowcasts* the nowcasts in it; mean predicted and observed rate weigh each bill 1.', ''];
  for (const [kind, g] of Object.entries(ev.skill.byKind)) {
    lines.push(`### ${kindName(kind)}`, '');
    if ((WATCHED_KINDS as readonly string[]).includes(kind)) lines.push(`![${kind} royal_assent reliability](model-card/${diagramName(kind)})`, '');
    lines.push('| bin | bills | nowcasts | mean predicted | observed |', '|---|---|---|---|---|');
    for (const bin of g.outputs.royal_assent.reliability) if (bin.count) lines.push(`| ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} | ${f(bin.bills, 1)} | ${bin.count} | ${f(bin.meanPredicted)} | ${f(bin.observedRate)} |`);
    lines.push('');
  }
  return lines;
}

const diagramName = (kind: string) => `reliability-royal-assent-${kind.replace(/_/g, '-')}.svg`;

/** Royal Assent reliability diagrams of the kinds in WATCHED_KINDS, by file name. */
export function kindReliabilityDiagrams(ev: Evaluation): Record<string, string> {
  const svgs: Record<string, string> = {};
  for (const kind of WATCHED_KINDS) {
    const g = ev.skill.byKind[kind];
    if (!g) continue;
    svgs[diagramName(kind)] = reliabilityDiagramSvg({ title: `royal_assent reliability: ${kindName(kind)} bills`, series: [
        { name: 'model', bins: g.outputs.royal_assent.reliability },
        { name: 'baseline (b) kind × stage', bins: g.outputs.royal_assent.tableReliability },
      ],
    });
  }
  return svgs;
}

/** Each test session's government and ballot bills: enacted, expected by the model and the table, and the enacted shares of the sessions before. */
export function kindsBySessionTable(rows: readonly KindInSession[]): string[] {
  const share = (x: number) => `${Math.round(100 * x)}%`;
  return [
    '### Government and ballot bills, session by session',
    '',
    'Royal Assent of the watched kinds, test session by test session, each bill weighing 1: the bills enacted, the mean probability the model and the kind × stage table (b) gave them (over each bill’s nowcasts, then over bills), the model’s ECE on that session alone, and the enacted share of the kind’s bills in each earlier session that had ended by the fold’s cutoff (sessions with at least 5 of them; Royal Assents dated by the cutoff).',
    '',
    '| test session | kind | bills | enacted | model’s mean | table’s mean | ECE | enacted in the earlier sessions |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const earlier = r.earlier ? `${share(r.earlier.lowestShare)}–${share(r.earlier.highestShare)} (${r.earlier.sessions} sessions)` : '—';
      return `| ${r.session} | ${kindName(r.kind)} | ${r.bills} | ${r.enacted} (${share(r.enacted / r.bills)}) | ${f(r.modelMean)} | ${f(r.tableMean)} | ${f(r.modelEce)} | ${earlier} |`;
    }),
    '',
  ];
}
