import { calibrate, calibrateForKind, fitByKind, recencyWeight } from '../../../../../src/model/serve/calibration';

/** Held-out samples: `bills` bills of a kind, each seen `samplesEach` times at raw probability `raw`, the first `positives` of them enacted. */
function heldOut(kind: string, firstBillId: number, bills: number, samplesEach: number, positives: number, raw: number) {
  const rows: { raw: number; outcome: 0 | 1; kind: string; billId: number }[] = [];
  for (let b = 0; b < bills; b++) for (let s = 0; s < samplesEach; s++) rows.push({ raw, outcome: b < positives ? 1 : 0, kind, billId: firstBillId + b });
  return rows;
}

const fit = (rows: ReturnType<typeof heldOut>) =>
  fitByKind(
    rows.map((r) => r.raw),
    rows.map((r) => r.outcome),
    rows.map((r) => r.kind),
    rows.map((r) => r.billId),
  );

it('a handful of held-out bills with many samples each cannot carry their kind far from the pooled scaling', () => {
  // the pooled data are calibrated (3 in 10 at 0.3); four ballot bills, three of them enacted, seen 50 times each
  const rows = [...heldOut('government', 1, 1000, 2, 300, 0.3), ...heldOut('pmb_ballot', 5000, 4, 50, 3, 0.3)];
  const calibration = fit(rows);
  const ballot = calibrateForKind(0.3, calibration, 'pmb_ballot');
  expect(ballot).toBeGreaterThan(calibrateForKind(0.3, calibration, 'government'));
  expect(ballot).toBeLessThan(0.6);
});

it('a kind that many bills show to be under-predicted is shifted toward its real rate', () => {
  const rows = [...heldOut('government', 1, 1000, 2, 300, 0.3), ...heldOut('pmb_ballot', 5000, 300, 1, 240, 0.3)];
  const calibration = fit(rows);
  expect(calibrateForKind(0.3, calibration, 'pmb_ballot')).toBeGreaterThan(0.75);
  expect(calibrateForKind(0.3, calibration, 'government')).toBeLessThan(0.35);
});

it('a kind with no held-out bills uses the pooled scaling', () => {
  const calibration = fit(heldOut('government', 1, 1000, 2, 300, 0.3));
  expect(calibrateForKind(0.3, calibration, 'pmb_lords')).toBe(calibrate(0.3, calibration.all));
});

it('a kind whose many bills show the network too timid gets a steeper scaling, not only a shift', () => {
  // pooled: calibrated at 0.4 and 0.6; ballot bills: at 0.4 one in ten is enacted, at 0.6 nine in ten
  const rows = [...heldOut('government', 1, 1000, 1, 400, 0.4), ...heldOut('government', 2001, 1000, 1, 600, 0.6), ...heldOut('pmb_ballot', 5000, 200, 1, 20, 0.4), ...heldOut('pmb_ballot', 6000, 200, 1, 180, 0.6)];
  const calibration = fit(rows);
  expect(calibrateForKind(0.4, calibration, 'pmb_ballot')).toBeLessThan(0.25);
  expect(calibrateForKind(0.6, calibration, 'pmb_ballot')).toBeGreaterThan(0.75);
});

it('a kind whose recent sessions pass more of its bills than its older ones is calibrated toward the recent rate when recent bills weigh more', () => {
  // pooled: calibrated at 0.3; ballot bills at raw 0.3: 100 of an old session (10 enacted), 100 of the last one (60 enacted)
  const rows = [...heldOut('government', 1, 1000, 2, 300, 0.3), ...heldOut('pmb_ballot', 5000, 100, 1, 10, 0.3), ...heldOut('pmb_ballot', 6000, 100, 1, 60, 0.3)];
  const daysBeforeCutoff = rows.map((r) => (r.kind === 'pmb_ballot' && r.billId < 6000 ? 2920 : 0));
  const alike = fit(rows);
  const recentFirst = fitByKind(
    rows.map((r) => r.raw),
    rows.map((r) => r.outcome),
    rows.map((r) => r.kind),
    rows.map((r) => r.billId),
    daysBeforeCutoff.map((days) => recencyWeight(days, 730)),
  );
  expect(calibrateForKind(0.3, alike, 'pmb_ballot')).toBeCloseTo(0.35, 1);
  expect(calibrateForKind(0.3, recentFirst, 'pmb_ballot')).toBeGreaterThan(0.5);
  // the other kinds' scaling does not move
  expect(calibrateForKind(0.3, recentFirst, 'government')).toBeCloseTo(calibrateForKind(0.3, alike, 'government'), 6);
});

it('a held-out bill weighs half as much for every half-life between its session’s end and the cutoff', () => {
  expect(recencyWeight(0, 730)).toBe(1);
  expect(recencyWeight(730, 730)).toBeCloseTo(0.5, 12);
  expect(recencyWeight(2190, 730)).toBeCloseTo(0.125, 12);
});
