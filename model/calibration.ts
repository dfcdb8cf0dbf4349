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
const logit = (p: number) => {
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
  const x = raw.map(logit);
  const t = outcomes.map((y) => (y ? high : low));
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (let i = 0; i < x.length; i++) {
      const p = sigmoid(a * x[i] + b);
      const r = p - t[i];
      const w = Math.max(p * (1 - p), 1e-12);
      ga += r * x[i];
      gb += r;
      haa += w * x[i] * x[i];
      hab += w * x[i];
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(Math.abs(det) > 1e-12)) break;
    // Newton step, shortened when large: the loss is convex but the step can overshoot far from the optimum.
    let da = (hbb * ga - hab * gb) / det;
    let db = (haa * gb - hab * ga) / det;
    const size = Math.hypot(da, db);
    if (size > 2) {
      da *= 2 / size;
      db *= 2 / size;
    }
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return Number.isFinite(a) && Number.isFinite(b) && a > 0 ? { a, b } : IDENTITY_SCALING;
}

/** A probability's calibration: one scaling for every bill, and its own for each kind with enough data. */
export interface KindCalibration {
  all: PlattScaling;
  byKind: Record<string, PlattScaling>;
}

/** A kind gets its own scaling with at least this many calibration samples of each outcome. */
const MIN_PER_CLASS_FOR_A_KIND = 30;

export function fitByKind(raw: readonly number[], outcomes: readonly (0 | 1)[], kinds: readonly string[]): KindCalibration {
  const byKind: Record<string, PlattScaling> = {};
  for (const kind of [...new Set(kinds)].sort()) {
    const at = kinds.flatMap((k, i) => (k === kind ? [i] : []));
    const positives = at.filter((i) => outcomes[i] === 1).length;
    if (positives < MIN_PER_CLASS_FOR_A_KIND || at.length - positives < MIN_PER_CLASS_FOR_A_KIND) continue;
    byKind[kind] = fitPlatt(
      at.map((i) => raw[i]),
      at.map((i) => outcomes[i]),
    );
  }
  return { all: fitPlatt(raw, outcomes), byKind };
}

export const calibrateForKind = (p: number, calibration: KindCalibration, kind: string) => calibrate(p, calibration.byKind[kind] ?? calibration.all);
