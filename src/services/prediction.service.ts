import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { BillFacts, SessionFact } from '../model/serve/bill-facts';
import type { Explanations } from '../model/serve/explain';
import type { ServiceClock } from '../common/clock';
import { AppError, badInput, notFound } from '../errors';
import { titleAsOf } from './bill-title';
import type { ModelService } from './model.service';
import type { ModelProvenance } from './model-vintages';
import { type ImminentBill, imminentBills } from './imminent';
import { loadScheduledSittings, type SittingRecord, withScheduledEta } from './scheduled-eta';
import type { PredictionResult } from './prediction-result';
import { loadBillFacts, loadSessionFacts, SessionPeers } from './training-data';
import { keepWithin } from '../common/bounded-map';
import { readInPages } from '../db/rows-in-pages';

/** A bill's facts and scheduled sittings as read at a content hash. */
interface FactsEntry {
  contentHash: string;
  facts: BillFacts;
  sittings: SittingRecord[];
}

interface IndexedBill {
  contentHash: string;
  introducedDate: string | null;
  title: string;
  originatingHouse: string;
}

/**
 * Bills whose facts are read and nowcasts computed between two turns of the event loop: the rows of
 * their stages parsed, or their nowcasts run, hold the embedded database's thread for a few milliseconds each.
 */
const NOWCASTS_PER_TURN = 25;
/** Cached nowcasts kept at most; the oldest are dropped first. */
const CACHE_LIMIT = 50_000;

/**
 * Nowcasts, each by the model that answers its date (ModelService.provenanceFor: the serving one for
 * today, a vintage for a past date). Cached per (answering version, bill content, date): a new
 * version or new facts for a bill make a new key, so nothing stale is ever served.
 */
export class PredictionService {
  private readonly cache = new Map<string, PredictionResult>();
  /** the nowcasts being computed, by cache key: a call that needs one joins it */
  private readonly computing = new Map<string, Promise<PredictionResult | undefined>>();
  /** each bill's facts and scheduled sittings under the content hash they were read at (at most one entry per bill) */
  private readonly facts = new Map<number, FactsEntry>();
  /** what facts read from other bills of their sessions, kept while the data stands (replaced, not cleared: a read under way keeps its own) */
  private peers = new SessionPeers();
  private sessions: { fingerprint: string; facts: SessionFact[] } | null = null;
  private active: { key: string; nowcasts: Promise<PredictionResult[]> } | null = null;
  /** finished imminent lists of the active nowcasts, by window and threshold */
  private imminentLists: { nowcasts: PredictionResult[]; lists: Map<string, ImminentBill[]> } | null = null;
  /** each bill's content hash and introduction date, as of a data state: what a warm nowcast needs without a query */
  private index: { state: string; bills: Map<number, IndexedBill> } | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly models: ModelService,
    private readonly clock: ServiceClock,
  ) {
    models.onSwitch(() => this.cache.clear());
  }

  /** A reference date from a client: today when omitted, never after today. */
  referenceDate(requested: string | null | undefined): string {
    const today = this.clock.today();
    if (!requested) return today;
    if (requested > today) throw badInput(`referenceDate ${requested} is after today (${today}): a nowcast uses facts known on its date`, 'referenceDate');
    return requested;
  }

  /**
   * Nowcasts for bills in the order asked. Each is a result or the error that bill alone has
   * (it does not exist; the date is before it was introduced), so a batch can report per bill.
   * Without `keep`, those computed are not cached: a sweep over past days (the forecasts
   * backfilled) would push out the nowcasts that requests ask for again and again.
   */
  async nowcasts(billIds: readonly number[], referenceDate: string, { keep = true }: { keep?: boolean } = {}): Promise<(PredictionResult | AppError)[]> {
    const model = this.models.provenanceFor(referenceDate);
    const index = await this.billIndex();
    const bills = new Map(billIds.map((id) => [id, index.bills.get(id)]));
    const key = (id: number) => `${model.version}:${id}:${referenceDate}:${bills.get(id)!.contentHash}`;
    const introducedBy = (id: number) => !bills.get(id)!.introducedDate || bills.get(id)!.introducedDate! <= referenceDate;
    const missing = [...new Set(billIds)].filter((id) => bills.get(id) && introducedBy(id) && !this.cache.has(key(id)));
    // Joined, not computed again: the requests a cold cache meets at once (a restarted server
    // whose caches the events refresh, done already for its state, does not fill) would each read
    // the same facts, one query after another on the embedded database's thread.
    const joined = missing.filter((id) => this.computing.has(key(id)));
    const mine = missing.filter((id) => !this.computing.has(key(id)));
    const batch = mine.length ? this.compute(mine, referenceDate, model, index, bills, keep ? key : null) : null;
    for (const id of mine) {
      const one = batch!.then((results) => results.get(id));
      // awaited by whoever joins it; its failure is theirs (and this call's) to report
      one.catch(() => undefined).finally(() => this.computing.get(key(id)) === one && this.computing.delete(key(id)));
      this.computing.set(key(id), one);
    }
    // kept here too: a sync or a new model may empty the cache while the event loop turns
    const computed = new Map<number, PredictionResult | undefined>(await Promise.all(joined.map(async (id) => [id, await this.computing.get(key(id))] as const)));
    for (const [id, result] of (await batch) ?? []) computed.set(id, result);
    return billIds.map((id) => {
      const bill = bills.get(id);
      if (!bill) return notFound(`bill ${id} does not exist`);
      // in plain domain words: this detail also travels inside batch items, where no door renames a field
      if (!introducedBy(id)) return badInput(`bill ${id} was introduced on ${bill.introducedDate}, after the reference date ${referenceDate}`);
      return computed.get(id) ?? this.cache.get(key(id)) ?? notFound(`bill ${id} does not exist`);
    });
  }

  /** The nowcasts of bills none is cached or computing for, kept in the cache as they come. */
  private async compute(
    ids: readonly number[],
    referenceDate: string,
    model: ModelProvenance,
    index: NonNullable<PredictionService['index']>,
    bills: ReadonlyMap<number, IndexedBill | undefined>,
    /** the cache key of each result kept, or null to keep none */
    key: ((id: number) => string) | null,
  ): Promise<Map<number, PredictionResult>> {
    const computed = new Map<number, PredictionResult>();
    const predictor = await this.models.predictorOf(model);
    for (let i = 0; i < ids.length; i += NOWCASTS_PER_TURN) {
      // many bills (the events refresh after a sync, today's active list) are computed a slice at a time, requests answered between
      if (i > 0) await nextTurn();
      const slice = ids.slice(i, i + NOWCASTS_PER_TURN);
      const [facts, sessions] = await Promise.all([this.loadFacts(slice, index), this.sessionFacts()]);
      // the last read's rows were parsed in this turn: the nowcasts get one of their own
      await nextTurn();
      for (const id of slice) {
        const entry = facts.get(id);
        if (!entry) continue;
        const nowcast = withScheduledEta(predictor.nowcast(entry.facts, referenceDate, sessions), entry.sittings);
        const { title, originatingHouse } = bills.get(id)!;
        const result = { ...nowcast, model, billTitle: titleAsOf(title, originatingHouse, nowcast.status === 'enacted'), originatingHouse };
        computed.set(id, result);
        if (key) keepWithin(this.cache, key(id), result, CACHE_LIMIT);
      }
    }
    return computed;
  }

  /**
   * These bills' facts and scheduled sittings, kept in `this.facts`: a bill's are read again only
   * when its content changed (each day's nowcasts, the chart, explanations reuse them). Returned,
   * not only kept: new data may empty `this.facts` while the read is under way.
   */
  private async loadFacts(ids: readonly number[], index: NonNullable<PredictionService['index']>): Promise<Map<number, FactsEntry>> {
    const found = new Map<number, FactsEntry>();
    const stale: number[] = [];
    for (const id of ids) {
      const kept = this.facts.get(id);
      if (!index.bills.has(id)) continue;
      if (kept?.contentHash === index.bills.get(id)!.contentHash) found.set(id, kept);
      else stale.push(id);
    }
    if (!stale.length) return found;
    const [loaded, sittings] = await Promise.all([loadBillFacts(this.dataSource, stale, this.peers), loadScheduledSittings(this.dataSource, stale)]);
    for (const [id, { bill, facts }] of loaded) {
      const entry = { contentHash: bill.contentHash, facts, sittings: sittings.get(id) ?? [] };
      this.facts.set(id, entry);
      found.set(id, entry);
    }
    return found;
  }

  /**
   * One bill's nowcasts on many dates (its chart over its life), its facts loaded once; dates
   * before its introduction are left out. 404 when the bill does not exist.
   */
  async nowcastsOfBill(billId: number, dates: readonly string[]): Promise<PredictionResult[]> {
    const index = await this.billIndex();
    const bill = index.bills.get(billId);
    if (!bill) throw notFound(`bill ${billId} does not exist`);
    const known = dates.filter((date) => !bill.introducedDate || bill.introducedDate <= date);
    const models = known.map((date) => this.models.provenanceFor(date));
    const key = (i: number) => `${models[i].version}:${billId}:${known[i]}:${bill.contentHash}`;
    const missing = known.flatMap((_, i) => (this.cache.has(key(i)) ? [] : [i]));
    const computed = new Map<string, PredictionResult>();
    if (missing.length) {
      const [facts, sessions, predictors] = await Promise.all([
        this.loadFacts([billId], index),
        this.sessionFacts(),
        Promise.all(missing.map((i) => this.models.predictorOf(models[i]))),
      ]);
      const entry = facts.get(billId);
      if (!entry) throw notFound(`bill ${billId} does not exist`);
      // the chart's dates are not cached: a bill's life holds many, and today's nowcasts matter more
      missing.forEach((i, m) => {
        const model = models[i];
        const nowcast = withScheduledEta(predictors[m].nowcast(entry.facts, known[i], sessions), entry.sittings);
        computed.set(known[i], { ...nowcast, model, billTitle: bill.title, originatingHouse: bill.originatingHouse });
      });
    }
    return known.map((date, i) => this.cache.get(key(i)) ?? computed.get(date)!);
  }

  /** One bill's nowcast, or its error thrown. */
  async nowcast(billId: number, referenceDate: string): Promise<PredictionResult> {
    const [result] = await this.nowcasts([billId], referenceDate);
    if (result instanceof AppError) throw result;
    return result;
  }

  /**
   * Why a bill's nowcast on a date is what it is, from the model that made it. Not cached: only
   * asked for on request, and it runs the networks a few dozen times.
   */
  async explanations(billId: number, referenceDate: string): Promise<Explanations> {
    // the model that made the nowcast explains it
    const { model } = await this.nowcast(billId, referenceDate);
    const [predictor, facts, sessions] = await Promise.all([this.models.predictorOf(model), this.loadFacts([billId], await this.billIndex()), this.sessionFacts()]);
    const entry = facts.get(billId);
    if (!entry) throw notFound(`bill ${billId} does not exist`);
    return predictor.explain(entry.facts, referenceDate, sessions);
  }

  /**
   * Today's nowcasts of every bill still live, computed once per (model version, data state, day)
   * and shared: what the list of imminent bills filters, so a request does no model work.
   */
  async activeNowcasts(): Promise<PredictionResult[]> {
    const today = this.clock.today();
    const index = await this.billIndex();
    const key = `${this.models.provenanceFor(today).version}:${index.state}:${today}`;
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

  /** How many bills today's active nowcasts hold, when they have been computed (the imminent list holds at most these); null before. */
  async liveBillCount(): Promise<number | null> {
    const active = this.active;
    return active ? (await active.nowcasts.catch(() => null))?.length ?? null : null;
  }

  /**
   * The imminent list (see imminentBills) of today's active nowcasts, built once per window and
   * threshold for as long as those nowcasts stand (model version, data state, day).
   */
  async imminent(daysAhead: number, minProbability: number): Promise<ImminentBill[]> {
    const nowcasts = await this.activeNowcasts();
    if (this.imminentLists?.nowcasts !== nowcasts) this.imminentLists = { nowcasts, lists: new Map() };
    const { lists } = this.imminentLists;
    const key = `${daysAhead}:${minProbability}`;
    let list = lists.get(key);
    if (!list) {
      list = imminentBills(nowcasts, this.clock.today(), daysAhead, minProbability);
      // thresholds are the client's to choose: a bounded number of lists is kept
      if (lists.size >= 200) lists.clear();
      lists.set(key, list);
    }
    return list;
  }

  /**
   * What a nowcast depends on besides its bill and reference date: the model versions stored (the
   * serving one and those answering past dates) and the data state (the last completed sync). An answer computed from nowcasts stays right for as
   * long as this is unchanged (and today too, when it defaults to today); null until both are known.
   */
  async servingState(): Promise<string | null> {
    const active = this.models.activeVersion();
    return active ? `models ${this.models.modelsState()}, data ${(this.index ?? (await this.billIndex())).state}` : null;
  }

  /**
   * Notices new data (a completed sync, here or in another process) and rebuilds the bill index.
   * The server calls it after each sync and every few seconds; requests never wait on it.
   * Returns the data state ('' until a sync has completed) and whether it changed.
   */
  async checkDataState(): Promise<{ state: string; changed: boolean }> {
    // the data's fingerprint, not the sync's time: a sync that found nothing new keeps every nowcast
    const [latest] = (await this.dataSource.query(`SELECT data_fingerprint AS state FROM sync_state ORDER BY completed_at DESC LIMIT 1`)) as { state: string }[];
    const state = latest?.state ?? '';
    if (this.index?.state === state) return { state, changed: false };
    const bills = new Map<number, IndexedBill>();
    type Row = { id: number; content_hash: string; introduced_date: string | null; title: string; originating_house: string };
    await readInPages<Row>(this.dataSource, 'bill', 'id, content_hash, introduced_date, title, originating_house', (rows) => {
      for (const r of rows) bills.set(r.id, { contentHash: r.content_hash, introducedDate: r.introduced_date, title: r.title, originatingHouse: r.originating_house });
    });
    this.index = { state, bills };
    // A bill's facts also read other bills (its place in the ballot among its session's): new data
    // can change them while its own content stays the same.
    this.facts.clear();
    this.peers = new SessionPeers();
    this.cache.clear();
    return { state, changed: true };
  }

  private async billIndex(): Promise<NonNullable<PredictionService['index']>> {
    if (!this.index) await this.checkDataState();
    return this.index!;
  }

  /** Sessions change only with a sync: reloaded with the bill index's data state. */
  private async sessionFacts(): Promise<SessionFact[]> {
    const { state } = await this.billIndex();
    if (this.sessions?.fingerprint !== state) this.sessions = { fingerprint: state, facts: await loadSessionFacts(this.dataSource) };
    return this.sessions.facts;
  }
}
