/**
 * The OpenAPI 3.1 description of every /api/v1 path, served at /api/v1/openapi.json and committed
 * at schema/openapi.json (`npm run schema`). A test checks it against the routes the router has.
 */

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const rateLimitHeaders = {
  'X-RateLimit-Remaining': { description: 'requests or predictions left today under the tightest applicable daily limit', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'when the daily limits reset: Unix time in seconds of the next midnight UTC', schema: { type: 'integer' } },
  RateLimit: { description: 'IETF RateLimit header field: the tightest applicable limit, e.g. `"predictions";r=97;t=43200`', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy header field: every daily limit that applies, e.g. `"calls";q=1000;w=86400`', schema: { type: 'string' } },
};
const commonErrors = {
  '400': error('invalid parameters; `detail` names the parameter'),
  '401': error('missing, unknown or revoked API key'),
  '403': error('the tier does not allow this (Free tier: no API access)'),
  '429': { ...error('a daily limit is used up; `detail` says which and when it resets'), headers: { 'Retry-After': { description: 'seconds until the reset', schema: { type: 'integer' } } } },
  '500': error('internal error (never with details)'),
  '503': error('data or models loading'),
};
const probability = { type: 'number', minimum: 0, maximum: 1 };
const level = { type: 'string', enum: ['low', 'medium', 'high'] };
const date = { type: 'string', format: 'date', examples: ['2021-12-31'] };
const referenceDateParameter = { name: 'reference_date', in: 'query', required: false, description: 'defaults to the service’s today; must not be after it', schema: date };

const ALERT_TYPE_VALUES = ['timeline_eta', 'probability', 'trend', 'spike', 'stall_risk', 'amendment_risk', 'close_vote', 'withdrawal_risk'];
const ok = (ref: string, description = 'success') => ({ description, headers: rateLimitHeaders, content: { 'application/json': { schema: { $ref: ref } } } });
const body = (ref: string) => ({ required: true, content: { 'application/json': { schema: { $ref: ref } } } });
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
const timestamp = { type: 'string', format: 'date-time' };

const predictionEntry = (withDate: boolean) => ({
  type: 'object',
  required: ['bill_id', 'prediction', 'probability', ...(withDate ? ['reference_date'] : [])],
  properties: { bill_id: { type: 'string' }, prediction: { type: 'string' }, probability, ...(withDate ? { reference_date: date } : {}) },
});

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Bill Progress API',
    version: '1.0.0',
    description:
      'Forecasts how UK Parliament bills will progress. Every prediction is a nowcast: computed only from facts dated on or before its reference date. Contains Parliamentary information licensed under the Open Parliament Licence v3.0.',
  },
  servers: [{ url: '/api/v1' }],
  security: [{ bearer: [] }, { apiKey: [] }],
  paths: {
    '/predict/{bill_id}': {
      get: {
        operationId: 'predictBill',
        summary: 'Predictions for one bill (specification 4.1)',
        parameters: [{ name: 'bill_id', in: 'path', required: true, description: 'UK Parliament Bills API bill id', schema: { type: 'integer', minimum: 1 } }, referenceDateParameter],
        responses: {
          '200': { description: 'the prediction result', headers: rateLimitHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/PredictionResult' } } } },
          '404': error('no bill with this id'),
          ...commonErrors,
        },
      },
    },
    '/predictions/batch': {
      post: {
        operationId: 'predictBatch',
        summary: 'Predictions for up to 100 bills (specification 4.2); counts as one batch request and one prediction per bill',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } } },
        responses: {
          '200': { description: 'per-bill outcomes in request order', headers: rateLimitHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchEnvelope' } } } },
          ...commonErrors,
        },
      },
    },
    '/predict/batch': {
      post: {
        operationId: 'predictBatchAlias',
        summary: 'Alias of POST /predictions/batch',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } } },
        responses: {
          '200': { description: 'as POST /predictions/batch', headers: rateLimitHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchEnvelope' } } } },
          ...commonErrors,
        },
      },
    },
    '/predictions/imminent': {
      get: {
        operationId: 'imminentBills',
        summary: 'Bills likely to reach their next stage soon, most urgent first (specification 4.3)',
        parameters: [
          { name: 'days_ahead', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 30, default: 7 } },
          { name: 'min_probability', in: 'query', required: false, description: 'minimum next-stage probability', schema: { ...probability, default: 0.5 } },
        ],
        responses: {
          '200': { description: 'the imminent bills', headers: rateLimitHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/ImminentEnvelope' } } } },
          ...commonErrors,
        },
      },
    },
    '/dashboard/watchlists': {
      get: { operationId: 'listWatchlists', summary: 'The caller’s watchlists (4.5; Pilot and above)', responses: { '200': ok('#/components/schemas/WatchlistList'), ...commonErrors } },
      post: {
        operationId: 'createWatchlist',
        summary: 'Create a watchlist, optionally with bills',
        requestBody: body('#/components/schemas/WatchlistRequest'),
        responses: { '201': ok('#/components/schemas/WatchlistDetail', 'created'), '404': error('a bill in bill_ids does not exist (the detail names them)'), ...commonErrors },
      },
    },
    '/dashboard/watchlists/{id}': {
      get: { operationId: 'getWatchlist', summary: 'A watchlist with its bills, each with title, current stage and today’s headline predictions (counted as predictions)', parameters: [idParam('id')], responses: { '200': ok('#/components/schemas/WatchlistDetail'), '404': error('no such watchlist of yours'), ...commonErrors } },
      delete: { operationId: 'deleteWatchlist', summary: 'Delete a watchlist and its thresholds; its alert history stays readable', parameters: [idParam('id')], responses: { '204': { description: 'deleted' }, '404': error('no such watchlist of yours'), ...commonErrors } },
    },
    '/dashboard/watchlists/{id}/bills': {
      post: {
        operationId: 'addWatchlistBills',
        summary: 'Add bills: {"bill_id": n} or {"bill_ids": [...]} (already present ones are kept once)',
        parameters: [idParam('id')],
        requestBody: body('#/components/schemas/WatchlistBillsRequest'),
        responses: { '200': ok('#/components/schemas/WatchlistDetail'), '404': error('no such watchlist of yours, or unknown bills (named)'), ...commonErrors },
      },
    },
    '/dashboard/watchlists/{id}/bills/{bill_id}': {
      delete: { operationId: 'removeWatchlistBill', summary: 'Remove a bill', parameters: [idParam('id'), idParam('bill_id')], responses: { '200': ok('#/components/schemas/WatchlistDetail'), '404': error('no such watchlist of yours, or the bill is not on it'), ...commonErrors } },
    },
    '/predictions/alerts/thresholds': {
      get: { operationId: 'listThresholds', summary: 'Every alert threshold of the account (4.4)', responses: { '200': ok('#/components/schemas/ThresholdList'), ...commonErrors } },
      post: {
        operationId: 'createThreshold',
        summary: 'Create an alert threshold (request shape of 2.7); Pilot: 5 per watchlist, no trend/spike',
        requestBody: body('#/components/schemas/ThresholdRequest'),
        responses: { '201': ok('#/components/schemas/Threshold', 'created'), '404': error('no such watchlist of yours'), ...commonErrors },
      },
    },
    '/alerts/thresholds': {
      post: {
        operationId: 'createThresholdAlias',
        summary: 'Same as POST /predictions/alerts/thresholds',
        requestBody: body('#/components/schemas/ThresholdRequest'),
        responses: { '201': ok('#/components/schemas/Threshold', 'created'), '404': error('no such watchlist of yours'), ...commonErrors },
      },
    },
    '/predictions/alerts/thresholds/{id}': {
      delete: { operationId: 'deleteThreshold', summary: 'Delete an alert threshold', parameters: [idParam('id')], responses: { '204': { description: 'deleted' }, '404': error('no such threshold of yours'), ...commonErrors } },
    },
    '/predictions/alerts/check': {
      post: { operationId: 'checkAlerts', summary: 'Evaluate the account’s thresholds against today’s nowcasts now and record what fires (no body)', responses: { '200': ok('#/components/schemas/CheckResult'), ...commonErrors } },
    },
    '/predictions/alerts/history': {
      get: {
        operationId: 'alertHistory',
        summary: 'Trigger history, newest first, with counts (Pro only)',
        parameters: [
          { name: 'bill_id', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
          { name: 'alert_type', in: 'query', required: false, schema: { type: 'string', enum: ALERT_TYPE_VALUES } },
          { name: 'from', in: 'query', required: false, description: 'first UTC day included', schema: date },
          { name: 'to', in: 'query', required: false, description: 'last UTC day included', schema: date },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
        ],
        responses: { '200': ok('#/components/schemas/History'), ...commonErrors },
      },
    },
    '/openapi.json': {
      get: { operationId: 'openapi', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    },
    schemas: {
      Error: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
      PredictionResult: {
        type: 'object',
        required: ['bill_id', 'mode', 'reference_date', 'predictions', 'risk_indicators'],
        properties: {
          bill_id: { type: 'string', description: 'echo of the requested bill' },
          mode: { type: 'string', enum: ['nowcast'] },
          reference_date: date,
          predictions: {
            type: 'object',
            required: ['royal_assent', 'next_stage_30d', 'timeline_eta', 'stall_risk', 'amendment_risk', 'close_vote', 'withdrawal_risk'],
            properties: {
              royal_assent: predictionEntry(true),
              next_stage_30d: predictionEntry(true),
              timeline_eta: {
                type: 'object',
                required: ['bill_id', 'prediction', 'days', 'reference_date'],
                properties: {
                  bill_id: { type: 'string' },
                  prediction: { type: 'string' },
                  days: { type: ['number', 'null'], description: 'estimated days to the next stage; null for a bill that will have none (enacted, withdrawn, or its session ended)' },
                  reference_date: date,
                },
              },
              stall_risk: predictionEntry(false),
              amendment_risk: predictionEntry(false),
              close_vote: predictionEntry(false),
              withdrawal_risk: predictionEntry(false),
            },
          },
          risk_indicators: {
            type: 'object',
            required: ['controversy_score', 'momentum_score', 'stall_risk_level', 'withdrawal_risk_level'],
            properties: { controversy_score: probability, momentum_score: probability, stall_risk_level: level, withdrawal_risk_level: level },
          },
        },
      },
      RiskIndicators: {
        type: 'object',
        required: ['controversy_score', 'momentum_score', 'stall_risk_level', 'withdrawal_risk_level', 'amendment_risk_level', 'close_vote_level'],
        properties: {
          controversy_score: probability,
          momentum_score: probability,
          stall_risk_level: level,
          withdrawal_risk_level: level,
          amendment_risk_level: level,
          close_vote_level: level,
        },
      },
      BatchRequest: {
        type: 'object',
        required: ['bill_ids'],
        properties: {
          bill_ids: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'integer', minimum: 1 } },
          reference_date: { ...date, description: 'optional; defaults to the service’s today' },
        },
      },
      BatchItem: {
        type: 'object',
        required: ['bill_id', 'status'],
        description: 'status success carries predictions, risk_indicators and metadata; error (e.g. unknown bill) and blocked (the daily prediction quota was used up before this bill) carry detail',
        properties: {
          bill_id: { type: 'integer' },
          status: { type: 'string', enum: ['success', 'error', 'blocked'] },
          detail: { type: 'string' },
          predictions: {
            type: 'object',
            properties: {
              royal_assent: { type: 'object', properties: { probability } },
              next_stage_30d: { type: 'object', properties: { probability } },
              timeline_eta: { type: 'object', properties: { days: { type: ['number', 'null'] } } },
              stall_risk: { type: 'object', properties: { probability } },
              amendment_risk: { type: 'object', properties: { probability } },
              close_vote: { type: 'object', properties: { probability } },
              withdrawal_risk: { type: 'object', properties: { probability } },
            },
          },
          risk_indicators: { $ref: '#/components/schemas/RiskIndicators' },
          metadata: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              chamber: { type: 'string', description: 'the house of the bill’s last main stage (Commons, Lords, Unassigned for Royal Assent), else its originating house' },
              stage: { type: 'string', description: 'its last main stage, e.g. second_reading; not_started before any' },
            },
          },
        },
      },
      BatchEnvelope: {
        type: 'object',
        required: ['results', 'summary', 'execution_time_ms'],
        properties: {
          results: { type: 'array', items: { $ref: '#/components/schemas/BatchItem' } },
          summary: {
            type: 'object',
            required: ['total', 'success', 'errors', 'blocked'],
            properties: { total: { type: 'integer' }, success: { type: 'integer' }, errors: { type: 'integer' }, blocked: { type: 'integer' } },
          },
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
          urgency_level: { type: 'string', enum: ['critical', 'urgent', 'soon', 'tracking', 'none'], description: 'critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30' },
          countdown_days: { type: 'number' },
          time_bucket: { type: ['string', 'null'], enum: ['today', 'week', 'two_weeks', 'month', null] },
          urgency_score: { ...probability, description: 'next_stage_probability × (1 − countdown_days/30), floored at 0' },
          stall_risk: probability,
          amendment_risk: probability,
          close_vote: probability,
          withdrawal_risk: probability,
          risk_indicators: { $ref: '#/components/schemas/RiskIndicators' },
        },
      },
      WatchlistRequest: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: ['string', 'null'], maxLength: 1000 }, bill_ids: { type: 'array', maxItems: 500, items: { type: 'integer', minimum: 1 } } },
      },
      WatchlistBillsRequest: { type: 'object', properties: { bill_id: { type: 'integer', minimum: 1 }, bill_ids: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 } } } },
      Watchlist: {
        type: 'object',
        required: ['id', 'name', 'description', 'bill_count', 'created_at', 'updated_at'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, bill_count: { type: 'integer' }, created_at: timestamp, updated_at: timestamp },
      },
      WatchlistList: { type: 'object', required: ['watchlists'], properties: { watchlists: { type: 'array', items: { $ref: '#/components/schemas/Watchlist' } } } },
      WatchlistDetail: {
        allOf: [
          { $ref: '#/components/schemas/Watchlist' },
          {
            type: 'object',
            required: ['bills'],
            properties: {
              bills: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['bill_id', 'title', 'added_at'],
                  properties: {
                    bill_id: { type: 'integer' },
                    title: { type: ['string', 'null'] },
                    added_at: timestamp,
                    current_stage: { type: ['object', 'null'], properties: { stage: { type: 'string' }, house: { type: 'string' }, date } },
                    predictions: {
                      type: ['object', 'null'],
                      description: 'today’s headline nowcast (GET only); null with predictions_detail when the daily prediction limit is used up',
                      properties: { royal_assent: probability, next_stage_30d: probability, timeline_eta_days: { type: ['number', 'null'] }, stall_risk: probability, withdrawal_risk: probability },
                    },
                    risk_indicators: { oneOf: [{ $ref: '#/components/schemas/RiskIndicators' }, { type: 'null' }] },
                    predictions_detail: { type: 'string' },
                  },
                },
              },
            },
          },
        ],
      },
      ThresholdRequest: {
        type: 'object',
        required: ['watchlist_id', 'alert_type', 'threshold_value'],
        properties: {
          watchlist_id: { type: 'integer' },
          bill_id: { type: ['integer', 'null'], description: 'null: every bill of the watchlist; else a bill on it' },
          alert_type: { type: 'string', enum: ALERT_TYPE_VALUES, description: 'trend and spike need Pro' },
          threshold_value: { type: 'number', description: 'days (0–3650) for timeline_eta; a probability 0–1 otherwise (for trend/spike: the rise)' },
          comparison: { type: 'string', enum: ['less_than', 'greater_than'], description: 'default less_than for timeline_eta, greater_than otherwise; trend and spike take greater_than only' },
        },
      },
      Threshold: {
        type: 'object',
        required: ['id', 'watchlist_id', 'bill_id', 'alert_type', 'threshold_value', 'comparison', 'created_at', 'last_triggered_at', 'armed', 'quiet_bill_ids', 'active', 'inactive_reason'],
        properties: {
          id: { type: 'integer' },
          watchlist_id: { type: 'integer' },
          bill_id: { type: ['integer', 'null'] },
          alert_type: { type: 'string', enum: ALERT_TYPE_VALUES },
          threshold_value: { type: 'number' },
          comparison: { type: 'string', enum: ['less_than', 'greater_than'] },
          created_at: timestamp,
          last_triggered_at: { type: ['string', 'null'], format: 'date-time' },
          armed: { type: 'boolean', description: 'false while it has fired for some bill and waits for the condition to end' },
          quiet_bill_ids: { type: 'array', items: { type: 'integer' } },
          active: { type: 'boolean', description: 'false when the tier no longer lets it fire (after a downgrade from Pro); kept, and firing again after an upgrade' },
          inactive_reason: { type: ['string', 'null'], description: 'why it is inactive: a Pro-only alert type, or beyond the oldest 5 thresholds of its watchlist below Pro' },
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
          alert_type: { type: 'string', enum: ALERT_TYPE_VALUES },
          comparison: { type: 'string' },
          threshold_value: { type: 'number' },
          value_seen: { type: 'number' },
          reference_date: date,
          triggered_at: timestamp,
          source: { type: 'string', enum: ['manual', 'scheduled'] },
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
      ImminentEnvelope: {
        type: 'object',
        required: ['bills', 'count'],
        properties: { bills: { type: 'array', items: { $ref: '#/components/schemas/ImminentItem' } }, count: { type: 'integer' } },
      },
    },
  },
} as const;
