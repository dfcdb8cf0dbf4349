import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { RequestContext } from '../src/context';
import { AppError } from '../src/errors';
import { predictionChargeId } from '../src/loaders';
import { toPredictionType } from './prediction.mapper';
import type { PredictionType } from './prediction.type';

/**
 * A bill's nowcast for the field being resolved, through the request's loader (a bill and date
 * asked for twice is computed and charged once), marked as delivered at this field's place in
 * the response: if that place ends up null, the charge is given back.
 */
export async function deliverPrediction({ loaders, quota }: RequestContext, billId: number, referenceDate: string, info: GraphQLResolveInfo): Promise<PredictionType> {
  const key = `${billId}@${referenceDate}`;
  const result = await loaders.prediction.load(key);
  if (result instanceof AppError) throw result;
  quota?.deliveries.deliveredAt(predictionChargeId(key), responsePathAsArray(info.path));
  return toPredictionType(result);
}
