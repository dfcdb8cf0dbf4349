import {
  ALERT_CHECK_SOURCES,
  ALERT_TYPES,
  BATCH_ITEM_STATUSES,
  COMPARISONS,
  CURRENT_STAGES,
  HOUSES,
  isRisk,
  LEVELLED_RISKS,
  MAIN_STAGES,
  OUTPUT_WORDS,
  PREDICTION_MODES,
  PREDICTION_OUTPUTS,
  type PredictionOutput,
  PRO_ALERT_TYPES,
  RISK_LEVELS,
  RISKS,
  type Risk,
  SINGLE_ANSWER_RISKS,
  TIME_BUCKETS,
  URGENCY_LEVELS,
} from '../../../vocabulary';
import { date, probability, timestamp } from './common';

// Specification section 2: the resources, and the shapes of our answers where it shows none.
// Enumerations come from src/vocabulary.ts.

const words = (values: readonly string[]) => ({ type: 'string', enum: [...values] });
const level = words(RISK_LEVELS);
const factorList = {
  type: 'array',
  maxItems: 5,
  items: {
    type: 'object',
    required: ['factor', 'effect'],
    properties: {
      factor: { type: 'string', description: 'the fact about the bill, in plain words' },
      effect: { type: 'number', minimum: -1, maximum: 1, description: 'its share of the prediction minus the reference’s, in probability (signed); the effects add up to that difference' },
    },
  },
};

export const ALERT_TYPE_SCHEMA = words(ALERT_TYPES);
const COMPARISON_SCHEMA = words(COMPARISONS);
const list = (values: readonly string[]) => values.join(', ');

/** The outputs' table (src/vocabulary.ts) as schemas: an entry per output, holding its value under its measure. */
const byOutput = <T>(outputs: readonly PredictionOutput[], schema: (output: PredictionOutput) => T) => Object.fromEntries(outputs.map((output) => [output, schema(output)]));
const measureOf = (output: PredictionOutput) => PREDICTION_OUTPUTS[output].measure;
const days = { type: ['number', 'null'] };
const measureSchema = (output: PredictionOutput) => (measureOf(output) === 'days' ? days : probability);
const ETA_DAYS = 'estimated days to the next stage; null for a bill that will have none (enacted, withdrawn, or its session ended)';

/** 2.2: an entry names its bill and itself; the headline predictions (not the risks) carry the reference date. */
const predictionEntry = (output: PredictionOutput) => {
  const withDate = !isRisk(output);
  const measure = measureOf(output);
  return {
    type: 'object',
    required: ['bill_id', 'prediction', measure, ...(withDate ? ['reference_date'] : [])],
    properties: {
      bill_id: { type: 'string' },
      prediction: { type: 'string' },
      [measure]: measure === 'days' ? { ...days, description: ETA_DAYS } : probability,
      ...(withDate ? { reference_date: date } : {}),
    },
  };
};

/** 2.3: the two scores and the levels of these risks. */
const riskIndicators = (risks: readonly Risk[]) => ({
  required: ['controversy_score', 'momentum_score', ...risks.map((risk) => `${risk}_level`)],
  properties: { controversy_score: probability, momentum_score: probability, ...Object.fromEntries(risks.map((risk) => [`${risk}_level`, level])) },
});

const integerList = { type: 'array', items: { type: 'integer', minimum: 1 } };

export const COMPONENTS = {
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
    apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  },
  schemas: {
    Error: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
    Deleted: { type: 'object', required: ['id', 'deleted'], properties: { id: { type: 'integer' }, deleted: { const: true } } },
    Predictions: {
      type: 'object',
      description: '2.2: the predictions of one bill',
      required: [...OUTPUT_WORDS],
      properties: byOutput(OUTPUT_WORDS, predictionEntry),
    },
    SingleRiskIndicators: {
      type: 'object',
      description: '2.3 as a single-bill answer carries it: the stall and withdrawal levels only',
      ...riskIndicators(SINGLE_ANSWER_RISKS),
    },
    PredictionResult: {
      type: 'object',
      required: ['bill_id', 'mode', 'reference_date', 'predictions', 'risk_indicators'],
      properties: {
        bill_id: { type: 'string', description: 'echo of the requested bill' },
        mode: words(PREDICTION_MODES),
        reference_date: date,
        predictions: { $ref: '#/components/schemas/Predictions' },
        risk_indicators: { $ref: '#/components/schemas/SingleRiskIndicators' },
        explanations: { $ref: '#/components/schemas/Explanations' },
      },
    },
    Explanations: {
      type: 'object',
      description: 'only with explain=true: why the headline predictions are what they are, against a reference bill',
      required: ['royal_assent', 'next_stage_30d', 'timeline_eta', 'reference'],
      properties: {
        royal_assent: factorList,
        next_stage_30d: factorList,
        timeline_eta: {
          type: ['string', 'null'],
          description: 'what the ETA rests on and means: "scheduled for YYYY-MM-DD: …" when the next stage has a sitting set down (the days to it), else "estimated by the model from the bill\'s history: …" (the median wait if the bill moves), each with the chance of a next stage at all and within 30 days; null when there is no next stage',
          example: 'scheduled for 2026-10-21',
        },
        reference: {
          type: ['object', 'null'],
          description: 'what the factors are measured from: a typical bill of the same kind, introduced the same day in the same house, at its kind’s median pace; null for a settled bill',
          required: ['description', 'royal_assent', 'next_stage_30d'],
          properties: { description: { type: 'string', description: 'the reference bill and where it stands on the reference date, in plain words' }, royal_assent: probability, next_stage_30d: probability },
        },
      },
    },
    RiskIndicators: { type: 'object', ...riskIndicators(LEVELLED_RISKS) },
    BatchRequest: {
      type: 'object',
      required: ['bill_ids'],
      additionalProperties: false,
      properties: {
        bill_ids: { ...integerList, minItems: 1, maxItems: 100 },
        reference_date: { ...date, description: 'optional; defaults to the service’s today' },
      },
    },
    BatchItem: {
      type: 'object',
      required: ['bill_id', 'status'],
      description: 'status success carries predictions, risk_indicators and metadata; error (e.g. unknown bill) and blocked (the daily prediction quota was used up before this bill) carry detail',
      properties: {
        bill_id: { type: 'integer' },
        status: words(BATCH_ITEM_STATUSES),
        detail: { type: 'string' },
        predictions: { type: 'object', properties: byOutput(OUTPUT_WORDS, (output) => ({ type: 'object', properties: { [measureOf(output)]: measureSchema(output) } })) },
        risk_indicators: { $ref: '#/components/schemas/RiskIndicators' },
        metadata: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            chamber: { type: 'string', description: 'the house of the bill’s last main stage (Commons, Lords, Unassigned for Royal Assent), else its originating house' },
            stage: { type: 'string', enum: [...CURRENT_STAGES], description: 'its last main stage, e.g. second_reading; not_started before any' },
          },
        },
      },
    },
    BatchEnvelope: {
      type: 'object',
      required: ['results', 'summary', 'execution_time_ms'],
      properties: {
        results: { type: 'array', items: { $ref: '#/components/schemas/BatchItem' } },
        summary: { type: 'object', required: ['total', 'success', 'errors', 'blocked'], properties: { total: { type: 'integer' }, success: { type: 'integer' }, errors: { type: 'integer' }, blocked: { type: 'integer' } } },
        execution_time_ms: { type: 'number' },
      },
    },
    ImminentItem: {
      type: 'object',
      required: ['bill_id', 'timeline_eta_days', 'royal_assent_probability', 'next_stage_probability', 'predicted_date', 'urgency_level', 'countdown_days', 'time_bucket', 'urgency_score'],
      properties: {
        bill_id: { type: 'integer' },
        timeline_eta_days: { type: 'number' },
        royal_assent_probability: probability,
        next_stage_probability: probability,
        predicted_date: date,
        urgency_level: { ...words(URGENCY_LEVELS), description: 'critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30' },
        countdown_days: { type: 'number' },
        time_bucket: { type: ['string', 'null'], enum: [...TIME_BUCKETS, null] },
        urgency_score: { ...probability, description: 'next_stage_probability × (1 − countdown_days/30), floored at 0' },
        ...byOutput(RISKS, () => probability),
        risk_indicators: { $ref: '#/components/schemas/RiskIndicators' },
      },
    },
    ImminentEnvelope: { type: 'object', required: ['bills', 'count'], properties: { bills: { type: 'array', items: { $ref: '#/components/schemas/ImminentItem' } }, count: { type: 'integer' } } },
    WatchlistRequest: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: ['string', 'null'], maxLength: 1000 }, bill_ids: { ...integerList, maxItems: 500 } },
    },
    WatchlistBillsRequest: { type: 'object', additionalProperties: false, properties: { bill_id: { type: 'integer', minimum: 1 }, bill_ids: { ...integerList, minItems: 1 } } },
    Watchlist: {
      type: 'object',
      required: ['id', 'name', 'description', 'bill_count', 'created_at', 'updated_at', 'calendar_url', 'feed_url'],
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        description: { type: ['string', 'null'] },
        bill_count: { type: 'integer' },
        created_at: timestamp,
        updated_at: timestamp,
        calendar_url: { type: ['string', 'null'], description: 'the watchlist’s calendar at its secret address (GET /calendar/{token}.ics), for calendar apps; null once revoked' },
        feed_url: { type: ['string', 'null'], description: 'its events as an Atom feed at the same secret token (GET /feeds/{token}.atom); null once revoked' },
      },
    },
    WatchlistList: { type: 'object', required: ['watchlists'], properties: { watchlists: { type: 'array', items: { $ref: '#/components/schemas/Watchlist' } } } },
    WatchlistBill: {
      type: 'object',
      required: ['bill_id', 'title', 'added_at'],
      properties: {
        bill_id: { type: 'integer' },
        title: { type: ['string', 'null'] },
        added_at: timestamp,
        current_stage: { type: ['object', 'null'], properties: { stage: { type: 'string', enum: [...MAIN_STAGES] }, house: { type: 'string', enum: [...HOUSES] }, date } },
        predictions: {
          oneOf: [{ $ref: '#/components/schemas/Predictions' }, { type: 'null' }],
          description: 'today’s predictions exactly as GET /predict/{bill_id} gives them (GET of one watchlist only, not with predictions=false); null with predictions_detail when they cannot be given, e.g. the daily prediction limit is used up',
        },
        risk_indicators: { oneOf: [{ $ref: '#/components/schemas/SingleRiskIndicators' }, { type: 'null' }], description: 'as GET /predict/{bill_id} gives them' },
        predictions_detail: { type: 'string' },
      },
    },
    WatchlistDetail: {
      allOf: [{ $ref: '#/components/schemas/Watchlist' }, { type: 'object', required: ['bills'], properties: { bills: { type: 'array', items: { $ref: '#/components/schemas/WatchlistBill' } } } }],
    },
    ThresholdRequest: {
      type: 'object',
      required: ['watchlist_id', 'alert_type', 'threshold_value'],
      additionalProperties: false,
      properties: {
        watchlist_id: { type: 'integer' },
        bill_id: { type: ['integer', 'null'], description: 'null: every bill of the watchlist; else a bill on it' },
        alert_type: { ...ALERT_TYPE_SCHEMA, description: `${list(PRO_ALERT_TYPES)} need the pro tier` },
        threshold_value: { type: 'number', description: 'days (0–3650) for timeline_eta; a probability 0–1 otherwise (for trend and spike: the rise)' },
        comparison: {
          ...COMPARISON_SCHEMA,
          description: `default less_than for timeline_eta, greater_than otherwise; ${list([...PRO_ALERT_TYPES, ...RISKS])} take greater_than only (a risk alerts when it exceeds the threshold, 4.4): less_than on them is a 400`,
        },
      },
    },
    Threshold: {
      type: 'object',
      required: ['id', 'watchlist_id', 'bill_id', 'alert_type', 'threshold_value', 'comparison', 'created_at', 'last_triggered_at', 'armed', 'quiet_bill_ids', 'active', 'inactive_reason'],
      properties: {
        id: { type: 'integer' },
        watchlist_id: { type: 'integer' },
        bill_id: { type: ['integer', 'null'] },
        alert_type: ALERT_TYPE_SCHEMA,
        threshold_value: { type: 'number' },
        comparison: COMPARISON_SCHEMA,
        created_at: timestamp,
        last_triggered_at: { type: ['string', 'null'], format: 'date-time' },
        armed: { type: 'boolean', description: 'false while it has fired for some bill and waits for the condition to end' },
        quiet_bill_ids: { type: 'array', items: { type: 'integer' } },
        active: { type: 'boolean', description: 'false when the tier no longer lets it fire (after a downgrade from pro); kept, and firing again after an upgrade' },
        inactive_reason: { type: ['string', 'null'], description: 'why it is inactive: a pro-only alert type, or beyond the oldest 5 thresholds of its watchlist below pro' },
      },
    },
    ThresholdList: { type: 'object', required: ['thresholds'], properties: { thresholds: { type: 'array', items: { $ref: '#/components/schemas/Threshold' } } } },
    Trigger: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        threshold_id: { type: 'integer' },
        watchlist_id: { type: 'integer' },
        watchlist_name: { type: 'string' },
        bill_id: { type: 'integer' },
        alert_type: ALERT_TYPE_SCHEMA,
        comparison: COMPARISON_SCHEMA,
        threshold_value: { type: 'number' },
        value_seen: { type: 'number' },
        reference_date: date,
        triggered_at: timestamp,
        source: words(ALERT_CHECK_SOURCES),
      },
    },
    CheckResult: {
      type: 'object',
      required: ['checked_at', 'thresholds_checked', 'bills_checked', 'bills_blocked', 'triggered', 'count'],
      properties: {
        checked_at: timestamp,
        thresholds_checked: { type: 'integer', description: 'active thresholds evaluated' },
        bills_checked: { type: 'integer', description: 'bills evaluated: each is one prediction against the daily limit' },
        bills_blocked: { type: 'array', items: { type: 'integer' }, description: 'bills not evaluated because the daily prediction limit was reached' },
        triggered: { type: 'array', items: { $ref: '#/components/schemas/Trigger' } },
        count: { type: 'integer' },
      },
    },
    History: {
      type: 'object',
      required: ['triggers', 'total', 'next_cursor', 'analytics'],
      properties: {
        triggers: { type: 'array', items: { $ref: '#/components/schemas/Trigger' } },
        total: { type: 'integer' },
        next_cursor: { type: ['string', 'null'] },
        analytics: {
          type: 'object',
          properties: {
            by_type: { type: 'object', additionalProperties: { type: 'integer' } },
            by_bill: { type: 'object', additionalProperties: { type: 'integer' } },
            by_day: { type: 'object', additionalProperties: { type: 'integer' } },
          },
        },
      },
    },
  },
};
