import { ALERT_PATH_PREFIXES } from '../alert-prefixes';
import { commonErrors, date, deleted, error, idParam, jsonBody, ok } from './common';
import { ALERT_TYPE_SCHEMA } from './components';

// Specification 4.4: alert thresholds, the manual check and the trigger history, under both
// prefixes of section 9 (/predictions/alerts/… and /alerts/…).

const THRESHOLD_EXAMPLE = {
  id: 12,
  watchlist_id: 7,
  bill_id: null,
  alert_type: 'stall_risk',
  threshold_value: 0.7,
  comparison: 'greater_than',
  created_at: '2026-11-22T12:00:00.000Z',
  last_triggered_at: null,
  armed: true,
  quiet_bill_ids: [],
  active: true,
  inactive_reason: null,
};
const TRIGGER_EXAMPLE = {
  id: 31,
  threshold_id: 12,
  watchlist_id: 7,
  watchlist_name: 'Marriage law',
  bill_id: 2900,
  alert_type: 'stall_risk',
  comparison: 'greater_than',
  threshold_value: 0.7,
  value_seen: 0.74,
  reference_date: '2021-12-31',
  triggered_at: '2026-11-22T12:00:00.000Z',
  source: 'manual',
};
const noThreshold = error('no such threshold of yours', 'alert threshold 12 does not exist');

const OPERATIONS = {
  '/thresholds': {
    get: { operationId: 'listThresholds', summary: 'Every alert threshold of the account (4.4; pilot and above)', responses: { '200': ok('#/components/schemas/ThresholdList', 'success', { thresholds: [THRESHOLD_EXAMPLE] }), ...commonErrors } },
    post: {
      operationId: 'createThreshold',
      summary: 'Create an alert threshold (request shape of 2.7); pilot: 5 per watchlist, no trend or spike; answers 200 with the created threshold',
      requestBody: jsonBody('#/components/schemas/ThresholdRequest', {
        etaBelow: { summary: 'the specification’s shape: alert when a bill of the watchlist is fewer than 14 days from its next stage', value: { watchlist_id: 7, bill_id: null, alert_type: 'timeline_eta', threshold_value: 14, comparison: 'less_than' } },
        riskAbove: { summary: 'alert when a bill’s stall risk exceeds 0.7 (risks compare greater_than only)', value: { watchlist_id: 7, bill_id: 2900, alert_type: 'stall_risk', threshold_value: 0.7 } },
      }),
      responses: { '200': ok('#/components/schemas/Threshold', 'created', THRESHOLD_EXAMPLE), '404': error('no such watchlist of yours', 'watchlist 7 does not exist'), ...commonErrors },
    },
  },
  '/thresholds/{id}': {
    delete: { operationId: 'deleteThreshold', summary: 'Delete an alert threshold', parameters: [idParam('id')], responses: { '200': deleted('threshold'), '404': noThreshold, ...commonErrors } },
  },
  '/check': {
    post: {
      operationId: 'checkAlerts',
      summary: 'Evaluate the account’s thresholds against today’s nowcasts now and record what fires (no body); pro accounts are also checked every hour',
      responses: {
        '200': ok('#/components/schemas/CheckResult', 'what was checked and what fired', { checked_at: '2026-11-22T12:00:00.000Z', thresholds_checked: 1, bills_checked: 1, bills_blocked: [], triggered: [TRIGGER_EXAMPLE], count: 1 }),
        ...commonErrors,
      },
    },
  },
  '/history': {
    get: {
      operationId: 'alertHistory',
      summary: 'Trigger history, newest first, with counts (pro only)',
      parameters: [
        { name: 'bill_id', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        { name: 'alert_type', in: 'query', required: false, schema: ALERT_TYPE_SCHEMA },
        { name: 'from', in: 'query', required: false, description: 'first UTC day included', schema: date },
        { name: 'to', in: 'query', required: false, description: 'last UTC day included', schema: date },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
        { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: { type: 'string' } },
      ],
      responses: {
        '200': ok('#/components/schemas/History', 'a page of triggers', {
          triggers: [TRIGGER_EXAMPLE],
          total: 1,
          next_cursor: null,
          analytics: { by_type: { stall_risk: 1 }, by_bill: { '2900': 1 }, by_day: { '2026-11-22': 1 } },
        }),
        ...commonErrors,
      },
    },
  },
};

type PathItem = Record<string, { operationId: string; summary: string }>;

/** Every alert operation under each prefix; the second prefix's operations are documented as aliases. */
function underEveryPrefix(operations: Record<string, PathItem>) {
  const [primary, ...aliases] = ALERT_PATH_PREFIXES;
  const paths: Record<string, PathItem> = {};
  for (const [suffix, item] of Object.entries(operations)) {
    paths[`${primary}${suffix}`] = item;
    for (const alias of aliases) {
      paths[`${alias}${suffix}`] = Object.fromEntries(
        Object.entries(item).map(([method, op]) => [method, { ...op, operationId: `${op.operationId}Alias`, summary: `Same as ${method.toUpperCase()} ${primary}${suffix} (specification 9)` }]),
      );
    }
  }
  return paths;
}

export const ALERT_PATHS = underEveryPrefix(OPERATIONS);
