/** The card's (and `npm run evaluate`'s) per-kind Royal Assent targets, sessions' calibration-in-the-large, and the risks beside the rate by kind. */
import { BOOTSTRAP_LEVEL, BOOTSTRAP_REPLICATES, type Estimate } from '../train/bill-weighted';
import { formatMetric as f } from '../train/metrics';
import { covers, RISKS_VS_KIND, type RiskVsKind, SPIEGELHALTER_LIMIT, type Targets } from './kind-targets';
import { kindName, withInterval } from './model-card-skill';

export const passOrMiss = (ok: boolean | null) => (ok === null ? 'not measurable' : ok ? '**PASS**' : '**MISS**');

/** A signed figure with its interval, "+0.012 (−0.004 to +0.030)": a difference reads better with its sign. */
function signed(e: Estimate, digits = 3): string {
  const s = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${f(Math.abs(v), digits)}`;
  if (e.value === null) return '—';
  return e.low === null || e.high === null ? s(e.value) : `${s(e.value)} (${s(e.low)} to ${s(e.high)})`;
}

/** Rows of [target, value, verdict] for each watched kind. */
export function kindTargetRows(t: Targets): [string, string, string][] {
  return t.kinds.flatMap((k) => {
    const name = `${kindName(k.kind)} (${k.bills} bills, ${k.sessions} session${k.sessions === 1 ? '' : 's'})`;
    const diff = k.brierDifference.value;
    return [
      [`${name}: royal_assent Brier − kind × stage table’s (b) ≤ 0`, `${f(k.modelBrier.value)} − ${f(k.tableBrier.value)} = ${signed(k.brierDifference, 4)}`, passOrMiss(diff === null ? null : diff <= 0)],
      [`${name}: calibration intercept (slope fixed at 1), its interval contains 0`, signed(k.intercept, 2), passOrMiss(covers(k.intercept, 0))],
      [`${name}: calibration slope, its interval contains 1`, withInterval(k.slope, 2), passOrMiss(covers(k.slope, 1))],
      [`${name}: Spiegelhalter’s z, |z| ≤ ${SPIEGELHALTER_LIMIT}`, k.spiegelhalterZ === null ? '—' : signed({ value: k.spiegelhalterZ, low: null, high: null }, 2), passOrMiss(k.spiegelhalterZ === null ? null : Math.abs(k.spiegelhalterZ) <= SPIEGELHALTER_LIMIT)],
    ] as [string, string, string][];
  });
}

/** The per-kind targets, the sessions' calibration-in-the-large and the risks beside the rate by kind, as Markdown. */
export function targetSections(t: Targets, sessionName: (id: number) => string, heading = '###'): string[] {
  const lines = [
    `${heading} Royal Assent of government and ballot bills`,
    '',
    `Each bill weighing 1. Intervals are ${BOOTSTRAP_LEVEL * 100}% and resample the test sessions, then the bills within each drawn session (${BOOTSTRAP_REPLICATES} seeded replicates): a session’s pass rate moves all its bills at once, so resampling bills alone would claim more certainty than three sessions give. The intercept is that of a logistic regression of the outcome on logit(forecast) with the slope fixed at 1 (calibration-in-the-large: 0 is right on average, positive means more Acts than forecast); the slope is that regression's with both free (1 is ideal, below 1 the forecasts are too extreme). Spiegelhalter’s z is near standard normal for calibrated forecasts; a bill’s nowcasts share one outcome, so within a bill they count as perfectly correlated, and bills as independent. There is no ECE target per kind: binned errors grow with noise alone, and with 40 ballot bills a perfectly calibrated model shows an ECE of 0.08–0.13 by chance.`,
    '',
    '| target | value (90% interval) | result |',
    '|---|---|---|',
    ...kindTargetRows(t).map(([name, value, verdict]) => `| ${name} | ${value} | ${verdict} |`),
    '',
    'Calibration-in-the-large of each test session alone (no target: one session is too few bills to judge, but the sessions’ spread is what the intervals above resample):',
    '',
    '| test session | kind | bills | intercept |',
    '|---|---|---|---|',
    ...t.bySession.map((s) => `| ${sessionName(s.sessionId)} | ${kindName(s.kind)} | ${s.bills} | ${signed({ value: s.intercept, low: null, high: null }, 2)} |`),
    '',
    `${heading} Risks against the rate by kind`,
    '',
    'Brier of the model and of baseline (a), the rate of the bill’s kind in the training data, each bill weighing 1, with intervals resampled by session as above. A positive difference means the model loses to the rate by kind. Within one kind that baseline gives every bill the same figure, so its AUC there is 0.5: the model’s AUC within a kind says how well it ranks that kind’s bills.',
    '',
    '| output | bills | Brier | Brier (a) kind | model − (a) | AUC | beats (a) |',
    '|---|---|---|---|---|---|---|',
    ...t.risks.map((r) => {
      const d = r.brierDifference.value;
      return `| ${r.output}, ${r.group === 'all' ? 'all bills' : kindName(r.group)} | ${r.bills} | ${f(r.modelBrier.value)} | ${f(r.kindBrier.value)} | ${signed(r.brierDifference)} | ${withInterval(r.modelAuc)} | ${d === null ? '—' : d < 0 ? 'yes' : 'no'} |`;
    }),
    '',
    ...RISKS_VS_KIND.map((o) => riskVerdict(o, t.risks.filter((r) => r.output === o))),
    '',
  ];
  return lines;
}

/** One plain sentence per risk: whether it beats the rate by kind, by how much, and what it is good for where it does not. */
function riskVerdict(output: string, rows: readonly RiskVsKind[]): string {
  const all = rows.find((r) => r.group === 'all');
  const d = all?.brierDifference.value ?? null;
  if (!all || d === null || all.kindBrier.value === null) return `- \`${output}\`: not measurable.`;
  const losing = rows.filter((r) => r.group !== 'all' && (r.brierDifference.value ?? 0) > 0).map((r) => kindName(r.group));
  // no better than chance where the AUC's interval (or, without one, the AUC itself) reaches 0.5
  const ranks = rows.filter((r) => r.group !== 'all' && r.modelAuc.value !== null).map((r) => `${kindName(r.group)} ${f(r.modelAuc.value)}${(r.modelAuc.low ?? r.modelAuc.value!) <= 0.5 ? ' (no better than chance)' : ''}`);
  const share = Math.round((100 * Math.abs(d)) / all.kindBrier.value);
  if (d < 0) return `- \`${output}\` beats the rate by kind over all bills: Brier ${f(Math.abs(d))} (${share}%) lower${losing.length ? `, though not for ${losing.join(' or ')} bills` : ''}.`;
  return `- \`${output}\` does **not** beat the rate by kind: over all bills its Brier is ${f(d)} (${share}%) higher${losing.length ? `, and higher for ${losing.join(' and ')} bills` : ''}, so as a probability it is worse than the share of its kind’s bills that met the event. What it is good for is ordering bills: AUC within a kind ${ranks.join(', ')} (0.5 is no better than the rate by kind).`;
}
