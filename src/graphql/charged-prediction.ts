import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { BillEntity } from '../db/entities/bill.entity';
import type { RequestContext } from '../request/context';
import { AppError } from '../errors';
import { predictionChargeId } from '../request/loaders';
import { historyDates, historyEnd } from '../services/chart-dates';
import type { BillStatusAsOf } from './enums';
import { toPredictionType } from './prediction-result.mapper';
import type { PredictionPointType, PredictionType } from './prediction.type';

/* How a resolver answers a prediction: loaded once per request, charged to the caller's quota, and given back if the response does not show it. */

/**
 * A bill's nowcast for the field being resolved, through the request's loader (a bill and date
 * asked for twice is computed and charged once), charged at this field's place in
 * the response: if that place ends up null, the charge is given back.
 */
export async function chargedPrediction({ loaders, quota }: RequestContext, billId: number, referenceDate: string, info: GraphQLResolveInfo): Promise<PredictionType> {
  const key = `${billId}@${referenceDate}`;
  const result = await loaders.prediction.load(key);
  if (result instanceof AppError) throw result;
  quota?.ledger.shownAt(predictionChargeId(key), responsePathAsArray(info.path));
  return toPredictionType(result);
}

/**
 * A bill's chart: its nowcasts at dates over its life (see historyDates), charged as one
 * prediction: on the website as the bill's one opening of the day (with its other predictions),
 * on the API as one prediction given back if the field does not reach the response.
 */
export async function chargedPredictionHistory({ services, loaders, quota }: RequestContext, bill: BillEntity, info: GraphQLResolveInfo): Promise<PredictionPointType[]> {
  // refused before anything is computed: a chart is some 60 nowcasts. A website opening is charged
  // now; should the chart then fail, the bill is open for the day, so reopening it costs nothing.
  if (quota?.website) {
    const [charged] = await quota.chargeBillViews([bill.id], [true]);
    if (charged instanceof AppError) throw charged;
  } else if (quota) await quota.require('predictions');
  const today = services.clock.today();
  const stageDates = (await loaders.stagesOfBill.load(bill.id)).flatMap((stage) => stage.sittingDates.slice(0, 1)).sort();
  const current = await services.predictions.nowcast(bill.id, today);
  const first = bill.introducedDate ?? stageDates[0] ?? today;
  const points = await services.predictions.nowcastsOfBill(bill.id, historyDates(first, historyEnd(today, current.status === 'live', stageDates.at(-1) ?? null), stageDates));
  if (quota && !quota.website) {
    const path = responsePathAsArray(info.path);
    quota.ledger.charged(`history@${path.join('.')}`, 'predictions', 1, path);
  }
  return points.map((p) => ({ referenceDate: p.referenceDate, status: p.status as BillStatusAsOf, royalAssent: p.probabilities.royal_assent, nextStage30d: p.probabilities.next_stage_30d, model: p.model }));
}
