/**
 * The resources of the contract cases, in the neutral form both doors are compared in (GraphQL's
 * names), with the GraphQL selections a client writes for them and the readers that take each
 * door's normalised body (camelCase keys, lower-case enum values; see doors.ts) to that form.
 * Readers only undo differences of shape the specification makes on purpose (nested REST
 * prediction objects, envelopes); they check what they drop.
 */

const probability = expect.any(Number);
const level = expect.stringMatching(/^(low|medium|high)$/);
/** timeline_eta is null when no further stage will come (an enacted bill); time_bucket beyond 30 days */
const orNull = (type: 'number' | 'string') => ({ asymmetricMatch: (v: unknown) => v === null || typeof v === type, toAsymmetricMatcher: () => `${type} or null` });

// ---------- predictions ----------

/** A nowcast's date and outputs as a client selects them (in a watchlist bill, for instance). */
export const NOWCAST_SELECTION = `billId referenceDate royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk
  riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel }`;
/** ... and its mode, as GET /predict/{id} answers it. */
export const PREDICTION_SELECTION = `mode ${NOWCAST_SELECTION}`;

/** The seven outputs of a nowcast, as the GraphQL Prediction names them. */
const OUTPUTS = {
  royalAssent: probability,
  nextStage30d: probability,
  timelineEtaDays: orNull('number'),
  stallRisk: probability,
  amendmentRisk: probability,
  closeVote: probability,
  withdrawalRisk: probability,
};

/** A nowcast as GET /predict/{id} and the GraphQL `prediction` field carry it. */
export function aPrediction(billId: number, referenceDate: string) {
  return {
    billId,
    mode: 'nowcast',
    referenceDate,
    ...OUTPUTS,
    riskIndicators: { controversyScore: expect.any(Number), momentumScore: expect.any(Number), stallRiskLevel: level, withdrawalRiskLevel: level },
  };
}

/** REST nests each output in an object of its own (`royal_assent: {probability}`, `timeline_eta: {days}`). */
const SINGLE_OUTPUTS = ['royalAssent', 'nextStage30d', 'timelineEta', 'stallRisk', 'amendmentRisk', 'closeVote', 'withdrawalRisk'] as const;

function restOutputs(p: any) {
  return {
    royalAssent: p.royalAssent.probability,
    nextStage30d: p.nextStage30d.probability,
    timelineEtaDays: p.timelineEta.days,
    stallRisk: p.stallRisk.probability,
    amendmentRisk: p.amendmentRisk.probability,
    closeVote: p.closeVote.probability,
    withdrawalRisk: p.withdrawalRisk.probability,
  };
}
const DATED = new Set(['royalAssent', 'nextStage30d', 'timelineEta']);
const snake = (name: string) => name.replace(/[A-Z]|\d+/g, (m) => `_${m.toLowerCase()}`);

/** REST 2.1–2.3 → the neutral nowcast; each nested prediction must name its bill, output and (where specified) date. */
export function restPrediction(body: any) {
  const p = body.predictions;
  expect(Object.keys(p).sort()).toEqual([...SINGLE_OUTPUTS].sort());
  for (const name of SINGLE_OUTPUTS) {
    expect(p[name]).toMatchObject({ billId: body.billId, prediction: snake(name) });
    if (DATED.has(name)) expect(p[name].referenceDate).toBe(body.referenceDate);
  }
  return {
    billId: Number(body.billId),
    mode: body.mode,
    referenceDate: body.referenceDate,
    ...restOutputs(p),
    riskIndicators: body.riskIndicators,
  };
}

// ---------- batch ----------

export const BATCH_SELECTION = `items { billId status detail prediction {
    royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk billTitle originatingHouse lastStage { stage house }
    riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel } } }
  summary { total success errors blocked }`;

const FULL_RISK_INDICATORS = { controversyScore: expect.any(Number), momentumScore: expect.any(Number), stallRiskLevel: level, withdrawalRiskLevel: level, amendmentRiskLevel: level, closeVoteLevel: level };

export const aBatchSuccess = (billId: number) => ({
  billId,
  status: 'success',
  prediction: {
    ...OUTPUTS,
    riskIndicators: FULL_RISK_INDICATORS,
    title: expect.any(String),
    chamber: expect.any(String),
    stage: expect.any(String),
  },
});

/** REST 2.4–2.5 → neutral batch items and summary. */
export function restBatch(body: any) {
  expect(body.executionTimeMs).toEqual(expect.any(Number));
  return {
    items: body.results.map((r: any) => {
      if (r.status !== 'success') return { billId: r.billId, status: r.status, detail: r.detail };
      return { billId: r.billId, status: r.status, prediction: { ...restOutputs(r.predictions), riskIndicators: r.riskIndicators, ...r.metadata } };
    }),
    summary: body.summary,
  };
}

const HOUSE_NAME: Record<string, string> = { commons: 'Commons', lords: 'Lords', unassigned: 'Unassigned' };

/** GraphQL `predictions` → neutral: the REST metadata (title, chamber and stage now) read off the nowcast. */
export function graphqlBatch(data: any) {
  const batch = data.predictions;
  return {
    items: batch.items.map((item: any) => {
      if (item.status !== 'success') return { billId: item.billId, status: item.status, detail: item.detail };
      const { billTitle, originatingHouse, lastStage, ...numbers } = item.prediction;
      return {
        billId: item.billId,
        status: item.status,
        prediction: { ...numbers, title: billTitle, chamber: lastStage?.house ?? HOUSE_NAME[originatingHouse], stage: lastStage?.stage ?? 'not_started' },
      };
    }),
    summary: batch.summary,
  };
}

// ---------- imminent ----------

export const IMMINENT_SELECTION = `count bills {
    billId timelineEtaDays royalAssentProbability nextStageProbability predictedDate urgencyLevel countdownDays timeBucket urgencyScore
    stallRisk amendmentRisk closeVote withdrawalRisk
    riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel } }`;

export const anImminentBill = {
  billId: expect.any(Number),
  timelineEtaDays: expect.any(Number),
  royalAssentProbability: probability,
  nextStageProbability: probability,
  predictedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  urgencyLevel: expect.stringMatching(/^(critical|urgent|soon|tracking|none)$/),
  countdownDays: expect.any(Number),
  timeBucket: orNull('string'),
  urgencyScore: expect.any(Number),
  stallRisk: probability,
  amendmentRisk: probability,
  closeVote: probability,
  withdrawalRisk: probability,
  riskIndicators: FULL_RISK_INDICATORS,
};

/** GraphQL `imminentBills` → the flat REST item (2.6): the risks come up from the nowcast. */
export function graphqlImminent(data: any) {
  const { bills, count } = data.imminentBills;
  return { bills, count };
}

// ---------- watchlists ----------

export const WATCHLIST_SELECTION = 'id name description billCount createdAt updatedAt calendarUrl feedUrl';
export const WATCHLIST_BILLS_SELECTION = `${WATCHLIST_SELECTION} bills { billId addedAt bill { title } }`;

export const aWatchlist = (id: number | unknown, name: string, billCount: number, description: string | null = null) => ({
  id,
  name,
  description,
  billCount,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  calendarUrl: expect.stringMatching(/^http:\/\/localhost:4000\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/),
  feedUrl: expect.stringMatching(/^http:\/\/localhost:4000\/api\/v1\/feeds\/[A-Za-z0-9_-]{43}\.atom$/),
});

export const aWatchlistBill = (billId: number) => ({ billId, title: expect.any(String), addedAt: expect.any(String) });

/** GraphQL watchlist with bills → neutral: each bill's title comes up from the bill. */
export function graphqlWatchlist(data: any) {
  const w = Object.values(data)[0] as any;
  return { ...w, bills: w.bills.map(({ bill, ...rest }: any) => ({ ...rest, title: bill?.title ?? null })) };
}

// ---------- alert thresholds ----------

export const THRESHOLD_SELECTION = 'id watchlistId billId alertType thresholdValue comparison createdAt lastTriggeredAt armed quietBillIds active inactiveReason';

export const aThreshold = (id: unknown, watchlistId: number, fields: { billId?: number | null; alertType: string; thresholdValue: number; comparison: string }) => ({
  id,
  watchlistId,
  billId: null,
  ...fields,
  createdAt: expect.any(String),
  lastTriggeredAt: null,
  armed: true,
  quietBillIds: [],
  active: true,
  inactiveReason: null,
});

export const TRIGGER_SELECTION = 'id thresholdId watchlistId watchlistName billId alertType comparison thresholdValue valueSeen referenceDate triggeredAt source';

/** REST check result → neutral: `count` is the number of triggers, and is checked, not kept. */
export function restCheck(body: any) {
  const { count, ...rest } = body;
  expect(count).toBe(body.triggered.length);
  return rest;
}
