import type { DataSource } from 'typeorm';
import type { SessionFact } from '../../model/bill-facts';
import type { Nowcast } from '../../model/predictor';
import type { ServiceClock } from '../clock';
import { AppError, badInput, notFound } from '../errors';
import type { BillService } from './bill.service';
import type { ModelService } from './model.service';
import { loadBillFacts, loadSessionFacts } from './training-data';

export interface PredictionResult extends Nowcast {
  modelVersion: number;
}

/** Cached nowcasts kept at most; the oldest are dropped first. */
const CACHE_LIMIT = 50_000;

/**
 * Nowcasts through the one served Predictor. Cached per (model version, bill content, date):
 * a new model version or new facts for a bill make a new key, so nothing stale is ever served.
 */
export class PredictionService {
  private readonly cache = new Map<string, PredictionResult>();
  private sessions: { fingerprint: string; facts: SessionFact[] } | null = null;
  private active: { key: string; nowcasts: Promise<PredictionResult[]> } | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bills: BillService,
    private readonly models: ModelService,
    private readonly clock: ServiceClock,
  ) {
    models.onSwitch(() => this.cache.clear());
  }

  /** A reference date from a client: today when omitted, never after today. */
  referenceDate(requested: string | null | undefined): string {
    const today = this.clock.today();
    if (!requested) return today;
    if (requested > today) throw badInput(`referenceDate ${requested} is after today (${today}): a nowcast uses facts known on its date`);
    return requested;
  }

  /**
   * Nowcasts for bills in the order asked. Each is a result or the error that bill alone has
   * (it does not exist; the date is before it was introduced), so a batch can report per bill.
   */
  async nowcasts(billIds: readonly number[], referenceDate: string): Promise<(PredictionResult | AppError)[]> {
    const { predictor, version } = this.models.predictor();
    const bills = await this.bills.byIds(billIds);
    const key = (i: number) => `${version.id}:${billIds[i]}:${referenceDate}:${bills[i]!.contentHash}`;
    const missing = billIds.filter((_, i) => bills[i] && !this.cache.has(key(i)));
    if (missing.length) {
      const [facts, sessions] = await Promise.all([loadBillFacts(this.dataSource, [...new Set(missing)]), this.sessionFacts()]);
      billIds.forEach((id, i) => {
        const entry = facts.get(id);
        if (!entry || this.cache.has(key(i)) || (entry.facts.introducedDate && entry.facts.introducedDate > referenceDate)) return;
        if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(key(i), { ...predictor.nowcast(entry.facts, referenceDate, sessions), modelVersion: version.id });
      });
    }
    return billIds.map((id, i) => {
      const bill = bills[i];
      if (!bill) return notFound(`bill ${id} does not exist`);
      if (bill.introducedDate && bill.introducedDate > referenceDate) return badInput(`bill ${id} was introduced on ${bill.introducedDate}, after referenceDate ${referenceDate}`);
      return this.cache.get(key(i))!;
    });
  }

  /** One bill's nowcast, or its error thrown. */
  async nowcast(billId: number, referenceDate: string): Promise<PredictionResult> {
    const [result] = await this.nowcasts([billId], referenceDate);
    if (result instanceof AppError) throw result;
    return result;
  }

  /**
   * Today's nowcasts of every bill still live, computed once per (model version, data state, day)
   * and shared: what the list of imminent bills filters, so a request does no model work.
   */
  async activeNowcasts(): Promise<PredictionResult[]> {
    const today = this.clock.today();
    const key = `${this.models.predictor().version.id}:${await this.dataState()}:${today}`;
    if (this.active?.key !== key) {
      const nowcasts = (async () => {
        const rows = (await this.dataSource.query(`SELECT id FROM bill WHERE outcome = 'pending' AND (introduced_date IS NULL OR introduced_date <= $1) ORDER BY id`, [today])) as { id: number }[];
        const results = await this.nowcasts(rows.map((r) => r.id), today);
        return results.filter((r): r is PredictionResult => !(r instanceof AppError) && r.status === 'live');
      })();
      this.active = { key, nowcasts };
      nowcasts.catch(() => this.active?.nowcasts === nowcasts && (this.active = null));
    }
    return this.active.nowcasts;
  }

  /** Changes with every completed sync. */
  private async dataState(): Promise<string> {
    const [{ state }] = (await this.dataSource.query(`SELECT coalesce(max(completed_at)::text, '') AS state FROM sync_state`)) as { state: string }[];
    return state;
  }

  /** Sessions change only with a sync: reloaded when the data state says so. */
  private async sessionFacts(): Promise<SessionFact[]> {
    const fingerprint = await this.dataState();
    if (this.sessions?.fingerprint !== fingerprint) this.sessions = { fingerprint, facts: await loadSessionFacts(this.dataSource) };
    return this.sessions.facts;
  }
}
