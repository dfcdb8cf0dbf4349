/**
 * The public track record (issue 35) on REST: its figures as JSON, and every resolved forecast as
 * CSV, for anyone, with or without a key (a key's request counts as an API call). Both read the
 * track record service directly rather than a GraphQL operation: the record is kept by the
 * service per record state, and its JSON text kept here per record, so a request serves text
 * already made; the CSV is a download of every resolved forecast, not a query.
 */
import type { RouteTable } from './route-table';
import type { Gateway } from '../../gateway/pipeline';
import { SharedAnswer, weakEtag } from '../../gateway/answer-cache';
import type { TrackRecord } from '../../services/track-record';
import { heldToDocument } from './documented-operations';
import { csvFile } from './csv';
import { restName } from './rest-errors';
import { route } from './route';

/** The REST spelling of a record: every key in snake_case, as the specification spells fields. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [restName(k), snakeKeys(v)]));
  return value;
}

/** Each record's JSON answer, made once: a record object stands for one record state. */
const answers = new WeakMap<TrackRecord, SharedAnswer>();

function answerOf(record: TrackRecord): SharedAnswer {
  let answer = answers.get(record);
  if (!answer) {
    const json = JSON.stringify(snakeKeys(record));
    answer = new SharedAnswer(json, [], weakEtag(json));
    answers.set(record, answer);
  }
  return answer;
}

export function addTrackRecordRoutes(router: RouteTable, gateway: Gateway): void {
  router.get(
    '/track-record',
    route(
      gateway,
      heldToDocument(async (req, { services }) => answerOf(await services.trackRecord.record(services.trackRecord.period(req.query.from, req.query.to)))),
    ),
  );

  router.get(
    '/track-record/forecasts.csv',
    route(
      gateway,
      heldToDocument(async (req, { services }) => {
        const period = services.trackRecord.period(req.query.from, req.query.to);
        const name = `track-record-forecasts${period.from ? `-from-${period.from}` : ''}${period.to ? `-to-${period.to}` : ''}.csv`;
        return csvFile(name, await services.trackRecord.csv(period));
      }),
    ),
  );
}
