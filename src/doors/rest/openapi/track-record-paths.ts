import { commonErrors, date, error } from './common';

// Issue 35, the public track record (docs/api-track-record.md).

const period = [
  { name: 'from', in: 'query', required: false, description: 'the first forecast day covered (YYYY-MM-DD); every forecast from the first when left out', schema: date },
  { name: 'to', in: 'query', required: false, description: 'the last forecast day covered, included; to the last when left out', schema: date },
];

const interval = { type: 'object', description: 'a figure and its 90% interval over sessions resampled; the ends are null with a single session', properties: { value: { type: ['number', 'null'] }, low: { type: ['number', 'null'] }, high: { type: ['number', 'null'] } } };
const nullableInterval = { oneOf: [interval, { type: 'null' }] };

const publicErrors = {
  '400': error('a `from` or `to` that is not a date, `from` after `to`, or an unknown query parameter', 'from must be a date (YYYY-MM-DD)'),
  '401': error('an API key was sent and is unknown or revoked (send none to read the record anonymously)', 'Invalid or revoked API key'),
  '413': commonErrors['413'],
  '429': commonErrors['429'],
};

const scores = {
  count: 120,
  skill: { value: 0.21, low: 0.08, high: 0.33 },
  brier: { value: 0.142, low: 0.11, high: 0.18 },
  table_brier: { value: 0.18, low: 0.15, high: 0.22 },
  reliability: [{ lower: 0, upper: 0.1, mean_forecast: 0.05, observed_frequency: 0.04, count: 50 }],
  calibration_intercept: -0.1,
  calibration_slope: 0.92,
};
const EXAMPLE = {
  as_of: '2021-12-31',
  from: null,
  to: null,
  recorded: 5100,
  open: 600,
  sets: [{ source: 'all', resolved: 4500, outputs: [{ output: 'royal_assent', overall: scores, by_kind: { government: scores }, by_horizon: { '0-30': scores } }] }],
};

const CSV_EXAMPLE =
  'bill_id,kind,forecast_date,output,value,table_value,model_version,trained_through,source,outcome,resolved_on\r\n' +
  '2900,ballot,2021-06-16,royal_assent,0.082,0.231,3,2021-05-10,backfilled,0,2022-04-28\r\n';

export const TRACK_RECORD_SCHEMAS = {
  RecordScores: {
    type: 'object',
    description:
      'One group of resolved forecasts, each weighing one. A probability: `brier`, `table_brier` (the kind × stage table’s on the same forecasts), `skill` = 1 − brier / table_brier, `reliability`, `calibration_intercept`, `calibration_slope`. The ETA: `median_absolute_error_days`, `table_median_absolute_error_days`, `skill` from them, and `no_next_stage`.',
    properties: {
      count: { type: 'integer' },
      skill: interval,
      brier: interval,
      table_brier: interval,
      reliability: {
        type: 'array',
        items: { type: 'object', properties: { lower: { type: 'number' }, upper: { type: 'number' }, mean_forecast: { type: ['number', 'null'] }, observed_frequency: { type: ['number', 'null'] }, count: { type: 'integer' } } },
      },
      calibration_intercept: { type: ['number', 'null'] },
      calibration_slope: { type: ['number', 'null'] },
      no_next_stage: { type: 'integer' },
      median_absolute_error_days: nullableInterval,
      table_median_absolute_error_days: nullableInterval,
    },
  },
  TrackRecord: {
    type: 'object',
    required: ['as_of', 'from', 'to', 'recorded', 'open', 'sets'],
    properties: {
      as_of: { ...date, description: 'the data’s today: forecasts resolved by then are scored' },
      from: { oneOf: [date, { type: 'null' }] },
      to: { oneOf: [date, { type: 'null' }] },
      recorded: { type: 'integer', description: 'forecasts of record of the scored outputs in the period' },
      open: { type: 'integer', description: 'of them, not resolved yet' },
      sets: {
        type: 'array',
        description: '"all", then "backfilled" and "live" apart',
        items: {
          type: 'object',
          properties: {
            source: { enum: ['all', 'backfilled', 'live'] },
            resolved: { type: 'integer' },
            outputs: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  output: { enum: ['royal_assent', 'next_stage_30d', 'timeline_eta'] },
                  overall: { $ref: '#/components/schemas/RecordScores' },
                  by_kind: { type: 'object', description: 'by kind of bill: government, ballot, presentation, lords, ten_minute_rule, other', additionalProperties: { $ref: '#/components/schemas/RecordScores' } },
                  by_horizon: { type: 'object', description: 'by days from forecast to answer: 0-30, 31-90, 91-180, 181-365, over_365', additionalProperties: { $ref: '#/components/schemas/RecordScores' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const TRACK_RECORD_PATHS = {
  '/track-record': {
    get: {
      operationId: 'trackRecord',
      summary: 'The public track record: forecasts of record scored as their outcomes arrive (no key needed)',
      description:
        'Every day the service records each live bill’s published nowcast (live), and on a fresh install it backfills past days from models trained only on facts dated before each day (backfilled). Each forecast is scored once its answer is known: Royal Assent at the bill’s fate, next stage within 30 days on the stage or the 30th day, the ETA on the next stage. A request with a key counts as an API call.',
      security: [],
      parameters: period,
      responses: { '200': { description: 'the record', content: { 'application/json': { schema: { $ref: '#/components/schemas/TrackRecord' }, example: EXAMPLE } } }, ...publicErrors },
    },
  },
  '/track-record/forecasts.csv': {
    get: {
      operationId: 'trackRecordForecastsCsv',
      summary: 'Every resolved forecast of record as CSV: what the track record’s figures are computed from',
      description:
        'One row per resolved forecast. `outcome`: 1 or 0; for `timeline_eta` the days the next stage took, empty when there was none. `kind`: as in the record’s `by_kind`. The record’s figures are these rows’ means (each row weighing one) by `source`, `output`, `kind` and horizon (`resolved_on` − `forecast_date`).',
      security: [],
      parameters: period,
      responses: {
        '200': { description: 'RFC 4180 CSV, a header row, CRLF after every row', headers: { 'Content-Disposition': { description: 'attachment, with the file name to save it under', schema: { type: 'string' } } }, content: { 'text/csv': { schema: { type: 'string' }, example: CSV_EXAMPLE } } },
        ...publicErrors,
      },
    },
  },
};
