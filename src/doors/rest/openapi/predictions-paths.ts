import { commonErrors, error, idParam, jsonBody, modelHeaders, ok, probability, referenceDateParameter } from './common';

// Specification 4.1–4.3: predictions for one bill, a batch, and the imminent bills.

const PREDICTION_EXAMPLE = {
  bill_id: '2900',
  mode: 'nowcast',
  reference_date: '2021-12-31',
  predictions: {
    royal_assent: { bill_id: '2900', prediction: 'royal_assent', probability: 0.083, reference_date: '2021-12-31' },
    next_stage_30d: { bill_id: '2900', prediction: 'next_stage_30d', probability: 0.412, reference_date: '2021-12-31' },
    timeline_eta: { bill_id: '2900', prediction: 'timeline_eta', days: 37.5, reference_date: '2021-12-31' },
    stall_risk: { bill_id: '2900', prediction: 'stall_risk', probability: 0.64 },
    amendment_risk: { bill_id: '2900', prediction: 'amendment_risk', probability: 0.12 },
    close_vote: { bill_id: '2900', prediction: 'close_vote', probability: 0.05 },
    withdrawal_risk: { bill_id: '2900', prediction: 'withdrawal_risk', probability: 0.21 },
  },
  risk_indicators: { controversy_score: 0.18, momentum_score: 0.35, stall_risk_level: 'medium', withdrawal_risk_level: 'low' },
};

const FULL_RISK_INDICATORS_EXAMPLE = { controversy_score: 0.18, momentum_score: 0.35, stall_risk_level: 'medium', withdrawal_risk_level: 'low', amendment_risk_level: 'low', close_vote_level: 'low' };

const BATCH_EXAMPLE = {
  results: [
    {
      bill_id: 2900,
      status: 'success',
      predictions: {
        royal_assent: { probability: 0.083 },
        next_stage_30d: { probability: 0.412 },
        timeline_eta: { days: 37.5 },
        stall_risk: { probability: 0.64 },
        amendment_risk: { probability: 0.12 },
        close_vote: { probability: 0.05 },
        withdrawal_risk: { probability: 0.21 },
      },
      risk_indicators: FULL_RISK_INDICATORS_EXAMPLE,
      metadata: { title: 'Marriage and Civil Partnership (Minimum Age) Bill', chamber: 'Commons', stage: 'second_reading' },
    },
    { bill_id: 999999, status: 'error', detail: 'bill 999999 does not exist' },
  ],
  summary: { total: 2, success: 1, errors: 1, blocked: 0 },
  execution_time_ms: 4.2,
};

const BATCH_REQUEST_EXAMPLES = {
  today: { summary: 'two bills, today', value: { bill_ids: [2900, 999999] } },
  backtest: { summary: 'a nowcast as of a past date', value: { bill_ids: [2900, 3089], reference_date: '2021-12-31' } },
};

const batchOperation = (operationId: string, summary: string) => ({
  operationId,
  summary,
  description: 'Counts as one batch request and one prediction per bill delivered. Fields other than bill_ids and reference_date are refused (400).',
  requestBody: jsonBody('#/components/schemas/BatchRequest', BATCH_REQUEST_EXAMPLES),
  responses: { '200': ok('#/components/schemas/BatchEnvelope', 'per-bill outcomes in request order', BATCH_EXAMPLE, modelHeaders), ...commonErrors },
});

export const PREDICTION_PATHS = {
  '/predict/{bill_id}': {
    get: {
      operationId: 'predictBill',
      summary: 'Predictions for one bill (specification 4.1)',
      description:
        'With `explain=true` the answer adds `explanations`: the factors of each of royal_assent and next_stage_30d (at most 4: the stage reached, the days since the last main stage, the sponsors, a ballot bill’s place in the order its session’s ballot bills were presented), largest effect first, and the `reference` they are measured from: a typical bill of the same kind, introduced the same day in the same house, at its kind’s median pace, with its probabilities. A factor’s `effect` is its Shapley value, in probability (signed: 0.31 = 31 points): the effects add up, to rounding, to the prediction minus the reference’s. A settled bill (enacted, withdrawn, fallen) has no factors and a null reference: its probabilities follow from its status. Without `explain` the answer is exactly the specification’s.',
      parameters: [
        idParam('bill_id', 'UK Parliament Bills API bill id'),
        referenceDateParameter,
        { name: 'explain', in: 'query', required: false, description: 'true adds `explanations`; only `true` or `false`', schema: { type: 'string', enum: ['true', 'false'], default: 'false' } },
      ],
      responses: {
        '200': ok('#/components/schemas/PredictionResult', 'the prediction result (with `explanations` when explain=true)', PREDICTION_EXAMPLE, modelHeaders),
        '404': error('no bill with this id', 'bill 999999 does not exist'),
        ...commonErrors,
      },
    },
  },
  '/predictions/batch': { post: batchOperation('predictBatch', 'Predictions for up to 100 bills (specification 4.2)') },
  '/predict/batch': { post: batchOperation('predictBatchAlias', 'Alias of POST /predictions/batch (specification 9)') },
  '/predictions/imminent': {
    get: {
      operationId: 'imminentBills',
      summary: 'Bills likely to reach their next stage soon, most urgent first (specification 4.3)',
      parameters: [
        { name: 'days_ahead', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 30, default: 7 } },
        { name: 'min_probability', in: 'query', required: false, description: 'minimum next-stage probability', schema: { ...probability, default: 0.5 } },
      ],
      responses: {
        '200': ok('#/components/schemas/ImminentEnvelope', 'the imminent bills', {
          bills: [
            {
              bill_id: 2900,
              timeline_eta_days: 2.5,
              royal_assent_probability: 0.083,
              next_stage_probability: 0.71,
              predicted_date: '2022-01-02',
              urgency_level: 'urgent',
              countdown_days: 2.5,
              time_bucket: 'week',
              urgency_score: 0.651,
              stall_risk: 0.64,
              amendment_risk: 0.12,
              close_vote: 0.05,
              withdrawal_risk: 0.21,
              risk_indicators: FULL_RISK_INDICATORS_EXAMPLE,
            },
          ],
          count: 1,
        }, modelHeaders),
        ...commonErrors,
      },
    },
  },
};

export const PREDICTION_EXAMPLES = { PREDICTION_EXAMPLE };
