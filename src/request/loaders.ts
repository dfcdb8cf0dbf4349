import DataLoader from 'dataloader';
import type { BillSponsorEntity } from '../db/entities/bill-sponsor.entity';
import type { BillStageEntity } from '../db/entities/bill-stage.entity';
import type { BillEntity } from '../db/entities/bill.entity';
import type { DivisionEntity } from '../db/entities/division.entity';
import type { ScheduledSittingEntity } from '../db/entities/scheduled-sitting.entity';
import type { ParliamentarySessionEntity } from '../db/entities/parliamentary-session.entity';
import type { AppError } from '../errors';
import type { RequestQuota } from '../quota/request-quota';
import type { BillService } from '../services/bill.service';
import type { PredictionResult } from '../services/prediction-result';
import type { PredictionService } from '../services/prediction.service';
import { pushTo } from '../common/multimap';

/** One set per request, so batching and caching never cross users or requests. */
export interface Loaders {
  bill: DataLoader<number, BillEntity | null>;
  session: DataLoader<number, ParliamentarySessionEntity | null>;
  stagesOfBill: DataLoader<number, BillStageEntity[]>;
  sponsorsOfBill: DataLoader<number, BillSponsorEntity[]>;
  divisionsOfBill: DataLoader<number, DivisionEntity[]>;
  scheduledSittingsOfBill: DataLoader<number, ScheduledSittingEntity[]>;
  /** keyed by "billId@YYYY-MM-DD"; a batch holds many bills and dates, one model call per date */
  prediction: DataLoader<string, PredictionResult | AppError>;
}

/** The ledger id of a prediction loaded under `key` ("billId@date"): one charge however many fields show it. */
export const predictionChargeId = (key: string) => `prediction@${key}`;

/**
 * Nowcasts for many (bill, date) keys; each success counts as a prediction, and those past the
 * user's daily limit fail with 429. Each charge waits in the request's charge ledger for the
 * field that shows it (see ChargeLedger): one that never reaches the response is given back.
 */
async function predictionsByKey(predictions: PredictionService, quota: RequestQuota | null, keys: readonly string[]): Promise<(PredictionResult | AppError)[]> {
  const byDate = new Map<string, number[]>();
  for (const key of keys) {
    const [id, date] = key.split('@');
    pushTo(byDate, date, Number(id));
  }
  const results = new Map<string, PredictionResult | AppError>();
  for (const [date, ids] of byDate) {
    const nowcasts = await predictions.nowcasts(ids, date);
    ids.forEach((id, i) => results.set(`${id}@${date}`, nowcasts[i]));
  }
  const answered = keys.map((key) => results.get(key)!);
  if (!quota) return answered;
  // the website's bill views are charged when opened, not per field shown
  if (quota.website) return quota.chargePredictions(keys.map((key) => Number(key.split('@')[0])), answered);
  const charged = await quota.chargeEach('predictions', answered);
  charged.forEach((r, i) => !(r instanceof Error) && quota.ledger.charged(predictionChargeId(keys[i]), 'predictions', 1));
  return charged;
}

/**
 * A request's loaders, each made when first used: most requests read one or two relations, and a
 * loader made for nothing is garbage on every request.
 */
class RequestLoaders implements Loaders {
  private made: Partial<Loaders> = {};

  constructor(
    private readonly bills: BillService,
    private readonly predictions: PredictionService,
    private readonly quota: RequestQuota | null,
  ) {}

  get bill() {
    return (this.made.bill ??= new DataLoader((ids) => this.bills.byIds(ids)));
  }
  get session() {
    return (this.made.session ??= new DataLoader((ids) => this.bills.sessionsByIds(ids)));
  }
  get stagesOfBill() {
    return (this.made.stagesOfBill ??= new DataLoader((ids) => this.bills.stagesOfBills(ids)));
  }
  get sponsorsOfBill() {
    return (this.made.sponsorsOfBill ??= new DataLoader((ids) => this.bills.sponsorsOfBills(ids)));
  }
  get divisionsOfBill() {
    return (this.made.divisionsOfBill ??= new DataLoader((ids) => this.bills.divisionsOfBills(ids)));
  }
  get scheduledSittingsOfBill() {
    return (this.made.scheduledSittingsOfBill ??= new DataLoader((ids) => this.bills.scheduledSittingsOfBills(ids)));
  }
  get prediction() {
    return (this.made.prediction ??= new DataLoader((keys) => predictionsByKey(this.predictions, this.quota, keys)));
  }
}

export function createLoaders({ bills, predictions }: { bills: BillService; predictions: PredictionService }, quota: RequestQuota | null = null): Loaders {
  return new RequestLoaders(bills, predictions, quota);
}
