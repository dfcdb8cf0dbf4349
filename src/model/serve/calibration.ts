/**
 * Platt scaling: p' = σ(a·logit(p) + b), fitted by Newton's method on a later period than the
 * networks were trained on, so the probabilities mean what they say on data the net has not seen
 * (pace and pass rates drift between sessions).
 */
export interface PlattScaling {
  a: number;
  b: number;
}

export const IDENTITY_SCALING: PlattScaling = { a: 1, b: 0 };

const EPSILON = 1e-6;
export const logit = (p: number) => {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export const calibrate = (p: number, s: PlattScaling) => sigmoid(s.a * logit(p) + s.b);

/**
 * Fits a and b to (raw probability, outcome) pairs; identity when there is too little to learn
 * from. Targets are smoothed as Platt proposed ((N+ + 1)/(N+ + 2) for positives, 1/(N- + 2) for
 * negatives): a network that separates the period almost perfectly would otherwise drive the
 * slope to infinity and the calibrated probabilities to 0 and 1.
 */
export function fitPlatt(raw: readonly number[], outcomes: readonly (0 | 1)[]): PlattScaling {
  const positives = outcomes.filter((y) => y === 1).length;
  const negatives = outcomes.length - positives;
  if (raw.length < 30 || positives === 0 || negatives === 0) return IDENTITY_SCALING;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  const t = outcomes.map((y) => (y ? high : low));
  const { u: a, v: b } = fitLogistic(raw.map(logit), t, null, 0);
  return Number.isFinite(a) && Number.isFinite(b) && a > 0 ? { a, b } : IDENTITY_SCALING;
}

/**
 * Newton's method for p = σ(u·x + v) from (u, v) = (1, 0): minimises Σ wᵢ·logloss(pᵢ, tᵢ) +
 * prior·((u − 1)² + v²)/2 (weights all 1 when null). Each step is shortened to length 2: the loss
 * is convex but a step can overshoot far from the optimum. `fixedSlope`: u stays at it and only v
 * is fitted (with slope 1 on logits, calibration-in-the-large).
 */
export function fitLogistic(x: readonly number[], targets: readonly number[], weights: readonly number[] | null, prior: number, { fixedSlope }: { fixedSlope?: number } = {}): { u: number; v: number } {
  let u = fixedSlope ?? 1;
  let v = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    let gu = prior * (u - 1);
    let gv = prior * v;
    let huu = prior || 1e-9;
    let huv = 0;
    let hvv = prior || 1e-9;
    for (let i = 0; i < x.length; i++) {
      const weight = weights ? weights[i] : 1;
      const p = sigmoid(u * x[i] + v);
      const r = weight * (p - targets[i]);
      const w = weight * Math.max(p * (1 - p), 1e-12);
      gu += r * x[i];
      gv += r;
      huu += w * x[i] * x[i];
      huv += w * x[i];
      hvv += w;
    }
    const det = fixedSlope === undefined ? huu * hvv - huv * huv : hvv;
    if (!(Math.abs(det) > 1e-12)) break;
    let du = fixedSlope === undefined ? (hvv * gu - huv * gv) / det : 0;
    let dv = fixedSlope === undefined ? (huu * gv - huv * gu) / det : gv / hvv;
    const size = Math.hypot(du, dv);
    if (size > 2) {
      du *= 2 / size;
      dv *= 2 / size;
    }
    u -= du;
    v -= dv;
    if (Math.abs(du) + Math.abs(dv) < 1e-9) break;
  }
  return { u, v };
}

/** A probability's calibration: one scaling for every bill, and its adjusted copy for each kind with held-out bills. */
export interface KindCalibration {
  all: PlattScaling;
  byKind: Record<string, PlattScaling>;
}

/**
 * How many bills' worth of evidence a kind's own adjustment must outweigh: it is pulled toward the
 * pooled scaling as if that many bills of the kind had agreed with it.
 */
export const KIND_SHIFT_PRIOR_BILLS = 5;

/**
 * The pooled scaling for every kind, adjusted per kind (its slope and its shift) by what that
 * kind's held-out bills say. Each bill weighs one whatever its number of samples (a bill's samples
 * share its outcome, so they are not independent evidence), and the adjustment is shrunk toward
 * none: a slope and intercept of a kind's own, fitted on a handful of held-out ballot bills, put
 * every ballot bill at second reading above 0.98.
 * `recency` (one per sample, optional) weighs each sample's bill within its kind: a kind's pass
 * rate drifts between sessions, so a recent session's bills may count more than older ones. A
 * kind's weights are rescaled to sum to its number of bills, so the shrinkage stays
 * KIND_SHIFT_PRIOR_BILLS bills' worth against it.
 */
export function fitByKind(raw: readonly number[], outcomes: readonly (0 | 1)[], kinds: readonly string[], billIds: readonly number[], recency?: readonly number[]): KindCalibration {
  const all = fitPlatt(raw, outcomes);
  const byKind: Record<string, PlattScaling> = {};
  for (const kind of [...new Set(kinds)].sort()) {
    const at = kinds.flatMap((k, i) => (k === kind ? [i] : []));
    const samplesOfBill = new Map<number, number>();
    for (const i of at) samplesOfBill.set(billIds[i], (samplesOfBill.get(billIds[i]) ?? 0) + 1);
    const weights = at.map((i) => (recency ? recency[i] : 1) / samplesOfBill.get(billIds[i])!);
    const total = weights.reduce((sum, w) => sum + w, 0);
    // p = σ(z·u + v) on the pooled logit z, (u, v) shrunk toward (1, 0): the pooled scaling itself
    const { u, v } = fitLogistic(
      at.map((i) => all.a * logit(raw[i]) + all.b),
      at.map((i) => outcomes[i]),
      weights.map((w) => (w * samplesOfBill.size) / total),
      KIND_SHIFT_PRIOR_BILLS,
    );
    // a slope of 0.1 or less would flatten or flip the ranking the network learned
    if (!Number.isFinite(u) || !Number.isFinite(v) || u <= 0.1 || (u === 1 && v === 0)) continue;
    byKind[kind] = { a: all.a * u, b: all.b * u + v };
  }
  return { all, byKind };
}

/** A held-out bill's weight in its kind's adjustment: 1 for a session that ended at the cutoff, ½ for one that ended `halfLifeDays` before it. */
export const recencyWeight = (daysBeforeCutoff: number, halfLifeDays: number) => 0.5 ** (Math.max(0, daysBeforeCutoff) / halfLifeDays);

export const calibrateForKind = (p: number, calibration: KindCalibration, kind: string) => calibrate(p, calibration.byKind[kind] ?? calibration.all);
