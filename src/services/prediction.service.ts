import type { DataSource } from 'typeorm';
import type { SessionFact } from '../../model/bill-facts';
import type { Nowcast } from '../../model/predictor';
import type { ServiceClock } from '../clock';
import { badInput } from '../errors';
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

  /** Nowcasts for bills in the order asked; null for a bill that does not exist. */
  async nowcasts(billIds: readonly number[], referenceDate: string): Promise<(PredictionResult | null)[]> {
    const { predictor, version } = this.models.predictor();
    const bills = await this.bills.byIds(billIds);
    const key = (i: number) => `${version.id}:${billIds[i]}:${referenceDate}:${bills[i]!.contentHash}`;
    const missing = billIds.filter((_, i) => bills[i] && !this.cache.has(key(i)));
    if (missing.length) {
      const [facts, sessions] = await Promise.all([loadBillFacts(this.dataSource, [...new Set(missing)]), this.sessionFacts()]);
      for (const id of missing) {
        const introduced = facts.get(id)?.facts.introducedDate;
        if (introduced && introduced > referenceDate) throw badInput(`bill ${id} was introduced on ${introduced}, after referenceDate ${referenceDate}`);
      }
      billIds.forEach((id, i) => {
        const entry = facts.get(id);
        if (!entry || this.cache.has(key(i))) return;
        if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(key(i), { ...predictor.nowcast(entry.facts, referenceDate, sessions), modelVersion: version.id });
      });
    }
    return billIds.map((_, i) => (bills[i] ? this.cache.get(key(i))! : null));
  }

  /** Sessions change only with a sync: reloaded when the data's bill hashes say so. */
  private async sessionFacts(): Promise<SessionFact[]> {
    const [{ fingerprint }] = (await this.dataSource.query(`SELECT coalesce(max(completed_at)::text, '') AS fingerprint FROM sync_state`)) as { fingerprint: string }[];
    if (this.sessions?.fingerprint !== fingerprint) this.sessions = { fingerprint, facts: await loadSessionFacts(this.dataSource) };
    return this.sessions.facts;
  }
}
